#!/usr/bin/env bash
# Issue 23 C: every allocator on machines of its family at about 10^3, 10^4
# and 10^5 nodes, 30,000 D(q) jobs each (sizes up to a tenth of the
# machine, mean about 1%, offered load 0.9), EASY: wall time and peak
# memory, so the cost growth of each allocator shows (CPU seconds too: user
# + system, which other work on the machine changes less). A run over
# TIMEOUT seconds (default 300) prints "timeout". Each run asks for the
# allocator's choices (--choose-nodes): without an output that reads them,
# a fungible allocator's choices are otherwise replaced by a count (README,
# "When nothing reads the nodes").
# Usage: results/bench/alloc_scale.sh [BUILD_DIR] [JOBS] [ALLOCATOR...]
set -u
B=${1:-build}/bin
JOBS=${2:-30000}
shift 2 2> /dev/null || shift $#
only=" ${*:-} "
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# allocator | machine at 10^3 | 10^4 | 10^5
cases='first-free|flat:nodes=1000|flat:nodes=10000|flat:nodes=100000
contiguous|kary-ntree:k=32,n=2|kary-ntree:k=22,n=3|kary-ntree:k=18,n=4
quasi:qct=20|kary-ntree:k=32,n=2|kary-ntree:k=22,n=3|kary-ntree:k=18,n=4
curve:order=hilbert,select=bf|mesh:dims=32x32|mesh:dims=128x64|mesh:dims=512x256
curve:order=snake-col,select=ff|torus:dims=10x10x10|torus:dims=22x22x22|torus:dims=72x36x36
curve:order=row,select=sos|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
curve:order=snake-row,select=freelist|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
mc1x1|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
genalg|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
mm|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
mbs:variant=2d|mesh:dims=32x32|mesh:dims=100x100|mesh:dims=320x320
mbs:variant=granular|mesh:dims=10x10x10|mesh:dims=22x22x22|mesh:dims=72x36x36
bgl|torus:dims=10x10x10|torus:dims=22x22x22|torus:dims=72x36x36
coalloc|multicluster:clusters=8,size=125|multicluster:clusters=8,size=1250|multicluster:clusters=8,size=12500'
nodes_of() { "$B/jobsched" --synthetic dq:jobs=1 --machine "$1" --quiet 2> /dev/null | sed -n 's/.*(\([0-9]*\) nodes).*/\1/p'; }
workload() { # the D(q) workload for a machine of $1 nodes (made once per size)
	local n=$1 f="$T/dq-$1.swf"
	if [ ! -f "$f" ]; then
		local q=0.9
		[ "$n" -ge 5000 ] && q=0.99
		[ "$n" -ge 50000 ] && q=0.999
		"$B/jobsched" --synthetic "dq:jobs=$JOBS,n2=$((n / 10)),q=$q,load=0.9" --machine "flat:nodes=$n" \
			--swf-out "$f" --quiet > /dev/null
	fi
	echo "$f"
}
printf '%-38s %-36s %8s %9s %8s %8s\n' allocator machine nodes wall_s cpu_s peak_MB
echo "$cases" | while IFS='|' read -r alloc m1 m2 m3; do
	case "$only" in "  ") ;; *" ${alloc%%:*} "*) ;; *) continue ;; esac
	for m in "$m1" "$m2" "$m3"; do
		n=$(nodes_of "$m")
		w=$(workload "$n")
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" timeout "${TIMEOUT:-300}" "$B/jobsched" --workload "$w" \
			--machine "$m" --alloc "$alloc" --sched easy --oversize clamp --choose-nodes --quiet > /dev/null 2> "$T/err"
		rc=$?
		read -r wall us ss kb < <(tail -1 "$T/time")
		cpu=$(awk -v u="${us:-0}" -v s="${ss:-0}" 'BEGIN {printf "%.2f", u + s}')
		[ $rc -eq 124 ] && wall=timeout
		[ $rc -ne 0 ] && [ $rc -ne 124 ] && wall="exit$rc" && head -c 150 "$T/err" >&2
		printf '%-38s %-36s %8s %9s %8s %8d\n' "$alloc" "$m" "$n" "$wall" "$cpu" $((${kb:-0} / 1024))
	done
done
