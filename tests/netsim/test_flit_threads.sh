#!/usr/bin/env bash
# The flit engine on two threads (threads=2, netsim/flit/flit_par.c): the
# same output bytes as one thread on every router configuration it takes
# (meshes, tori with datelines, partitions and bubbles, trees with
# deterministic and adaptive routing, nodes at their switches, cut-through,
# packets longer than buffers, links of several cycles,
# the output and islip allocators, BookSim's preset), synthetic traffic
# below and beyond saturation and trace replays of several jobs; what it
# refuses (random draws: the insee preset, routing=random|fsin) is a usage
# error that says why.
# Usage: test_flit_threads.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
same_synth() { # MACHINE ENGINE LOAD [ARGS]: netsim's report with 1 and 2 threads, the speed line aside
	local traffic=(--traffic uniform)
	case "${4:-}" in *--traffic*) traffic=() ;; esac
	for t in 1 2; do
		# shellcheck disable=SC2086 # ARGS: words
		"$B/netsim" "${traffic[@]}" --machine "$1" --engine "$2,threads=$t" --load "$3" ${4:-} \
			--warmup 2000 --sample 2000 --cycles 8000 --quiet 2>&1 |
			grep -v "^speed\|^engine" > "$T/s$t.txt" || return 1
	done
	grep -q "^latency" "$T/s1.txt" && cmp -s "$T/s1.txt" "$T/s2.txt"
}
while read -r m e l a; do
	check "same bytes: $m $e at $l ${a:-}" same_synth "$m" "$e" "$l" "${a:-}"
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
torus:dims=8x8 flit:vcs=4,source_queue=1 0.9
mesh:dims=8x8 flit:vcs=2,source_queue=2 0.8 --packet 4
kary-ntree:k=4,n=3 flit:node_link_delay=0,source_queue=1 1.0 --packet 3
mesh:dims=8x8 flit:vcs=4 0.1 --traffic hotspot:frac=0.5
mesh:dims=8x8 flit:vcs=4 0.1 --traffic hotspot:node=63,frac=0.5
kary-ntree:k=4,n=3 flit:vcs=2,buf=2 0.4 --packet 8
torus:dims=8x8 flit:vcs=4,link_delay=3 0.3 --packet 4
kary-ntree:k=4,n=3 flit:routing=adaptive,link_delay=2,buf=4 0.5 --packet 6
mesh:dims=8x8 flit:vcs=2,link_delay=4,node_link_delay=2 0.45 --packet 5
CASES
# a machine of 1,024 nodes, whose routes are each packet's own (not the
# routes cache of smaller ones): a head that comes into the other part
# brings its route with it
for t in 1 2; do
	"$B/netsim" --traffic uniform --machine kary-ntree:k=4,n=5 --engine "flit:vcs=2,threads=$t" \
		--load 0.3 --packet 2 --warmup 300 --sample 300 --cycles 900 --quiet 2>&1 |
		grep -v "^speed\|^engine" > "$T/big$t.txt"
done
grep -q "^latency" "$T/big1.txt"
check "same bytes: a 4-ary 5-tree, routes not cached" test $? -eq 0 -a -z "$(cmp "$T/big1.txt" "$T/big2.txt" 2>&1)"
# a packet's flits in both parts at once (long packets, small buffers), heads
# that wait in a mailbox for a link of several cycles, adaptive routes
# decided hop by hop: each thread makes its own copy of a packet that comes
# in (flit_par.c); and the watchdog's report of a deadlock, which names
# packets, their nodes and links, read from the thread that holds them
for t in 1 2; do
	"$B/netsim" --traffic uniform --machine torus:dims=8x8 --load 0.9 --packet 4 --sample 2000 --cycles 8000 --quiet \
		--engine "flit:vcs=1,deadlock=none,buf=2,watchdog=500,threads=$t" > /dev/null 2> "$T/dead$t.txt"
done
grep -q "deadlock).*packet [0-9]* ([0-9]*->[0-9]*)" "$T/dead1.txt"
check "a deadlock's report under two threads: one thread's" test $? -eq 0 -a -s "$T/dead2.txt"
check "a deadlock's report under two threads: one thread's, the same bytes" cmp -s "$T/dead1.txt" "$T/dead2.txt"
# a source's room counted from counters under two threads: the packets a
# saturated run queues at its sources, and its refusal past max_memory,
# as one thread's
held() { # THREADS: the refusal of an unbounded source past max_memory=1
	"$B/netsim" --traffic uniform --machine torus:dims=8x8 --load 1 --warmup 100000 --sample 100000 \
		--cycles 200000 --quiet --engine "flit:vcs=2,source_queue=0,max_memory=1,threads=$1" \
		> /dev/null 2> "$T/held$1.txt"
	echo $?
}
check "max_memory's refusal under two threads: one thread's, at the same cycle" \
	test "$(held 1)/$(sed 's/threads=1/T/g' "$T/held1.txt")" = "$(held 2)/$(sed 's/threads=2/T/g' "$T/held2.txt")"
grep -q "packets queued or in flight at cycle" "$T/held1.txt"
check "max_memory's refusal says how many packets and when" test $? -eq 0
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
