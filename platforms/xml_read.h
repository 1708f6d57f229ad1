/* Reading SimGrid platform XML (version 4.1) into our machine model, with
 * validation first: SimGrid 3.32 reports platform errors as C++ exceptions
 * a C program cannot catch, so nothing reaches SimGrid unchecked. */
#ifndef PLAT_XML_READ_H
#define PLAT_XML_READ_H

#include "platform.h"

/* Reads path. Validation errors name file:line: unknown elements or
 * attributes, numbers without SimGrid's units (f/Gf..., Bps/GBps/bps...,
 * s/ms/us...), missing required attributes, dangling link references,
 * duplicate ids. Mapped: a platform of one cluster (FLAT, FAT_TREE of
 * k-ary n-tree shape, TORUS), written by platgen or anyone, and platgen's
 * mesh zones and multi-clusters; anything else (DRAGONFLY, other router
 * graphs) is an error naming the element and its line. */
int plat_load(const char *path, struct plat_machine **out, struct cmn_err *e);

/* SimGrid's value syntax: a number with one of the units of `kind`
 * ('f' speed in flop/s, 'b' bandwidth in bytes/s, 't' time in s); the
 * value in base units, or -1 on a syntax error. */
double plat_xml_value(const char *text, char kind);

/* The line of the first <cluster topology="TORUS"> of a (valid) platform
 * without loopback_bw, or 0: SimGrid cannot route such a cluster's host to
 * itself, so a message a rank sends itself would abort the simulation. */
long plat_xml_torus_without_loopback(const char *path);

#endif
