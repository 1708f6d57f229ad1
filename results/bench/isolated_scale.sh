#!/usr/bin/env bash
# Issue 23 C: the isolated emergent models (simgrid and flit, mode=isolated)
# at 10^3 and 10^4 nodes (10-ary and 22-ary 3-trees).
#
# Table 1, the cost of one replay by job size: cosim runs of JOBS D(q)
# jobs that all have SIZE ranks (class S profiles of KERNELS, first-free
# on a machine that fragments, so that few placements repeat), per model;
# the CPU seconds (user + system, children included) of the run less those
# of the same run with kernels=none (the scheduling and the platform; its
# one replay, of the compute-only profile, is taken off the count),
# divided by the replays the model reports (sizes above the machine's
# nodes are skipped). A run over TIMEOUT seconds (default 600) prints
# "timeout".
#
# Table 2, the placement cache on a mixed workload: MIXED_JOBS D(q) jobs of
# up to MIXED_SIZE ranks (default 300 and 256), first-free and contiguous:
# replays, lookups and hit rate, CPU seconds and CPU seconds per replay.
#
# Profiles: KERNELS (default cg/mg/ft/is: lu's class S grid of 12 x 12
# points refuses rank counts whose process grid is wider, e.g. 26 = 2 x 13,
# and a refusal ends the run).
# Usage: results/bench/isolated_scale.sh [BUILD_DIR]
#   env: JOBS (10), SIZES ("16 64 256 1024"), MODELS (below), MACHINES,
#        MIXED_JOBS (300), MIXED_SIZE (256), TABLES ("1 2"), KERNELS
set -u
B=${1:-build}/bin
JOBS=${JOBS:-10}
K=${KERNELS:-cg/mg/ft/is}
SIZES=${SIZES:-16 64 256 1024}
MODELS=${MODELS:-simgrid:mode=isolated,engine=s4u,alltoall=ring simgrid:mode=isolated flit:mode=isolated}
MACHINES=${MACHINES:-kary-ntree:k=10,n=3 kary-ntree:k=22,n=3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run MACHINE ALLOC WORKLOAD RUNTIME: sets wall cpu mb rc and the report
# line's replays, lookups and hit (empty when absent)
run() {
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-600}" "$B/cosim" \
		--synthetic "$3" --machine "$1" --alloc "$2" --runtime "$4" > /dev/null 2> "$T/err"
	rc=$?
	local user sys kb
	read -r wall user sys kb < <(tail -1 "$T/time")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	mb=$((${kb:-0} / 1024))
	replays=$(grep -o '[0-9]* replays' "$T/err" | head -1 | awk '{print $1}')
	lookups=$(grep -o '[0-9]* lookups' "$T/err" | head -1 | awk '{print $1}')
	hit=$(grep -o '[0-9.]*%' "$T/err" | head -1)
	[ $rc -eq 124 ] && cpu=timeout
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && { cpu="exit$rc"; grep -m1 -i error "$T/err" | cut -c1-100 >&2; }
	return 0
}
per() { awk -v c="$1" -v b="$2" -v r="${3:-0}" \
	'BEGIN { if (r > 0 && c + 0 == c) printf "%.3f", (c - b) / r; else print "-" }'; }

case " ${TABLES:-1 2} " in *" 1 "*)
	echo "Table 1: one replay by job size ($JOBS jobs of SIZE ranks, first-free, class S)"
	printf '%-22s %-48s %6s %8s %8s %8s %8s %10s\n' machine model size base_s cpu_s peak_MB replays cpu_s/repl
	for m in $MACHINES; do
		nodes=$("$B/jobsched" --synthetic dq:jobs=1 --machine "$m" --quiet 2> /dev/null |
			sed -n 's/.*(\([0-9]*\) nodes).*/\1/p')
		for size in $SIZES; do
			[ "$size" -gt "$nodes" ] && continue
			w="dq:jobs=$JOBS,n1=$size,n2=$size,q=0.5,mean_run=600,load=0.8"
			for model in $MODELS; do
				run "$m" first-free "$w" "$model,kernels=none"
				base=$cpu base_replays=${replays:-0}
				run "$m" first-free "$w" "$model,class=S,kernels=$K"
				printf '%-22s %-48s %6s %8s %8s %8d %8s %10s\n' "$m" "$model" "$size" "$base" "$cpu" "$mb" \
					"${replays:--}" "$(per "$cpu" "$base" "$((${replays:-0} - base_replays))")"
			done
		done
	done
	;;
esac
case " ${TABLES:-1 2} " in *" 2 "*)
	MJ=${MIXED_JOBS:-300}
	MS=${MIXED_SIZE:-256}
	echo "Table 2: the placement cache ($MJ D(q) jobs of up to $MS ranks, class S)"
	printf '%-22s %-48s %-12s %8s %8s %8s %8s %8s %10s\n' machine model alloc cpu_s peak_MB replays lookups hit cpu_s/repl
	for m in $MACHINES; do
		w="dq:jobs=$MJ,n2=$MS,q=0.995,mean_run=600,load=0.8"
		for model in $MODELS; do
			for alloc in first-free contiguous; do
				run "$m" "$alloc" "$w" "$model,class=S,kernels=$K"
				printf '%-22s %-48s %-12s %8s %8d %8s %8s %8s %10s\n' "$m" "$model" "$alloc" "$cpu" "$mb" \
					"${replays:--}" "${lookups:--}" "${hit:--}" "$(per "$cpu" 0 "$replays")"
			done
		done
	done
	;;
esac
