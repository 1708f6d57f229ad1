#!/usr/bin/env bash
# Issue 23 (C): the allocation-quality metrics at 10^5 nodes. On a torus and
# a mesh of 72x36x36 (93,312 nodes), 30,000 D(q) jobs placed first-free and
# along every curve order the machine accepts: the run without outputs and
# with --summary-out (its pairwise-distance columns follow every job's
# nodes; target: at most 2x), both choosing nodes (--choose-nodes: without
# an output that reads nodes, these allocators' choices would otherwise be
# replaced by a count, and the ratio would compare allocation against
# none), then the metric's cost as the machine grows
# (10^3, 10^4, 10^5 nodes, job sizes scaled with it). Prints Markdown
# tables; record them with the machine (lscpu, date).
# Wall time is the best of REPS runs. CALLGRIND=1 counts instructions with
# valgrind instead (steady when other work shares the cores; 50x slower).
# ALLOCS=REGEX keeps the allocators it matches (e.g. ALLOCS=first-free).
# Usage: results/bench/metrics_scale.sh [BUILD_DIR] [REPS]   (a Release build)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$ROOT/build}
REPS=${2:-3}
JS=$B/bin/jobsched
[ -x "$JS" ] || { echo "no $JS: build first (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# best wall time (s) of REPS runs, or the instruction count (CALLGRIND=1)
measure() {
	if [ "${CALLGRIND:-0}" = 1 ]; then
		valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$@" 2>&1 >/dev/null |
			sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
		return
	fi
	python3 - "$REPS" "$@" <<'PY'
import subprocess, sys, time
def once(cmd):  # stderr shows; a failure stops the script
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t
print(f"{min(once(sys.argv[2:]) for _ in range(int(sys.argv[1]))):.3f}")
PY
}
UNIT=$([ "${CALLGRIND:-0}" = 1 ] && echo "instructions" || echo "wall (s), best of $REPS")

# 30,000 D(q) jobs for a machine of N nodes, sizes up to N / 9.33 (10,000 on
# 93,312), written as SWF once per size.
workload() {
	local n=$1 f=$TMP/dq$1.swf
	[ -f "$f" ] || "$JS" --synthetic "dq:jobs=30000,n2=$((n * 10000 / 93312)),q=0.999,load=0.9" \
		--machine "flat:nodes=$n" --quiet --swf-out "$f" >/dev/null
	echo "$f"
}

# the allocators a machine accepts: first-free and every curve order
allocs() {
	echo first-free | grep -E "${ALLOCS:-.}" || true
	for o in row snake-row snake-col hilbert; do
		echo "curve:order=$o" | grep -qE "${ALLOCS:-.}" || continue
		if "$JS" --workload "$1" --first 1 --machine "$2" --alloc "curve:order=$o" --quiet \
			>/dev/null 2>"$TMP/err"; then
			echo "curve:order=$o"
		else
			echo "(skipped curve:order=$o on $2: $(head -1 "$TMP/err"))" >&2
		fi
	done
}

# a count with thousands separators; seconds as they are
fmt() {
	python3 -c "import sys; v = sys.argv[1]; print(f'{int(v):,}' if v.isdigit() else v)" "$1"
}

ratio() {
	python3 -c "import sys; print(f'{float(sys.argv[2]) / float(sys.argv[1]):.2f}')" "$1" "$2"
}

W=$(workload 93312)
echo "| machine (93,312 nodes), 30,000 D(q) jobs | alloc | without outputs: $UNIT | with --summary-out | ratio |"
echo "|---|---|---|---|---|"
for mach in torus:dims=72x36x36 mesh:dims=72x36x36; do
	for a in $(allocs "$W" "$mach"); do
		run="$JS --workload $W --machine $mach --alloc $a --choose-nodes --quiet"
		t0=$(measure $run)
		t1=$(measure $run --summary-out "$TMP/sum.csv")
		echo "| $mach | $a | $(fmt "$t0") | $(fmt "$t1") | $(ratio "$t0" "$t1") |"
	done
done

# Growth: the same shape at 10^3, 10^4 and 10^5 nodes; the metric's cost is
# the difference, per job and per allocated node.
echo
echo "| machine | nodes | alloc | without outputs: $UNIT | with --summary-out | difference | per job | per allocated node |"
echo "|---|---|---|---|---|---|---|---|"
for shape in 16x8x8 34x17x17 72x36x36; do
	n=$(python3 -c "import math, sys; print(math.prod(int(x) for x in sys.argv[1].split('x')))" "$shape")
	W=$(workload "$n")
	alloc_nodes=$(awk '!/^;/ { s += $5 } END { print s }' "$W")
	for fam in torus mesh; do
		for a in $(printf '%s\n' first-free curve:order=snake-col | grep -E "${ALLOCS:-.}"); do
			run="$JS --workload $W --machine $fam:dims=$shape --alloc $a --choose-nodes --quiet"
			t0=$(measure $run)
			t1=$(measure $run --summary-out "$TMP/sum.csv")
			python3 - "$fam:dims=$shape" "$n" "$a" "$t0" "$t1" "$alloc_nodes" <<'PY'
import sys
m, n, a, t0, t1, nodes = sys.argv[1:]
d = float(t1) - float(t0)
if "." in t0:  # seconds
    print(f"| {m} | {int(n):,} | {a} | {t0} | {t1} | {d:.3f} | {d / 30000 * 1e6:.2f} us | {d / int(nodes) * 1e9:.2f} ns |")
else:  # instructions
    print(f"| {m} | {int(n):,} | {a} | {int(t0):,} | {int(t1):,} | {int(d):,} | {d / 30000:,.0f} | {d / int(nodes):.2f} |")
PY
		done
	done
done
