#!/usr/bin/env bash
# Issue 23 C: resizable jobs at 10^5 nodes. Growth takes the free nodes
# nearest a job and contraction releases the nodes farthest from the rest
# (jobsched/alloc/alloc_resize.c, alloc_shrink.c); both were pair by pair
# on some families. Two workloads on a machine of each family at about
# 10^5 nodes, EASY:
# - LANL-CM5's whole log (122,057 jobs of up to 1,024 nodes; skipped when
#   ../shared is absent), half of them resizable in 3 iterations, `pba`;
# - 300 jobs of 5,000 to 45,000 nodes (a fixed awk stream), half resizable,
#   `pba:redist=5`, which contracts running jobs for queued ones.
# Prints wall and CPU seconds, peak MB, expansions and contractions; a run
# over TIMEOUT seconds (default 600) prints "timeout".
# Usage: results/bench/resize_scale.sh [BUILD_DIR] [SHARED_DIR]
set -u
B=${1:-build}/bin
SHARED=${2:-../shared}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
awk 'BEGIN { srand(3); print "; MaxProcs: 100000"
	for (i = 1; i <= 300; i++) { s = int(5000 + rand() * 40000)
		printf "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 1 -1 -1\n", i, i * 200, 1000 + int(rand() * 3000), s, s, 5000 } }' > "$T/big.swf"
machines='flat:nodes=100000 kary-ntree:k=18,n=4 torus:dims=72x36x36 mesh:dims=320x320
multicluster:clusters=8,size=12500 multicluster:clusters=8,size=12500,cluster=torus;dims=25x25x20'
printf '%-60s %-10s %9s %8s %8s %8s %8s\n' machine workload wall_s cpu_s peak_MB expand contract
run() { # machine label workload-args...
	local m=$1 label=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-600}" "$B/jobsched" --quiet "$@" \
		--machine "$m" --sched easy --oversize clamp --summary-out "$T/sum.csv" > /dev/null 2> "$T/err"
	local rc=$? wall us ss kb
	read -r wall us ss kb < <(tail -1 "$T/time")
	local cpu
	cpu=$(awk -v u="${us:-0}" -v s="${ss:-0}" 'BEGIN {printf "%.2f", u + s}')
	local ex=- co=-
	if [ $rc -eq 0 ]; then
		ex=$(python3 -c "import csv; print(next(csv.DictReader(open('$T/sum.csv')))['expansions'])")
		co=$(python3 -c "import csv; print(next(csv.DictReader(open('$T/sum.csv')))['contractions'])")
	fi
	[ $rc -eq 124 ] && wall=timeout
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && wall="exit$rc" && head -c 150 "$T/err" >&2
	printf '%-60s %-10s %9s %8s %8d %8s %8s\n' "$m" "$label" "$wall" "$cpu" $((${kb:-0} / 1024)) "$ex" "$co"
}
LOG="$SHARED/workloads/LANL-CM5-1994-4.1-cln.swf.gz"
for m in $machines; do
	if [ -f "$LOG" ]; then
		run "$m" lanl-cm5 --workload "$LOG" --resizable 50:3 --resize pba
	else
		echo "skip lanl-cm5: $LOG is absent"
	fi
	run "$m" big-jobs --workload "$T/big.swf" --resizable 50:3 --resize pba:redist=5
done
