#!/usr/bin/env bash
# The full model's memory and cost (issue 23 C): peak memory (the largest
# resident set of cosim and its processes, GNU time's %M) and wall time of
# `cosim --runtime full` on D(q) workloads of 200, 500 and 2,000 jobs (sizes
# 1-19, mean run time MEAN_RUN s, class-S profiles, a 4-ary 3-tree, EASY)
# on both engines, beside full's own estimate of the iterations, trace
# actions and memory peak (printed before the run). Prints a table; the
# figures go with the machine they ran on (lscpu, date).
#
# Usage: results/bench/full_memory.sh [BUILD_DIR [OTHER_BUILD_DIR]]
#   BUILD_DIR        the build to measure (default build/)
#   OTHER_BUILD_DIR  another build (e.g. of main before the change) measured
#                    on the same workloads, each run under an address-space
#                    limit of LIMIT_KB (default 8 GB) so that a build whose
#                    memory grows with the iterations fails instead of
#                    taking the machine down
# Environment: MEAN_RUN (default 0.05), JOBS (default "200 500 2000"),
#   ENGINES (default "s4u flit").
# Wall times move with the machine's load; the peaks are what this measures.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
OTHER=${2:-}
MEAN_RUN=${MEAN_RUN:-0.05}
JOBS=${JOBS:-200 500 2000}
ENGINES=${ENGINES:-s4u flit}
LIMIT_KB=${LIMIT_KB:-8000000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

lscpu | head -15
date
echo "workload: dq:jobs=N,mean_run=$MEAN_RUN --seed 1, kary-ntree:k=4,n=3, easy, full:class=S"
echo

# run BIN ENGINE JOBS LIMIT [PARAMS]: one run; prints "wall_s peak_MB
# status" and leaves full's estimate line in $T/err
run() {
	local bin=$1 eng=$2 n=$3 limit=$4 params=${5:-}
	(
		[ -n "$limit" ] && ulimit -v "$limit"
		/usr/bin/time -f "%e %M" -o "$T/time" "$bin/bin/cosim" \
			--synthetic "dq:jobs=$n,mean_run=$MEAN_RUN" --seed 1 \
			--machine kary-ntree:k=4,n=3 --sched easy \
			--runtime "full:class=S,engine=$eng$params" \
			--jobs-out "$T/jobs-$eng-$n.csv" > /dev/null 2> "$T/err"
	)
	local st=$?
	read -r wall kb < <(tail -1 "$T/time")
	printf '%s %.0f %s\n' "$wall" "$((kb / 1024))" "$st"
}

printf '%-6s %-5s %-10s %9s %12s %12s %14s %10s %14s\n' build engine jobs wall_s peak_MB \
	iterations trace_actions est_MB status
for eng in $ENGINES; do
	for n in $JOBS; do
		read -r wall mb st < <(run "$BUILD" "$eng" "$n" "" ,max_actions=0,max_memory=0)
		est=$(grep -o "estimate: .*" "$T/err" | head -1)
		iters=$(echo "$est" | sed -n 's/.*jobs, \([^ ]*\) iterations.*/\1/p')
		acts=$(echo "$est" | sed -n 's/.*iterations, \([^ ]*\) trace actions.*/\1/p')
		emb=$(echo "$est" | sed -n 's/.*memory peak up to \([0-9]*\) MB.*/\1/p')
		printf '%-6s %-5s %-10s %9s %12s %12s %14s %10s %14s\n' this "$eng" "$n" "$wall" "$mb" \
			"${iters:--}" "${acts:--}" "${emb:--}" "$st"
		if [ -n "$OTHER" ]; then
			cp "$T/jobs-$eng-$n.csv" "$T/this.csv"
			read -r wall mb st < <(run "$OTHER" "$eng" "$n" "$LIMIT_KB")
			same=$(cmp -s "$T/this.csv" "$T/jobs-$eng-$n.csv" && echo "same jobs.csv" || echo "jobs.csv differs")
			[ "$st" -ne 0 ] && same="failed (limit ${LIMIT_KB} KB?)"
			printf '%-6s %-5s %-10s %9s %12s %12s %14s %10s %14s\n' other "$eng" "$n" "$wall" "$mb" \
				- - - "$st $same"
		fi
	done
done
