/* Writing gnuplot scripts (gnuplot.h). */
#include "gnuplot.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"

void cmn_gp_str(FILE *g, const char *v)
{
	fputc('"', g);
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(g, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f) /* a newline in a folder's name, ... */
			fprintf(g, "\\%03o", *c);
		else
			fputc(*c, g);
	}
	fputc('"', g);
}

int cmn_gp_run(const char *script, const char *shown, struct cmn_err *e)
{
	fflush(NULL);
	pid_t pid = cmn_cleanup_fork(); /* a signal that stops us stops it */
	if (pid < 0)
		return cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot: %s", shown,
		                   strerror(errno));
	if (pid == 0) { /* no shell between: any name is an argument as it is */
		dup2(2, 1);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			cmn_cleanup_child_gone(pid);
			return cmn_err_set(e, CMN_EIO, "%s: gnuplot: %s", shown, strerror(errno));
		}
	cmn_cleanup_child_gone(pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot (is gnuplot-nox installed?)",
		                   shown);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return cmn_err_set(e, CMN_EIO, "%s: gnuplot failed (its messages above)", shown);
	return 0;
}

FILE *cmn_gp_png_open(struct cmn_outfile *of, const char *png, int width, int height,
                      struct cmn_err *e)
{
	if (cmn_outfile_reserve(of, png, e))
		return NULL;
	FILE *g = popen("gnuplot 1>&2", "w");
	if (!g) {
		cmn_outfile_abort(of);
		cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot", png);
		return NULL;
	}
	fprintf(g, "set terminal pngcairo noenhanced size %d,%d font ',10'\nset output ", width,
	        height);
	cmn_gp_str(g, of->tmp);
	fprintf(g, "\n");
	return g;
}

int cmn_gp_png_close(FILE *g, struct cmn_outfile *of, const char *png, struct cmn_err *e)
{
	if (pclose(g) != 0) {
		cmn_outfile_abort(of);
		return cmn_err_set(e, CMN_EIO, "%s: gnuplot failed (is gnuplot-nox installed?)",
		                   png);
	}
	return cmn_outfile_commit(of, e);
}
