/* The arrays every part of the linkload model has (ll_part.h): its links
 * with their counts, and what a computation keeps of it: its record, from
 * which a fragment's drops are taken out and into which they return. */
#include <stdlib.h>
#include <string.h>

#include "ll_part.h"

int cpl_ll_part_links(struct ll_part *p, int n)
{
	size_t z = (size_t)(n ? n : 1);
	p->nlinks = n;
	p->links = malloc(z * sizeof *p->links);
	p->users = malloc(z * sizeof *p->users);
	p->users0 = malloc(z * sizeof *p->users0);
	p->at = malloc(z * sizeof *p->at);
	return p->links && p->users && p->users0 && p->at ? 0 : -1;
}

void cpl_ll_part_free(struct ll_part *p)
{
	free(p->links), free(p->users), free(p->users0), free(p->at);
	free(p->memb), free(p->bound), free(p->hoff), free(p->hist), free(p->log), free(p->px);
}

/* The first of p's entries on local link x at level, or its end. */
static long first_at(const struct ll_part *p, int x, double level)
{
	long lo = p->hoff[x], hi = p->hoff[x + 1];
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (p->hist[mid].level < level)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long cpl_ll_part_unrecord(struct ll_part *p, const struct ll_part *f, const struct ll_moved *m,
                          long n)
{
	long missing = 0;
	for (long i = 0; i < n; i++) {
		int y = f->px[m[i].x];
		long c = m[i].n;
		for (long k = p->hoff ? first_at(p, y, m[i].level) : 0;
		     c > 0 && p->hoff && k < p->hoff[y + 1] && p->hist[k].level == m[i].level;
		     k++) {
			long take = labs(p->hist[k].by) < c ? labs(p->hist[k].by) : c;
			p->hist[k].by += p->hist[k].by < 0 ? take : -take;
			c -= take;
		}
		missing += c;
	}
	return missing;
}

static int cmp_drop(const void *a, const void *b)
{
	double x = ((const struct ll_drop *)a)->level, y = ((const struct ll_drop *)b)->level;
	return (x > y) - (x < y);
}

int cpl_ll_part_rejoin_records(struct ll_part *p)
{
	long *cnt = calloc((size_t)p->nlinks + 1, sizeof *cnt), n = 0;
	unsigned char *mixed = calloc((size_t)(p->nlinks ? p->nlinks : 1), 1);
	if (!cnt || !mixed) {
		free(cnt), free(mixed);
		return -1;
	}
	for (int x = 0; p->hoff && x < p->nlinks; x++)
		for (long i = p->hoff[x]; i < p->hoff[x + 1]; i++)
			cnt[x + 1] += p->hist[i].by != 0;
	for (const struct ll_part *f = p->frags; f; f = f->next)
		for (int x = 0; f->hoff && x < f->nlinks; x++) {
			cnt[f->px[x] + 1] += f->hoff[x + 1] - f->hoff[x];
			mixed[f->px[x]] |= f->hoff[x + 1] > f->hoff[x];
		}
	for (int x = 0; x < p->nlinks; x++)
		cnt[x + 1] += cnt[x];
	n = cnt[p->nlinks];
	struct ll_drop *h = malloc((size_t)(n ? n : 1) * sizeof *h);
	long *at = malloc((size_t)(p->nlinks ? p->nlinks : 1) * sizeof *at);
	if (!h || !at) {
		free(cnt), free(mixed), free(h), free(at);
		return -1;
	}
	for (int x = 0; x < p->nlinks; x++) {
		at[x] = cnt[x];
		for (long i = p->hoff ? p->hoff[x] : 0; p->hoff && i < p->hoff[x + 1]; i++)
			if (p->hist[i].by != 0)
				h[at[x]++] = p->hist[i];
	}
	for (const struct ll_part *f = p->frags; f; f = f->next)
		for (int x = 0; f->hoff && x < f->nlinks; x++)
			for (long i = f->hoff[x]; i < f->hoff[x + 1]; i++)
				h[at[f->px[x]]++] = f->hist[i];
	/* the links with fragments' drops: by level, one entry per level */
	long w = 0;
	for (int x = 0; x < p->nlinks; x++) {
		long b = cnt[x], e = cnt[x + 1];
		cnt[x] = w;
		if (!mixed[x]) {
			memmove(h + w, h + b, (size_t)(e - b) * sizeof *h);
			w += e - b;
			continue;
		}
		qsort(h + b, (size_t)(e - b), sizeof *h, cmp_drop);
		for (long i = b; i < e;) {
			struct ll_drop d = {h[i].level, 0};
			int fill = 0;
			for (; i < e && h[i].level == d.level; i++) {
				d.by += labs(h[i].by);
				fill |= h[i].by < 0;
			}
			d.by = fill ? -d.by : d.by;
			h[w++] = d;
		}
	}
	cnt[p->nlinks] = w;
	free(p->hoff), free(p->hist), free(mixed), free(at);
	p->hoff = cnt;
	p->hist = h;
	return 0;
}
