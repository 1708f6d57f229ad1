/* The tools' option helper (options.h). */
#include "options.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

enum { K_HELP = -100, K_VERSION = -101, K_MAN = -102 };

static const struct cmn_opt builtin[] = {{"help", 'h', NULL, "this help"},
                                         {"version", K_VERSION, NULL, "the version"},
                                         {"man", K_MAN, NULL, "this help as a manual page (groff)"},
                                         {NULL, 0, NULL, NULL}};

static int count(const struct cmn_opt *o)
{
	int n = 0;
	while (o && o[n].name)
		n++;
	return n;
}

static int is_section(const struct cmn_opt *o)
{
	return o->key == 0;
}

void cmn_cli_begin(struct cmn_cli_iter *it, const struct cmn_cli *cli, int argc, char **argv)
{
	memset(it, 0, sizeof *it);
	it->cli = cli, it->argc = argc, it->argv = argv, it->first = argc;
	int n = count(cli->opts), nb = count(builtin);
	if (n > CMN_CLI_MAX_OPTS) {
		it->too_many = 1;
		return;
	}
	size_t s = 0, l = 0;
	it->shortopts[s++] = ':'; /* a missing argument is told from an unknown option */
	for (int i = 0; i < n + nb; i++) {
		const struct cmn_opt *o = i < n ? &cli->opts[i] : &builtin[i - n];
		if (is_section(o))
			continue;
		it->longopts[l++] =
		    (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
		                    o->key == 'h' && i >= n ? K_HELP : o->key};
		if (o->key > 0 && o->key < 128) {
			it->shortopts[s++] = (char)o->key;
			if (o->arg)
				it->shortopts[s++] = ':';
		}
	}
	optind = 1;
	opterr = 0;
}

static int usage_verror(const char *tool, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n(try %s --help)\n", tool);
	return 2;
}

int cmn_usage_error(const char *tool, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = usage_verror(tool, fmt, ap);
	va_end(ap);
	return rc;
}

int cmn_cli_usage_error(const struct cmn_cli *cli, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = usage_verror(cli->tool, fmt, ap);
	va_end(ap);
	return rc;
}

int cmn_cli_next(struct cmn_cli_iter *it)
{
	const struct cmn_cli *cli = it->cli;
	if (it->too_many) {
		cmn_cli_usage_error(cli, "the option table lists more than %d options",
		                    CMN_CLI_MAX_OPTS);
		return CMN_CLI_BAD;
	}
	int k = getopt_long(it->argc, it->argv, it->shortopts, it->longopts, NULL);
	it->arg = optarg;
	if (k == -1) {
		it->first = optind;
		return 0;
	}
	if (k == 'h' || k == K_HELP) {
		cmn_cli_help(cli, stdout);
		return CMN_CLI_HELP;
	}
	if (k == K_VERSION) {
		printf("%s %s\n", cli->tool, PROJECT_VERSION);
		return CMN_CLI_HELP;
	}
	if (k == K_MAN) {
		cmn_cli_man(cli, stdout);
		return CMN_CLI_HELP;
	}
	if (k == '?' || k == ':') {
		const char *bad = it->argv[optind - 1];
		if (k == ':')
			cmn_cli_usage_error(cli, "option '%s' needs an argument", bad);
		else
			cmn_cli_usage_error(cli, "unknown option '%s'", bad);
		return CMN_CLI_BAD;
	}
	/* one value an option: a second would silently replace the first */
	for (int i = 0; cli->opts && cli->opts[i].name; i++) {
		const struct cmn_opt *o = &cli->opts[i];
		if (is_section(o) || o->key != k)
			continue;
		int repeat = 0;
		for (const char *const *r = cli->repeatable; r && *r && !repeat; r++)
			repeat = strcmp(*r, o->name) == 0;
		if (o->arg && !repeat && it->seen[i]++) {
			cmn_cli_usage_error(cli, "--%s given twice (it takes one value)", o->name);
			return CMN_CLI_BAD;
		}
		break;
	}
	return k;
}

/* One option's help line(s): "  -L, --name ARG" padded to 24 columns. */
static void option_help(FILE *f, const struct cmn_opt *o)
{
	char head[128];
	int n = o->key > 0 && o->key < 128
	            ? snprintf(head, sizeof head, "  -%c, --%s", o->key, o->name)
	            : snprintf(head, sizeof head, "  --%s", o->name);
	if (o->arg && n < (int)sizeof head)
		snprintf(head + n, sizeof head - (size_t)n, " %s", o->arg);
	fputs(head, f);
	int col = (int)strlen(head);
	const char *h = o->help ? o->help : "";
	for (int line = 0; *h || line == 0; line++) {
		const char *nl = strchr(h, '\n');
		int len = nl ? (int)(nl - h) : (int)strlen(h);
		if (line > 0 || col >= 23) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s%.*s", 24 - col, "", len, h);
		col = 24;
		h += len + (nl ? 1 : 0);
		if (!nl)
			break;
	}
	fputc('\n', f);
}

void cmn_cli_help(const struct cmn_cli *cli, FILE *f)
{
	fputs(cli->usage, f);
	if (cli->about)
		fprintf(f, "\n%s", cli->about);
	fputc('\n', f);
	if (!cli->opts || !cli->opts[0].name || !is_section(&cli->opts[0]))
		fputs("options:\n", f);
	for (const struct cmn_opt *o = cli->opts; o && o->name; o++)
		if (is_section(o))
			fprintf(f, "%s:\n", o->name);
		else
			option_help(f, o);
	for (const struct cmn_opt *o = builtin; o->name; o++)
		option_help(f, o);
	if (cli->more) {
		fputc('\n', f);
		cli->more(f, cli->ctx);
	}
}

/* Text for groff: backslashes escaped, '-' as \-, a line starting with '.'
 * or '\'' guarded; lines kept (bold: the whole text in \fB..\fR). */
static void man_text(FILE *f, const char *t, size_t n, int bold)
{
	int bol = 1;
	if (bold)
		fputs("\\fB", f);
	for (size_t i = 0; i < n && t[i]; i++) {
		char c = t[i];
		if (bol && (c == '.' || c == '\''))
			fputs("\\&", f);
		if (c == '\\')
			fputs("\\e", f);
		else if (c == '-')
			fputs("\\-", f);
		else
			fputc(c, f);
		bol = c == '\n';
	}
	if (bold)
		fputs("\\fR", f);
}

/* A stream's text (what more writes) into a buffer; NULL when none. */
static char *captured(const struct cmn_cli *cli, size_t *len)
{
	char *buf = NULL;
	*len = 0;
	FILE *m = cli->more ? open_memstream(&buf, len) : NULL;
	if (!m)
		return NULL;
	cli->more(m, cli->ctx);
	fclose(m);
	return buf;
}

void cmn_cli_man(const struct cmn_cli *cli, FILE *f)
{
	fprintf(f, ".TH %s 1 \"\" \"placesim %s\" \"User Commands\"\n.SH NAME\n", cli->tool,
	        PROJECT_VERSION);
	man_text(f, cli->tool, strlen(cli->tool), 0);
	fputs(" \\- ", f);
	const char *about = cli->about ? cli->about : "";
	size_t first = 0; /* the first sentence (to ". " or ".\n"), on one line */
	while (about[first] &&
	       !(about[first] == '.' &&
	         (!about[first + 1] || about[first + 1] == ' ' || about[first + 1] == '\n')))
		first++;
	char *name = strndup(about, first);
	for (char *p = name; p && *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (name)
		man_text(f, name, strlen(name), 0);
	free(name);
	fputs("\n.SH SYNOPSIS\n.nf\n", f);
	for (const char *u = cli->usage; *u;) { /* "usage: " and its indent dropped */
		size_t n = strcspn(u, "\n");
		const char *l = u;
		if (!strncmp(l, "usage: ", 7))
			l += 7;
		else
			while (l < u + n && *l == ' ')
				l++;
		man_text(f, l, (size_t)(u + n - l), 0);
		fputc('\n', f);
		u += n + (u[n] == '\n');
	}
	fputs(".fi\n.SH DESCRIPTION\n", f);
	man_text(f, about, strlen(about), 0);
	fputs("\n.SH OPTIONS\n", f);
	const struct cmn_opt *lists[] = {cli->opts, builtin};
	for (int t = 0; t < 2; t++)
		for (const struct cmn_opt *o = lists[t]; o && o->name; o++) {
			if (is_section(o)) {
				fputs(".SS ", f);
				man_text(f, o->name, strlen(o->name), 0);
				fputc('\n', f);
				continue;
			}
			fputs(".TP\n", f);
			if (o->key > 0 && o->key < 128)
				fprintf(f, "\\fB\\-%c\\fR, ", o->key);
			fputs("\\fB\\-\\-", f);
			man_text(f, o->name, strlen(o->name), 0);
			fputs("\\fR", f);
			if (o->arg) {
				fputs(" \\fI", f);
				man_text(f, o->arg, strlen(o->arg), 0);
				fputs("\\fR", f);
			}
			fputc('\n', f);
			char *h =
			    strdup(o->help ? o->help : ""); /* one paragraph: groff fills it */
			for (char *p = h; p && *p; p++)
				if (*p == '\n')
					*p = ' ';
			if (h)
				man_text(f, h, strlen(h), 0);
			free(h);
			fputc('\n', f);
		}
	size_t len;
	char *more = captured(cli, &len);
	if (more && len) {
		fputs(".SH DETAILS\n.nf\n", f);
		man_text(f, more, len, 0);
		fputs(".fi\n", f);
	}
	free(more);
}