#!/usr/bin/env bash
# Issue 23 C: the linkload run-time model at 10^3, 10^4 and 10^5 nodes
# (k-ary n-trees: 10-ary 3-tree, 10-ary 4-tree, 18-ary 4-tree), the first
# 100, 300 and 1,000 jobs of a D(q) workload of 1,000 jobs whose sizes go
# up to a tenth of the machine (up to 10,000 ranks on the 18-ary 4-tree),
# q 0.999, offered load 0.9, mean run 10 s (jobsched's synthetic generator,
# seed 1), profiles cg/mg/ft/is of class A (LU is left out: its generator
# refuses rank counts whose 2-D grid has more columns than the class has
# points, e.g. lu.A.2990, job 36 here, as main does). Prints per run wall
# and CPU (user + system) seconds, peak memory, the model's counters, and
# the machine's load average before the run (other work on the machine
# lengthens wall time, not CPU time). A run over TIMEOUT seconds (default
# 600) prints "timeout". Target: 1,000 jobs on the 18-ary 4-tree in at
# most 60 s and 2 GB.
# Usage: [MACHINES="SPEC..."] results/bench/linkload_scale.sh [BUILD_DIR] [JOBS...]
#   e.g. results/bench/linkload_scale.sh build 100 300 1000
set -u
B=${1:-build}/bin
shift 2> /dev/null || true
counts=${*:-100 300 1000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export TMPDIR=$T # cosim stages its outputs there
machines=${MACHINES:-'kary-ntree:k=10,n=3 kary-ntree:k=10,n=4 kary-ntree:k=18,n=4'}
printf '%-22s %7s %5s %8s %7s %7s %6s  %s\n' machine nodes jobs wall_s cpu_s peak_MB load1 counters
for m in $machines; do
	n=$("$B/jobsched" --synthetic dq:jobs=1 --machine "$m" --quiet 2> /dev/null |
		sed -n 's/.*(\([0-9]*\) nodes).*/\1/p')
	w="$T/dq-$n.swf"
	"$B/jobsched" --synthetic "dq:jobs=1000,q=0.999,n1=1,n2=$((n / 10 < 10000 ? n / 10 : 10000)),mean_run=10,load=0.9" \
		--machine "$m" --swf-out "$w" --quiet > /dev/null || exit 1
	for j in $counts; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-600}" "$B/cosim" \
			--workload "$w" --first "$j" --machine "$m" --runtime linkload:kernels=cg/mg/ft/is \
			> /dev/null 2> "$T/err"
		rc=$?
		read -r wall user sys kb < <(tail -1 "$T/time")
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
		[ $rc -eq 124 ] && wall=timeout
		[ $rc -ne 0 ] && [ $rc -ne 124 ] && wall="exit$rc" && head -c 200 "$T/err" >&2
		counters=$(sed -n 's/^linkload: //p' "$T/err" | cut -d';' -f1)
		printf '%-22s %7s %5s %8s %7s %7d %6s  %s\n' "$m" "$n" "$j" "$wall" "$cpu" \
			$((${kb:-0} / 1024)) "$load" "$counters"
	done
done
