/* sg_load_probe PLATFORM.xml: what SimGrid 3.32 makes of a platform, as
 * netsim hands it over: simgrid_init, simgrid_load_platform, one
 * simgrid_run() to seal it, then the route between every two of its first
 * 64 hosts. Exit 0: loaded; 3: two hosts have no route (SimGrid aborts
 * when they communicate); SimGrid's own errors kill the process (the
 * corpus test runs it in a child and reads how it ended). */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/dynar.h>

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
	free(hosts);
	printf("loaded: %zu hosts\n", n);
	return rc;
}
