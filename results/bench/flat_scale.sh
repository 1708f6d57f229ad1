#!/usr/bin/env bash
# Issue 23 C1: a flat machine of about 10^3, 10^4 and 93,312 nodes, 300,000
# D(q) jobs (sizes up to 86 % of the machine, q = 0.999: mean about 1 %,
# offered load 0.9), gzip'ed SWF, EASY with first-free: jobsched's wall time
# beside `zcat | awk` summing a column of the same file (the yardstick: the
# least any tool must do to read the log), each the median of RUNS runs;
# jobsched without outputs (first-free's choices replaced by a count of free
# nodes: nothing reads them) and with --choose-nodes (first-free chooses).
# Usage: results/bench/flat_scale.sh [BUILD_DIR] [RUNS] [JOBS]
set -eu
B=${1:-build}/bin
RUNS=${2:-5}
JOBS=${3:-300000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
wall() { # the median wall seconds of RUNS runs of "$@"
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e' -o "$T/t" "$@" > /dev/null 2>&1
		cat "$T/t"
	done | median
}
printf '%8s %8s %12s %12s %7s %8s %14s %7s\n' nodes jobs jobsched_s zcat_awk_s ratio peak_MB \
	choose_nodes_s ratio
for n in 1000 10000 93312; do
	f="$T/dq-$n.swf"
	"$B/jobsched" --synthetic "dq:jobs=$JOBS,n2=$((n * 86 / 100)),q=0.999,load=0.9" \
		--machine "flat:nodes=$n" --swf-out "$f" --quiet > /dev/null
	gzip -f "$f"
	js=$(wall "$B/jobsched" --workload "$f.gz" --machine "flat:nodes=$n" --sched easy --quiet)
	jo=$(wall "$B/jobsched" --workload "$f.gz" --machine "flat:nodes=$n" --sched easy --quiet \
		--choose-nodes)
	aw=$(wall sh -c "zcat '$f.gz' | awk '{s += \$4} END {print s}'")
	/usr/bin/time -f '%M' -o "$T/m" "$B/jobsched" --workload "$f.gz" --machine "flat:nodes=$n" \
		--sched easy --quiet > /dev/null 2>&1
	printf '%8d %8d %12s %12s %7.2f %8d %14s %7.2f\n' "$n" "$JOBS" "$js" "$aw" \
		"$(awk -v a="$js" -v b="$aw" 'BEGIN {print a / b}')" $(($(cat "$T/m") / 1024)) "$jo" \
		"$(awk -v a="$jo" -v b="$aw" 'BEGIN {print a / b}')"
done
