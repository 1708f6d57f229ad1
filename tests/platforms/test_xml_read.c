/* Reading platforms back: SimGrid's value units, clusters written by
 * platgen or by hand map to the same machines, write-read-write gives the
 * same file, and every class of bad XML is refused with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../helpers.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_read.h"
#include "xml_write.h"

static void test_units(void)
{
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("1Gf", 'f'), 1e9, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("2.5e9f", 'f'), 2.5e9, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("10GBps", 'b'), 1e10, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("100Mbps", 'b'), 12.5e6, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("1us", 't'), 1e-6, 1e-18);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("5ms", 't'), 5e-3, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("0.1s", 't'), 0.1, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("2gigaflops", 'f'), 2e9, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("1EBps", 'b'), 1e18, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("8Kibps", 'b'), 1024, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("2w", 't'), 1209600, 0);
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("1000", 'b'), 1000, 0); /* SimGrid: Bps */
	CU_ASSERT_DOUBLE_EQUAL(plat_xml_value("0", 't'), 0, 0);
	CU_ASSERT(plat_xml_value("1G", 'f') < 0);
	CU_ASSERT(plat_xml_value("1Kbps", 'b') < 0); /* k, or Ki */
	CU_ASSERT(plat_xml_value("1e999Bps", 'b') < 0);
	CU_ASSERT(plat_xml_value("1Gf ", 'f') < 0);
	CU_ASSERT(plat_xml_value("fast", 'f') < 0);
	CU_ASSERT(plat_xml_value("10GB", 'b') < 0);
	CU_ASSERT(plat_xml_value("-1s", 't') < 0);
	CU_ASSERT(plat_xml_value("1sec", 't') < 0);
}

/* The machine of spec (in *m) and platgen's file for it, a temporary path
 * (the caller unlinks and frees it). */
static char *written(const char *spec, struct plat_machine **m)
{
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(spec, m, &e) == 0);
	char *a = th_write_temp("", ".xml");
	struct plat_xml_opts o = {"SPLITDUPLEX", "test", NULL};
	CU_ASSERT_FATAL(plat_xml_write(*m, &o, a, &e) == 0);
	return a;
}

/* platgen's file for spec reads back as the same machine, and writing that
 * machine again gives the same file. */
static void round_trip(const char *spec)
{
	struct plat_machine *m, *back;
	struct cmn_err e;
	char *a = written(spec, &m), *b = th_write_temp("", ".xml");
	struct plat_xml_opts o = {"SPLITDUPLEX", "test", NULL};
	int rc = plat_load(a, &back, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n  %s\n", e.msg);
	CU_ASSERT_STRING_EQUAL(back->spec, m->spec);
	CU_ASSERT_EQUAL(back->nodes, m->nodes);
	CU_ASSERT_EQUAL(back->nlinks, m->nlinks);
	CU_ASSERT_FATAL(plat_xml_write(back, &o, b, &e) == 0);
	char *sa = th_read_file(a), *sb = th_read_file(b);
	CU_ASSERT(sa && sb && strcmp(sa, sb) == 0);
	free(sa), free(sb);
	th_free_temp(a), th_free_temp(b);
	plat_machine_destroy(back);
	plat_machine_destroy(m);
}

static void test_round_trip(void)
{
	round_trip("flat:nodes=16");
	round_trip("kary-ntree:k=4,n=3");
	round_trip("kary-ntree:k=2,n=6,bw=1e9,lat=2e-06,speed=2e9");
	round_trip("kary-ntree:k=2,n=3,taper=0.5");
	round_trip("kary-ntree:k=4,n=2,taper=1/0.25");
	round_trip("multicluster:clusters=2,size=16,cluster=kary-ntree;k=4;n=2;taper=0.5");
	round_trip("torus:dims=4x4x8");
	round_trip("torus:dims=5x3");
	round_trip("mesh:dims=8x8");
	round_trip("mesh:dims=4x3x2,bw=1e9,lat=5e-07");
	round_trip("mesh:dims=7");
	round_trip("multicluster:clusters=5,size=20");
	round_trip("multicluster:clusters=3,sizes=4/8/2,wan=backbone,wan_bw=1e7,wan_lat=0.02");
	round_trip("multicluster:clusters=3,size=16,cluster=kary-ntree;k=4;n=2");
	round_trip("multicluster:clusters=2,size=6,cluster=mesh;dims=3x2,wan=backbone");
	round_trip("multicluster:clusters=2,size=8,cluster=torus;dims=4x2");
}

/* platgen's file for spec loaded back: the machine read (NULL, said on
 * stderr, when plat_load refused it), with as many nodes as spec's. */
static struct plat_machine *write_and_load(const char *spec)
{
	struct plat_machine *m, *back = NULL;
	struct cmn_err e;
	char *a = written(spec, &m);
	int rc = plat_load(a, &back, &e);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc) {
		fprintf(stderr, "\n  %s: %s\n", spec, e.msg);
		back = NULL;
	} else {
		CU_ASSERT_EQUAL(back->nodes, m->nodes);
	}
	th_free_temp(a);
	plat_machine_destroy(m);
	return back;
}

/* A torus with dimensions of one node: its file leaves them out (SimGrid
 * gives each a host's link to itself under one name, and two abort its
 * parser), so it reads back as the torus without them, the same hosts. */
static void test_torus_unit_dims(void)
{
	static const char *const spec[][2] = {{"torus:dims=1x1x5", "torus:dims=5,"},
	                                      {"torus:dims=3x1x3", "torus:dims=3x3,"},
	                                      {"torus:dims=1x4", "torus:dims=4,"},
	                                      {"torus:dims=1x1", "torus:dims=1,"}};
	for (size_t i = 0; i < sizeof spec / sizeof *spec; i++) {
		struct plat_machine *back = write_and_load(spec[i][0]);
		if (back) {
			CU_ASSERT_PTR_NOT_NULL(strstr(back->spec, spec[i][1]));
			plat_machine_destroy(back);
		}
	}
}

/* Every family's own samples (its ops' samples), where it writes XML: the
 * file loads as a machine of as many nodes, and that machine's file reads
 * back as itself (a multi-cluster of one cluster reads back as its cluster:
 * the file has no WAN to tell it from one). */
static void test_round_trip_samples(void)
{
	for (int f = 0; plat_topology_registry[f]; f++) {
		const struct plat_topology_ops *ops = plat_topology_registry[f];
		for (int k = 0; ops->xml_write && ops->base.samples && ops->base.samples[k]; k++) {
			struct plat_machine *back = write_and_load(ops->base.samples[k]);
			if (back) {
				round_trip(back->spec);
				plat_machine_destroy(back);
			}
		}
	}
}

/* A family without a SimGrid or Slurm writer is refused by name, before
 * anything is written. */
static void test_family_without_writers(void)
{
	struct plat_topology_ops ops;
	struct plat_machine *m = th_machine_as("flat:nodes=4", "bare", &ops);
	struct cmn_err e;
	ops.xml_write = NULL;
	ops.slurm_write = NULL;
	char *a = th_write_temp("", ".xml");
	unlink(a);
	struct plat_xml_opts o = {"SPLITDUPLEX", "test", NULL};
	CU_ASSERT_EQUAL(plat_xml_write(m, &o, a, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "the bare family has no SimGrid platform writer"));
	CU_ASSERT_NOT_EQUAL(access(a, F_OK), 0);
	char *t = th_write_temp("", ".conf");
	FILE *f = fopen(t, "w");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(plat_slurm_write(f, m, &e), CMN_EUSAGE);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "the bare family has no Slurm topology.conf writer"));
	char *written = th_read_file(t);
	CU_ASSERT(written && written[0] == '\0');
	free(written);
	th_free_temp(t);
	plat_machine_destroy(m);
	th_free_temp(a);
}

static struct plat_machine *load_text(const char *text, int *rc, struct cmn_err *e)
{
	char *path = th_write_temp(text, ".xml");
	struct plat_machine *m = NULL;
	*rc = plat_load(path, &m, e);
	th_free_temp(path);
	return m;
}

#define HEAD                                                                                       \
	"<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
/* A platform opening a Full zone "z" (its lines 1 to 3). */
#define FULL_ZONE HEAD "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"

/* SimGrid's own example clusters, as SIMGRID.md shows them. */
static void test_simgrid_clusters(void)
{
	int rc;
	struct cmn_err e;
	struct plat_machine *m = load_text(
	    HEAD "<platform version=\"4.1\">\n"
	         "<cluster id=\"ft\" prefix=\"node-\" suffix=\"\" radical=\"0-63\" speed=\"1Gf\"\n"
	         "  bw=\"1.25GBps\" lat=\"1us\" sharing_policy=\"SPLITDUPLEX\"\n"
	         "  topology=\"FAT_TREE\" topo_parameters=\"3;4,4,4;1,4,4;1,1,1\"/>\n</platform>\n",
	    &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(
	    m->spec, "kary-ntree:k=4,n=3,taper=1,bw=1250000000,lat=1e-06,speed=1000000000");
	plat_machine_destroy(m);
	m = load_text(HEAD "<platform version=\"4.1\">\n"
	                   "<cluster id=\"torus\" prefix=\"node-\" suffix=\"\" radical=\"0-127\" "
	                   "speed=\"1Gf\" bw=\"1.25GBps\" lat=\"1us\" topology=\"TORUS\" "
	                   "topo_parameters=\"4,4,8\"/>\n</platform>\n",
	              &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(m->nodes, 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(m->spec, "torus:dims=8x4x4")); /* SimGrid's x fastest */
	plat_machine_destroy(m);
	m = load_text(FULL_ZONE "<cluster id=\"c\" prefix=\"h\" suffix=\".x\" radical=\"0-3,8-11\" "
	                        "speed=\"2Gf\" bw=\"100Mbps\" lat=\"50us\"/></zone></platform>\n",
	              &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(m->spec, "flat:nodes=8,bw=12500000,lat=5e-05,speed=2000000000");
	plat_machine_destroy(m);
}

/* Each class of bad XML: refused, naming the file's line and the problem. */
static void test_bad_xml(void)
{
	static const char *const cases[][3] = {
	    {"<platform version=\"4.1\"><cluster id=\"c\"\n", "5",
	     "not well-formed"}, /* where data ends */
	    {"<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-3\" "
	     "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" bww=\"1\"/></platform>",
	     "4", "no attribute 'bww'"},
	    {"<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-99999999999\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>",
	     "4", "\"0-99999999999\" holds a number beyond 2147483647"},
	    {"<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-3,x\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>",
	     "4", "\"x\" is not a number or a range"},
	    {"<platform version=\"4.1\">\n\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-3\" "
	     "speed=\"1G\" bw=\"1GBps\" lat=\"1us\"/></platform>",
	     "5", "speed=\"1G\""},
	    {"<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-3\" "
	     "speed=\"1Gf\" bw=\"1GBps\"/></platform>",
	     "4", "needs attribute 'lat'"},
	    {"<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n<host id=\"a\" "
	     "speed=\"1f\"/>\n"
	     "<host id=\"a\" speed=\"1f\"/></zone></platform>",
	     "5", "already the name of a host"},
	    {"<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a\" "
	     "speed=\"1f\"/><host id=\"b\" speed=\"1f\"/>\n<link id=\"l\" bandwidth=\"1Bps\" "
	     "latency=\"0s\"/>\n<route src=\"a\" dst=\"b\">\n<link_ctn id=\"m\"/></route>"
	     "</zone></platform>",
	     "6", "no link \"m\""},
	    {"<platform version=\"4.1\">\n<cluster id=\"d\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-3\" "
	     "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"DRAGONFLY\" "
	     "topo_parameters=\"2,2;2,1;1,2;1\"/></platform>",
	     "4", "DRAGONFLY"},
	    {"<platform version=\"4.1\">\n<cluster id=\"f\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-15\" "
	     "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"FAT_TREE\" "
	     "topo_parameters=\"2;4,4;1,2;1,2\"/></platform>",
	     "4", "k-ary n-tree"},
	    {"<platform version=\"4.1\">\n<cluster id=\"f\" prefix=\"n\" suffix=\"\" "
	     "radical=\"0-15\" "
	     "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"FAT_TREE\" "
	     "topo_parameters=\"2;4,4;1,4;1,1\">\n<prop id=\"placesim-taper\" "
	     "value=\"1/0/1\"/></cluster></platform>",
	     "4", "taper=1/0/1"},
	    {"<platform version=\"4.1\">\n<frobnicator/></platform>", "4", "<frobnicator>"},
	    {"<platform version=\"3\">\n</platform>", "3", "version 3"},
	    {"<platform version=\"4.1\"><zone id=\"z\" routing=\"Dijkstra\">\n<host id=\"h\" "
	     "speed=\"1f\"/><router id=\"r\"/><link id=\"l\" bandwidth=\"1Bps\" latency=\"0s\"/>"
	     "<route src=\"h\" dst=\"r\"><link_ctn id=\"l\"/></route></zone></platform>",
	     "3", "no counterpart here"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[2048], where[32];
		snprintf(text, sizeof text, HEAD "%s\n", cases[i][0]);
		int rc;
		struct cmn_err e;
		struct plat_machine *m = load_text(text, &rc, &e);
		CU_ASSERT_EQUAL(rc, CMN_EINPUT);
		CU_ASSERT_PTR_NULL(m);
		snprintf(where, sizeof where, ".xml:%s: error", cases[i][1]);
		int ok = strstr(e.msg, where) && strstr(e.msg, cases[i][2]);
		CU_ASSERT(ok);
		if (!ok)
			fprintf(stderr, "\n  case %zu: %s\n", i, e.msg);
	}
	struct cmn_err e;
	CU_ASSERT_EQUAL(plat_load("/nonexistent/p.xml", &(struct plat_machine *){NULL}, &e),
	                CMN_EIO);
}

/* A caller's lower host limit: a cluster past it refused with its line
 * (before any host is laid out), the same file read under the default. */
/* A file of spec, written by platgen, with its first (count 1) or every
 * (count 0) occurrence of from replaced by to; read: the machine's limits
 * say needle ("" for none) and the family stays its own. */
static void limits_of(const char *spec, const char *from, const char *to, int count,
                      const char *needle)
{
	struct plat_machine *m, *back = NULL;
	struct cmn_err e;
	char *a = written(spec, &m);
	char *text = th_read_file(a), *out = malloc(strlen(text) * 2 + strlen(to) * 64 + 1);
	CU_ASSERT_FATAL(text && out);
	char *w = out;
	int n = 0;
	for (const char *p = text; *p;) {
		const char *hit = *from && (!count || n < count) ? strstr(p, from) : NULL;
		if (!hit) {
			w = stpcpy(w, p);
			break;
		}
		w = stpcpy(stpncpy(w, p, (size_t)(hit - p)), to);
		p = hit + strlen(from);
		n++;
	}
	CU_ASSERT(!*from || n > 0);
	FILE *f = fopen(a, "w");
	fputs(out, f);
	fclose(f);
	int rc = plat_load(a, &back, &e);
	CU_ASSERT_EQUAL(rc, 0);
	if (!rc) {
		CU_ASSERT_EQUAL(back->nodes, m->nodes);
		int ok = *needle ? strstr(back->limits, needle) != NULL : back->limits[0] == '\0';
		if (!ok)
			printf("\n  %s, %s -> %s: limits '%s', not '%s'", spec, from, to,
			       back->limits, needle);
		CU_ASSERT(ok);
		CU_ASSERT_EQUAL(plat_own_model_check(back, "flit", 0, &e),
		                *needle ? CMN_EUSAGE : 0);
		plat_machine_destroy(back);
	} else {
		printf("\n  %s: %s", spec, e.msg);
	}
	th_free_temp(a);
	free(text), free(out);
	plat_machine_destroy(m);
}

/* What a hand-edited file holds beyond its family's model goes to the
 * machine's limits (our own engines and models refuse it; SimGrid's
 * simulate the file): each class, once, against platgen's own files. */
static void test_mapped_limits(void)
{
	limits_of("mesh:dims=3x2", "", "", 0, "");
	limits_of("torus:dims=4x2", "", "", 0, "");
	limits_of("kary-ntree:k=2,n=3", "", "", 0, "");
	limits_of("multicluster:clusters=2,size=4", "", "", 0, "");
	limits_of("multicluster:clusters=2,size=4,cluster=mesh;dims=2x2", "", "", 0, "");
	limits_of("mesh:dims=3x2", "bandwidth=\"1250000000Bps\"", "bandwidth=\"1kBps\"", 1,
	          "links of different bandwidth (<link id=\"l0\"> at line ");
	limits_of("mesh:dims=3x2", "latency=\"1e-06s\" sharing_policy=\"SHARED\"",
	          "latency=\"2e-06s\" sharing_policy=\"SHARED\"", 1, "links of different latency");
	limits_of("mesh:dims=3x2", "sharing_policy=\"SHARED\"", "sharing_policy=\"FATPIPE\"", 0,
	          "FATPIPE links (<link id=\"l0\">");
	limits_of("mesh:dims=3x2", "<host id=\"node-0\" speed=\"1000000000f\"",
	          "<host id=\"node-0\" speed=\"2000000000f\"", 1, "hosts of different speed");
	limits_of("mesh:dims=3x2", "<host id=\"node-1\" speed=\"1000000000f\"",
	          "<host id=\"node-1\" speed=\"1000000000f\" core=\"2\"", 1, "hosts of 2 cores");
	limits_of("mesh:dims=3x2", "bandwidth=\"1e+15Bps\"", "bandwidth=\"1e+09Bps\"", 1,
	          "a turn link that takes time");
	limits_of("kary-ntree:k=2,n=3", "y=\"SPLITDUPLEX", "y=\"SHARED", 1,
	          "links each shared by its two directions (<cluster id=\"machine\" "
	          "sharing_policy=\"SHARED\"> at line ");
	limits_of("torus:dims=4x2", "y=\"SPLITDUPLEX", "y=\"FATPIPE", 1,
	          "which SimGrid 3.32 builds as SHARED");
	limits_of("flat:nodes=8", "sharing_policy=\"SPLITDUPLEX\"",
	          "sharing_policy=\"SPLITDUPLEX\" core=\"4\"", 1, "hosts of 4 cores");
	limits_of("flat:nodes=8", "sharing_policy=\"SPLITDUPLEX\"",
	          "sharing_policy=\"SPLITDUPLEX\" bb_bw=\"1GBps\" bb_lat=\"0s\"", 1,
	          "a backbone that takes time or bandwidth");
	limits_of("flat:nodes=8", "sharing_policy=\"SPLITDUPLEX\"",
	          "sharing_policy=\"SPLITDUPLEX\" bb_bw=\"1e9Bps\" bb_lat=\"1us\"", 1,
	          "a backbone that takes time or bandwidth");
	/* a backbone with room for every host at once and no latency: idle */
	limits_of("flat:nodes=8", "sharing_policy=\"SPLITDUPLEX\"",
	          "sharing_policy=\"SPLITDUPLEX\" bb_bw=\"10GBps\" bb_lat=\"0s\"", 1, "");
	limits_of("flat:nodes=8", "sharing_policy=\"SPLITDUPLEX\"",
	          "sharing_policy=\"SPLITDUPLEX\" bb_bw=\"1.25GBps\" bb_sharing_policy=\"FATPIPE\"",
	          1, "");
	limits_of("multicluster:clusters=2,size=4",
	          "radical=\"4-7\" speed=\"1000000000f\" "
	          "bw=\"1250000000Bps\"",
	          "radical=\"4-7\" speed=\"1000000000f\" bw=\"1GBps\"", 1,
	          "clusters of different bw (<cluster id=\"cluster-0\"> at line ");
	limits_of("multicluster:clusters=2,size=4", "bandwidth=\"12500000Bps\"",
	          "bandwidth=\"1MBps\"", 1, "WAN links of different bandwidth");
}

static void test_lower_limit(void)
{
	char *path = th_write_temp(
	    "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM "
	    "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
	    "<zone id=\"world\" routing=\"Full\">\n<cluster id=\"c\" prefix=\"node-\" "
	    "suffix=\"\" radical=\"0-69999\" speed=\"1Gf\" bw=\"125MBps\" "
	    "lat=\"1us\"/>\n</zone>\n</platform>\n",
	    ".xml");
	struct plat_machine *m = NULL;
	struct cmn_err e;
	CU_ASSERT_EQUAL(plat_load_max(path, 1 << 16, &m, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ":5: error: more than 65536 hosts"));
	CU_ASSERT_EQUAL(plat_load(path, &m, &e), 0);
	CU_ASSERT_EQUAL(m ? m->nodes : 0, 70000);
	plat_machine_destroy(m);
	th_free_temp(path);
}

/* Platform text read from a file: want NULL, read with its two hosts;
 * else refused with want in the message. Frees text. */
static void read_two_hosts_or(char *text, const char *want)
{
	char *path = th_write_temp(text, ".xml");
	struct plat_file f;
	struct cmn_err e = {0};
	int rc = plat_file_read(path, PLAT_MAX_NODES, &f, &e);
	if (!want) {
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(rc ? 0 : f.nhosts, 2);
		if (!rc)
			plat_file_free(&f);
	} else {
		CU_ASSERT_NOT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, want));
	}
	th_free_temp(path);
	free(text);
}

/* A route of 4,096 links is read (as netsim reads any platform); one of
 * 4,097 is refused at its line. */
static void test_route_length(void)
{
	for (int links = 4096; links <= 4097; links++) {
		size_t cap = 200 + (size_t)links * 80;
		char *text = malloc(cap);
		CU_ASSERT_FATAL(text != NULL);
		int len = snprintf(
		    text, cap,
		    FULL_ZONE "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n");
		for (int l = 0; l < links; l++)
			len +=
			    snprintf(text + len, cap - (size_t)len,
			             "<link id=\"l%d\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n", l);
		len += snprintf(text + len, cap - (size_t)len, "<route src=\"a\" dst=\"b\">");
		for (int l = 0; l < links; l++)
			len += snprintf(text + len, cap - (size_t)len, "<link_ctn id=\"l%d\"/>", l);
		snprintf(text + len, cap - (size_t)len, "</route></zone></platform>\n");
		char want[64];
		snprintf(want, sizeof want, ":%d: error: <route>: 4097 links; at most 4096",
		         5 + links);
		read_two_hosts_or(text, links == 4096 ? NULL : want);
	}
}

/* A Floyd zone of 2,048 members (hosts and routers in a line) is read;
 * one of 2,049 is refused at its line (SimGrid's table: cubic time). */
static void test_floyd_size(void)
{
	for (int points = 2048; points <= 2049; points++) {
		int routers = points - 2;
		size_t cap = 400 + (size_t)points * 200;
		char *text = malloc(cap);
		CU_ASSERT_FATAL(text != NULL);
		int len =
		    snprintf(text, cap,
		             HEAD "<platform version=\"4.1\"><zone id=\"f\" routing=\"Floyd\">\n"
		                  "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n");
		for (int r = 0; r < routers; r++)
			len += snprintf(text + len, cap - (size_t)len, "<router id=\"r%d\"/>\n", r);
		for (int l = 0; l <= routers; l++)
			len +=
			    snprintf(text + len, cap - (size_t)len,
			             "<link id=\"l%d\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n", l);
		len += snprintf(text + len, cap - (size_t)len,
		                "<route src=\"a\" dst=\"r0\"><link_ctn id=\"l0\"/></route>\n");
		for (int r = 0; r + 1 < routers; r++)
			len += snprintf(
			    text + len, cap - (size_t)len,
			    "<route src=\"r%d\" dst=\"r%d\"><link_ctn id=\"l%d\"/></route>\n", r,
			    r + 1, r + 1);
		snprintf(text + len, cap - (size_t)len,
		         "<route src=\"r%d\" dst=\"b\"><link_ctn id=\"l%d\"/></route>\n"
		         "</zone></platform>\n",
		         routers - 1, routers);
		read_two_hosts_or(text, points == 2048
		                            ? NULL
		                            : ":3: error: zone \"f\": 2049 hosts, routers "
		                              "and zones under Floyd routing; at most 2048");
	}
}

/* 60,000 <trace>s each tied to a host by a <trace_connect>: read in
 * linear time (a walk back over the document per connect took half a
 * minute for 20,000; this test's ctest TIMEOUT catches it), each connect
 * finding its own trace; a connect whose trace comes only after it, or
 * not at all, refused at its line. */
static void test_many_trace_connects(void)
{
	enum { N = 60000 };
	for (int late = 0; late < 3; late++) {
		size_t cap = 400 + (size_t)N * 160;
		char *text = malloc(cap);
		CU_ASSERT_FATAL(text != NULL);
		int len = snprintf(text, cap,
		                   FULL_ZONE
		                   "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
		                   "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n"
		                   "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n");
		for (int t = 0; t < N; t++)
			len += snprintf(text + len, cap - (size_t)len,
			                "<trace id=\"t%d\" periodicity=\"10\">0 1</trace>\n", t);
		for (int t = 0; t < N; t++)
			len += snprintf(text + len, cap - (size_t)len,
			                "<trace_connect kind=\"SPEED\" trace=\"t%d\" "
			                "element=\"%s\"/>\n",
			                late == 2 && t == N - 1 ? N + 1 : t, t % 2 ? "b" : "a");
		if (late == 1) /* a connect before its trace */
			len += snprintf(text + len, cap - (size_t)len,
			                "<trace_connect kind=\"SPEED\" trace=\"later\" "
			                "element=\"a\"/>\n<trace id=\"later\">0 1</trace>\n");
		snprintf(text + len, cap - (size_t)len, "</zone></platform>\n");
		char want[120];
		snprintf(want, sizeof want, ":%d: error: <trace_connect trace=\"%s\">: no <trace>",
		         late == 1 ? 2 * N + 8 : 2 * N + 7, late == 1 ? "later" : "t60001");
		read_two_hosts_or(text, late ? want : NULL);
	}
}

/* A platform whose 2,000 hosts name one 4.3 MB profile, by two names of
 * the same file: the file is read once (2,000 readings took 108 s; the
 * ctest TIMEOUT catches it). A profile found good as one kind of value is
 * still checked as another: "0 1e-13" is a state (on) but no speed. */
static void test_profile_read_once(void)
{
	enum { HOSTS = 2000, LINES = 400000 };
	char *prof = malloc((size_t)LINES * 16);
	CU_ASSERT_FATAL(prof != NULL);
	size_t plen = 0;
	for (int i = 0; i < LINES; i++)
		plen += (size_t)sprintf(prof + plen, "%d 1.0\n", i);
	char *ppath = th_write_temp(prof, ".prof");
	CU_ASSERT_FATAL(ppath != NULL);
	free(prof);
	char *dir = strdup(ppath);
	CU_ASSERT_FATAL(dir != NULL);
	*strrchr(dir, '/') = '\0';
	size_t cap = 1000 + (size_t)HOSTS * 300;
	char *text = malloc(cap);
	CU_ASSERT_FATAL(text != NULL);
	int len = snprintf(text, cap, FULL_ZONE);
	for (int h = 0; h < HOSTS; h++) /* half by its path, half through the folder's "." */
		len += snprintf(text + len, cap - (size_t)len,
		                "<host id=\"%s%d\" speed=\"1Gf\" speed_file=\"%s%s\"/>\n",
		                h < 2 ? (h ? "b" : "a") : "h", h, h % 2 ? ppath : dir,
		                h % 2 ? "" : "/./input.prof");
	snprintf(text + len, cap - (size_t)len,
	         "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n"
	         "<route src=\"a0\" dst=\"b1\"><link_ctn id=\"l\"/></route>\n"
	         "</zone></platform>\n");
	char *path = th_write_temp(text, ".xml");
	struct plat_file f;
	struct cmn_err e = {0};
	int rc = plat_file_read(path, PLAT_MAX_NODES, &f, &e);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(rc ? 0 : f.nhosts, HOSTS);
	if (!rc)
		plat_file_free(&f);
	th_free_temp(path), free(text);
	th_free_temp(ppath);
	/* one small profile, a state first, a speed next */
	ppath = th_write_temp("0 1e-13\n", ".prof");
	CU_ASSERT_FATAL(ppath != NULL);
	text = malloc(2000);
	CU_ASSERT_FATAL(text != NULL);
	snprintf(text, 2000,
	         FULL_ZONE "<host id=\"a\" speed=\"1Gf\" state_file=\"%s\"/>\n"
	                   "<host id=\"b\" speed=\"1Gf\" speed_file=\"%s\"/>\n"
	                   "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1ns\"/>\n"
	                   "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
	                   "</zone></platform>\n",
	         ppath, ppath);
	read_two_hosts_or(text, "input.prof:1: the value '1e-13': a speed is at least 1e-12");
	th_free_temp(ppath), free(dir);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("platform xml", NULL, NULL);
	CU_add_test(s, "SimGrid's units", test_units);
	CU_add_test(s, "write, read, write", test_round_trip);
	CU_add_test(s, "every family's samples", test_round_trip_samples);
	CU_add_test(s, "a torus with dimensions of one node", test_torus_unit_dims);
	CU_add_test(s, "a family without writers", test_family_without_writers);
	CU_add_test(s, "SimGrid's example clusters", test_simgrid_clusters);
	CU_add_test(s, "bad XML, each class with its line", test_bad_xml);
	CU_add_test(s, "a lower host limit", test_lower_limit);
	CU_add_test(s, "what a mapped file holds beyond its family", test_mapped_limits);
	CU_add_test(s, "a route of more than 4,096 links", test_route_length);
	CU_add_test(s, "a Floyd zone of more than 2,048 members", test_floyd_size);
	CU_add_test(s, "60,000 <trace_connect>s", test_many_trace_connects);
	CU_add_test(s, "2,000 hosts naming one profile", test_profile_read_once);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
