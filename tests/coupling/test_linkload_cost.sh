#!/usr/bin/env bash
# The linkload model's memory before it runs (issue 23): its estimate on
# stderr, a bound of measured peaks with margin; a run past max_memory
# refused at once (exit 1) naming the estimate and the options that would
# bound it, nothing written; max_memory=0: no limit.
# Usage: test_linkload_cost.sh BIN_DIR   (PLACESIM_SANITIZED=1: no memory
# comparison, the sanitizers' shadow memory being in the measured peak)
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
S="--synthetic dq:jobs=20,n1=1,n2=16,mean_run=60 --seed 1 --machine kary-ntree:k=4,n=3 --sched easy"

# --- the estimate, before the run ---
"$B/cosim" $S --runtime linkload --jobs-out "$T/d.csv" > /dev/null 2> "$T/err"
check "the estimate on stderr" status_says $? eq 0 \
	"linkload: estimate: 20 jobs, [0-9]* profiles; memory peak up to [0-9]* MB (max_memory 4096): running jobs" "$T/err"
check "... before the run's own report" test "$(grep -n 'estimate:' "$T/err" | cut -d: -f1)" \
	-lt "$(grep -n 'sharing computations' "$T/err" | cut -d: -f1)"
"$B/cosim" $S --runtime linkload --quiet --jobs-out "$T/q.csv" > /dev/null 2> "$T/err"
quiet_ok() { [ "$1" -eq 0 ] && ! grep -q "estimate" "$T/err"; }
check "no estimate with --quiet" quiet_ok $?

# --- max_memory: a limit below the estimate refuses, 0 disables ---
refused() {
	[ "$1" -eq 1 ] && [ ! -e "$T/r.csv" ] && [ ! -e "$T/rs.csv" ] && [ ! -s "$T/out" ] &&
		grep -q "^cosim: linkload: the run may need up to [0-9]* MB (what dominates: .*), more than max_memory=1: bound it with .*--first N.*kernels=.*or raise the limit (linkload:max_memory=MB, 0: none)$" "$T/err"
}
"$B/cosim" $S --runtime linkload:max_memory=1 --jobs-out "$T/r.csv" --summary-out "$T/rs.csv" \
	> "$T/out" 2> "$T/err"
check "max_memory=1: refused before anything is written (exit 1)" refused $?
check "... on a k-ary n-tree, no advice to take one" eval '! grep -q "a k-ary n-tree machine" "$T/err"'
"$B/cosim" $S --runtime linkload:max_memory=0 --jobs-out "$T/z.csv" > /dev/null 2> "$T/err"
check "max_memory=0: no limit, the same run" status_says $? eq 0 "(max_memory 0)" "$T/err"
check "... jobs identical to the default's" cmp -s "$T/d.csv" "$T/z.csv"
"$B/cosim" $S --runtime linkload:max_memory=-1 > /dev/null 2> "$T/err"
check "max_memory=-1: a usage error" status_says $? eq 2 "max_memory" "$T/err"
# one IS job of 8,192 ranks on a 100x100 mesh: 6.7e7 flows, past the
# default at once (no traffic built: well under a second), no folder made
# (two allocators a mesh has: contiguous, a tree's, is a usage error, exit 2)
big="--synthetic dq:jobs=1,n1=8192,n2=8192 --machine mesh:dims=100x100"
timeout 20 "$B/cosim" $big --runtime linkload:kernels=is --alloc first-free --alloc curve \
	--out "$T/big" > /dev/null 2> "$T/err"
check "IS on 8,192 ranks of a mesh: refused by the default limit, no --out folder" status_says $? eq 1 \
	"linkload: the run may need up to [0-9]* MB (.*job 1 of 8192 ranks on kernel is: 6.71e+07 flows one by one.*), more than max_memory=4096: .*a k-ary n-tree machine where all-to-all is counted in aggregate" \
	"$T/err" "$T/big"

# --- the estimate against measured peaks (one job, flows dominating) ---
peak() { # peak resident MB of cosim ARGS, then its stderr in $T/err
	python3 - "$B/cosim" "$@" > "$T/peak" 2> "$T/err" << 'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
PY
}
for c in "is 1024 flat:nodes=1024" "is 512 mesh:dims=32x16" "ft 2048 kary-ntree:k=8,n=4" "mg 2048 torus:dims=16x16x8"; do
	set -- $c
	if [ "${PLACESIM_SANITIZED:-0}" = 1 ]; then
		echo "SKIP the estimate against the measured peak (sanitizer build): $c"
		continue
	fi
	peak --synthetic "dq:jobs=1,n1=$2,n2=$2" --machine "$3" --runtime "linkload:kernels=$1" --quiet \
		--jobs-out "$T/p.csv"
	read -r st mb < "$T/peak"
	est=$("$B/cosim" --synthetic "dq:jobs=1,n1=$2,n2=$2" --machine "$3" \
		--runtime "linkload:kernels=$1,max_memory=1" 2>&1 > /dev/null | sed -n 's/.*need up to \([0-9]*\) MB.*/\1/p')
	echo "$c: estimate ${est:-?} MB, measured peak $mb MB"
	check "$c: the estimate bounds the measured peak, within 4 times it" \
		python3 -c "import sys; e, m = float('${est:-0}'), float('$mb'); sys.exit(not ($st == 0 and m <= e <= 4 * m))"
done
finish
