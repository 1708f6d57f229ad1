/* What the max-min computation of the linkload model (ll_fill.c) sees of a
 * job's flows: parts, each using some links (machine link ids) with a
 * number of active flows on each, that freeze their flows when links fill
 * and say which counts changed. Two kinds: the flows one by one
 * (ll_flows.c) and, on k-ary n-trees, a job's all-pairs pattern or a group
 * of its ranks exchanging all pairs counted in aggregate (ll_tree.c,
 * ll_groups.c). Internal to the linkload model. */
#ifndef CPL_LL_PART_H
#define CPL_LL_PART_H

#include "../platforms/platform.h"

struct ll_part;
struct cpl_job_flows;

/* Ranks from which a job's all-pairs patterns are counted in aggregate on
 * k-ary n-trees, and the size from which its groups of ranks exchanging
 * all pairs are (linkload.c builds them so, ll_cost.c counts them so). */
#define CPL_LL_TREE_RANKS  32
#define CPL_LL_GROUP_RANKS 16

struct ll_part_ops {
	/* Every flow active again, users = users0. */
	void (*reset)(struct ll_part *p);
	/* Back to the state after its fills below level (at or below it when
	 * incl), the later ones undone; users recounted. */
	void (*rewind)(struct ll_part *p, double level, int incl);
	/* Local link x filled at this level: its active flows freeze at rate
	 * level. */
	void (*fill)(struct ll_part *p, int x, double level);
	/* After an event's fills: the local links whose user counts dropped,
	 * into x[] with the drop into by[] (users updated); returns how many. */
	int (*settle)(struct ll_part *p, int *x, long *by);
	/* Each rank's slowest flow (bytes / rate + latency) into comm[rank]
	 * where larger. */
	void (*comm)(const struct ll_part *p, double *comm);
	void (*destroy)(struct ll_part *p);
	double (*memory)(const struct ll_part *p); /* bytes */
};

/* A drop of a part's active flows on one of its links in a computation:
 * at level, by |by| flows; by < 0 when the link filled there while the
 * part had active flows on it (the drop is then that fill's). */
struct ll_drop {
	double level;
	long by;
};

struct ll_part {
	const struct ll_part_ops *ops;
	int nlinks;
	int *links;    /* machine link ids, each once */
	long *users;   /* active flows on each, during a computation */
	long *users0;  /* ... with every flow active */
	int *at;       /* each link's index among ll_fill.c's used links */
	int aggregate; /* counts flows in aggregate (ll_tree.c) */
	/* while a linkload computation holds it (ll_fill.c) */
	struct cpl_job_flows *job;
	int *memb;       /* each link's entry in the list of parts on it */
	long held;       /* its index among the parts held */
	long live;       /* the run that computes it, from level from on */
	double from;     /* ... (with its fills at from kept when incl) */
	int incl;        /* ... */
	long diverged;   /* the run in which it must be computed from the current level */
	double replayed; /* the last level of its drops replayed in run rrun */
	long rrun;
	int touched;          /* a fill reached it in the current event */
	unsigned char *bound; /* per link: filled with active flows in the current event */
	/* its drops in the last computation, by link: hist[hoff[x] .. hoff[x + 1]),
	 * levels ascending */
	long *hoff;
	struct ll_drop *hist;
	/* during a computation: its new drops, in order */
	struct ll_logged *log;
	long nlog, caplog;
};

/* The link arrays of a part of n links (links, users, users0, at); 0 or
 * -1 out of memory. */
int ll_part_links(struct ll_part *p, int n);
/* Frees what ll_part_links and a computation gave p (not p). */
void ll_part_free(struct ll_part *p);

/* The flows one by one, a part per block of per sources (none without
 * flows): *out an array of *n parts; 0 or -1 out of memory (nothing
 * kept). */
struct cpl_job_load;
int ll_flows_parts(const struct plat_machine *m, const struct cpl_job_load *job, int per,
                   struct ll_part ***out, int *n);
/* Whether ll_tree_part can apply on m: a k-ary n-tree (whose links have
 * one latency: checked on the links a part uses). */
int ll_tree_machine(const struct plat_machine *m);
/* On a machine ll_tree_machine accepts, the all-pairs pattern in
 * aggregate: *out = NULL where it does not apply (no dense part reaching
 * every pair, two ranks on a node, more than 4 bytes classes, a listed
 * pair below its dense share, links of different latencies). 0 or -1 out of memory. */
int ll_tree_part(const struct plat_machine *m, const struct cpl_job_load *job,
                 struct ll_part **out);
/* The same for a group of a job's ranks: job holds the members' nodes and
 * their traffic among them, jrank[i] the job's rank of member i (comm[] is
 * the job's); own (the traffic job points to) is the part's from here on,
 * freed in any case. */
struct cpl_traffic;
int ll_tree_group(const struct plat_machine *m, const struct cpl_job_load *job, const int *jrank,
                  struct cpl_traffic *own, struct ll_part **out);

/* A job's parts: its all-pairs pattern in aggregate where ll_tree_part
 * applies; else, without a dense part, the groups of at least min_group
 * ranks whose listed pairs reach every pair among them (FT's row and
 * column transposes) each in aggregate, and the other pairs one by one
 * (ll_groups.c). min_group 0: the flows one by one. *out: an array of *n
 * parts (none for a job without flows); 0 or -1 out of memory (nothing
 * kept). */
int ll_job_parts(const struct plat_machine *m, const struct cpl_job_load *job, int min_group,
                 struct ll_part ***out, int *n);

#endif
