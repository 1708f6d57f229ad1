/* Any SimGrid platform as a machine (netsim.h, net_platform_load). A file
 * that maps onto one of our families (platgen's, and clusters written by
 * anyone) is that family's machine; any other platform SimGrid loads, or
 * any platform with a --hosts list, becomes a routes machine
 * (platform.h): a child process loads the file into SimGrid and asks it,
 * host pair by host pair, for the links of each route, with every link's
 * bandwidth and latency and every host's speed; the parent builds the
 * machine from what the child writes to a pipe. SimGrid stays out of the
 * calling process (it allows one platform per process, which the engines
 * load later), and a file SimGrid aborts on ends only the child. */
#include <errno.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dynar.h>

#include "../../common/cleanup.h"
#include "../../platforms/xml_read.h"
#include "../netsim.h"
#include "sg_platform.h"

/* --- the host list --- */

struct named {
	const char *name;
	long idx;
};

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

/* The next name of a --hosts list (',' separated, or one per line of
 * @FILE's text, '#' starting a comment) from *p into buf: 1, or 0 at the
 * end. In a list every comma separates two names, so a trailing or doubled
 * comma gives an empty name (*p becomes NULL after the last). */
static int next_name(const char **p, char *buf, size_t len, int file)
{
	for (;;) {
		const char *s = *p;
		if (!s || (file && !*s))
			return 0;
		size_t n = strcspn(s, file ? "\n" : ",");
		*p = s[n] ? s + n + 1 : file ? s + n : NULL;
		const char *end = s + n;
		if (file) {
			const char *hash = memchr(s, '#', n);
			if (hash)
				end = hash;
		}
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		if (end == s && file)
			continue;
		size_t l = (size_t)(end - s) < len - 1 ? (size_t)(end - s) : len - 1;
		memcpy(buf, s, l);
		buf[l] = '\0';
		return 1;
	}
}

/* The whole of a --hosts @FILE (malloc'ed). */
static char *read_text(const char *path, struct cmn_err *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "--hosts @%s: cannot open: %s", path,
		                   strerror(errno)),
		       NULL;
	size_t n = 0, cap = 4096;
	char *b = malloc(cap);
	for (size_t got; b && (got = fread(b + n, 1, cap - 1 - n, f)) > 0;) {
		n += got;
		if (n == cap - 1) {
			char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!b)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
	if (bad) {
		free(b);
		return cmn_err_set(e, CMN_EIO, "--hosts @%s: cannot read", path), NULL;
	}
	b[n] = '\0';
	return b;
}

/* The file's host indices of the nodes into *idx (*n of them): the --hosts
 * list's, or every host in document order. */
static int pick_hosts(const struct plat_file *f, const char *path, const char *hosts, long **idx,
                      int *n, struct cmn_err *e)
{
	*idx = NULL;
	*n = 0;
	if (!hosts) {
		if (f->nhosts > PLAT_ROUTES_MAX_NODES)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: %ld hosts, and no machine family here maps the file (%s); a "
			    "platform read through SimGrid's routes has at most %d hosts: give "
			    "a subset with --hosts",
			    path, f->nhosts, f->why.msg, PLAT_ROUTES_MAX_NODES);
		if (!(*idx = malloc((size_t)f->nhosts * sizeof **idx)))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		for (long i = 0; i < f->nhosts; i++)
			(*idx)[i] = i;
		*n = (int)f->nhosts;
		return 0;
	}
	int file = hosts[0] == '@';
	char *text = file ? read_text(hosts + 1, e) : NULL;
	if (file && !text)
		return e->code;
	struct named *sorted = malloc((size_t)f->nhosts * sizeof *sorted);
	long *v = malloc(((size_t)PLAT_ROUTES_MAX_NODES + 1) * sizeof *v);
	char *seen = calloc((size_t)f->nhosts, 1);
	int rc = !sorted || !v || !seen ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
	for (long i = 0; !rc && i < f->nhosts; i++)
		sorted[i] = (struct named){f->hosts[i], i};
	if (!rc)
		qsort(sorted, (size_t)f->nhosts, sizeof *sorted, cmp_named);
	const char *p = file ? text : *hosts ? hosts : NULL; /* "": none listed */
	char name[512];
	long k = 0, item = 0;
	while (!rc && next_name(&p, name, sizeof name, file)) {
		item++;
		struct named key = {name, 0}, *hit = bsearch(&key, sorted, (size_t)f->nhosts,
		                                             sizeof *sorted, cmp_named);
		if (!*name)
			rc = cmn_err_set(
			    e, CMN_EUSAGE,
			    "--hosts: host %ld is empty (a trailing or doubled comma?)", item);
		else if (!hit)
			rc = cmn_err_set(e, CMN_EUSAGE, "--hosts: %s has no host \"%s\" (item %ld)",
			                 path, name, item);
		else if (seen[hit->idx])
			rc =
			    cmn_err_set(e, CMN_EUSAGE,
			                "--hosts: host \"%s\" listed twice (item %ld)", name, item);
		else if (k == PLAT_ROUTES_MAX_NODES)
			rc =
			    cmn_err_set(e, CMN_EUSAGE,
			                "--hosts: more than %d hosts (the limit of a platform read "
			                "through SimGrid's routes)",
			                PLAT_ROUTES_MAX_NODES);
		else {
			seen[hit->idx] = 1;
			v[k++] = hit->idx;
		}
	}
	if (!rc && k == 0)
		rc = cmn_err_set(e, CMN_EUSAGE, "--hosts: no host listed");
	free(sorted);
	free(seen);
	free(text);
	if (rc) {
		free(v);
		return rc;
	}
	*idx = v;
	*n = (int)k;
	return 0;
}

/* --- the child: SimGrid's answers on a pipe --- */

static int put(FILE *o, const void *p, size_t n)
{
	return fwrite(p, 1, n, o) == n ? 0 : -1;
}

/* A SimGrid link and its index in sg_link_list(), sorted by address. */
struct link_at {
	uintptr_t link;
	int idx;
};

static int cmp_link(const void *a, const void *b)
{
	uintptr_t x = ((const struct link_at *)a)->link, y = ((const struct link_at *)b)->link;
	return (x > y) - (x < y);
}

/* In the child: loads the platform and writes the links (count, then
 * bandwidth, latency and shared-ness each), the hosts' speeds and cores,
 * and for each ordered pair of nodes its route's link count and ids. */
static int child(const char *path, char *const *names, int n, FILE *o)
{
	char *argv[] = {"netsim", "--log=root.thres:error", NULL};
	int argc = 2;
	simgrid_init(&argc, argv);
	simgrid_load_platform(path);
	simgrid_run(); /* seals the platform */
	int nl = (int)sg_link_count();
	sg_link_t *all = sg_link_list();
	struct link_at *byptr = malloc(((size_t)nl + 1) * sizeof *byptr);
	sg_host_t *h = malloc((size_t)n * sizeof *h);
	if (!byptr || !h)
		return 3;
	for (int l = 0; l < nl; l++)
		byptr[l] = (struct link_at){(uintptr_t)all[l], l};
	qsort(byptr, (size_t)nl, sizeof *byptr, cmp_link);
	if (put(o, &nl, sizeof nl))
		return 4;
	for (int l = 0; l < nl; l++) {
		double v[3] = {sg_link_get_bandwidth(all[l]), sg_link_get_latency(all[l]),
		               sg_link_is_shared(all[l])};
		if (put(o, v, sizeof v))
			return 4;
	}
	for (int i = 0; i < n; i++) {
		if (!(h[i] = sg_host_by_name(names[i])))
			return 5;
		double v[2] = {sg_host_get_speed(h[i]), sg_host_core_count(h[i])};
		if (put(o, v, sizeof v))
			return 4;
	}
	xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
	int *ids = malloc(((size_t)nl + 1) * sizeof *ids);
	if (!ids)
		return 3;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			int k = 0;
			if (a != b) {
				xbt_dynar_reset(route);
				sg_host_get_route(h[a], h[b], route);
				k = (int)xbt_dynar_length(route);
				/* no route: SimGrid would abort when they talk */
				if (k == 0 && !(sg_host_get_route_latency(h[a], h[b]) > 0)) {
					k = -1;
					if (put(o, &k, sizeof k))
						return 4;
					continue;
				}
				for (int i = 0; i < k; i++) {
					struct link_at key = {
					    (uintptr_t)xbt_dynar_get_as(route, i, sg_link_t), 0};
					struct link_at *hit = bsearch(&key, byptr, (size_t)nl,
					                              sizeof *byptr, cmp_link);
					if (!hit)
						return 6;
					ids[i] = hit->idx;
				}
			}
			if (put(o, &k, sizeof k) || put(o, ids, (size_t)k * sizeof *ids))
				return 4;
		}
	return fflush(o) ? 4 : 0;
}

/* --- the parent --- */

static int get(FILE *in, void *p, size_t n)
{
	return fread(p, 1, n, in) == n ? 0 : -1;
}

/* The routes of the n x n pairs into r; fatpipe[l] becomes 2 where a
 * route crosses a FATPIPE link. */
static int routes_in(FILE *in, int n, int nl, struct plat_routes *r, char *fatpipe,
                     char *const *names, const char *path, struct cmn_err *e)
{
	size_t cap = 1024, used = 0;
	if (!(r->links = malloc(cap * sizeof *r->links)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	r->first[0] = 0;
	for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
		int c;
		if (get(in, &c, sizeof c) || c < -1 || c > nl + 1)
			return -1;
		if (c == -1)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: SimGrid has no route from \"%s\" to \"%s\" (it aborts "
			    "when they communicate)",
			    path, names[k / (size_t)n], names[k % (size_t)n]);
		if (c > PLAT_MAX_ROUTE_LINKS) /* each route below the limit, its zones' chained */
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: SimGrid's route from \"%s\" to \"%s\" crosses %d links through "
			    "its zones; at most %d (SimGrid's time a message grows with the square "
			    "of a route's length: 101 s for one 2-rank cg.S over 4,500 links)",
			    path, names[k / (size_t)n], names[k % (size_t)n], c,
			    PLAT_MAX_ROUTE_LINKS);
		if ((long long)(used + (size_t)c) > PLAT_ROUTES_MAX_HOPS)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: routes of more than %lld links in all (the limit of a "
			    "platform read through SimGrid's routes): give fewer hosts "
			    "with --hosts",
			    path, PLAT_ROUTES_MAX_HOPS);
		while (used + (size_t)c > cap) {
			int *nb = realloc(r->links, (cap *= 2) * sizeof *nb);
			if (!nb)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			r->links = nb;
		}
		if (get(in, r->links + used, (size_t)c * sizeof *r->links))
			return -1;
		for (int i = 0; i < c; i++) {
			int l = r->links[used + (size_t)i];
			if (l < 0 || l >= nl)
				return -1;
			fatpipe[l] += fatpipe[l] == 1;
		}
		used += (size_t)c;
		r->first[k + 1] = (long long)used;
	}
	return 0;
}

/* Reads what the child writes into r (-1: it wrote less or nonsense);
 * limits gets what our own models leave out. */
static int receive(FILE *in, int n, struct plat_routes *r, char *const *names, char *limits,
                   size_t llen, const char *path, struct cmn_err *e)
{
	int nl;
	if (get(in, &nl, sizeof nl) || nl < 0 || nl > PLAT_MAX_LINKS)
		return -1;
	r->nodes = n;
	r->nlinks = nl;
	r->bw_bps = malloc(((size_t)nl + 1) * sizeof *r->bw_bps);
	r->lat_s = malloc(((size_t)nl + 1) * sizeof *r->lat_s);
	r->first = malloc(((size_t)n * (size_t)n + 1) * sizeof *r->first);
	char *fatpipe = calloc((size_t)nl + 1, 1); /* 1: FATPIPE, 2: one a route crosses */
	if (!r->bw_bps || !r->lat_s || !r->first || !fatpipe) {
		free(fatpipe);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	int rc = 0;
	for (int l = 0; !rc && l < nl; l++) {
		double v[3];
		rc = get(in, v, sizeof v);
		r->bw_bps[l] = v[0];
		r->lat_s[l] = v[1];
		fatpipe[l] = v[2] == 0;
	}
	int speeds = 0, cores = 0;
	for (int i = 0; !rc && i < n; i++) {
		double v[2];
		if ((rc = get(in, v, sizeof v)))
			break;
		if (i == 0)
			r->speed_flops = v[0];
		else if (v[0] != r->speed_flops && !speeds++)
			snprintf(limits, llen,
			         "hosts of different speeds (%s %.6g flop/s, %s %.6g flop/s)",
			         names[0], r->speed_flops, names[i], v[0]);
		if (v[1] != 1 && !cores++ && !speeds)
			snprintf(limits, llen, "hosts of several cores (%s: %g)", names[i], v[1]);
	}
	if (!rc)
		rc = routes_in(in, n, nl, r, fatpipe, names, path, e);
	long fatpipes = 0;
	for (int l = 0; l < nl; l++)
		fatpipes += fatpipe[l] == 2;
	free(fatpipe);
	if (!rc && fatpipes && !*limits) /* SimGrid's loopbacks are FATPIPE, on no route */
		snprintf(limits, llen, "%ld FATPIPE link%s", fatpipes, fatpipes > 1 ? "s" : "");
	return rc;
}

/* Asks SimGrid, in a child, for the routes between the n named hosts. */
static int import(const char *path, char **names, int n, struct plat_machine **out,
                  struct cmn_err *e)
{
	if (net_sg_platform_file(path, e))
		return e->code;
	int fd[2];
	FILE *err = tmpfile();
	if (!err || pipe(fd) < 0) {
		if (err)
			fclose(err);
		return cmn_err_set(e, CMN_EIO, "cannot start the platform import: %s",
		                   strerror(errno));
	}
	/* SimGrid's Dijkstra zones searched once per source, not per pair */
	char copy[4096] = "";
	int cached = plat_xml_dijkstra_cached(path, copy, sizeof copy);
	fflush(NULL);
	pid_t pid = cmn_cleanup_fork(); /* a signal that stops us stops it */
	if (pid == 0) {
		close(fd[0]);
		dup2(fileno(err), 2);
		FILE *o = fdopen(fd[1], "wb");
		_exit(o ? child(cached ? copy : path, names, n, o) : 3);
	}
	close(fd[1]);
	struct plat_routes r;
	memset(&r, 0, sizeof r);
	char limits[256] = "";
	int rc = pid < 0 ? cmn_err_set(e, CMN_EIO, "cannot fork: %s", strerror(errno)) : 0;
	FILE *in = rc ? NULL : fdopen(fd[0], "rb");
	if (!rc && !in)
		rc = cmn_err_set(e, CMN_EIO, "cannot read the platform import");
	int got = rc ? 0 : receive(in, n, &r, names, limits, sizeof limits, path, e);
	if (in)
		fclose(in); /* a child still writing gets SIGPIPE */
	else
		close(fd[0]);
	int status = 0;
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		cmn_cleanup_child_gone(pid);
	}
	if (cached)
		cmn_cleanup_remove(copy);
	if (!rc && got > 0)
		rc = got;
	if (!rc && (got < 0 || !WIFEXITED(status) || WEXITSTATUS(status))) {
		char line[400] = "";
		rewind(err);
		while (fgets(line, sizeof line, err) &&
		       !strpbrk(line, "abcdefghijklmnopqrstuvwxyz"))
			;
		line[strcspn(line, "\n")] = '\0';
		const char *why = net_sg_log_message(line);
		rc = cmn_err_set(e, CMN_EINPUT, "%s: SimGrid could not route its hosts (%s%s%s)",
		                 path, WIFSIGNALED(status) ? "it stopped on a signal" : "it failed",
		                 *why ? ": " : "", why);
	}
	fclose(err);
	if (!rc && !(rc = plat_machine_from_routes(&r, path, out, e))) {
		snprintf((*out)->limits, sizeof(*out)->limits, "%s", limits);
		return 0;
	}
	free(r.bw_bps);
	free(r.lat_s);
	free(r.first);
	free(r.links);
	return rc;
}

int net_platform_load(const char *path, const char *hosts, struct plat_machine **out,
                      struct cmn_err *e)
{
	*out = NULL;
	struct plat_file f;
	int rc = plat_file_read(path, PLAT_MAX_NODES, &f, e);
	if (rc)
		return rc;
	if (f.m && !hosts) {
		*out = f.m;
		f.m = NULL;
		plat_file_free(&f);
		return 0;
	}
	long *idx;
	int n;
	char **names = NULL;
	rc = pick_hosts(&f, path, hosts, &idx, &n, e);
	if (!rc && !(names = calloc((size_t)n, sizeof *names)))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < n; i++)
		if (!(names[i] = strdup(f.hosts[idx[i]])))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	free(idx);
	plat_file_free(&f);
	if (!rc)
		rc = import(path, names, n, out, e);
	if (rc) {
		plat_xml_free_names(names, n);
		return rc;
	}
	if ((rc = plat_machine_set_source(*out, path, names, e))) { /* names freed */
		plat_machine_destroy(*out);
		*out = NULL;
	}
	return rc;
}

void net_platform_echo(FILE *f, const char *prog, const struct plat_machine *m)
{
	if (!m->source_xml)
		return;
	fprintf(f, "%s: %s: %d host%s as nodes 0-%d", prog, m->source_xml, m->nodes,
	        m->nodes > 1 ? "s" : "", m->nodes - 1);
	if (strncmp(m->spec, "routes:", 7) != 0)
		fprintf(f, " (%s)", m->spec);
	else
		fprintf(f, " (SimGrid's routes)");
	for (int i = 0; i < m->nodes; i++) {
		if (m->nodes > 10 && i == 8) {
			fprintf(f, " ...");
			i = m->nodes - 2;
		}
		fprintf(f, "%s %d=%s", i ? "," : ":", i, m->host_names[i]);
	}
	fputc('\n', f);
	if (m->limits[0])
		fprintf(f, "%s: %s: SimGrid's engines simulate it; our own models cannot (%s)\n",
		        prog, m->source_xml, m->limits);
}
