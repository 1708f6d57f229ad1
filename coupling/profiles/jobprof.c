/* The profile of a job (jobprof.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../apptraces/gen.h"
#include "../../common/hash.h"
#include "../../common/htab.h"
#include "../../common/number.h"
#include "jobprof.h"
#include "recorded.h"

/* A workload's profile that gives its jobs a trace (Batsim's). */
struct wprof {
	char *name, *trace; /* trace: smpi's index file; NULL: parallel_homogeneous */
	double cpu_flops, com_bytes;
};

struct map_entry {
	long key;
	int kernel;
};

struct cpl_profiles {
	char kernels[CPL_MAX_KERNELS][8];
	double cum[CPL_MAX_KERNELS]; /* cumulative draw weights of the first ndraw */
	int nk, ndraw;       /* the first ndraw kernels are drawn; the others come from the map */
	struct cmn_htab map; /* of struct map_entry, by key */
	int by_user;
	char cls;
	char traces[CMN_PARAM_STR]; /* "" when none */
	double flop_scale;
	unsigned long seed;
	struct wprof *wp; /* kernels nk.. nk + nwp - 1 (cpl_profiles_bind) */
	int nwp, bound;
};

/* 0 when name is a generator's kernel or has recorded traces in l's
 * folder, else an error listing the generators. */
static int known_kernel(const struct cpl_profiles *l, const char *name, struct cmn_err *e)
{
	if (l->traces[0] && cpl_recorded_has_kernel(l->traces, name, l->cls))
		return 0;
	if (cmn_registry_find((const void *const *)trace_gen_registry, name, "kernel", e))
		return 0;
	if (l->traces[0])
		cmn_err_prefix(e, "no trace %s.%c.* in %s, and", name, l->cls, l->traces);
	return e->code;
}

static int kernel_index(struct cpl_profiles *l, const char *name)
{
	for (int i = 0; i < l->nk; i++)
		if (strcmp(l->kernels[i], name) == 0)
			return i;
	size_t len = strlen(name);
	if (l->nk == CPL_MAX_KERNELS || len >= sizeof l->kernels[0])
		return -1;
	memcpy(l->kernels[l->nk], name, len + 1); /* fits: checked above */
	return l->nk++;
}

static uint64_t key_hash(long key)
{
	return cmn_fnv64(CMN_FNV64_BASIS, (uint64_t)key);
}

static int key_match(const void *entry, const void *key)
{
	return ((const struct map_entry *)entry)->key == *(const long *)key;
}

/* The map file: "KEY KERNEL" lines; errors name file:line. A key is
 * looked up in a table (a search of the keys before took O(lines^2):
 * 80,000 lines, 1.2 s; and as long again for every job). */
static int read_map(struct cpl_profiles *l, const char *path, struct cmn_err *e)
{
	/* a map= that names no readable file is the --runtime spec's fault (as
	 * traces= naming no folder): a usage error; what the file holds is
	 * input */
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return cmn_err_set(e, CMN_EUSAGE, "map=%s: cannot read: Is a directory", path);
	FILE *f = fopen(path, "r");
	if (!f)
		return cmn_err_set(e, CMN_EUSAGE, "map=%s: cannot open: %s", path, strerror(errno));
	errno = 0;
	char line[512];
	int rc = 0;
	for (long ln = 1; !rc && fgets(line, sizeof line, f); ln++) {
		if (!strchr(line, '\n') && !feof(f)) { /* the rest would read as another line */
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: line longer than %zu bytes", path,
			                 ln, sizeof line - 2);
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char tok[32], name[64], extra[8];
		long long key = 0;
		int got = sscanf(line, "%31s %63s %7s", tok, name, extra);
		if (got <= 0 && strspn(line, " \t\r\n") == strlen(line))
			continue;
		if (got != 2) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: expected 'KEY KERNEL'", path, ln);
			break;
		}
		if (cmn_num_int(tok, LONG_MIN, LONG_MAX, &key) != CMN_NUM_OK) {
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s:%ld: key '%s' is not an integer of 64 bits", path, ln,
			                 tok);
			break;
		}
		if (known_kernel(l, name, e)) {
			cmn_err_prefix(e, "%s:%ld", path, ln); /* names the known kernels */
			e->code = rc = CMN_EINPUT;
			break;
		}
		int k = kernel_index(l, name);
		if (k < 0) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: more than %d kernels", path, ln,
			                 CPL_MAX_KERNELS);
			break;
		}
		long lk = (long)key;
		int added;
		struct map_entry *m = cmn_htab_put(&l->map, key_hash(lk), key_match, &lk, &added);
		if (!m)
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		else if (!added)
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: key %lld mapped twice", path, ln,
			                 key);
		else
			*m = (struct map_entry){lk, k};
	}
	if (!rc && ferror(f))
		rc = cmn_err_set(e, CMN_EIO, "map=%s: cannot read: %s", path, strerror(errno));
	fclose(f);
	return rc;
}

/* The draw weights ("equal" or one positive number per kernel). */
static int read_weights(struct cpl_profiles *l, const char *spec, struct cmn_err *e)
{
	double sum = 0;
	if (strcmp(spec, "equal") == 0) {
		for (int i = 0; i < l->nk; i++)
			l->cum[i] = sum += 1;
	} else {
		double w[CPL_MAX_KERNELS];
		int bad = 0, n = cmn_num_real_list(spec, '/', 0, 1e12, w, l->nk, &bad);
		if (n == -1)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "weights=%s: weight %d: give %d non-negative numbers "
			                   "(at most 1e12) separated by '/', one per kernel",
			                   spec, bad, l->nk);
		if (n != l->nk)
			return cmn_err_set(e, CMN_EUSAGE, "weights=%s: %s%d weights for %d kernels",
			                   spec, n < 0 ? "more than " : "", n < 0 ? l->nk : n,
			                   l->nk);
		for (int i = 0; i < n; i++)
			l->cum[i] = sum += w[i];
	}
	if (!(sum > 0))
		return cmn_err_set(e, CMN_EUSAGE, "weights=%s: they sum to 0", spec);
	return 0;
}

int cpl_profiles_create(const struct cmn_params *p, const char *model, struct cpl_profiles **out,
                        struct cmn_err *e)
{
	struct cpl_profiles *l = calloc(1, sizeof *l);
	if (!l)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	cmn_htab_init(&l->map, sizeof(struct map_entry));
	char list[CMN_PARAM_STR], *save = NULL;
	int rc = 0;
	l->cls = cmn_params_str(p, "class")[0];
	const char *dir = cmn_params_str(p, "traces");
	if (strcmp(dir, "none") != 0) {
		snprintf(l->traces, sizeof l->traces, "%s", dir);
		DIR *d = opendir(dir);
		if (!d)
			rc = cmn_err_set(e, CMN_EUSAGE, "traces=%s: cannot open the folder", dir);
		else
			closedir(d);
	}
	snprintf(list, sizeof list, "%s", cmn_params_str(p, "kernels"));
	if (!rc && (list[0] == '/' || strstr(list, "//") || list[strlen(list) - 1] == '/'))
		rc = cmn_err_set(e, CMN_EUSAGE,
		                 "kernels=%s: an empty name (a leading, doubled or trailing '/')",
		                 list);
	for (char *tok = strtok_r(list, "/", &save); tok && !rc; tok = strtok_r(NULL, "/", &save)) {
		if (l->nk == CPL_MAX_KERNELS || strlen(tok) >= sizeof l->kernels[0])
			rc = cmn_err_set(e, CMN_EUSAGE, "kernels=%s: too many or too long",
			                 cmn_params_str(p, "kernels"));
		else if (!(rc = known_kernel(l, tok, e))) /* every kernel known before the run */
			snprintf(l->kernels[l->nk++], sizeof l->kernels[0], "%s", tok);
		else
			cmn_err_prefix(e, "kernels");
	}
	if (!rc && !l->nk)
		rc = cmn_err_set(e, CMN_EUSAGE, "give at least one kernel");
	l->ndraw = l->nk;
	if (!rc)
		rc = read_weights(l, cmn_params_str(p, "weights"), e);
	l->by_user = strcmp(cmn_params_str(p, "by"), "user") == 0;
	if (!rc && strcmp(cmn_params_str(p, "map"), "none") != 0)
		rc = read_map(l, cmn_params_str(p, "map"), e);
	l->flop_scale = cmn_params_num(p, "flops");
	l->seed = (unsigned long)cmn_params_num(p, "seed");
	if (rc) { /* every value here is one of --runtime's */
		cmn_err_prefix(e, "--runtime %s", model);
		cpl_profiles_free(l);
		return e->code;
	}
	*out = l;
	return 0;
}

void cpl_profiles_free(struct cpl_profiles *pr)
{
	if (!pr)
		return;
	cmn_htab_free(&pr->map);
	for (int i = 0; i < pr->nwp; i++) {
		free(pr->wp[i].name);
		free(pr->wp[i].trace);
	}
	free(pr->wp);
	free(pr);
}

int cpl_profiles_replayed(const struct js_job *job)
{
	return job->replayed && job->bprof > 0;
}

int cpl_profiles_bind(struct cpl_profiles *pr, const struct js_sim *sim, struct cmn_err *e)
{
	return cpl_profiles_bind_workload(pr, js_sim_workload(sim), e);
}

int cpl_profiles_bind_workload(struct cpl_profiles *pr, const struct js_workload *w,
                               struct cmn_err *e)
{
	if (pr->bound || !w || !w->nbprofiles)
		return 0;
	if (w->nbprofiles > (size_t)(1 << 20))
		return cmn_err_set(e, CMN_EINPUT, "%s: more than %d profiles", w->source, 1 << 20);
	pr->wp = calloc(w->nbprofiles, sizeof *pr->wp);
	if (!pr->wp)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	pr->nwp = (int)w->nbprofiles;
	for (int i = 0; i < pr->nwp; i++) {
		const struct js_bprofile *b = &w->bprofiles[i];
		struct wprof *p = &pr->wp[i];
		p->name = strdup(b->name);
		p->trace = b->type == JS_BPROF_SMPI ? strdup(b->trace) : NULL;
		p->cpu_flops = b->cpu_flops;
		p->com_bytes = b->com_bytes;
		if (!p->name || (b->type == JS_BPROF_SMPI && !p->trace))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	pr->bound = 1;
	return 0;
}

int cpl_profiles_of(const struct cpl_profiles *l, const struct js_job *job, int j)
{
	if (cpl_profiles_replayed(job))
		return l->nk + (int)job->bprof - 1;
	if (l->map.n) {
		long key = (long)job->f[l->by_user ? JS_F_USER : JS_F_EXE];
		const struct map_entry *m = cmn_htab_find(&l->map, key_hash(key), key_match, &key);
		if (m)
			return m->kernel;
	}
	double u =
	    cmn_hash_unit((uint64_t)l->seed, (uint64_t)j) * l->cum[l->ndraw - 1]; /* [0, total) */
	int k = 0;
	while (k < l->ndraw - 1 && !(u < l->cum[k]))
		k++;
	return k;
}

int cpl_profiles_count(const struct cpl_profiles *pr)
{
	return pr->nk;
}

const char *cpl_profiles_name(const struct cpl_profiles *pr, int k)
{
	if (k >= pr->nk)
		return k - pr->nk < pr->nwp ? pr->wp[k - pr->nk].name : "?";
	return pr->kernels[k];
}

char cpl_profiles_class(const struct cpl_profiles *pr)
{
	return pr->cls;
}

double cpl_profiles_flop_scale(const struct cpl_profiles *pr)
{
	return pr->flop_scale;
}

double cpl_profiles_pairs(const struct cpl_profiles *pr, int k, int n, struct trace_gen_sets *sets)
{
	const struct trace_gen_ops *g =
	    pr->traces[0] || k >= pr->nk
	        ? NULL
	        : cmn_registry_find((const void *const *)trace_gen_registry, pr->kernels[k],
	                            "kernel", NULL);
	double all = (double)n * (n - 1), pairs = all;
	sets->n = 0;
	if (g && g->pairs)
		pairs = g->pairs(pr->cls, n, sets);
	return pairs < all ? pairs : all;
}

double cpl_profiles_alltoall(const struct cpl_profiles *pr, int k, int n)
{
	if (n < 2)
		return 0;
	if (k >= pr->nk) { /* a workload's profile: its one all-to-all, or a trace */
		const struct wprof *p = k - pr->nk < pr->nwp ? &pr->wp[k - pr->nk] : NULL;
		return !p || p->trace ? -1 : p->com_bytes > 0 ? (double)n * (n - 1) : 0;
	}
	if (pr->traces[0]) /* a recorded trace may stand for the generated one */
		return -1;
	struct trace_gen_sets sets;
	cpl_profiles_pairs(pr, k, n, &sets);
	double most = 0;
	for (int i = 0; i < sets.n; i++) {
		double at = sets.set[i].count * sets.set[i].size * (sets.set[i].size - 1.0);
		most = at > most ? at : most;
	}
	return most;
}

/* Workload profile p on n ranks: its trace (smpi), or every rank computing
 * cpu flops then one alltoall of com bytes to each other rank
 * (parallel_homogeneous). */
static int workload_trace(const struct wprof *p, int n, struct trace **out, struct cmn_err *e)
{
	if (p->trace) {
		if (trace_load(p->trace, out, e)) {
			cmn_err_prefix(e, "profile %s", p->name);
			return e->code;
		}
		if ((*out)->nranks != n) {
			int r = (*out)->nranks;
			trace_free(*out);
			*out = NULL;
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "profile %s: trace %s has %d ranks, but the job asks for "
			    "%d resources (one rank per resource)",
			    p->name, p->trace, r, n);
		}
		for (int r = 0; r < (*out)->nranks; r++) { /* in memory: engines write copies */
			free((*out)->files[r]);
			(*out)->files[r] = NULL;
		}
		return 0;
	}
	struct trace_builder *b = trace_builder_new(n, p->name);
	if (!b)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = 0;
	for (int r = 0; r < n && !rc; r++) {
		struct trace_action a = {
		    .op = TR_COMPUTE, .dt1 = TR_NO_DT, .dt2 = TR_NO_DT, .a = p->cpu_flops};
		rc = trace_builder_add(b, r, &a, NULL, 0);
		if (!rc && n > 1 && p->com_bytes > 0) {
			struct trace_action x = {.op = TR_ALLTOALL,
			                         .dt1 = TR_NO_DT,
			                         .dt2 = TR_NO_DT,
			                         .a = p->com_bytes,
			                         .b = p->com_bytes};
			rc = trace_builder_add(b, r, &x, NULL, 0);
		}
	}
	if (rc) {
		trace_builder_free(b);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	*out = trace_builder_finish(b, e);
	return *out ? 0 : e->code;
}

/* The recorded trace of kernel k on n ranks into *out, or *out = NULL and 0
 * when it has a generator, else an error naming the folder. */
static int recorded_or_generator(const struct cpl_profiles *pr, int k, int n, struct trace **out,
                                 struct cmn_err *e)
{
	*out = NULL;
	if (k >= pr->nk) {
		if (k - pr->nk >= pr->nwp)
			return cmn_err_set(e, CMN_ESTATE, "profile %d: not bound", k);
		return workload_trace(&pr->wp[k - pr->nk], n, out, e);
	}
	const char *name = pr->kernels[k];
	if (pr->traces[0]) {
		if (cpl_recorded_load(pr->traces, name, pr->cls, n, out, e))
			return e->code;
		if (*out) {
			if (pr->flop_scale != 1 && trace_scale_flops(*out, pr->flop_scale, e)) {
				trace_free(*out);
				*out = NULL;
				return e->code;
			}
			return 0;
		}
	}
	if (!cmn_registry_find((const void *const *)trace_gen_registry, name, "kernel", e))
		return cmn_err_set(e, CMN_EINPUT,
		                   "kernel %s: no recorded trace %s.%c.%d in %s, and "
		                   "no generator",
		                   name, name, pr->cls, n, pr->traces[0] ? pr->traces : "(none)");
	return 0;
}

int cpl_profiles_trace(const struct cpl_profiles *pr, int k, int n, int iters, struct trace **out,
                       int *recorded, struct cmn_err *e)
{
	if (recorded_or_generator(pr, k, n, out, e))
		return e->code;
	if ((*recorded = *out != NULL))
		return 0;
	const char *name = pr->kernels[k];
	int exact;
	if (iters == CPL_ONE_ITERATION)
		return trace_generate_one(name, pr->cls, n, pr->flop_scale, out, &exact, e);
	return trace_generate(name, pr->cls, n, iters, pr->flop_scale, out, &exact, e);
}

int cpl_profiles_stream(const struct cpl_profiles *pr, int k, int n, int iters,
                        trace_gen_sink_fn sink, trace_gen_mark_fn mark, void *ctx,
                        struct trace **recorded, struct cmn_err *e)
{
	if (recorded_or_generator(pr, k, n, recorded, e))
		return e->code;
	if (*recorded)
		return 0;
	int exact;
	return trace_generate_stream(pr->kernels[k], pr->cls, n, iters, pr->flop_scale, sink, mark,
	                             ctx, &exact, e);
}

int cpl_profiles_same_iterations(const struct cpl_profiles *pr, int k)
{
	return k < pr->nk && trace_gen_same_iterations(pr->kernels[k]);
}

enum { COL_PROFILE, COL_ITER_REF };

const struct js_rt_column cpl_profile_columns[] = {
    {"profile", 1, "the job's application profile (kernel)"},
    {"iter_ref_s", 0, "one iteration's time at the reference placement (s)"},
    {NULL, 0, NULL}};

int cpl_profiles_record(struct js_sim *sim, int j, const char *profile, double iter_ref_s,
                        struct cmn_err *e)
{
	js_sim_set_value(sim, j, COL_ITER_REF, iter_ref_s);
	return js_sim_set_text(sim, j, COL_PROFILE, profile, e);
}

double cpl_profiles_recorded_ref(const struct js_sim *sim, int j)
{
	return js_sim_value(sim, j, COL_ITER_REF);
}
