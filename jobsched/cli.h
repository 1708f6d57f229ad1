/* The scheduling simulator's command line (jobsched's, and cosim's with the
 * coupling layer's run-time models added): parses argv, runs, prints errors
 * prefixed with prog; returns the exit status. */
#ifndef JS_CLI_H
#define JS_CLI_H

#include "runtime.h"

int js_cli_main(int argc, char **argv, const char *prog,
                const struct js_runtime_ops *const *runtimes);

#endif
