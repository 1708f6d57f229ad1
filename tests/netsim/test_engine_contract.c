/* Network engines: a contract over the registry, each engine's own samples
 * (cmn_plugin.samples, or its name) on a 4-ary 2-tree, a 4x4 mesh and a
 * 4x2x2 torus: the engine takes the machine or refuses it (when it is
 * made or at its first evaluation) with a usage error that names the
 * engine; where it takes it, two jobs (CG and FT, class S, 4
 * ranks, one iteration each, interleaved on the nodes) run together to
 * their ends, finish after start, finite, the links' loads can be read, a
 * second evaluation in the same engine and a second engine give the same
 * times to the bit; an engine's evaluate_many (several evaluations at
 * once) gives each evaluation's times alone to the bit and the last one's
 * link loads. A new engine is tested here without editing this file.
 * Each engine lives in a child process (SimGrid allows one per process). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../helpers.h"
#include "gen.h"
#include "netsim.h"
#include "xml_write.h"

/* status (1 ran, 0 refused), then the two jobs' finishes, twice, then
 * whether evaluate_many agrees with evaluate (1; or the engine has none) */
enum { NOUT = 6 };

struct run_args {
	const char *engine, *machine;
};

/* A refusal must be a usage error that names the engine. */
static void refused(const struct run_args *a, int rc, const struct cmn_err *e)
{
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(a->engine, ":"), a->engine);
	if (rc != CMN_EUSAGE || !strstr(e->msg, name)) {
		fprintf(stderr, "\n  %s on %s: error %d '%s'\n", a->engine, a->machine, rc, e->msg);
		_exit(4);
	}
}

/* A link's bytes in the engine's last evaluation, into b (room for the
 * machine's links); their count. */
static int link_bytes(const struct run_args *a, const struct net_engine_ops *ops, void *eng,
                      double *b)
{
	const struct net_link_result *links;
	int nl;
	struct cmn_err e;
	if (ops->links(eng, &links, &nl, &e)) {
		fprintf(stderr, "\n  %s on %s: %s\n", a->engine, a->machine, e.msg);
		_exit(6);
	}
	for (int l = 0; l < nl && l < 4096; l++)
		b[l] = links[l].bytes;
	return nl < 4096 ? nl : 4096;
}

/* evaluate_many over four sets (both jobs, ft alone twice, then cg
 * alone) against evaluate of each: the same finishes to the bit,
 * the link loads the last set's. */
static int many_agrees(const struct run_args *a, const struct net_engine_ops *ops, void *eng,
                       const struct net_job *jobs)
{
	const struct net_job *sets[4] = {jobs, jobs + 1, jobs + 1, jobs};
	int ns[4] = {2, 1, 1, 1};
	struct net_job_result r[4][2], one[2];
	struct net_job_result *outs[4] = {r[0], r[1], r[2], r[3]};
	double *many_b = calloc(4096, sizeof *many_b), *alone_b = calloc(4096, sizeof *alone_b);
	struct cmn_err e;
	int agree = many_b && alone_b;
	if (agree && ops->evaluate_many(eng, 4, sets, ns, 0, outs, &e)) {
		fprintf(stderr, "\n  %s on %s: evaluate_many: %s\n", a->engine, a->machine, e.msg);
		agree = 0;
	}
	int nl = agree ? link_bytes(a, ops, eng, many_b) : 0;
	for (int s = 0; agree && s < 4; s++) {
		agree = !ops->evaluate(eng, sets[s], ns[s], 0, one, &e);
		for (int j = 0; agree && j < ns[s]; j++)
			agree = memcmp(&one[j].finish, &r[s][j].finish, sizeof one[j].finish) == 0;
	}
	if (agree) /* the last set's loads, alone */
		link_bytes(a, ops, eng, alone_b);
	agree = agree && memcmp(many_b, alone_b, (size_t)nl * sizeof *many_b) == 0;
	free(many_b), free(alone_b);
	return agree;
}

/* Two evaluations of the two jobs in engine eng into out (see NOUT). */
static void evaluate_twice(const struct run_args *a, const struct net_engine_ops *ops, void *eng,
                           double *out)
{
	struct trace *cg, *ft;
	struct cmn_err e;
	int exact;
	if (trace_generate_one("cg", 'S', 4, 1, &cg, &exact, &e) ||
	    trace_generate_one("ft", 'S', 4, 1, &ft, &exact, &e))
		_exit(5);
	int n1[4] = {0, 2, 5, 7}, n2[4] = {1, 3, 4, 6};
	struct net_job jobs[2] = {{"cg", cg, n1, 0, NULL}, {"ft", ft, n2, 0, NULL}};
	struct net_job_result r[2];
	const struct net_link_result *links;
	int nl;
	out[0] = 1;
	for (int t = 0; t < 2 && out[0]; t++) {
		int rc = ops->evaluate(eng, jobs, 2, 0, r, &e);
		if (rc) { /* an engine may build its network at the first evaluation */
			refused(a, rc, &e);
			out[0] = 0;
			break;
		}
		if (ops->links(eng, &links, &nl, &e)) {
			fprintf(stderr, "\n  %s on %s: %s\n", a->engine, a->machine, e.msg);
			_exit(6);
		}
		for (int j = 0; j < 2; j++)
			out[1 + 2 * t + j] =
			    r[j].finish > r[j].start && r[j].start >= 0 ? r[j].finish : -1;
	}
	out[5] = !out[0] || !ops->evaluate_many || many_agrees(a, ops, eng, jobs);
	trace_free(cg);
	trace_free(ft);
}

static void child(void *ctx, int fd)
{
	const struct run_args *a = ctx;
	double out[NOUT] = {-1, -1, -1, -1, -1, 0};
	struct plat_machine *m;
	struct cmn_err e;
	char xml[] = "/tmp/placesim-engine-XXXXXX";
	int x = mkstemp(xml);
	struct plat_xml_opts xo = {"SPLITDUPLEX", "test", NULL};
	if (x < 0 || plat_machine_create(a->machine, &m, &e) || plat_xml_write(m, &xo, xml, &e))
		_exit(2);
	close(x);
	const char *params;
	const struct net_engine_ops *ops = net_engine_find(a->engine, &params, &e);
	struct net_engine_args args = {m, xml, NULL, 0, 0, params, 0, NULL};
	void *eng;
	if (!ops)
		_exit(3);
	int rc = ops->create(&args, &eng, &e);
	if (rc) {
		refused(a, rc, &e);
		out[0] = 0;
	} else {
		evaluate_twice(a, ops, eng, out);
		ops->destroy(eng);
	}
	unlink(xml);
	plat_machine_destroy(m);
	if (write(fd, out, sizeof out) != sizeof out)
		_exit(7);
	_exit(0); /* SimGrid's state dies with the child */
}

static void test_contract(void)
{
	static const char *const machines[] = {"kary-ntree:k=4,n=2", "mesh:dims=4x4",
	                                       "torus:dims=4x2x2"};
	for (int i = 0; net_engine_registry[i]; i++)
		for (int k = 0; th_sample(&net_engine_registry[i]->base, k); k++) {
			const char *spec = th_sample(&net_engine_registry[i]->base, k);
			int ran = 0;
			for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
				struct run_args a = {spec, machines[mi]};
				double o1[NOUT], o2[NOUT];
				CU_ASSERT_EQUAL_FATAL(th_in_child(child, &a, o1, NOUT), 0);
				if (o1[0] == 0)
					continue;
				ran++;
				CU_ASSERT_EQUAL_FATAL(th_in_child(child, &a, o2, NOUT), 0);
				CU_ASSERT(o1[5] == 1); /* evaluate_many, where the engine has it */
				for (int j = 1; j < 5; j++) {
					CU_ASSERT(isfinite(o1[j]) && o1[j] > 0);
					CU_ASSERT(memcmp(&o1[j], &o2[j], sizeof o1[j]) == 0);
				}
				CU_ASSERT(o1[1] == o1[3] && o1[2] == o1[4]);
				fprintf(stderr, "  %-24s %-20s cg %.9f ft %.9f\n", spec,
				        machines[mi], o1[1], o1[2]);
			}
			CU_ASSERT(ran > 0);
		}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("network engine contract", NULL, NULL);
	CU_add_test(s, "every engine's samples", test_contract);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
