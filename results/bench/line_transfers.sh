#!/usr/bin/env bash
# Which code passes cache lines between the flit engine's two threads
# (threads=2), and how many: netsim built with ThreadSanitizer's
# instrumentation and line_transfers.c in place of its runtime, run on a
# short synthetic run, its sites named with addr2line. The counts are
# exact for the run (a model of the lines' copies, no sampling), so two
# builds compare run for run; the run is some 100 times slower than a
# Release one, so keep it to a few hundred cycles.
# Usage: results/bench/line_transfers.sh NEW_BUILD_DIR [TOP [netsim ARGS...]]
#   default ARGS: uniform traffic at 0.3 on a 16x16 torus, 400 cycles
set -eu
D=${1:?a new build directory}
TOP=${2:-30}
shift $(($# < 2 ? $# : 2))
S=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$D"
D=$(cd "$D" && pwd)
cc -O2 -fno-tree-loop-distribute-patterns -fno-builtin -c "$S/results/bench/line_transfers.c" \
	-o "$D/line_transfers.o"
cmake -S "$S" -B "$D" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-fsanitize=thread \
	-DCMAKE_EXE_LINKER_FLAGS="$D/line_transfers.o -ldl" > "$D/cmake.log"
rm -f "$D/bin/netsim" # linked again with the runtime just compiled (not a dependency make sees)
make -C "$D" -j2 netsim_tool > "$D/make.log"
[ $# -gt 0 ] || set -- --traffic uniform --machine torus:dims=16x16 --load 0.3 --warmup 100 \
	--sample 100 --cycles 300 --tolerance 0 --quiet --engine flit:vcs=4,threads=2
OUT="$D/line_transfers.txt"
LINE_TRANSFERS_OUT="$OUT" "$D/bin/netsim" "$@" | grep '^speed' || true
head -1 "$OUT"
echo "reads writes site (innermost call first)"
grep -v '^#' "$OUT" | head -"$TOP" | while read -r r w f off; do
	echo "$r $w $(addr2line -f -i -e "$f" "$off" | paste -sd' ' | sed "s|$S/||g")"
done
