#!/usr/bin/env bash
# The centre allocators' decisions (mc1x1, genalg, mm), before and after a
# change: two jobsched binaries run the same D(q) workloads on 2D and 3D
# meshes and their per-job CSVs (every job's nodes and times) must be byte
# for byte the same. Usage:
#   results/bench/alloc_center_same.sh REF_JOBSCHED NEW_JOBSCHED [JOBS]
# JOBS: jobs per workload (default 10000). With CENTER_REF_CACHE=DIR the
# reference's CSVs are kept there (keyed by the binary's checksum and the
# arguments) and reused.
set -u
ref=${1:?reference jobsched}
new=${2:?new jobsched}
jobs=${3:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0
differ=0
for m in 32x32 10x10x10 16x8 8x4x4; do
	n=$(echo "$m" | tr x '*' | bc)
	spec="dq:jobs=$jobs,n2=$((n / 10)),q=0.9,load=0.9"
	for alloc in mc1x1 genalg mm; do
		for sched in easy fcfs; do
			args=(--synthetic "$spec" --machine "mesh:dims=$m" --alloc "$alloc" --sched "$sched" --quiet)
			out=$tmp/ref.csv
			rm -f "$out" # without a cache, the reference runs every time
			if [ -n "${CENTER_REF_CACHE:-}" ]; then
				mkdir -p "$CENTER_REF_CACHE"
				out=$CENTER_REF_CACHE/$( (sha1sum <"$ref"; echo "${args[*]}") | sha1sum | cut -c1-16).csv
			fi
			[ -s "$out" ] || "$ref" "${args[@]}" --jobs-out "$out" >/dev/null
			t0=$(date +%s.%N)
			"$new" "${args[@]}" --jobs-out "$tmp/new.csv" >/dev/null
			t1=$(date +%s.%N)
			if cmp -s "$out" "$tmp/new.csv"; then
				verdict=same
				same=$((same + 1))
			else
				verdict=DIFFERENT
				differ=$((differ + 1))
			fi
			printf '%-10s %-7s %-5s new %6.2f s  %s\n' "$m" "$alloc" "$sched" "$(echo "$t1 - $t0" | bc)" "$verdict"
		done
	done
done
echo "$same same, $differ different"
[ "$differ" -eq 0 ]
