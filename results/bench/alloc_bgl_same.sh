#!/usr/bin/env bash
# The bgl allocator's decisions, before and after a change: runs two
# jobsched binaries on the same workloads, tori, schedulers and bgl
# parameters and compares their per-job CSVs byte for byte (partitions,
# enlargements, migrations, every time). Usage:
#   results/bench/alloc_bgl_same.sh REF_JOBSCHED NEW_JOBSCHED [quick|full]
# quick (default): tori up to 8x8x8; full adds 16x16x16 and 72x36x36
# prefixes (the reference takes minutes there). Logs come from
# ../shared/workloads next to the source tree (skipped when absent). With
# BGL_REF_CACHE=DIR the reference's outputs are kept there and reused
# (keyed by the reference binary's checksum and the arguments).
set -u
ref=${1:?reference jobsched}
new=${2:?new jobsched}
level=${3:-quick}
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=$here/../shared/workloads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0
differ=0

# one configuration: a label, then jobsched's arguments
check() {
	local label=$1
	shift
	local t0 t1 t2 rc_ref
	local key=""
	if [ -n "${BGL_REF_CACHE:-}" ]; then
		key=$BGL_REF_CACHE/$( (sha1sum <"$ref"; echo "$@") | sha1sum | cut -c1-16)
	fi
	t0=$(date +%s.%N)
	if [ -n "$key" ] && [ -r "$key.csv" ]; then
		cp "$key.csv" "$tmp/ref.csv"
		cp "$key.err" "$tmp/ref.err"
		rc_ref=$(cat "$key.rc")
	else
		"$ref" "$@" --quiet --jobs-out "$tmp/ref.csv" --summary-out "$tmp/ref_sum.csv" \
			>/dev/null 2>"$tmp/ref.err"
		rc_ref=$?
		if [ -n "$key" ]; then
			mkdir -p "$BGL_REF_CACHE"
			cp "$tmp/ref.csv" "$key.csv" 2>/dev/null || : >"$key.csv"
			cp "$tmp/ref.err" "$key.err"
			echo $rc_ref >"$key.rc"
		fi
	fi
	t1=$(date +%s.%N)
	"$new" "$@" --quiet --jobs-out "$tmp/new.csv" --summary-out "$tmp/new_sum.csv" >/dev/null 2>"$tmp/new.err"
	local rc_new=$?
	t2=$(date +%s.%N)
	local verdict=same
	if [ $rc_ref -ne $rc_new ] || ! cmp -s "$tmp/ref.csv" "$tmp/new.csv" ||
		! cmp -s "$tmp/ref.err" "$tmp/new.err"; then
		verdict=DIFFERENT
		differ=$((differ + 1))
	else
		same=$((same + 1))
	fi
	local jobs mig
	jobs=$(($(wc -l <"$tmp/new.csv" 2>/dev/null || echo 1) - 1))
	mig=$(python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[0]['migrations_done'] if r else '-')" "$tmp/new_sum.csv" 2>/dev/null || echo -)
	printf '%-58s %6s jobs %5s migr  ref %7.2f s  new %6.2f s  %s\n' "$label" "$jobs" "$mig" \
		"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$verdict"
}

# D(q) jobs scaled to the machine: sizes up to 10,000 / 93,312 of it
dq() { # nodes jobs [seed]
	local n2=$(($1 * 10000 / 93312))
	[ $n2 -lt 4 ] && n2=4
	echo "dq:jobs=$2,n2=$n2,q=0.999,load=0.9"
}

scheds="fcfs easy fcfs:migrate=1 easy:migrate=1"
for t in 4x4x8 8 16x12 5x7x3 6x10x9 8x8x8; do
	n=$(echo "$t" | tr x '*' | bc)
	J=1500 # the reference's cost grows fast with the torus
	[ "$n" -gt 300 ] && J=600
	for s in $scheds; do
		check "dq $t $s" --synthetic "$(dq "$n" $J)" --machine torus:dims=$t --alloc bgl --sched "$s"
	done
	check "dq $t conservative" --synthetic "$(dq "$n" $((J / 2)))" --machine torus:dims=$t --alloc bgl --sched conservative
	check "dq $t easy:migrate=1 I=0 full migration" --synthetic "$(dq "$n" $J)" --seed 7 \
		--machine torus:dims=$t --alloc bgl:I=0,fn_tor=0,fn_max=1 --sched easy:migrate=1
	check "dq $t easy I=4" --synthetic "$(dq "$n" $J)" --seed 3 --machine torus:dims=$t \
		--alloc bgl:I=4 --sched easy
done
if [ -d "$shared" ]; then
	# seed 003's own setting: 4x4x8 supernodes, the four schedulers, I = 1,
	# the standard and the full migration policy
	for log in SDSC-SP2-1998-4.2-cln NASA-iPSC-1993-3.1-cln; do
		for s in $scheds; do
			check "$log 4x4x8 $s" --workload "$shared/$log.swf.gz" --first 3000 \
				--machine torus:dims=4x4x8 --alloc bgl:I=1 --sched "$s" --runtime-coef 1.2
		done
		check "$log 4x4x8 B+M full policy" --workload "$shared/$log.swf.gz" --first 3000 \
			--machine torus:dims=4x4x8 --alloc bgl:I=1,fn_tor=0,fn_max=1 --sched easy:migrate=1
	done
	check "SDSC-BLUE 8x8x8 easy:migrate=1" --workload "$shared/SDSC-BLUE-2000-4.2-cln.swf.gz" \
		--first 1500 --procs-per-node 8 --oversize clamp --machine torus:dims=8x8x8 --alloc bgl \
		--sched easy:migrate=1
fi
if [ "$level" = full ]; then
	for s in easy easy:migrate=1 fcfs:migrate=1; do
		check "dq 16x16x16 $s" --synthetic "$(dq 4096 300)" --machine torus:dims=16x16x16 \
			--alloc bgl --sched "$s"
	done
	check "dq 16x16x16 B+M full policy I=2" --synthetic "$(dq 4096 300)" --seed 5 \
		--machine torus:dims=16x16x16 --alloc bgl:I=2,fn_tor=0,fn_max=1 --sched easy:migrate=1
	if [ -r /work/bench/dq30k.swf ]; then
		check "dq30k 72x36x36 easy (first 2 jobs)" --workload /work/bench/dq30k.swf --first 2 \
			--machine torus:dims=72x36x36 --alloc bgl --sched easy --oversize clamp
	fi
fi
echo "$same same, $differ different"
[ $differ -eq 0 ]
