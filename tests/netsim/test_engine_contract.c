/* Network engines: a contract over the registry, each engine's own samples
 * (cmn_plugin.samples, or its name) on a 4-ary 2-tree, a 4x4 mesh and a
 * 4x2x2 torus: the engine takes the machine or refuses it (when it is
 * made or at its first evaluation) with a usage error that names the
 * engine; where it takes it, two jobs (CG and FT, class S, 4
 * ranks, one iteration each, interleaved on the nodes) run together to
 * their ends, finish after start, finite, the links' loads can be read, a
 * second evaluation in the same engine and a second engine give the same
 * times to the bit. A new engine is tested here without editing this file.
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

enum { NOUT = 5 }; /* status (1 ran, 0 refused), then the two jobs' finishes, twice */

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
	trace_free(cg);
	trace_free(ft);
}

static void child(void *ctx, int fd)
{
	const struct run_args *a = ctx;
	double out[NOUT] = {-1, -1, -1, -1, -1};
	struct plat_machine *m;
	struct cmn_err e;
	char xml[] = "/tmp/placesim-engine-XXXXXX";
	int x = mkstemp(xml);
	struct plat_xml_opts xo = {"SPLITDUPLEX", "test"};
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
				for (int j = 1; j < NOUT; j++) {
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
