/* The text of a run's result (struct js_sim_result's text arena): each
 * job's allocated_resources ("0-3 8") and its sizes, stored once and
 * referred to by offset. */
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

static int text_reserve(struct js_sim_result *r, size_t more)
{
	if (r->text_len + more <= r->text_cap)
		return 0;
	size_t cap = r->text_cap ? r->text_cap : 1 << 16;
	while (cap < r->text_len + more)
		cap *= 2;
	char *t = realloc(r->text, cap);
	if (!t)
		return -1;
	r->text = t;
	r->text_cap = cap;
	return 0;
}

/* Writes x in decimal at p; returns the end. */
static char *put_int(char *p, int x)
{
	char tmp[12];
	int n = 0;
	unsigned u = (unsigned)x;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Appends a node set kept as runs, "0-3 8". */
int js_sim_text_runs(struct js_sim_result *r, const struct plat_run *runs, int nr, size_t *off)
{
	if (text_reserve(r, (size_t)nr * 24 + 1))
		return -1;
	char *p = r->text + r->text_len;
	for (int i = 0; i < nr; i++) {
		if (i)
			*p++ = ' ';
		p = put_int(p, runs[i].first);
		if (runs[i].last > runs[i].first) {
			*p++ = '-';
			p = put_int(p, runs[i].last);
		}
	}
	*off = r->text_len;
	*p++ = '\0';
	r->text_len = (size_t)(p - r->text);
	return 0;
}

static int cmp_run(const void *a, const void *b)
{
	int x = ((const struct plat_run *)a)->first, y = ((const struct plat_run *)b)->first;
	return (x > y) - (x < y);
}

/* Appends distinct nodes in any order as runs, through runbuf (room for
 * n): each increasing stretch cut into runs by galloping, the runs sorted
 * and those that touch joined (a co-allocated job is a few stretches: no
 * sort of its nodes). */
int js_sim_text_nodes(struct js_sim_result *r, const int *nodes, int n, struct plat_run *runbuf,
                      size_t *off)
{
	int nr = 0, stretches = 0;
	for (int i = 0; i < n; stretches++) {
		int end = i + 1;
		while (end < n && nodes[end] > nodes[end - 1])
			end++;
		for (; i < end; i++) {
			int k = i + plat_nodes_run_end(nodes + i, end - i, 0);
			runbuf[nr++] = (struct plat_run){nodes[i], nodes[k]};
			i = k;
		}
	}
	if (stretches > 1) {
		qsort(runbuf, (size_t)nr, sizeof *runbuf, cmp_run);
		int m = 0;
		for (int k = 1; k < nr; k++)
			if (runbuf[k].first == runbuf[m].last + 1)
				runbuf[m].last = runbuf[k].last;
			else
				runbuf[++m] = runbuf[k];
		nr = nr ? m + 1 : 0;
	}
	return js_sim_text_runs(r, runbuf, nr, off);
}

int js_sim_text_append(struct js_sim_result *r, const char *txt, size_t *off)
{
	size_t n = strlen(txt) + 1;
	if (text_reserve(r, n))
		return -1;
	*off = r->text_len;
	memcpy(r->text + r->text_len, txt, n);
	r->text_len += n;
	return 0;
}
