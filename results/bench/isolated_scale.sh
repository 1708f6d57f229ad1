#!/usr/bin/env bash
# Issue 23 C: the isolated emergent models (simgrid and flit, mode=isolated)
# at 10^3 and 10^4 nodes: wall time and peak memory of a cosim run, the
# replays it made and its placement-cache hit rate (the model's own report
# line), hence the wall time per replay. Workload: D(q) jobs with sizes up
# to SIZE (default 1024), class S profiles of the five default kernels,
# first-free (jobs scattered: few placements repeat) and the allocator
# given as ALLOC (default contiguous on trees: many repeat).
# Usage: results/bench/isolated_scale.sh [BUILD_DIR] [JOBS]
set -u
B=${1:-build}/bin
JOBS=${2:-300}
SIZE=${SIZE:-1024}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '%-26s %-22s %-14s %8s %8s %8s %9s %10s\n' machine model alloc wall_s peak_MB replays hit_rate s_per_repl
for machine in kary-ntree:k=10,n=3 kary-ntree:k=22,n=3 torus:dims=10x10x10 torus:dims=22x22x22; do
	for model in simgrid:mode=isolated flit:mode=isolated; do
		for alloc in first-free ${ALLOC:-contiguous}; do
			case "$machine:$alloc" in torus*:contiguous) alloc=curve:order=snake-col,select=bf ;; esac
			/usr/bin/time -f '%e %M' -o "$T/time" "$B/cosim" \
				--synthetic "dq:jobs=$JOBS,n2=$SIZE,q=0.995,mean_run=600,load=0.8" \
				--machine "$machine" --alloc "$alloc" --runtime "$model" > /dev/null 2> "$T/err"
			rc=$?
			read -r wall kb < <(tail -1 "$T/time")
			rep=$(grep -o '[0-9]* replays' "$T/err" | head -1 | awk '{print $1}')
			hit=$(grep -o '[0-9.]*%' "$T/err" | head -1)
			per=$(awk -v w="$wall" -v r="${rep:-0}" 'BEGIN { if (r > 0) printf "%.3f", w / r; else print "-" }')
			[ $rc -eq 0 ] || { per="exit $rc"; grep -m1 -i error "$T/err" | cut -c1-80 >&2; }
			printf '%-26s %-22s %-14s %8s %8d %8s %9s %10s\n' "$machine" "$model" "$alloc" "$wall" $((kb / 1024)) \
				"${rep:--}" "${hit:--}" "$per"
		done
	done
done
