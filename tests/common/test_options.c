/* The option helper (common/options.h): keys and arguments of long and short
 * options, operands after them, -h and --help, an unknown option and a
 * missing argument as usage errors, an option of one value given twice
 * too, and the help's layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/options.h"
#include "../helpers.h"

enum { O_LONG = 256, O_FLAG };

static const struct cmn_opt opts[] = {{"long", O_LONG, "X", "an option with an argument"},
                                      {"flag", O_FLAG, NULL, "a flag"},
                                      {"out", 'o', "FILE", "first line\nsecond line"},
                                      {NULL, 0, NULL, NULL}};

static const char *const repeatable[] = {"out", NULL};

static const struct cmn_cli cli = {
    "tool", "usage: tool [options] OPERAND\n", "About.\n", opts, NULL, NULL, repeatable};

/* Parses args (a NULL-terminated list after the tool's name): the keys
 * into keys (0-terminated), their arguments joined into args, the first
 * operand's index; returns the last cmn_cli_next value. */
static int parse(const char *const *args, int *keys, char *joined, int *first)
{
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"tool";
	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	argv[argc] = NULL;
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &cli, argc, argv);
	int k, n = 0;
	joined[0] = '\0';
	while ((k = cmn_cli_next(&it)) > 0) {
		keys[n++] = k;
		if (it.arg) {
			strcat(joined, it.arg);
			strcat(joined, ";");
		}
	}
	keys[n] = 0;
	*first = it.first;
	return k;
}

static void test_parse(void)
{
	int keys[16], first;
	char joined[256];
	const char *a1[] = {"--long", "v1", "-o", "f", "--flag", "--out=g", "x", "y", NULL};
	CU_ASSERT_EQUAL(parse(a1, keys, joined, &first), 0);
	CU_ASSERT(keys[0] == O_LONG && keys[1] == 'o' && keys[2] == O_FLAG && keys[3] == 'o' &&
	          keys[4] == 0);
	CU_ASSERT_STRING_EQUAL(joined, "v1;f;g;");
	CU_ASSERT_EQUAL(first, 7); /* "x" */
	/* an option with one value given twice: a usage error (the second would
	 * silently replace the first); a flag twice, or a repeatable one: fine */
	const char *twice[] = {"--long", "a", "--long=b", NULL};
	CU_ASSERT_EQUAL(parse(twice, keys, joined, &first), CMN_CLI_BAD);
	const char *flags[] = {"--flag", "--flag", "-o", "a", "-o", "b", NULL};
	CU_ASSERT_EQUAL(parse(flags, keys, joined, &first), 0);
	CU_ASSERT_STRING_EQUAL(joined, "a;b;");
	const char *a2[] = {"--nope", NULL};
	CU_ASSERT_EQUAL(parse(a2, keys, joined, &first), CMN_CLI_BAD);
	const char *a3[] = {"--long", NULL};
	CU_ASSERT_EQUAL(parse(a3, keys, joined, &first), CMN_CLI_BAD);
	const char *a4[] = {"-q", NULL};
	CU_ASSERT_EQUAL(parse(a4, keys, joined, &first), CMN_CLI_BAD);
	CU_ASSERT_EQUAL(cmn_cli_status(CMN_CLI_BAD), 2);
	CU_ASSERT_EQUAL(cmn_cli_status(CMN_CLI_HELP), 0);
}

static void write_help(FILE *f, const void *c)
{
	cmn_cli_help(c, f);
}

static void write_man(FILE *f, const void *c)
{
	cmn_cli_man(c, f);
}

/* The help of c as a string (the caller frees it), or NULL. */
static char *help_of(const struct cmn_cli *c)
{
	return th_capture(write_help, c);
}

static void test_help(void)
{
	char *h = help_of(&cli);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "usage: tool [options] OPERAND\n\nAbout.\n\noptions:\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n  --long X              an option with an argument\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n  -o, --out FILE        first line\n"
	                                 "                        second line\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n  -h, --help            this help\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(h, "\n  --version             the version\n"));
	free(h);
}

/* Headings: printed as "title:" in their place, "options:" only when the
 * table does not start with one; never an option; more gets its context. */
static const struct cmn_opt sectioned[] = {CMN_OPT_SECTION("input"),
                                           {"in", 'i', "FILE", "the input"},
                                           CMN_OPT_SECTION("output"),
                                           {"out", 'o', "FILE", "the output"},
                                           {NULL, 0, NULL, NULL}};

static void more(FILE *f, const void *ctx)
{
	fprintf(f, "more: %s\n", (const char *)ctx);
}

static void test_sections(void)
{
	const struct cmn_cli sc = {"tool", "usage: tool\n", NULL, sectioned, more, "context", NULL};
	char *h = help_of(&sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_STRING_EQUAL(h, "usage: tool\n\ninput:\n"
	                          "  -i, --in FILE         the input\n"
	                          "output:\n"
	                          "  -o, --out FILE        the output\n"
	                          "  -h, --help            this help\n"
	                          "  --version             the version\n"
	                          "  --man                 this help as a manual page (groff)\n"
	                          "\nmore: context\n");
	free(h);
	char *argv[] = {"tool", "-i", "a", "--input", NULL};
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &sc, 4, argv);
	CU_ASSERT_EQUAL(cmn_cli_next(&it), 'i');
	FILE *saved = stderr; /* the usage error's line is expected */
	stderr = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(cmn_cli_next(&it), CMN_CLI_BAD); /* a heading is no option */
	fclose(stderr);
	stderr = saved;
}

/* The manual page: NAME from the about's first sentence, SYNOPSIS without
 * "usage: ", headings as subsections, dashes escaped, more under DETAILS. */
static void test_man(void)
{
	const struct cmn_cli sc = {"tool",
	                           "usage: tool -i FILE\n       tool --x\n",
	                           "Does a thing. More text.\n",
	                           sectioned,
	                           more,
	                           "context",
	                           NULL};
	char *m = th_capture(write_man, &sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(strncmp(m, ".TH tool 1 ", 11), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m, ".SH NAME\ntool \\- Does a thing\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, ".SH SYNOPSIS\n.nf\ntool \\-i FILE\ntool \\-\\-x\n.fi\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(m, ".SS input\n.TP\n\\fB\\-i\\fR, \\fB\\-\\-in\\fR \\fIFILE\\fR\nthe input\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, ".SS output\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "\\fB\\-\\-man\\fR\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, ".SH DETAILS\n.nf\nmore: context\n.fi\n"));
	free(m);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("option helper", NULL, NULL);
	CU_add_test(s, "keys, arguments, operands, errors", test_parse);
	CU_add_test(s, "the help's layout", test_help);
	CU_add_test(s, "headings and more's context", test_sections);
	CU_add_test(s, "the manual page", test_man);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
