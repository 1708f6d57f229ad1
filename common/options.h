/* The tools' one option helper, on getopt_long: a tool lists its options
 * once (name, short letter, argument, help) and gets from here the parsing,
 * its --help text, -h, --version and the usage error line, the same in
 * every tool:
 *
 *     struct cmn_cli_iter it;
 *     cmn_cli_begin(&it, &cli, argc, argv);
 *     int k;
 *     while ((k = cmn_cli_next(&it)) > 0)
 *         switch (k) { case 'o': out = it.arg; break; ... }
 *     if (k < 0)
 *         return cmn_cli_status(k);   // help or version printed: 0; a bad option: 2
 *     // operands: argv[it.first .. argc)
 */
#ifndef CMN_OPTIONS_H
#define CMN_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

struct cmn_opt {
	const char *name; /* the long name, without "--" */
	int key;          /* what cmn_cli_next returns for it: its short letter (also
	                     accepted as -L), or a number from 256 */
	const char *arg;  /* the argument's name in the help; NULL: it takes none */
	const char *help; /* its help; '\n' starts a continuation line */
};

/* A heading in the help ("input:"), between options: key 0, no argument. */
#define CMN_OPT_SECTION(title)                                                                     \
	{                                                                                          \
		title, 0, NULL, NULL                                                               \
	}

struct cmn_cli {
	const char *tool;           /* "platgen" */
	const char *usage;          /* the "usage: ..." lines, each ending in '\n' */
	const char *about;          /* a paragraph after them (NULL: none) */
	const struct cmn_opt *opts; /* ended by {NULL}; -h/--help and --version come on top;
	                               without a CMN_OPT_SECTION first, under "options:" */
	void (*more)(FILE *f, const void *ctx); /* optional: what --help prints after the
	                                           options */
	const void *ctx;                        /* more's */
	const char *const *repeatable;          /* options with an argument that may be given more
	                                           than once (NULL-ended; NULL: none): any other
	                                           given twice is a usage error */
};

enum { CMN_CLI_HELP = -1, CMN_CLI_BAD = -2 };

/* The most options a tool's table may list (a longer one is refused at
 * its first cmn_cli_next, as a bug of the tool). */
#define CMN_CLI_MAX_OPTS 64

/* No memory of its own: a tool may return in the middle of its loop. */
struct cmn_cli_iter {
	const struct cmn_cli *cli;
	int argc;
	char **argv;
	const char *arg; /* the current option's argument */
	int first;       /* after the last option: the index of the first operand */
	int too_many;    /* the table lists more than CMN_CLI_MAX_OPTS options */
	struct option longopts[CMN_CLI_MAX_OPTS + 3];
	unsigned char seen[CMN_CLI_MAX_OPTS]; /* the table's options given so far */
	char shortopts[2 * CMN_CLI_MAX_OPTS + 8];
};

void cmn_cli_begin(struct cmn_cli_iter *it, const struct cmn_cli *cli, int argc, char **argv);
/* The next option's key (its argument in it->arg); 0 after the last
 * option (it->first set); CMN_CLI_HELP after printing the help or the
 * version on stdout; CMN_CLI_BAD after printing the usage error of an
 * unknown option or a missing argument on stderr. */
int cmn_cli_next(struct cmn_cli_iter *it);
/* The exit status for cmn_cli_next's negative return: 0 or 2. */
static inline int cmn_cli_status(int k)
{
	return k == CMN_CLI_HELP ? 0 : 2;
}
/* Prints "TOOL: MESSAGE" and the line pointing to --help on stderr;
 * returns 2, the usage error's exit status. */
int cmn_cli_usage_error(const struct cmn_cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same for a tool's part that holds its name but not its table (a
 * run or a mode after parsing). */
int cmn_usage_error(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The help: usage, about, the options (with -h/--help and --version),
 * then more. */
void cmn_cli_help(const struct cmn_cli *cli, FILE *f);
/* The same as a manual page (groff -man): NAME, SYNOPSIS, DESCRIPTION,
 * OPTIONS (the table's headings as subsections), then more; what every
 * tool's --man prints (the build installs them in share/man/man1). */
void cmn_cli_man(const struct cmn_cli *cli, FILE *f);

#endif
