#!/usr/bin/env bash
# Conservative backfilling with node sets (the allocators that are not
# fungible: contiguous and quasi on trees, bgl on tori, coalloc), where
# every compression asks the allocator what-if placements for every queued
# job: wall time, CPU time and peak memory of growing prefixes of a real
# log (LANL-CM5, 1,024 processors, from ../shared/workloads; skipped with a
# message when absent) and of congested D(q) workloads at 10^3 and 10^4
# nodes. With REF=path/to/another/jobsched, each case runs that binary too
# and says whether the per-job CSVs are byte-identical.
# Usage: results/bench/cons_nodesets.sh [BUILD_DIR]
set -u
B=${1:-build}/bin
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LANL=$(dirname "$0")/../../../shared/workloads/LANL-CM5-1994-4.1-cln.swf.gz
"$B/jobsched" --synthetic "dq:jobs=10000,n2=100,q=0.9,load=1.5" --machine flat:nodes=1000 \
	--swf-out "$T/dq1k.swf" --quiet > /dev/null
"$B/jobsched" --synthetic "dq:jobs=10000,n2=1000,q=0.99,load=1.5" --machine flat:nodes=10648 \
	--swf-out "$T/dq10k.swf" --quiet > /dev/null
# workload | jobs | machine | allocator
cases="lanl|5000|torus:dims=8x8x16|bgl
lanl|20000|torus:dims=8x8x16|bgl
lanl|20000|kary-ntree:k=4,n=5|contiguous
lanl|20000|kary-ntree:k=4,n=5|quasi:qct=20
lanl|20000|multicluster:clusters=8,size=128|coalloc
$T/dq1k.swf|10000|torus:dims=10x10x10|bgl
$T/dq10k.swf|10000|kary-ntree:k=22,n=3|contiguous"
run() { # binary workload jobs machine alloc csv -> "wall cpu peakMB"
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-900}" "$1" --workload "$2" \
		--first "$3" --machine "$4" --alloc "$5" --sched conservative --oversize clamp \
		--jobs-out "$6" --quiet > /dev/null 2> "$T/err"
	local rc=$?
	read -r wall us ss kb < <(tail -1 "$T/time")
	[ $rc -eq 124 ] && wall=timeout
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && wall="exit$rc"
	awk -v w="$wall" -v u="${us:-0}" -v s="${ss:-0}" -v k="${kb:-0}" \
		'BEGIN {printf "%s %.2f %d", w, u + s, k / 1024}'
}
printf '%-10s %6s %-34s %-14s %9s %8s %8s %s\n' workload jobs machine allocator wall_s cpu_s peak_MB ref
echo "$cases" | while IFS='|' read -r w jobs m alloc; do
	name=$(basename "$w" .swf)
	if [ "$w" = lanl ]; then
		if [ ! -f "$LANL" ]; then
			echo "skipped: $LANL is absent" >&2
			continue
		fi
		w=$LANL
		name=LANL-CM5
	fi
	out=$(run "$B/jobsched" "$w" "$jobs" "$m" "$alloc" "$T/a.csv")
	ref=""
	if [ -n "${REF:-}" ]; then
		ref=$(run "$REF" "$w" "$jobs" "$m" "$alloc" "$T/b.csv")
		if cmp -s "$T/a.csv" "$T/b.csv"; then ref="$ref identical"; else ref="$ref DIFFERENT"; fi
	fi
	read -r wall cpu mb <<< "$out"
	printf '%-10s %6s %-34s %-14s %9s %8s %8s %s\n' "$name" "$jobs" "$m" "$alloc" "$wall" "$cpu" "$mb" "$ref"
done
