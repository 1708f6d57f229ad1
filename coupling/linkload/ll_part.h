/* What the max-min computation of the linkload model (ll_fill.c) sees of a
 * job's flows: parts, each using some links (machine link ids) with a
 * number of active flows on each, that freeze their flows when links fill
 * and say which counts changed. Two kinds: the flows one by one
 * (ll_flows.c) and, on k-ary n-trees, a job's all-pairs pattern or a group
 * of its ranks exchanging all pairs counted in aggregate (ll_tree.c,
 * ll_groups.c). Internal to the linkload model. */
#ifndef CPL_LL_PART_H
#define CPL_LL_PART_H

#include "../../platforms/platform.h"

struct ll_part;
struct ll_moved;
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
	/* Optional (NULL: a part whose record cannot be followed is computed
	 * whole). Marks p's flows on local link x whose rate in its last
	 * computation is above level (past) or is level (!past); x < 0: no
	 * flow marked. */
	void (*mark)(struct ll_part *p, int x, double level, int past);
	/* The marked flows moved out of p (its users0 without them) into
	 * fragment f (NULL: a new one), where they are active (users, users0):
	 * f returned, its links from *n0 on new (px: each link's index in p),
	 * the moved flows' drops in p's last computation into *moved (*nmoved
	 * of them, by f's link and level; valid until the next split). NULL
	 * when none is marked or out of memory (nothing moved, no flow
	 * marked). A fragment computes its flows from the level where they
	 * moved, never replayed. */
	struct ll_part *(*split)(struct ll_part *p, struct ll_part *f, int *n0,
	                         const struct ll_moved **moved, long *nmoved);
	/* Fragment f's flows back into p with the rates f computed (users0
	 * with them); f is then the caller's to destroy. */
	void (*rejoin)(struct ll_part *p, const struct ll_part *f);
};

/* A drop of a part's active flows on one of its links in a computation:
 * at level, by |by| flows; by < 0 when the link filled there while the
 * part had active flows on it (the drop is then that fill's). */
struct ll_drop {
	double level;
	long by;
};

/* Flows moved into a fragment (ll_part_ops' split): n of them that froze
 * at level on its local link x in the last computation. */
struct ll_moved {
	int x;
	double level;
	long n;
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
	long capmemb;    /* room in memb and bound (a fragment's links grow) */
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
	int whole; /* to be computed whole from the current level */
	/* in a computation, a fragment split off a part (ll_fill.c): that part
	 * and each of its links' index there; a part's fragments, chained */
	struct ll_part *parent, *frags, *next;
	int *px;
};

/* The link arrays of a part of n links (links, users, users0, at); 0 or
 * -1 out of memory. */
int cpl_ll_part_links(struct ll_part *p, int n);
/* Frees what cpl_ll_part_links and a computation gave p (not p). */
void cpl_ll_part_free(struct ll_part *p);
/* The drops of flows moved into fragment f (n of them, split's) taken out
 * of p's record, at f's links' indices in p (px); entries left with no
 * drop stay, by 0. Returns the drops p's record did not hold (0 unless it
 * was wrong). */
long cpl_ll_part_unrecord(struct ll_part *p, const struct ll_part *f, const struct ll_moved *m,
                          long n);
/* p's record merged with those of its fragments (p->frags): per link, by
 * level, drops at one level summed (a fill's, negative, when one was);
 * entries with no drop left out. 0, or -1 out of memory (p unchanged). */
int cpl_ll_part_rejoin_records(struct ll_part *p);

/* The flows one by one, a part per block of per sources (none without
 * flows): *out an array of *n parts; 0 or -1 out of memory (nothing
 * kept). */
struct cpl_job_load;
int cpl_ll_flows_parts(const struct plat_machine *m, const struct cpl_job_load *job, int per,
                       struct ll_part ***out, int *n);
/* Whether cpl_ll_tree_part can apply on m: a k-ary n-tree (whose links have
 * one latency: checked on the links a part uses). */
int cpl_ll_tree_machine(const struct plat_machine *m);
/* On a machine cpl_ll_tree_machine accepts, the all-pairs pattern in
 * aggregate: *out = NULL where it does not apply (no dense part reaching
 * every pair, two ranks on a node, more than 4 bytes classes, a listed
 * pair below its dense share, links of different latencies). 0 or -1 out of memory. */
int cpl_ll_tree_part(const struct plat_machine *m, const struct cpl_job_load *job,
                     struct ll_part **out);
/* The same for a group of a job's ranks: job holds the members' nodes and
 * their traffic among them, jrank[i] the job's rank of member i (comm[] is
 * the job's); own (the traffic job points to) is the part's from here on,
 * freed in any case. */
struct cpl_traffic;
int cpl_ll_tree_group(const struct plat_machine *m, const struct cpl_job_load *job,
                      const int *jrank, struct cpl_traffic *own, struct ll_part **out);

/* A job's parts: its all-pairs pattern in aggregate where cpl_ll_tree_part
 * applies; else, without a dense part, the groups of at least min_group
 * ranks whose listed pairs reach every pair among them (FT's row and
 * column transposes) each in aggregate, and the other pairs one by one
 * (ll_groups.c). min_group 0: the flows one by one. *out: an array of *n
 * parts (none for a job without flows); 0 or -1 out of memory (nothing
 * kept). */
int cpl_ll_job_parts(const struct plat_machine *m, const struct cpl_job_load *job, int min_group,
                     struct ll_part ***out, int *n);

#endif
