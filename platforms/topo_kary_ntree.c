/* k-ary n-tree (Petrini and Vanneschi; seed 000): k^n nodes, n stages of
 * k^(n-1) switches with k down and k up ports (none up at the top).
 * Node p hangs from stage-1 switch p / k; the up port u of stage-l switch w
 * leads to the stage-(l+1) switch equal to w but for base-k digit l-1 set to
 * u. The switch of stage l above node p is any whose digits l-1.. equal
 * p / k^l: a node's subtree at level l is the block of k^l consecutive ids.
 * Distance = 2 x the level of the nearest common ancestor. Routes go up*
 * then down*; the deterministic one picks the up port at stage l by the
 * destination's digit l-1 (d-mod-k: port (b / k^(l-1)) mod k), the choice
 * SimGrid's FAT_TREE routing makes too, so both spread flows to different
 * destinations over the same up links.
 * Tapering: the links of level l (level 1: node to stage-1 switch; level l:
 * stage l-1 to stage l) carry bw x taper_l; taper=r means taper_l = r^(l-1),
 * taper=a/b/c lists every level's factor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "../common/number.h"
#include "pairsum.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_out.h"

struct tree {
	int k, n, nodes, per_stage; /* per_stage = k^(n-1) */
	int first_switch;           /* vertex id of stage-1 switch 0 */
	double taper[12];           /* bandwidth factor of level l's links, [l-1] */
};

/* k <= 64 and n <= 12 size the arrays below (taper[12], ups[16], map[64]);
 * k^n is checked against PLAT_MAX_NODES before anything is built. */
static const struct cmn_param_def tree_params[] = {
    {"k", CMN_PT_INT, "4", 2, 64, NULL, "arity: down (and up) ports per switch"},
    {"n", CMN_PT_INT, "3", 1, 12, NULL, "stages; k^n nodes"},
    {"taper", CMN_PT_STRING, "1", 0, 0, NULL,
     "bandwidth factor per link level: r (level l gets r^(l-1)) or f1/f2/../fn"},
    PLAT_LINK_PARAMS,
    {NULL},
};

/* Link ids: node p up 2p, down 2p+1; then for stage l < n, switch w, up
 * port u: base + 2(((l-1) S + w) k + u), its reverse (down) +1. */
static int sw_link(const struct tree *t, int l, int w, int u)
{
	return 2 * t->nodes + 2 * (((l - 1) * t->per_stage + w) * t->k + u);
}

static int set_digit(int w, int pos, int digit, int k)
{
	int p = 1;
	for (int i = 0; i < pos; i++)
		p *= k;
	return w - ((w / p) % k) * p + digit * p;
}

/* Parses taper (one factor r, or n factors separated by '/') into f[0..n-1]
 * and rewrites it in its full form. */
static int parse_taper(char *s, int n, double *f, struct cmn_err *e)
{
	int bad = 0, cnt = cmn_num_real_list(s, '/', 0, 1e3, f, n, &bad);
	for (int l = 0; l < cnt; l++)
		if (!(f[l] > 0))
			cnt = -1, bad = l + 1;
	if (cnt == -2)
		return cmn_err_set(e, CMN_EUSAGE, "taper=%s: more than %d factors for %d levels", s,
		                   n, n);
	if (cnt < 0)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "taper=%s: factor %d: give one factor in (0, 1000] or %d of them "
		    "separated by '/'",
		    s, bad, n);
	if (cnt != 1 && cnt != n)
		return cmn_err_set(e, CMN_EUSAGE, "taper=%s: %d factors for %d levels", s, cnt, n);
	if (cnt == 1) {
		double r = f[0];
		f[0] = 1;
		for (int l = 1; l < n; l++)
			f[l] = f[l - 1] * r;
	}
	int len = 0;
	for (int l = 0; l < n && len < CMN_PARAM_STR; l++)
		len +=
		    snprintf(s + len, CMN_PARAM_STR - (size_t)len, "%s%.15g", l ? "/" : "", f[l]);
	for (int l = 0; l < n; l++)
		if (f[l] != 1)
			return 0;
	strcpy(s, "1"); /* untapered: the default spelled as given */
	return 0;
}

static int tree_create(struct cmn_params *p, struct plat_builder *b, void **state,
                       struct cmn_err *e)
{
	int k = (int)cmn_params_num(p, "k"), n = (int)cmn_params_num(p, "n");
	/* k^n nodes, each with its up and down links at each of the n levels */
	long long count = cmn_sat_pow(k, n);
	char how[32];
	snprintf(how, sizeof how, "k^n = %d^%d", k, n);
	if (plat_check_size(b, how, count, cmn_sat_mul(2LL * n, count), e))
		return e->code;
	int nodes = (int)count;
	double taper[12], bw = cmn_params_num(p, "bw"), lat = cmn_params_num(p, "lat");
	char given[CMN_PARAM_STR];
	snprintf(given, sizeof given, "%s", cmn_params_str(p, "taper"));
	if (parse_taper(cmn_params_str_mut(p, "taper"), n, taper, e))
		return e->code;
	for (int l = 0; l < n; l++)
		if (!(bw * taper[l] >= PLAT_MIN_BW_BPS && bw * taper[l] <= PLAT_MAX_BW_BPS))
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "taper=%s: level %d's links get %g x %g = %g B/s, outside "
			    "[%g, %g]",
			    given, l + 1, bw, taper[l], bw * taper[l], (double)PLAT_MIN_BW_BPS,
			    PLAT_MAX_BW_BPS);
	struct tree *t = malloc(sizeof *t);
	if (!t)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*t = (struct tree){k, n, nodes, nodes / k, nodes, {0}};
	memcpy(t->taper, taper, sizeof taper);
	plat_builder_nodes(b, nodes);
	for (int l = 1; l <= n; l++)
		for (int w = 0; w < t->per_stage; w++)
			plat_add_vertex(b, PLAT_V_SWITCH, l, w);
	for (int i = 0; i < nodes; i++) {
		int sw = t->first_switch + i / k;
		plat_add_link(b, i, sw, bw * taper[0], lat);
		plat_add_link(b, sw, i, bw * taper[0], lat);
	}
	for (int l = 1; l < n; l++)
		for (int w = 0; w < t->per_stage; w++)
			for (int u = 0; u < k; u++) {
				int lo = t->first_switch + (l - 1) * t->per_stage + w;
				int hi =
				    t->first_switch + l * t->per_stage + set_digit(w, l - 1, u, k);
				plat_add_link(b, lo, hi, bw * taper[l], lat);
				plat_add_link(b, hi, lo, bw * taper[l], lat);
			}
	*state = t;
	return 0;
}

static void tree_destroy(void *state)
{
	free(state);
}

/* Level of the nearest common ancestor (0 for a == b). */
static int nca_level(const struct tree *t, int a, int b)
{
	int l = 0;
	while (a != b) {
		a /= t->k;
		b /= t->k;
		l++;
	}
	return l;
}

static int tree_distance(const void *state, int a, int b)
{
	return 2 * nca_level(state, a, b);
}

/* The route from a to b taking up port ups[l-1] at stage l (l < NCA level). */
static int route_via(const struct tree *t, int a, int b, const int *ups, int *links)
{
	int L = nca_level(t, a, b), n = 0;
	if (L == 0)
		return 0;
	links[n++] = 2 * a;
	int w = a / t->k;
	for (int l = 1; l < L; l++) {
		links[n++] = sw_link(t, l, w, ups[l - 1]);
		w = set_digit(w, l - 1, ups[l - 1], t->k);
	}
	/* down: at each stage the digit l-1 must become b's digit l */
	int target = b / t->k, p = 1;
	for (int l = 1; l < L - 1; l++)
		p *= t->k;
	for (int l = L - 1; l >= 1; l--, p /= t->k) {
		int lower = set_digit(w, l - 1, (target / p) % t->k, t->k);
		links[n++] = sw_link(t, l, lower, (w / p) % t->k) + 1;
		w = lower;
	}
	links[n++] = 2 * b + 1;
	return n;
}

static int tree_route(const void *state, int a, int b, int *links)
{
	const struct tree *t = state;
	int ups[16];
	for (int l = 1, bb = b; l < t->n; l++, bb /= t->k)
		ups[l - 1] = bb % t->k; /* digit l-1 of b: d-mod-k, as SimGrid's FAT_TREE */
	return route_via(t, a, b, ups, links);
}

static int tree_max_route(const void *state)
{
	return 2 * ((const struct tree *)state)->n;
}

static int tree_ndims(const void *state)
{
	(void)state;
	return 0;
}

static void tree_coords(const void *state, int node, int *c)
{
	(void)state, (void)node, (void)c;
}

/* Permuting the values of one base-k digit of every node id (the same
 * permutation for all nodes) maps the tree onto itself, and d-mod-k routes
 * onto d-mod-k routes (an up port is a digit of the destination); taper
 * factors are per level, so they stay. Canonical form: in each digit
 * position, values renamed 0, 1, .. in order of first use by rank. */
static int tree_canon(const void *state, const int *nodes, int n, int *out)
{
	const struct tree *t = state;
	int map[64];
	for (int r = 0; r < n; r++)
		out[r] = 0;
	for (int i = 0, w = 1; i < t->n; i++, w *= t->k) {
		int next = 0;
		for (int v = 0; v < t->k; v++)
			map[v] = -1;
		for (int r = 0; r < n; r++) {
			int d = nodes[r] / w % t->k;
			if (map[d] < 0)
				map[d] = next++;
			out[r] += map[d] * w;
		}
	}
	return 0;
}

/* Counts form, recursively: the canonical offsets (ascending, within a
 * subtree of k^lvl nodes) of the cnt sorted node ids x of one such subtree
 * into o: each child subtree's own form, the children ordered by node count
 * (most first), ties by their forms (lexicographic), child j moved to
 * offset j k^(lvl-1). tmp: room for cnt ints. */
static void counts_form(const int *x, int cnt, int k, int lvl, int w, int *o, int *tmp)
{
	if (lvl == 0 || cnt == 0) { /* one node (or the same one repeated) */
		for (int i = 0; i < cnt; i++)
			o[i] = 0;
		return;
	}
	int first[65], len[65], order[64], nc = 0; /* the non-empty children */
	for (int i = 0; i < cnt;) {
		int c = x[i] / w % k, j = i;
		while (j < cnt && x[j] / w % k == c)
			j++;
		first[nc] = i;
		len[nc] = j - i;
		counts_form(x + i, j - i, k, lvl - 1, w / k, o + i, tmp);
		order[nc] = nc;
		nc++;
		i = j;
	}
	for (int a = 1; a < nc; a++) { /* insertion sort of the children */
		int v = order[a], b = a - 1;
		for (; b >= 0; b--) {
			int u = order[b], cmp = len[u] != len[v] ? len[v] - len[u] : 0;
			for (int i = 0; !cmp && i < len[u]; i++)
				cmp = o[first[u] + i] - o[first[v] + i];
			if (cmp <= 0) /* u stays before v */
				break;
			order[b + 1] = u;
		}
		order[b + 1] = v;
	}
	int m = 0;
	for (int c = 0; c < nc; c++)
		for (int i = 0; i < len[order[c]]; i++)
			tmp[m++] = c * w + o[first[order[c]] + i];
	memcpy(o, tmp, (size_t)cnt * sizeof *o);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Counts form: the node set reduced to its per-subtree counts (a tree of
 * counts whose children are unordered), laid out canonically (counts_form),
 * ranks on its nodes in ascending order. */
static int tree_shape(const void *state, const int *nodes, int n, int *out)
{
	const struct tree *t = state;
	int *x = malloc(2 * (size_t)(n ? n : 1) * sizeof *x);
	if (!x)
		return -1;
	memcpy(x, nodes, (size_t)n * sizeof *x);
	qsort(x, (size_t)n, sizeof *x, cmp_int);
	counts_form(x, n, t->k, t->n, t->per_stage, out, x + n);
	free(x);
	return 0;
}

static int tree_xml_write(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                          int first, int link0)
{
	(void)link0;
	const struct tree *t = m->state;
	int k = t->k, n = t->n;
	char p[256];
	int len = snprintf(p, sizeof p, "%d;", n);
	for (int part = 0; part < 3; part++) {
		for (int l = 1; l <= n; l++)
			len += snprintf(p + len, sizeof p - (size_t)len, "%s%d", l > 1 ? "," : "",
			                part == 0   ? k
			                : part == 1 ? (l == 1 ? 1 : k)
			                            : 1);
		if (part < 2)
			len += snprintf(p + len, sizeof p - (size_t)len, ";");
	}
	if (plat_xml_cluster_start(x, m, id, first, m->nodes) < 0 ||
	    plat_xml_attr(x, "topology", "FAT_TREE") < 0 ||
	    plat_xml_attr(x, "topo_parameters", "%s", p) < 0)
		return -1;
	const char *taper = cmn_params_str(&m->params, "taper");
	if (strcmp(taper, "1") != 0 &&
	    (plat_xml_start(x, "prop") < 0 || plat_xml_attr(x, "id", PLAT_XML_TAPER_PROP) < 0 ||
	     plat_xml_attr(x, "value", "%s", taper) < 0 || plat_xml_end(x) < 0))
		return -1;
	return plat_xml_end(x);
}

/* Slurm's tree plugin wants one parent per switch; a k-ary n-tree has k, so
 * the file describes its subtrees: the nodes under any stage-l switch are
 * one block of k^l consecutive ids, and each block is one logical switch
 * s<l>-<b>. */
static int tree_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e)
{
	(void)e;
	const struct tree *t = m->state;
	int k = t->k, block = 1;
	for (int l = 1; l <= t->n; l++) {
		block *= k;
		for (int b = 0; b < m->nodes / block; b++) {
			fprintf(f, "SwitchName=s%d-%d ", l, b);
			if (l == 1) {
				fprintf(f, "Nodes=");
				plat_slurm_range(f, "node-", b * k, b * k + k - 1);
			} else {
				char pre[32];
				snprintf(pre, sizeof pre, "s%d-", l - 1);
				fprintf(f, "Switches=");
				plat_slurm_range(f, pre, b * k, b * k + k - 1);
			}
			fputc('\n', f);
		}
	}
	return 0;
}

/* Hop sums (pairsum.h) from the node counts of the blocks of k^l ids. */

/* Trees: the pairs whose nearest common ancestor is at level l (distance
 * 2 l), from the node counts of the blocks of k^l ids. */
static int tree_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n,
                         int *scratch, struct plat_isum *s)
{
	(void)scratch;
	if (n < 2)
		return 1;
	const struct tree *t = m->state;
	int k = t->k, levels = t->n;
	uint64_t below = 0; /* pairs inside blocks of the level below */
	long long block = 1;
	for (int l = 1; l <= levels; l++) {
		block *= k;
		uint64_t within = 0, cnt = 0; /* cnt: nodes in block cur so far */
		long long cur = -1;
		for (int i = v->start, a, b; plat_view_next(v, &i, &a, &b);) {
			long long qa = a / block, qb = b / block;
			if (qa != cur) {
				within += plat_pairs(cnt);
				cnt = 0;
			}
			if (qa == qb) {
				cnt += (uint64_t)(b - a + 1);
				cur = qa;
				continue;
			}
			within += plat_pairs(cnt + (uint64_t)((qa + 1) * block - a)) +
			          (uint64_t)(qb - qa - 1) * plat_pairs((uint64_t)block);
			cnt = (uint64_t)(b - qb * block + 1);
			cur = qb;
		}
		within += plat_pairs(cnt);
		plat_isum_mul(s, 2 * (uint64_t)l, within - below);
		below = within;
	}
	return 1;
}

/* Trees: the sum over nodes of their distance to node 0, 2 l for the ids
 * from k^(l-1) to k^l - 1. */
static void tree_to_first(const struct plat_machine *m, const struct plat_view *v, int n,
                          int *scratch, struct plat_isum *s)
{
	(void)n, (void)scratch;
	const struct tree *t = m->state;
	int k = t->k, levels = t->n;
	for (int i = v->start, a, b; plat_view_next(v, &i, &a, &b);) {
		long long lo = 1;
		for (int l = 1; l <= levels && lo <= b; l++, lo *= k) {
			long long x = a > lo ? a : lo, y = b < lo * k - 1 ? b : lo * k - 1;
			if (y >= x)
				plat_isum_mul(s, 2 * (uint64_t)l, (uint64_t)(y - x + 1));
		}
	}
}

static const char *const tree_samples[] = {"kary-ntree:k=2,n=1", "kary-ntree:k=4,n=3",
                                           "kary-ntree:k=3,n=4", "kary-ntree:k=2,n=5",
                                           "kary-ntree:k=3,n=3", NULL};

const struct plat_topology_ops plat_topo_kary_ntree_ops = {
    .base = {"kary-ntree", "k-ary n-tree (fat tree) of k^n nodes", tree_params, tree_samples},
    .create = tree_create,
    .destroy = tree_destroy,
    .distance = tree_distance,
    .route = tree_route,
    .max_route = tree_max_route,
    .ndims = tree_ndims,
    .coords = tree_coords,
    .canon = tree_canon,
    .shape = tree_shape,
    .xml_write = tree_xml_write,
    .slurm_write = tree_slurm_write,
    .pair_sum = tree_pair_sum,
    .to_first = tree_to_first,
};

int plat_kary_ntree_shape(const struct plat_machine *m, int *k, int *n, struct cmn_err *e)
{
	if (m->ops != &plat_topo_kary_ntree_ops)
		return cmn_err_set(e, CMN_EUSAGE, "needs a kary-ntree machine, not %s", m->spec);
	const struct tree *t = m->state;
	*k = t->k;
	*n = t->n;
	return 0;
}

int plat_kary_ntree_taper(const struct plat_machine *m, double *factors)
{
	const struct tree *t = m->state;
	memcpy(factors, t->taper, (size_t)t->n * sizeof *factors);
	return t->n;
}

int plat_kary_ntree_route_via(const struct plat_machine *m, int a, int b, const int *ups,
                              int *links)
{
	return route_via(m->state, a, b, ups, links);
}
