/* Resizable jobs in a real log (--resizable P:K): a share of the jobs,
 * chosen by a hash of (seed, job number) so the same jobs are resizable
 * under every scheduler and whatever was cleaned away, become resizable
 * with K equal iterations and the arbitrary processor topology; their run
 * time in the log is their run time on the size they start with. A chosen
 * job of run time 0 stays rigid (its iterations would take no time, and
 * a resize point none either). */
#include "../../common/hash.h"
#include "workload.h"

long js_make_resizable(struct js_workload *w, double pct, int iters, unsigned long seed,
                       long *rigid)
{
	long made = 0;
	*rigid = 0;
	for (size_t i = 0; i < w->n; i++) {
		struct js_job *j = &w->jobs[i];
		if (cmn_hash_unit(seed, j->id) * 100.0 < pct) {
			if (!(j->run_s > 0)) { /* iterations of no time: nothing to resize at */
				++*rigid;
				continue;
			}
			j->resizable = 1;
			j->iters = (uint16_t)iters;
			j->topo = JS_TOPO_ARBITRARY;
			made++;
		}
	}
	return made;
}
