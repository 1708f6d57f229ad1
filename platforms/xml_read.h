/* Reading SimGrid platform XML (version 4.1) into our machine model, with
 * validation first: SimGrid 3.32 reports platform errors as C++ exceptions
 * a C program cannot catch, so nothing reaches SimGrid unchecked. */
#ifndef PLAT_XML_READ_H
#define PLAT_XML_READ_H

#include "platform.h"

/* Reads path. Refused, with FILE:LINE: error: and nothing on stderr:
 * everything SimGrid 3.32 would abort on when netsim hands it the same
 * file (its prolog, DTD order, attributes, units, names, clusters, routes,
 * a route between every two hosts), what has no counterpart here (README
 * lists it), and platforms past the limits of xml_internal.h. A missing or
 * unreadable file, a directory or an empty file: FILE: error: (CMN_EIO,
 * CMN_EINPUT). Mapped: a platform of one cluster (FLAT, FAT_TREE of k-ary
 * n-tree shape, TORUS), written by platgen or anyone, and platgen's mesh
 * zones and multi-clusters; anything else (DRAGONFLY, other router graphs)
 * is an error naming the element and its line. */
int plat_load(const char *path, struct plat_machine **out, struct cmn_err *e);
/* The same with at most max_nodes hosts (plat_machine_create_max): the
 * fuzz harness's platforms stay small. */
int plat_load_max(const char *path, int max_nodes, struct plat_machine **out, struct cmn_err *e);

/* A platform file as read: valid for SimGrid (everything plat_load checks
 * before mapping), its hosts in document order (a cluster's in its
 * radical's order) as SimGrid names them, and the machine when the file
 * maps to a family (node i = host i; its source_xml and host_names set),
 * else m = NULL and why says why (FILE:LINE: error: ...). */
struct plat_file {
	char **hosts;
	long nhosts;
	struct plat_machine *m;
	struct cmn_err why;
};
/* 0 (with m or why), or the error that makes the file invalid. */
int plat_file_read(const char *path, int max_nodes, struct plat_file *f, struct cmn_err *e);
void plat_file_free(struct plat_file *f);
void plat_xml_free_names(char **names, long n);

/* SimGrid's value syntax: a number with one of SimGrid's units of `kind`
 * ('f' speed in flop/s: f, kf..Yf, flops, kiloflops..yottaflops; 'b'
 * bandwidth in bytes/s: Bps or bps with k..Y or Ki..Yi; 't' time in s:
 * w d h m s ms us ns ps) or none (the base unit); the value in base units,
 * or -1 on a syntax error or a negative or infinite value. */
double plat_xml_value(const char *text, char kind);
/* The bounds a value must keep (README): a rate (speed, bandwidth, a
 * profile's speed or bandwidth) of at least 1e-12 per second, so that one
 * flop or byte takes at most 10^12 s, the longest time the tools take; a
 * time (latency) of at most 10^12 s. SimGrid aborts, or its clock becomes
 * infinite, beyond them. */
#define PLAT_XML_MIN_RATE 1e-12
#define PLAT_XML_MAX_TIME 1e12
/* Whether x (plat_xml_value's) is a valid value of kind. */
int plat_xml_value_ok(double x, char kind);

/* A copy of platform path (valid) whose zones routed by Dijkstra are
 * routed by DijkstraCache (SimGrid's same search, each source's tree
 * kept), written to a new temporary file (common/cleanup.h: registered; the
 * caller removes it with cmn_cleanup_remove) whose name goes to out: 1, or 0 when the file has no
 * such zone or the copy could not be made (path is then to be used as it is). */
int plat_xml_dijkstra_cached(const char *path, char *out, size_t len);

/* The line of the first <cluster topology="TORUS"> of a (valid) platform
 * without loopback_bw, or 0: SimGrid cannot route such a cluster's host to
 * itself, so a message a rank sends itself would abort the simulation. */
long plat_xml_torus_without_loopback(const char *path);

#endif
