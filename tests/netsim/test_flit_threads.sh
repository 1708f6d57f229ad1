#!/usr/bin/env bash
# The flit engine on two threads (threads=2, netsim/flit/flit_par.c): the
# same output bytes as one thread on every router configuration it takes
# (meshes, tori with datelines, partitions and bubbles, trees with
# deterministic and adaptive routing, nodes at their switches, cut-through,
# the output and islip allocators, BookSim's preset), synthetic traffic
# below and beyond saturation and trace replays of several jobs; what it
# refuses (random draws: the insee preset, routing=random|fsin) is a usage
# error that says why.
# Usage: test_flit_threads.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
same_synth() { # MACHINE ENGINE LOAD: netsim's report with 1 and 2 threads, the speed line aside
	for t in 1 2; do
		"$B/netsim" --traffic uniform --machine "$1" --engine "$2,threads=$t" --load "$3" \
			--warmup 2000 --sample 2000 --cycles 8000 --quiet 2>&1 |
			grep -v "^speed\|^engine" > "$T/s$t.txt" || return 1
	done
	grep -q "^latency" "$T/s1.txt" && cmp -s "$T/s1.txt" "$T/s2.txt"
}
while read -r m e l; do
	check "same bytes: $m $e at $l" same_synth "$m" "$e" "$l"
done << 'CASES'
mesh:dims=8x8 flit:vcs=4 0.3
mesh:dims=8x8 flit:vcs=4 0.6
torus:dims=8x8 flit:vcs=4 0.3
torus:dims=4x4x4 flit:deadlock=partition 0.4
torus:dims=8x8 flit:switching=vct,deadlock=bubble,bubble_at=local,vcs=2,buf=16 0.5
mesh:dims=8x8 flit:preset=booksim 0.3
mesh:dims=8x8 flit:node_link_delay=0,alloc=output,hold=packet 0.4
mesh:dims=8x8 flit:alloc=islip,crossbar=vc,pipeline=packet 0.3
kary-ntree:k=4,n=3 flit:vcs=4 0.5
kary-ntree:k=4,n=3 flit:routing=adaptive 0.7
kary-ntree:k=4,n=3 flit:node_link_delay=0,router_delay=0,switching=vct,buf=16 0.6
CASES
for t in 1 2; do
	"$B/netsim" --machine kary-ntree:k=4,n=3 --engine "flit:threads=$t" --job cg.S.16@contiguous \
		--job ft.S.16@spread --job is.S.8@random:seed=3 --jobs-out "$T/r$t.csv" --quiet > /dev/null 2>&1
done
check "same bytes: three jobs' trace replay on a 4-ary 3-tree" cmp -s "$T/r1.csv" "$T/r2.csv"
"$B/netsim" --traffic uniform --machine mesh:dims=8x8 --engine flit:preset=insee,threads=2 --load 0.3 > /dev/null 2> "$T/err"
check "insee preset (random VC draws): refused" status_says $? eq 2 "threads=2 does not take random draws" "$T/err"
"$B/netsim" --traffic uniform --machine kary-ntree:k=4,n=3 --engine flit:routing=random,threads=2 --load 0.3 > /dev/null 2> "$T/err"
check "routing=random: refused" status_says $? eq 2 "threads=2 does not take random draws" "$T/err"
"$B/netsim" --traffic uniform --machine mesh:dims=8x8 --engine flit:threads=3 --load 0.3 > /dev/null 2> "$T/err"
check "threads=3: refused" status_says $? eq 2 "threads" "$T/err"
finish
