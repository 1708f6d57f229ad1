#!/usr/bin/env bash
# Issue 27 item 2: the flit engine's single-thread speed against INSEE's
# simulator FSIN on INSEE's own mesh configuration (8x8 mesh, 2 VCs,
# bubble flow control, dimension-order routing, transit queues of 16
# phits, 1-phit packets, uniform traffic at 0.3 phits/node/cycle), runs of
# the two interleaved, best of REPS (default 5) each; then the flit
# engine's instructions per flit-hop (callgrind, when valgrind is there).
#
# FSIN is not part of the project: build it beside it from its public
# source (github:navaridas/insee, the "Latest version" commit 2140aec):
#   git archive HEAD | tar -x -C DIR && cd DIR && gcc -O2 -w -fcommon src/*.c -lm -o fsin
# (-fcommon: its headers define globals that gcc 10 and later refuse to
# merge otherwise). FSIN reports cycles/s in whole seconds, so its speed
# here is the cycles it simulates (warm-up and samples, "Simulation
# clock") over the wall time of the process, start-up included (a few
# milliseconds).
# Usage: results/bench/fsin_compare.sh BUILD_DIR FSIN_BINARY [REPS]
set -u
B=${1:?build dir}/bin
FSIN=${2:?path to fsin}
REPS=${3:-5}
if [ ! -x "$FSIN" ]; then
	echo "SKIP: $FSIN is not an executable (build FSIN as this script's header says)"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
best_fsin=0 best_ours=0
for i in $(seq "$REPS"); do
	s=$(date +%s.%N)
	(cd "$T" && "$FSIN" topo=mesh_8_8 tpattern=uniform load=0.3 plength=1 nchan=2 tql=16 vc=bubble \
		routing=dim warm_up_period=10000 conv_period=10000 max_conv_time=100000 output=run > fsin.out 2>&1) || {
		echo "fsin failed: $(tail -3 "$T/fsin.out")"
		exit 1
	}
	e=$(date +%s.%N)
	cyc=$(awk '/^Simulation clock/ {print $4}' "$T/fsin.out")
	f=$(awk -v c="$cyc" -v s="$s" -v e="$e" 'BEGIN {printf "%d", c / (e - s)}')
	o=$("$B/netsim" --traffic uniform --machine mesh:dims=8x8 --engine flit:preset=insee --load 0.3 \
		--cycles 100000 --quiet | sed -n 's/^speed .*: \([0-9]*\) cycles\/s.*/\1/p')
	echo "pair $i: FSIN $f cycles/s, flit:preset=insee $o cycles/s"
	[ "$f" -gt "$best_fsin" ] && best_fsin=$f
	[ "$o" -gt "$best_ours" ] && best_ours=$o
done
awk -v f="$best_fsin" -v o="$best_ours" 'BEGIN {printf "best of each: FSIN %d, flit:preset=insee %d cycles/s: %.2fx FSIN (target 5x)\n", f, o, o / f}'
if command -v valgrind > /dev/null; then
	# instructions of 10,000 cycles (2,000 warm-up, 4 samples of 2,000)
	# less those of 100 cycles (the set-up's), over the flit-hops of the
	# 9,900 cycles between
	run() {
		valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$B/netsim" --traffic uniform \
			--machine mesh:dims=8x8 --engine flit:preset=insee --load 0.3 --warmup "$1" --sample "$2" \
			--cycles "$3" --tolerance 0 --quiet > "$T/out" 2> "$T/err"
		ir=$(sed -n 's/.*I *refs: *//p' "$T/err" | tr -d ,)
		echo "$ir $(sed -n 's/^speed *\([0-9]*\) cycles in \([0-9.]*\) s: [0-9]* cycles\/s, \([0-9]*\) flit-hops\/s/\1 \2 \3/p' "$T/out")"
	}
	read -r ir1 c1 s1 h1 < <(run 2000 2000 8000)
	read -r ir0 c0 s0 h0 < <(run 0 100 100)
	awk -v i1="$ir1" -v i0="$ir0" -v c1="$c1" -v s1="$s1" -v h1="$h1" -v c0="$c0" -v s0="$s0" -v h0="$h0" 'BEGIN {
		hops = h1 * s1 - h0 * s0
		printf "callgrind: %.3g instructions for %d cycles, %.3g for %d: %.0f instructions per flit-hop (%.3g flit-hops; target 400)\n",
			i1, c1, i0, c0, (i1 - i0) / hops, hops }'
fi
