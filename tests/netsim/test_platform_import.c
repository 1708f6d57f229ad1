/* Any SimGrid platform as a machine (net_platform_load): hosts as nodes in
 * document order, routes as SimGrid makes them (Full routes with a
 * SPLITDUPLEX link's halves, Floyd routes through routers, routes between
 * zones through their gateways), a --hosts list (order, subset, @FILE, and
 * each bad list refused naming the host), a cluster with its own host
 * names mapped onto its family with those names, and what our own models
 * cannot take (different speeds, SimGrid's routes for the flit engine)
 * refused by them with the reason. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "../helpers.h"
#include "netsim.h"
#include "xml_read.h"

#define HEAD                                                                                       \
	"<?xml version=\"1.0\"?>\n"                                                                \
	"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"                         \
	"<platform version=\"4.1\">\n"

/* Tremblay-Jupiter over l1 and the backbone, Tremblay-Ginette over l3's UP
 * half (DOWN back), every other pair a route of its own. */
static const char full[] =
    HEAD "<zone id=\"world\" routing=\"Full\">\n"
         " <host id=\"Tremblay\" speed=\"1Gf\"/>\n"
         " <host id=\"Jupiter\" speed=\"1Gf\"/>\n"
         " <host id=\"Fafard\" speed=\"1Gf\"/>\n"
         " <host id=\"Ginette\" speed=\"1Gf\"/>\n"
         " <link id=\"l1\" bandwidth=\"10MBps\" latency=\"100us\"/>\n"
         " <link id=\"l2\" bandwidth=\"20MBps\" latency=\"50us\"/>\n"
         " <link id=\"l3\" bandwidth=\"30MBps\" latency=\"100us\" "
         "sharing_policy=\"SPLITDUPLEX\"/>\n"
         " <link id=\"backbone\" bandwidth=\"100MBps\" latency=\"10us\"/>\n"
         " <route src=\"Tremblay\" dst=\"Jupiter\"><link_ctn id=\"l1\"/>"
         "<link_ctn id=\"backbone\"/></route>\n"
         " <route src=\"Tremblay\" dst=\"Fafard\"><link_ctn id=\"l1\"/>"
         "<link_ctn id=\"l2\"/></route>\n"
         " <route src=\"Tremblay\" dst=\"Ginette\"><link_ctn id=\"l3\" "
         "direction=\"UP\"/></route>\n"
         " <route src=\"Tremblay\" dst=\"Tremblay\"><link_ctn id=\"l2\"/></route>\n"
         " <route src=\"Jupiter\" dst=\"Fafard\"><link_ctn id=\"backbone\"/>"
         "<link_ctn id=\"l2\"/></route>\n"
         " <route src=\"Jupiter\" dst=\"Ginette\"><link_ctn id=\"backbone\"/></route>\n"
         " <route src=\"Fafard\" dst=\"Ginette\"><link_ctn id=\"l2\"/></route>\n"
         "</zone>\n</platform>\n";

static struct plat_machine *load(const char *text, const char *hosts, struct cmn_err *e, int *rc)
{
	char *path = th_write_temp(text, ".xml");
	struct plat_machine *m = NULL;
	*rc = net_platform_load(path, hosts, &m, e);
	th_free_temp(path);
	return m;
}

static int route(const struct plat_machine *m, int a, int b, int *l)
{
	return plat_route(m, a, b, l);
}

static void test_full(void)
{
	struct cmn_err e;
	int rc, l[16], back[16];
	struct plat_machine *m = load(full, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 4);
	const char *want[] = {"Tremblay", "Jupiter", "Fafard", "Ginette"};
	for (int i = 0; i < 4; i++)
		CU_ASSERT_STRING_EQUAL(m->host_names[i], want[i]);
	CU_ASSERT(strncmp(m->spec, "routes:", 7) == 0);
	CU_ASSERT_STRING_EQUAL(m->limits, "");
	CU_ASSERT_EQUAL(m->speed_flops, 1e9);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 2);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 3), 1);
	CU_ASSERT_EQUAL(plat_distance(m, 3, 0), 1);
	CU_ASSERT_EQUAL(plat_distance(m, 2, 2), 0);
	/* symmetrical routes: the same links backwards, a split link's other half */
	int n = route(m, 0, 1, l);
	CU_ASSERT_EQUAL(route(m, 1, 0, back), n);
	CU_ASSERT(n == 2 && l[0] == back[1] && l[1] == back[0]);
	CU_ASSERT_EQUAL(m->links[l[0]].bw_bps, 1e7); /* l1 */
	CU_ASSERT_EQUAL(m->links[l[1]].bw_bps, 1e8); /* backbone */
	CU_ASSERT_EQUAL(route(m, 0, 3, l), 1);
	CU_ASSERT_EQUAL(route(m, 3, 0, back), 1);
	CU_ASSERT(l[0] != back[0]); /* l3_UP, l3_DOWN */
	CU_ASSERT_EQUAL(m->links[l[0]].bw_bps, 3e7);
	CU_ASSERT_EQUAL(m->links[back[0]].bw_bps, 3e7);
	CU_ASSERT_DOUBLE_EQUAL(m->links[l[0]].lat_s, 1e-4, 1e-15);
	/* what our own engines and models can take */
	CU_ASSERT_EQUAL(plat_own_model_check(m, "linkload", 0, &e), 0);
	CU_ASSERT_EQUAL(plat_own_model_check(m, "the flit engine", 1, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "routers"));
	plat_machine_destroy(m);
}

static void test_floyd_and_zones(void)
{
	static const char floyd[] =
	    HEAD "<zone id=\"w\" routing=\"Floyd\">\n"
	         " <host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
	         "<host id=\"c\" speed=\"1Gf\"/>\n"
	         " <router id=\"r1\"/><router id=\"r2\"/>\n"
	         " <link id=\"la\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"lb\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"lc\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"lr\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	         " <route src=\"a\" dst=\"r1\"><link_ctn id=\"la\"/></route>\n"
	         " <route src=\"r1\" dst=\"r2\"><link_ctn id=\"lr\"/></route>\n"
	         " <route src=\"r2\" dst=\"b\"><link_ctn id=\"lb\"/></route>\n"
	         " <route src=\"r1\" dst=\"c\"><link_ctn id=\"lc\"/></route>\n"
	         "</zone>\n</platform>\n";
	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(floyd, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 3);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 3); /* la lr lb */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 2), 2); /* la lc */
	CU_ASSERT_EQUAL(plat_distance(m, 1, 2), 3); /* lb lr lc */
	CU_ASSERT_EQUAL(plat_max_route(m), 3);
	plat_machine_destroy(m);

	static const char zones[] = HEAD
	    "<zone id=\"w\" routing=\"Full\">\n"
	    " <zone id=\"z1\" routing=\"Full\">\n"
	    "  <host id=\"h1\" speed=\"1Gf\"/><host id=\"h2\" speed=\"1Gf\"/>"
	    "<router id=\"g1\"/>\n"
	    "  <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	    "<link id=\"l2\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	    "  <route src=\"h1\" dst=\"g1\"><link_ctn id=\"l1\"/></route>\n"
	    "  <route src=\"h2\" dst=\"g1\"><link_ctn id=\"l2\"/></route>\n"
	    "  <route src=\"h1\" dst=\"h2\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n"
	    " </zone>\n"
	    " <zone id=\"z2\" routing=\"Full\">\n"
	    "  <host id=\"h3\" speed=\"1Gf\"/><router id=\"g2\"/>\n"
	    "  <link id=\"l3\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	    "  <route src=\"h3\" dst=\"g2\"><link_ctn id=\"l3\"/></route>\n"
	    " </zone>\n"
	    " <link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
	    " <zoneRoute src=\"z1\" dst=\"z2\" gw_src=\"g1\" gw_dst=\"g2\">"
	    "<link_ctn id=\"wan\"/></zoneRoute>\n"
	    "</zone>\n</platform>\n";
	m = load(zones, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 3);
	CU_ASSERT_STRING_EQUAL(m->host_names[2], "h3");
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 2); /* l1 l2 */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 2), 3); /* l1 wan l3 */
	CU_ASSERT_EQUAL(plat_distance(m, 2, 1), 3); /* l3 wan l2 */
	int l[8], n = plat_route(m, 0, 2, l);
	CU_ASSERT(n == 3 && m->links[l[1]].bw_bps == 1e7 &&
	          fabs(m->links[l[1]].lat_s - 1e-2) < 1e-15);
	plat_machine_destroy(m);
}

/* A platform of two zones whose routes, each within the limit, chain
 * into one of `per` x 3 links (host to gateway, the zoneRoute, gateway
 * to host); malloc'ed. */
static char *chained(int per)
{
	size_t cap = 4096 + (size_t)per * 3 * 120;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	size_t len = (size_t)snprintf(t, cap, HEAD "<zone id=\"top\" routing=\"Full\">\n");
	static const char *const part[] = {"x", "y", "w"};
	for (int z = 0; z < 3; z++) {
		if (z < 2)
			len +=
			    (size_t)snprintf(t + len, cap - len,
			                     "<zone id=\"z%d\" routing=\"Full\">\n<host id=\"h%d\" "
			                     "speed=\"1Gf\"/><router id=\"g%d\"/>\n",
			                     z, z, z);
		for (int i = 0; i < per; i++)
			len += (size_t)snprintf(
			    t + len, cap - len,
			    "<link id=\"%s%d\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n", part[z],
			    i);
		len += (size_t)snprintf(t + len, cap - len,
		                        z == 0   ? "<route src=\"h0\" dst=\"g0\">"
		                        : z == 1 ? "<route src=\"g1\" dst=\"h1\">"
		                                 : "<zoneRoute src=\"z0\" dst=\"z1\" gw_src=\"g0\" "
		                                   "gw_dst=\"g1\">");
		for (int i = 0; i < per; i++)
			len += (size_t)snprintf(t + len, cap - len, "<link_ctn id=\"%s%d\"/>",
			                        part[z], i);
		len += (size_t)snprintf(t + len, cap - len, "%s\n",
		                        z < 2 ? "</route></zone>" : "</zoneRoute>");
	}
	snprintf(t + len, cap - len, "</zone>\n</platform>\n");
	return t;
}

/* Routes within the limit that chain through zones beyond it: SimGrid
 * builds them (and takes minutes a message), refused by name; at the
 * limit, read. */
static void test_chained_routes(void)
{
	struct cmn_err e;
	int rc;
	char *t = chained(1365); /* 4,095 links */
	CU_ASSERT_FATAL(t != NULL);
	struct plat_machine *m = load(t, NULL, &e, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(m && plat_distance(m, 0, 1) == 4095);
	plat_machine_destroy(m);
	free(t);
	t = chained(1500);
	CU_ASSERT_FATAL(t != NULL);
	m = load(t, NULL, &e, &rc);
	CU_ASSERT_EQUAL(rc, CMN_EINPUT);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e.msg, "route from \"h0\" to \"h1\" crosses 4500 links through its zones; at "
	                  "most 4096"));
	free(t);
}

/* Dijkstra zones: SimGrid's routes, asked once per source through a
 * DijkstraCache copy (plat_xml_dijkstra_cached: only the routing
 * attribute changes, the copy is removed); a file without one is used as
 * it is. */
static void test_dijkstra(void)
{
	static const char dij[] =
	    HEAD "<zone id=\"w\" routing=\"Full\">\n"
	         " <zone id=\"d\" routing=\"Dijkstra\">\n"
	         "  <host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
	         "<host id=\"c\" speed=\"1Gf\"/><router id=\"r\"/>\n"
	         "  <link id=\"la\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"lb\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"lc\" bandwidth=\"1GBps\" latency=\"1us\"/>"
	         "<link id=\"ab\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	         "  <route src=\"a\" dst=\"r\"><link_ctn id=\"la\"/></route>\n"
	         "  <route src=\"b\" dst=\"r\"><link_ctn id=\"lb\"/></route>\n"
	         "  <route src=\"c\" dst=\"r\"><link_ctn id=\"lc\"/></route>\n"
	         "  <route src=\"a\" dst=\"b\"><link_ctn id=\"ab\"/></route>\n"
	         " </zone>\n"
	         " <zone id=\"f\" routing=\"Floyd\">\n"
	         "  <host id=\"e\" speed=\"1Gf\"/>\n"
	         " </zone>\n"
	         " <link id=\"wan\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	         " <zoneRoute src=\"d\" dst=\"f\" gw_src=\"r\" gw_dst=\"e\">"
	         "<link_ctn id=\"wan\"/></zoneRoute>\n"
	         "</zone>\n</platform>\n";
	char *path = th_write_temp(dij, ".xml"), copy[4096] = "x";
	CU_ASSERT_EQUAL_FATAL(plat_xml_dijkstra_cached(path, copy, sizeof copy), 1);
	char *orig = th_read_file(path), *made = th_read_file(copy);
	CU_ASSERT_FATAL(orig && made);
	/* the copy is the file with routing="DijkstraCache" in zone d only */
	char *at = strstr(orig, "routing=\"Dijkstra\"");
	CU_ASSERT_FATAL(at != NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(made, "<zone id=\"d\" routing=\"DijkstraCache\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(made, "<zone id=\"f\" routing=\"Floyd\">"));
	CU_ASSERT_PTR_NULL(strstr(made, "routing=\"Dijkstra\""));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(made, "<route src=\"a\" dst=\"b\"><link_ctn id=\"ab\"/></route>"));
	free(orig);
	free(made);
	cmn_cleanup_remove(copy);
	CU_ASSERT_EQUAL(access(copy, F_OK), -1);
	th_free_temp(path);
	/* no Dijkstra zone: no copy */
	path = th_write_temp(full, ".xml");
	CU_ASSERT_EQUAL(plat_xml_dijkstra_cached(path, copy, sizeof copy), 0);
	th_free_temp(path);

	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(dij, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 4);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 1); /* ab */
	CU_ASSERT_EQUAL(plat_distance(m, 1, 0), 1); /* ab back */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 2), 2); /* la lc */
	CU_ASSERT_EQUAL(plat_distance(m, 2, 1), 2); /* lc lb */
	CU_ASSERT_EQUAL(plat_distance(m, 1, 3),
	                2); /* lb wan: to the gateway r, then the zone route */
	CU_ASSERT_EQUAL(plat_distance(m, 3, 2), 2); /* wan lc */
	plat_machine_destroy(m);
}

static void test_hosts(void)
{
	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(full, "Ginette, Tremblay", &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 2);
	CU_ASSERT_STRING_EQUAL(m->host_names[0], "Ginette");
	CU_ASSERT_STRING_EQUAL(m->host_names[1], "Tremblay");
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 1);
	plat_machine_destroy(m);

	char *list =
	    th_write_temp("# the two of the backbone\nJupiter\n\n  Fafard  # second\n", ".txt");
	char arg[600];
	snprintf(arg, sizeof arg, "@%s", list);
	m = load(full, arg, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 2);
	CU_ASSERT_STRING_EQUAL(m->host_names[0], "Jupiter");
	CU_ASSERT_STRING_EQUAL(m->host_names[1], "Fafard");
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 2);
	plat_machine_destroy(m);
	th_free_temp(list);

	const char *bad[][2] = {{"Tremblay,Nowhere", "\"Nowhere\""},
	                        {"Jupiter,Jupiter", "twice"},
	                        {"Jupiter,,Fafard", "empty"},
	                        {"Jupiter,Fafard,", "host 3 is empty"},
	                        {"", "no host"},
	                        {"@/nonexistent/hosts.txt", "/nonexistent/hosts.txt"}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		m = load(full, bad[i][0], &e, &rc);
		CU_ASSERT_PTR_NULL(m);
		CU_ASSERT_NOT_EQUAL(rc, 0);
		if (!strstr(e.msg, bad[i][1]))
			printf("\n  --hosts '%s': %s", bad[i][0], e.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
}

static void test_cluster_names(void)
{
	static const char cluster[] =
	    HEAD "<zone id=\"w\" routing=\"Full\">\n"
	         " <cluster id=\"c\" prefix=\"c-\" suffix=\".me\" radical=\"0-7\" speed=\"1Gf\" "
	         "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/>\n"
	         "</zone>\n</platform>\n";
	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(cluster, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT(strncmp(m->spec, "flat:", 5) == 0); /* the family, not SimGrid's routes */
	CU_ASSERT_EQUAL(m->nodes, 8);
	CU_ASSERT_STRING_EQUAL(m->host_names[0], "c-0.me");
	CU_ASSERT_STRING_EQUAL(m->host_names[7], "c-7.me");
	CU_ASSERT_STRING_EQUAL(m->host_names[3], "c-3.me");
	/* its backbone's latency is not in the flat family: ours refuse it */
	CU_ASSERT_EQUAL(plat_own_model_check(m, "the flit engine", 1, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "a backbone that takes time or bandwidth"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "bb_lat=\"500us\"> at line "));
	plat_machine_destroy(m);
	/* the same with --hosts: SimGrid's routes of the cluster */
	m = load(cluster, "c-5.me,c-2.me", &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT(strncmp(m->spec, "routes:", 7) == 0);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 3); /* up, backbone, down */
	plat_machine_destroy(m);
}

static void test_limits(void)
{
	char het[sizeof full + 16];
	snprintf(het, sizeof het, "%s", full);
	char *p = strstr(het, "\"Ginette\" speed=\"1Gf\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(strstr(p, "1Gf"), "2Gf", 3);
	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(het, NULL, &e, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m->limits, "different speeds"));
	CU_ASSERT_EQUAL(plat_own_model_check(m, "the linkload model", 0, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "different speeds"));
	plat_machine_destroy(m);
	/* an invalid file: its own error, with its line */
	m = load(HEAD "<zone id=\"w\" routing=\"Full\">\n<host id=\"a\"/>\n</zone></platform>\n",
	         NULL, &e, &rc);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_EQUAL(rc, CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ".xml:5:"));
}

/* What SimGrid simulates and no family here has: a zone routed Cluster
 * whose hosts come from cabinets (in radical order, cabinet by cabinet),
 * a speed profile in the file: read through SimGrid's routes. */
static void test_unmapped(void)
{
	static const char cabinets[] =
	    HEAD " <trace id=\"A\" periodicity=\"10\">\n0.0 1.0\n5.0 0.5\n</trace>\n"
	         "<zone id=\"w\" routing=\"Full\">\n"
	         " <zone id=\"c\" routing=\"Cluster\">\n"
	         "  <cabinet id=\"k1\" prefix=\"h-\" suffix=\".x\" speed=\"1Gf\" bw=\"125MBps\" "
	         "lat=\"100us\" radical=\"3-4\"/>\n"
	         "  <cabinet id=\"k2\" prefix=\"h-\" suffix=\".x\" speed=\"1Gf\" bw=\"125MBps\" "
	         "lat=\"100us\" radical=\"1,2\"/>\n"
	         "  <router id=\"r\"/>\n"
	         "  <backbone id=\"bb\" bandwidth=\"2.25GBps\" latency=\"500us\"/>\n"
	         " </zone>\n"
	         "</zone>\n"
	         "<trace_connect kind=\"SPEED\" trace=\"A\" element=\"h-1.x\"/>\n"
	         "</platform>\n";
	struct cmn_err e;
	int rc;
	struct plat_machine *m = load(cabinets, NULL, &e, &rc);
	if (rc)
		printf("\n  %s", e.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 4);
	const char *want[] = {"h-3.x", "h-4.x", "h-1.x", "h-2.x"};
	for (int i = 0; i < 4 && i < m->nodes; i++)
		CU_ASSERT_STRING_EQUAL(m->host_names[i], want[i]);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 1), 3); /* a cabinet's up, backbone, down */
	plat_machine_destroy(m);
	/* plat_load (jobsched) still refuses it, naming the first such thing */
	char *path = th_write_temp(cabinets, ".xml");
	CU_ASSERT_EQUAL(plat_load(path, &m, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ".xml:4: error: <trace>"));
	th_free_temp(path);
}

/* The malformed-platform corpus (tests/platforms/xml, each file saying
 * what SimGrid 3.32 does with it): every file SimGrid refuses is refused
 * here too, with one message naming the file, never reaching SimGrid in
 * this process; every file SimGrid loads is a machine or a clean error. */
static void test_corpus(void)
{
	FILE *ls = popen("ls " SOURCE_DIR "/tests/platforms/xml/*.xml", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ls);
	char path[1024];
	int files = 0, loaded = 0;
	while (fgets(path, sizeof path, ls)) {
		path[strcspn(path, "\n")] = '\0';
		char *text = th_read_file(path);
		if (!text)
			continue;
		int refuses = strstr(text, "simgrid: refuses") != NULL;
		free(text);
		struct plat_machine *m = NULL;
		struct cmn_err e;
		cmn_err_clear(&e);
		int rc = net_platform_load(path, NULL, &m, &e);
		files++;
		loaded += rc == 0;
		if (refuses && rc == 0)
			printf("\n  SimGrid refuses %s, net_platform_load reads it", path);
		CU_ASSERT(!refuses || rc != 0);
		CU_ASSERT(rc != 0 || m != NULL);
		CU_ASSERT(rc == 0 ||
		          (strstr(e.msg, strrchr(path, '/') + 1) && !strchr(e.msg, '\n')));
		plat_machine_destroy(m);
	}
	pclose(ls);
	printf("\n  %d files, %d read as machines ", files, loaded);
	CU_ASSERT(files > 100);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("any SimGrid platform as a machine", NULL, NULL);
	CU_add_test(s, "Full routes, split links, symmetry", test_full);
	CU_add_test(s, "Floyd routers and zones' gateways", test_floyd_and_zones);
	CU_add_test(s, "routes chained through zones beyond the limit", test_chained_routes);
	CU_add_test(s, "Dijkstra zones asked once per source", test_dijkstra);
	CU_add_test(s, "--hosts: order, subset, @FILE, errors", test_hosts);
	CU_add_test(s, "a cluster's own names on its family", test_cluster_names);
	CU_add_test(s, "what our models cannot take", test_limits);
	CU_add_test(s, "what only SimGrid routes: Cluster zones, profiles", test_unmapped);
	CU_add_test(s, "the corpus: SimGrid refuses => refused here", test_corpus);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
