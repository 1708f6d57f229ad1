#!/usr/bin/env bash
# When nothing reads which nodes a job holds and the allocator is fungible,
# jobsched keeps the number of free nodes instead of choosing nodes
# (jobsched/alloc/alloc_count.h). The schedule must be the same: every scheduler
# and allocator below is run with only the outputs that need no node lists
# (series and groups CSVs, terminal summary), then again with --jobs-out
# (which makes it choose nodes) and with --choose-nodes, and every output of
# the first run must be byte-identical to the others'. Non-fungible allocators are in the list
# too: they always choose nodes, so they check the comparison itself.
# Usage: test_counts_suffice.sh BUILD_BIN_DIR SHARED_DIR
set -u
JS="$1/jobsched"
SHARED="$2"
. "$(dirname "$0")/../check.sh"

# same_schedule NAME ARGS..: the two runs, their outputs compared.
same_schedule() {
	local name=$1
	shift
	"$JS" "$@" --quiet --series-out "$T/a.series" --groups-out "$T/a.groups" > "$T/a.out" 2>&1
	local ra=$?
	"$JS" "$@" --quiet --series-out "$T/b.series" --groups-out "$T/b.groups" \
		--jobs-out "$T/b.jobs" > "$T/b.out" 2>&1
	local rb=$?
	"$JS" "$@" --quiet --series-out "$T/c.series" --groups-out "$T/c.groups" --choose-nodes \
		> "$T/c.out" 2>&1
	local rc=$?
	check "$name: all exit 0" test $ra -eq 0 -a $rb -eq 0 -a $rc -eq 0
	for x in b c; do
		check "$name: same series ($x)" cmp -s "$T/a.series" "$T/$x.series"
		check "$name: same groups ($x)" cmp -s "$T/a.groups" "$T/$x.groups"
		check "$name: same summary ($x)" cmp -s "$T/a.out" "$T/$x.out"
	done
	check "$name: jobs waited" awk -F, 'NR > 1 && $5 > 0 {n++} END {exit !(n > 0)}' "$T/a.series"
}

dq='dq:jobs=3000,n1=1,n2=200,q=0.99,load=0.95'
for sched in fcfs easy conservative fpfs:maxjumps=5; do
	same_schedule "flat $sched" --synthetic "$dq" --machine flat:nodes=256 --sched "$sched"
done
same_schedule "flat easy, kill" --synthetic "$dq" --machine flat:nodes=256 --kill
same_schedule "flat easy, sjf" --synthetic "$dq" --machine flat:nodes=256 --queue-order sjf
same_schedule "flat easy, speedup" --synthetic "$dq" --machine flat:nodes=256 \
	--runtime speedup:s=0.2
for alloc in curve mbs genalg mc1x1; do
	same_schedule "mesh 16x16 $alloc" --synthetic "$dq" --machine mesh:dims=16x16 --alloc "$alloc"
done
same_schedule "3-ary 5-tree contiguous" --synthetic "dq:jobs=3000,n1=1,n2=200,q=0.99,load=0.9" \
	--machine kary-ntree:k=3,n=5 --alloc contiguous --oversize clamp
log="$SHARED/workloads/SDSC-SP2-1998-4.2-cln.swf.gz"
if [ -f "$log" ]; then
	same_schedule "SDSC-SP2 easy" --workload "$log" --machine flat:nodes=128 --first 5000
else
	echo "SKIP SDSC-SP2 easy: $log absent"
fi
finish
