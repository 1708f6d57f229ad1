#!/usr/bin/env bash
# EASY and FPFS under arrival order find the jobs they backfill or let jump
# the head through an index of the queued jobs (jobsched/sched/queue_index.h)
# instead of visiting every queued job. The schedule must be the one the visit gives: `--queue-order
# priority:qfactor_w=0` keeps the same order (every priority 0, ties by
# arrival) but walks the queue, so the two per-job CSVs must be
# byte-identical, on congested queues (offered load above 1, a log on a
# machine a tenth of its own) and with kills, on fungible allocators.
# Usage: test_backfill_index.sh BUILD_BIN_DIR SHARED_DIR
set -u
JS="$1/jobsched"
SHARED="$2"
. "$(dirname "$0")/../check.sh"

same_jobs() {
	local name=$1
	shift
	"$JS" "$@" --quiet --jobs-out "$T/a.csv" > "$T/a.out" 2>&1
	local ra=$?
	"$JS" "$@" --quiet --queue-order priority:qfactor_w=0 --jobs-out "$T/b.csv" > "$T/b.out" 2>&1
	local rb=$?
	check "$name: both exit 0" test $ra -eq 0 -a $rb -eq 0
	check "$name: same jobs" cmp -s "$T/a.csv" "$T/b.csv"
	# a queue: many jobs waited
	check "$name: many jobs waited" awk -F, 'NR > 1 {n++; w += $12 > 0} END {exit !(w > n / 5)}' \
		"$T/a.csv"
}

for load in 0.9 1.5 3; do
	for sched in easy fpfs:maxjumps=5 fpfs:maxjumps=1000; do
		same_jobs "flat, load $load, $sched" --synthetic "dq:jobs=2000,n1=1,n2=200,q=0.9,load=$load" \
			--machine flat:nodes=256 --sched "$sched"
	done
done
same_jobs "flat, load 2, kill" --synthetic "dq:jobs=4000,n1=1,n2=200,q=0.9,load=2" \
	--machine flat:nodes=256 --kill
same_jobs "mesh 16x16 curve, load 2" --synthetic "dq:jobs=3000,n1=1,n2=200,q=0.9,load=2" \
	--machine mesh:dims=16x16 --alloc curve
same_jobs "mesh 16x16 mbs, load 2" --synthetic "dq:jobs=3000,n1=1,n2=200,q=0.9,load=2" \
	--machine mesh:dims=16x16 --alloc mbs
same_jobs "mesh 16x16 mbs, load 2, fpfs" --synthetic "dq:jobs=3000,n1=1,n2=200,q=0.9,load=2" \
	--machine mesh:dims=16x16 --alloc mbs --sched fpfs
log="$SHARED/workloads/SDSC-SP2-1998-4.2-cln.swf.gz"
if [ -f "$log" ]; then
	for sched in easy fpfs; do
		same_jobs "SDSC-SP2 on 13 nodes, $sched" --workload "$log" --machine flat:nodes=13 \
			--oversize clamp --first 6000 --sched "$sched"
	done
else
	echo "SKIP SDSC-SP2 on 13 nodes: $log absent"
fi
finish
