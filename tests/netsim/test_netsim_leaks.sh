#!/usr/bin/env bash
# netsim runs that exercise every allocation of ours (several jobs, generated
# and read traces, temporary rank files, back-to-back evaluations, link
# loads) with SimGrid's thread contexts, under which LeakSanitizer works
# (with SimGrid's default raw contexts it cannot walk the actors' stacks; the
# sanitizer build runs test_netsim without leak detection for that reason).
# Usage: test_netsim_leaks.sh BIN_DIR SHARED_DIR
set -u
NS="$1/netsim"
. "$(dirname "$0")/../check.sh"
printf '0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n0 finalize\n1 finalize\n' > "$T/p2p.txt"
for args in "--machine kary-ntree:k=4,n=2 --job cg.S.4@contiguous --job is.S.4@spread --job $T/p2p.txt@8,12" \
	"--machine torus:dims=4x4 --job mg.S.8@random:seed=1 --job ft.S.8@contiguous" \
	"--machine multicluster:clusters=2,size=8 --job lu.S.16@0-15" \
	"--engine s4u --machine kary-ntree:k=4,n=2 --job mg.S.8@spread --job is.S.4@contiguous"; do
	"$NS" $args --cfg contexts/factory:thread --quiet --jobs-out "$T/j.csv" --links-out "$T/l.csv" 2> "$T/err" &&
		ok "netsim $args" || ko "netsim $args: $(grep -v '^\[' "$T/err" | tail -5)"
done
finish
