#!/usr/bin/env bash
# Any SimGrid platform in netsim and cosim, as a user meets it: hosts as
# nodes in document order echoed on stderr, a cluster with its own host
# names replayed (it once needed node-0..N-1), a platform no family maps
# routed by SimGrid (simgrid and s4u engines agree, cosim's simgrid and
# linkload models run on it), --hosts choosing and ordering nodes, and
# what cannot be simulated refused with the reason: the flit engine on
# SimGrid's routes, jobsched without SimGrid, a host --hosts names that the
# file lacks, --hosts without --platform.
# Usage: test_platform_any.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
head='<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">'
cat > "$T/cluster.xml" <<XML
$head
<zone id="w" routing="Full">
 <cluster id="c" prefix="c-" suffix=".me" radical="0-7" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"/>
</zone>
</platform>
XML
cat > "$T/small.xml" <<XML
$head
<zone id="world" routing="Full">
 <host id="Tremblay" speed="1Gf"/>
 <host id="Jupiter" speed="1Gf"/>
 <host id="Fafard" speed="1Gf"/>
 <host id="Ginette" speed="1Gf"/>
 <link id="l1" bandwidth="10MBps" latency="100us"/>
 <link id="l2" bandwidth="20MBps" latency="50us"/>
 <link id="backbone" bandwidth="100MBps" latency="10us"/>
 <route src="Tremblay" dst="Tremblay"><link_ctn id="l1"/></route>
 <route src="Tremblay" dst="Jupiter"><link_ctn id="l1"/><link_ctn id="backbone"/></route>
 <route src="Tremblay" dst="Fafard"><link_ctn id="l1"/><link_ctn id="l2"/></route>
 <route src="Tremblay" dst="Ginette"><link_ctn id="l1"/></route>
 <route src="Jupiter" dst="Fafard"><link_ctn id="backbone"/><link_ctn id="l2"/></route>
 <route src="Jupiter" dst="Ginette"><link_ctn id="backbone"/></route>
 <route src="Fafard" dst="Ginette"><link_ctn id="l2"/></route>
</zone>
</platform>
XML

"$B/netsim" --platform "$T/cluster.xml" --job cg.S.4@0-3 --quiet --jobs-out "$T/c.csv" 2> "$T/err"
check "a cluster's own host names replay (echoed: c-0.me ... as the flat family)" \
	status_says $? eq 0 "nodes 0-7 (flat:nodes=8.*0=c-0.me, 1=c-1.me" "$T/err"

"$B/netsim" --platform "$T/small.xml" --job cg.S.4@0-3 --quiet --jobs-out "$T/sg.csv" 2> "$T/err"
check "a platform no family maps: SimGrid routes it, hosts echoed in document order" \
	status_says $? eq 0 "4 hosts as nodes 0-3 (SimGrid's routes): 0=Tremblay, 1=Jupiter, 2=Fafard, 3=Ginette" "$T/err"
"$B/netsim" --platform "$T/small.xml" --job cg.S.4@0-3 --quiet --jobs-out "$T/s4u.csv" --engine s4u 2> "$T/err"
a=$(tail -1 "$T/sg.csv" | cut -d, -f7) b=$(tail -1 "$T/s4u.csv" | cut -d, -f7)
check "the simgrid and s4u engines agree on it within 1% ($a, $b s)" \
	python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if a > 0 and abs(a - b) <= 0.01 * a else 1)" "$a" "$b"

"$B/netsim" --platform "$T/small.xml" --hosts Ginette,Jupiter --job cg.S.2@0-1 --quiet --jobs-out "$T/h.csv" 2> "$T/err"
check "--hosts picks and orders the nodes" status_says $? eq 0 "2 hosts as nodes 0-1 (SimGrid's routes): 0=Ginette, 1=Jupiter" "$T/err"
"$B/netsim" --platform "$T/small.xml" --hosts Ginette,Nowhere --job cg.S.2@0-1 --quiet 2> "$T/err"
check "--hosts naming a host the file lacks: refused, naming it" status_says $? eq 2 'no host "Nowhere"' "$T/err"
for h in Ginette,Jupiter, Ginette,,Jupiter; do
	"$B/netsim" --platform "$T/small.xml" --hosts "$h" --job cg.S.2@0-1 --quiet 2> "$T/err"
	check "--hosts $h (an empty name): refused" status_says $? eq 2 "is empty (a trailing or doubled comma?)" "$T/err"
done
"$B/netsim" --machine flat:nodes=4 --hosts a,b --job cg.S.2@0-1 --quiet 2> "$T/err"
check "--hosts without --platform: a usage error" status_says $? eq 2 "give --platform" "$T/err"
"$B/netsim" --platform "$T/small.xml" --job cg.S.4@0-3 --engine flit --quiet 2> "$T/err"
check "the flit engine on SimGrid's routes: refused, saying why" status_says $? eq 2 "needs the machine's routers" "$T/err"

for rt in simgrid:class=S,kernels=cg linkload:class=S,kernels=cg; do
	"$B/cosim" --platform "$T/small.xml" --synthetic dq:jobs=12 --runtime "$rt" --quiet --jobs-out "$T/j.csv" > /dev/null 2> "$T/err"
	check "cosim --runtime $rt on SimGrid's routes: runs" \
		status_says $? eq 0 "routes" "$T/err"
done
"$B/cosim" --platform "$T/small.xml" --hosts Fafard --synthetic dq:jobs=12 --quiet --summary-out "$T/s.csv" > /dev/null 2> "$T/err"
check "cosim --hosts: one node" status_says $? eq 0 "1 host as nodes 0-0 (SimGrid's routes): 0=Fafard" "$T/err"
"$B/jobsched" --platform "$T/small.xml" --synthetic dq:jobs=12 --quiet 2> "$T/err"
check "jobsched (no SimGrid): refused, pointing to cosim and netsim" status_says $? eq 1 "cosim and netsim read any SimGrid platform" "$T/err"
# what SimGrid alone refuses as it loads the file (a trace_connect to a
# host the file lacks): one line with SimGrid's reason, not its backtrace
sed 's|</zone>| <trace id="t" periodicity="-1">\n0 1\n </trace>\n <trace_connect kind="SPEED" trace="t" element="Nowhere"/>\n</zone>|' "$T/small.xml" > "$T/tc.xml"
"$B/netsim" --platform "$T/tc.xml" --job cg.S.2@0-1 --quiet 2> "$T/err"
check "SimGrid's own refusal: its reason, in one line" status_says $? eq 1 \
	"SimGrid could not route its hosts (it stopped on a signal: Parse error at .*tc.xml:[0-9]*: .*Host Nowhere undefined" "$T/err"
check "  and no SimGrid log lines" test "$(wc -l < "$T/err")" -eq 1
# a profile that is a FIFO (nobody writes it) or a folder: refused at once
mkfifo "$T/fifo.prof"
for p in "$T/fifo.prof" "$T"; do
	sed "s|<host id=\"Tremblay\" speed=\"1Gf\"/>|<host id=\"Tremblay\" speed=\"1Gf\" speed_file=\"$p\"/>|" "$T/small.xml" > "$T/pf.xml"
	timeout 20 "$B/netsim" --platform "$T/pf.xml" --job cg.S.2@0-1 --quiet 2> "$T/err"
	rc=$? what=$(basename "$p")
	check "a profile that is not a regular file ($what): refused at once, naming it" \
		status_says $rc eq 1 "pf.xml:5: error: <host speed_file=.*is not a regular file" "$T/err"
done
# a platform that is /dev/zero or an endless stream: refused at its first
# NUL byte, or at 512 MiB read (never holding twice that)
/usr/bin/time -f "%M" -o "$T/rss" "$B/jobsched" --platform /dev/zero --synthetic dq:jobs=3 --quiet 2> "$T/err"
rc=$?
check "jobsched --platform /dev/zero: refused at its first byte ($(tail -1 "$T/rss") KB)" \
	status_says $rc eq 1 "/dev/zero: error: a NUL byte at byte 1: not a text file" "$T/err"
# (no memory comparison under the sanitizers: their shadow memory and
# quarantine are in the measured peak)
[ "${PLACESIM_SANITIZED:-0}" = 1 ] ||
	check "  holding under 200 MB" test "$(tail -1 "$T/rss")" -lt 200000
yes '<!-- a comment, forever -->' | /usr/bin/time -f "%M" -o "$T/rss" "$B/jobsched" --platform /dev/stdin --synthetic dq:jobs=3 --quiet 2> "$T/err"
rc=$?
check "an endless platform stream: refused at 512 MiB" status_says $rc eq 1 "larger than 512 MiB" "$T/err"
[ "${PLACESIM_SANITIZED:-0}" = 1 ] ||
	check "  holding under 800 MB ($(tail -1 "$T/rss") KB; twice the limit before)" test "$(tail -1 "$T/rss")" -lt 800000
finish
