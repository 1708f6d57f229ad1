#!/usr/bin/env bash
# jobsched --installed N: only nodes 0..N-1 of the machine take jobs (seed
# 000 runs a log of a smaller machine on a 4-ary 6-tree, "the extra
# processors are not installed").
# - first-free on a tree with N installed is first-free on a flat machine of
#   N nodes: the same starts, ends and node lists for every scheduler, the
#   same utilization series (counted over the N nodes), with and without
#   node lists (the counting path);
# - topology-aware allocators never place a job on a node >= N, and jobs
#   larger than N are oversize (skipped and counted, or clamped to N);
# - errors: N above the machine's nodes, 0, not a number (usage, exit 2);
# - --stats with --machine takes N as the machine's size (eq. 2's P).
# Usage: test_installed.sh BUILD_BIN_DIR
set -u
JS="$1/jobsched"
. "$(dirname "$0")/../check.sh"

dq='dq:jobs=2000,n1=1,n2=180,q=0.99,load=0.95'
"$JS" --synthetic "$dq" --machine flat:nodes=256 --swf-out "$T/w.swf" --quiet > /dev/null
# two jobs larger than 200 nodes: oversize once 200 are installed
printf '100001 0 0 100 230 -1 -1 230 200 -1 1 1 1 1 1 -1 -1 -1\n100002 5 0 100 250 -1 -1 250 200 -1 1 1 1 1 1 -1 -1 -1\n' >> "$T/w.swf"
sort -n -k2,2 -s "$T/w.swf" | awk '!/^;/' > "$T/ws.swf"

# the columns that do not depend on the topology: id .. allocated_resources
cols() { cut -d, -f1-15 "$1"; }
for sched in fcfs easy conservative fpfs:maxjumps=5; do
	"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 200 --sched "$sched" \
		--jobs-out "$T/a.csv" --series-out "$T/a.series" --quiet > "$T/a.out"
	ra=$?
	"$JS" --workload "$T/ws.swf" --machine flat:nodes=200 --sched "$sched" \
		--jobs-out "$T/b.csv" --series-out "$T/b.series" --quiet > "$T/b.out"
	rb=$?
	"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 200 --sched "$sched" \
		--series-out "$T/c.series" --quiet > "$T/c.out"
	rc=$?
	check "$sched: all exit 0" test $ra -eq 0 -a $rb -eq 0 -a $rc -eq 0
	check "$sched: same jobs as flat:nodes=200" cmp -s <(cols "$T/a.csv") <(cols "$T/b.csv")
	check "$sched: same series as flat:nodes=200" cmp -s "$T/a.series" "$T/b.series"
	check "$sched: same series without node lists" cmp -s "$T/a.series" "$T/c.series"
	check "$sched: summary from the machine line on the same" \
		cmp -s <(tail -n +3 "$T/a.out") <(tail -n +3 "$T/b.out")
	check "$sched: the machine line says it" \
		grep -q '(256 nodes, 200 installed)' "$T/a.out"
	check "$sched: jobs waited" awk -F, 'NR > 1 && $12 > 0 {n++} END {exit !(n > 0)}' "$T/a.csv"
done
check "the two jobs above 200 nodes skipped" grep -Eq 'jobs +[0-9]+ read, 2 skipped' "$T/a.out"

# the highest node id of a jobs CSV's allocated_resources
max_node() {
	python3 -c '
import csv, sys
m = -1
for r in csv.DictReader(open(sys.argv[1])):
    for part in r["allocated_resources"].split():
        m = max(m, int(part.split("-")[-1]))
print(m)' "$1"
}
for alloc in contiguous quasi:qct=20 first-free; do
	for sched in fcfs easy conservative; do
		"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 200 --alloc "$alloc" \
			--sched "$sched" --oversize clamp --jobs-out "$T/d.csv" --quiet > "$T/d.out"
		check "$alloc $sched: exit 0" test $? -eq 0
		check "$alloc $sched: no node above 199" test "$(max_node "$T/d.csv")" -eq 199
		check "$alloc $sched: the large jobs clamped to 200" \
			awk -F, '$1 == 100001 || $1 == 100002 {if ($5 == 200) n++} END {exit n != 2}' "$T/d.csv"
	done
done

"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 300 > /dev/null 2> "$T/e"
check "--installed above the machine: usage error" status_says $? eq 2 \
	'--installed 300: the machine has 256 nodes' "$T/e"
"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 0 > /dev/null 2> "$T/e"
check "--installed 0: usage error" status_says $? eq 2 '--installed' "$T/e"
"$JS" --workload "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 2x > /dev/null 2> "$T/e"
check "--installed 2x: usage error" status_says $? eq 2 '--installed' "$T/e"
"$JS" --stats "$T/ws.swf" --machine kary-ntree:k=4,n=4 --installed 200 > "$T/s1"
"$JS" --stats "$T/ws.swf" --machine flat:nodes=200 > "$T/s2"
check "--stats: the installed nodes as P" cmp -s "$T/s1" "$T/s2"
finish
