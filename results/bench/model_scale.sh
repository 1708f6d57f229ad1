#!/usr/bin/env bash
# Issue 27, item 3: every emergent run-time model on a real log at growing
# prefixes. The HPC2N-2002 cleaned log on its 4-ary 4-tree (256 nodes),
# EASY, quasi:qct=20 (the issue's configuration), the first N jobs for each
# N of SIZES (0: the whole log, 202,871 jobs), for each model of MODELS:
# wall seconds, CPU seconds (user + system, children included) and peak
# resident memory (the largest process, MB), or "timeout" past TIMEOUT
# seconds (default 900) and the model's own refusal (full's estimate) when
# it refuses; after a timeout the larger prefixes of that model are not
# run. One run at a time; the growth from one size to the next is
# the ratio of their wall times (the job counts grow tenfold).
# Usage: results/bench/model_scale.sh [BUILD_DIR]
#   env: SIZES ("2000 20000 0"), MODELS (below), TIMEOUT (900), LOG
set -u
B=${1:-build}/bin
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LOG=${LOG:-$ROOT/../shared/workloads/HPC2N-2002-2.2-cln.swf.gz}
SIZES=${SIZES:-2000 20000 0}
MODELS=${MODELS:-linkload simgrid:mode=isolated,engine=s4u,alltoall=ring simgrid:mode=shared,engine=s4u,alltoall=ring flit:mode=isolated,alltoall=ring flit:mode=shared,alltoall=ring full:engine=s4u,alltoall=ring}
if [ ! -f "$LOG" ]; then
	echo "SKIP: $LOG is absent"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "| model | jobs | wall s | CPU s | peak MB | growth (wall) |"
echo "|---|---|---|---|---|---|"
for m in $MODELS; do
	prev="" stop=""
	for n in $SIZES; do
		jobs=$([ "$n" -gt 0 ] && echo "$n" || echo "whole log")
		if [ -n "$stop" ]; then # a smaller prefix already timed out
			echo "| $m | $jobs | not run (the prefix before timed out) | | | |"
			continue
		fi
		first=()
		[ "$n" -gt 0 ] && first=(--first "$n")
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-900}" "$B/cosim" \
			--workload "$LOG" "${first[@]}" --machine kary-ntree:k=4,n=4 --sched easy \
			--alloc quasi:qct=20 --runtime "$m" --quiet > /dev/null 2> "$T/err"
		rc=$?
		read -r wall user sys kb < <(tail -1 "$T/time")
		if [ "$rc" -eq 124 ]; then
			echo "| $m | $jobs | timeout (${TIMEOUT:-900}) | | | |"
			stop=1
			continue
		fi
		if [ "$rc" -ne 0 ]; then
			echo "| $m | $jobs | refused or failed: $(grep -v '^$' "$T/err" | tail -1 | cut -c1-160) | | | |"
			prev=""
			continue
		fi
		cpu=$(python3 -c "import sys; print('%.1f' % (float(sys.argv[1]) + float(sys.argv[2])))" "$user" "$sys")
		growth=""
		[ -n "$prev" ] && growth=$(python3 -c "import sys; print('x %.1f' % (float(sys.argv[2]) / max(float(sys.argv[1]), 1e-3)))" "$prev" "$wall")
		echo "| $m | $jobs | $wall | $cpu | $((kb / 1024)) | $growth |"
		prev=$wall
	done
done
