#!/usr/bin/env bash
# Issue 27 item 2: the flit engine on one and two threads (threads=2),
# uniform traffic at 0.3 flits/node/cycle on a 16x16 torus and a 4-ary
# 5-tree (the issue's machines), and an FT class A replay of 64 ranks on
# an 8x8 torus: runs of one and two threads interleaved, REPS pairs
# (default 5), the median wall time of each and the median of the pairs'
# ratios; the outputs of the two compared (they must be the same bytes).
# Before and after the runs, how long a cache line takes from one core to
# the other (core_handoff.c, when a C compiler is there): two threads gain
# only where that is short (the twenty-sixth session's virtual machine
# moved between about 55 and 220 ns within the hour, and two threads
# between 1.75x and 1.0x with it).
# Usage: results/bench/flit_threads.sh BUILD_DIR [REPS]
set -u
B=${1:?build dir}/bin
REPS=${2:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
handoff() {
	if [ -x "$T/handoff" ] || cc -O2 -pthread "$(dirname "$0")/core_handoff.c" -o "$T/handoff" 2> /dev/null; then
		"$T/handoff"
	else
		echo "core handoff: not measured (no C compiler)"
	fi
}
handoff
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
bench() { # NAME ARGS...: netsim ARGS with threads=1 and threads=2 appended to --engine's value
	local name=$1
	shift
	: > "$T/w1" && : > "$T/w2" && : > "$T/r"
	for i in $(seq "$REPS"); do
		for t in 1 2; do
			local args=("$@") s e
			args[${#args[@]} - 1]="${args[${#args[@]} - 1]},threads=$t"
			s=$(date +%s.%N)
			"$B/netsim" "${args[@]}" > "$T/out$t" 2>&1 || { echo "failed: ${args[*]}"; cat "$T/out$t"; exit 1; }
			e=$(date +%s.%N)
			awk -v s="$s" -v e="$e" 'BEGIN {print e - s}' >> "$T/w$t"
		done
		paste "$T/w1" "$T/w2" | tail -1 | awk '{print $1 / $2}' >> "$T/r"
		grep -v '^speed\|^engine\|^job ' "$T/out1" | grep -v 'threads=' > "$T/c1"
		grep -v '^speed\|^engine\|^job ' "$T/out2" | grep -v 'threads=' > "$T/c2"
		cmp -s "$T/c1" "$T/c2" || { echo "$name: outputs differ"; exit 1; }
	done
	printf '| %s | %.2f | %.2f | %.2fx |\n' "$name" "$(median < "$T/w1")" "$(median < "$T/w2")" "$(median < "$T/r")"
}
echo "| run | one thread: wall s (median) | two threads: wall s (median) | speed-up (median of pairs) |"
echo "|---|---|---|---|"
bench "16x16 torus, uniform 0.3, 30,000 cycles" --traffic uniform --machine torus:dims=16x16 --load 0.3 \
	--warmup 10000 --cycles 20000 --tolerance 0 --quiet --engine flit:vcs=4
bench "4-ary 5-tree, uniform 0.3, 6,000 cycles" --traffic uniform --machine kary-ntree:k=4,n=5 --load 0.3 \
	--warmup 2000 --sample 2000 --cycles 4000 --tolerance 0 --quiet --engine flit:vcs=4
bench "8x8 torus, ft.A.64 replay" --machine torus:dims=8x8 --job ft.A.64@0-63 --no-alone --quiet \
	--jobs-out /dev/stdout --engine flit:vcs=4
handoff
