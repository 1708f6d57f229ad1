/* sg_load_probe PLATFORM.xml: what SimGrid 3.32 makes of a platform, as
 * netsim hands it over: simgrid_init, simgrid_load_platform, one
 * simgrid_run() to seal it, then the route between every two of its first
 * 64 hosts, then a short run on them as a job's ranks would use them:
 * each computes 10^6 flops and sends 10^6 bytes to the next (SimGrid reads
 * profiles and uses speeds, bandwidths and latencies only while it runs,
 * and dies there on some). Exit 0: loaded and ran; 3: two hosts have no
 * route (SimGrid aborts when they communicate); 4: the run's clock ended
 * infinite; SimGrid's own errors kill the process (the corpus test runs it
 * in a child, with a time limit, and reads how it ended). */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/dynar.h>

static void sender(int argc, char *argv[])
{
	static char token; /* SimGrid sends no NULL payload */
	(void)argc;
	sg_actor_execute(1e6);
	sg_mailbox_put(sg_mailbox_by_name(argv[1]), &token, 1000000);
}

static void receiver(int argc, char *argv[])
{
	(void)argc;
	sg_mailbox_get(sg_mailbox_by_name(argv[1]));
}

int main(int argc, char **argv)
{
	simgrid_init(&argc, argv);
	if (argc != 2) {
		fprintf(stderr, "usage: sg_load_probe platform.xml\n");
		return 2;
	}
	simgrid_load_platform(argv[1]);
	simgrid_run();
	size_t n = sg_host_count();
	sg_host_t *hosts = n ? sg_host_list() : NULL;
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	int rc = 0;
	for (size_t a = 0; a < n && a < 64 && !rc; a++)
		for (size_t b = 0; b < n && b < 64 && !rc; b++) {
			if (a == b)
				continue;
			xbt_dynar_reset(links);
			sg_host_get_route(hosts[a], hosts[b], links);
			if (xbt_dynar_is_empty(links) &&
			    sg_host_get_route_latency(hosts[a], hosts[b]) <= 0) {
				fprintf(stderr, "sg_load_probe: no route from %s to %s\n",
				        sg_host_get_name(hosts[a]), sg_host_get_name(hosts[b]));
				rc = 3;
			}
		}
	xbt_dynar_free(&links);
	size_t k = n < 64 ? n : 64;
	for (size_t a = 0; !rc && k > 1 && a < k; a++) {
		char to[32], at[32];
		snprintf(to, sizeof to, "mb-%zu", (a + 1) % k);
		snprintf(at, sizeof at, "mb-%zu", a);
		char *sargv[] = {"sender", to, NULL}, *rargv[] = {"receiver", at, NULL};
		sg_actor_create("sender", hosts[a], sender, 2, sargv);
		sg_actor_create("receiver", hosts[a], receiver, 2, rargv);
	}
	if (!rc && k > 1) {
		simgrid_run();
		if (!isfinite(simgrid_get_clock())) {
			fprintf(stderr, "sg_load_probe: the run's clock ended at %g\n",
			        simgrid_get_clock());
			rc = 4;
		}
	}
	free(hosts);
	printf("loaded: %zu hosts\n", n);
	return rc;
}
