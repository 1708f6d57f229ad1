#!/usr/bin/env bash
# The full model's cost before it runs (issue 23 C): its estimate on stderr
# (iterations, trace actions, memory peak), as accurate as stated against a
# measured run; a workload past its limits refused at once (exit 1) with the
# estimate and the options that would bound it, nothing written.
# Usage: test_full_cost.sh BIN_DIR   (PLACESIM_SANITIZED=1: no memory
# comparison, the sanitizers' shadow memory being in the measured peak)
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
F="--synthetic dq:jobs=15,n1=1,n2=16,mean_run=0.05,load=0.9,req_factor=1 --seed 2 --machine kary-ntree:k=4,n=2 --sched easy --runtime full:class=S"
# The README's Quick-start workload (200 jobs of mean 600 s) with full, as a
# new user would run it: millions of class-S iterations. Run bounded (4 GB
# of address space, 120 s): a build without the estimate took 12 GB in a
# minute and 24 GB in 8 minutes.
QS="--synthetic dq:jobs=200,q=0.85,n1=1,n2=32,mean_run=600,load=0.9 --seed 1 --machine kary-ntree:k=4,n=3 --sched easy"
# (ASan reserves terabytes of address space: there, the time limit alone)
bounded() { ([ "${PLACESIM_SANITIZED:-0}" = 1 ] || ulimit -v 4000000 && timeout 120 "$@"); }

# --- the estimate, before the run ---
"$B/cosim" $F --jobs-out "$T/f1.csv" > /dev/null 2> "$T/err"
check "the estimate on stderr before the run (s4u)" status_says $? eq 0 \
	"full (engine s4u): estimate: 15 jobs, [0-9.e+]* iterations, [0-9.e+]* trace actions to replay (max_actions 1e+09); memory peak up to [0-9]* MB (max_memory 4096): traces of [0-9]* profiles" "$T/err"
check "... printed before the run's own report" test "$(grep -n 'estimate:' "$T/err" | cut -d: -f1)" \
	-lt "$(grep -n 'iterations replayed in one simulation' "$T/err" | cut -d: -f1)"
"$B/cosim" $F --quiet --jobs-out "$T/f2.csv" > /dev/null 2> "$T/err"
# (not an empty stderr: ASan warns there about SimGrid's context switches)
quiet_ok() { [ "$1" -eq 0 ] && ! grep -q "estimate" "$T/err"; }
check "no estimate with --quiet" quiet_ok $?
"$B/cosim" $F,engine=flit --jobs-out "$T/ff.csv" > /dev/null 2> "$T/err"
check "the estimate on the flit engine (no mailboxes)" status_says $? eq 0 \
	"full (engine flit:preset=none,compute=flops): estimate: 15 jobs, [0-9.e+]* iterations, .* 0 mailboxes" "$T/err"
check "... with the bytes of its messages and max_bytes" grep -q \
	"trace actions to replay (max_actions 1e+09), [0-9.e+]* bytes of messages (max_bytes 2e+11); memory" "$T/err"
# iterations: exactly those the run replays, on both engines
same_iterations() {
	local est run
	est=$(sed -n 's/.*estimate: [0-9]* jobs, \([0-9.e+]*\) iterations.*/\1/p' "$1")
	run=$(sed -n 's/.* jobs, \([0-9]*\) iterations replayed in one simulation.*/\1/p' "$1")
	[ -n "$est" ] && [ -n "$run" ] && python3 -c "import sys; sys.exit(float('$est') != float('$run'))"
}
check "estimated iterations = replayed (flit)" same_iterations "$T/err"
# the bytes (the estimate printed, the run refused by max_actions): the
# job's iterations times an iteration's bytes rank to rank,
# counted here from tracegen's matrices of one and two iterations
printf '1 0 0 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n' > "$T/mg.swf"
"$B/cosim" --workload "$T/mg.swf" --machine kary-ntree:k=4,n=2 --runtime full:class=S,kernels=mg,engine=flit,max_actions=1 \
	--jobs-out "$T/mg.csv" > /dev/null 2> "$T/err"
"$B/tracegen" mg --ranks 4 --class S --iterations 1 --name one --out "$T/tg" > /dev/null 2>&1 &&
	"$B/tracegen" mg --ranks 4 --class S --iterations 2 --name two --out "$T/tg" > /dev/null 2>&1 &&
	"$B/tracegen" --stats "$T/tg/one.txt" --matrix-out "$T/one.csv" > /dev/null 2>&1 &&
	"$B/tracegen" --stats "$T/tg/two.txt" --matrix-out "$T/two.csv" > /dev/null 2>&1
same_bytes() {
	local k est one two
	k=$(sed -n 's/.*estimate: 1 jobs, \([0-9.e+]*\) iterations.*/\1/p' "$T/err")
	est=$(sed -n 's/.*, \([0-9.e+]*\) bytes of messages.*/\1/p' "$T/err")
	one=$(awk -F, 'NR > 1 && $1 != $2 { s += $3 } END { printf "%.0f", s }' "$T/one.csv")
	two=$(awk -F, 'NR > 1 && $1 != $2 { s += $3 } END { printf "%.0f", s }' "$T/two.csv")
	python3 -c "import sys; k, e, d = float('$k'), float('$est'), $two - $one; sys.exit(not (d > 0 and abs(e - k * d) <= 1e-3 * k * d))"
}
check "the estimated bytes: iterations x an iteration's bytes (tracegen's matrices)" same_bytes
# memory: a measured run of 30 jobs on the 4-ary 3-tree (peak resident set
# of cosim and its simulation's process); the estimate is a bound with
# margin: at least the peak, at most 3 times it (2.6 measured here)
A="--synthetic dq:jobs=30,n1=1,n2=19,mean_run=0.05 --seed 1 --machine kary-ntree:k=4,n=3 --sched easy --runtime full:class=S"
python3 - "$B/cosim" $A --jobs-out "$T/a.csv" > "$T/peak" 2> "$T/err" << 'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB -> MB
print(p.returncode, peak)
PY
read -r st peak < "$T/peak"
check "a measured run: estimated iterations = replayed (s4u)" same_iterations "$T/err"
est=$(sed -n 's/.*memory peak up to \([0-9]*\) MB.*/\1/p' "$T/err")
echo "memory: estimate ${est:-?} MB, measured peak $peak MB"
if [ "${PLACESIM_SANITIZED:-0}" = 1 ]; then
	echo "SKIP the estimate against the measured peak (sanitizer build)"
else
	check "the memory estimate bounds the measured peak, within 3 times it" \
		python3 -c "import sys; e, m = float('${est:-0}'), float('$peak'); sys.exit(not ($st == 0 and m <= e <= 3 * m))"
fi

# --- refusals: exit 1, the estimate and what would bound it, nothing written ---
bounded "$B/cosim" $QS --runtime full:kernels=cg/mg/ft/is/lu,class=S --jobs-out "$T/q.csv" > /dev/null 2> "$T/err"
check "the Quick-start workload refused at once: exit 1, the estimate, nothing written" \
	status_says $? eq 1 "cosim: full: the workload's replay needs at least [0-9.e+]* trace actions ([0-9.e+]* iterations of the first [0-9]* jobs; the largest, job [0-9]*, [0-9]* iterations of [a-z]*.S.[0-9]*: [0-9.e+]* actions), more than max_actions=1e+09" "$T/err" "$T/q.csv"
check "... naming the options that bound it" grep -q -- "bound it with fewer or shorter jobs (--first N, --window FROM:TO, --runtime-coef C below 1; a synthetic workload's jobs=, mean_run=), a class of longer iterations (class=W, A, B, C or D), or raise the limit (full:max_actions=N, 0: none)" "$T/err"
check "... and the estimate printed first" grep -q "^full (engine s4u): estimate: the first [0-9]* of 200 jobs" "$T/err"
# the Quick-start's own command (a study, --out) with full
bounded "$B/cosim" $QS --alloc first-free --alloc contiguous --runtime full:kernels=cg/mg/ft/is/lu,class=S \
	--out "$T/qs" > /dev/null 2> "$T/err"
check "... as a study (--out): exit 1, each allocator's refusal, no folder" \
	status_says $? eq 1 "first-free: cosim: full: the workload's replay needs at least" "$T/err" "$T/qs"
bounded "$B/cosim" $QS --runtime full --jobs-out "$T/q.csv" > /dev/null 2> "$T/err"
check "class A (the default): the larger classes named" \
	status_says $? eq 1 "a class of longer iterations (class=B, C or D), or raise" "$T/err" "$T/q.csv"
"$B/cosim" $F,max_memory=10 --jobs-out "$T/fm.csv" > /dev/null 2> "$T/err"
check "a memory estimate above max_memory refused (exit 1), naming it and the option" \
	status_says $? eq 1 "cosim: full: the run may need up to [0-9]* MB (traces of 10 profiles .*), more than max_memory=10: .*raise the limit (full:max_memory=MB, 0: none)" "$T/err" "$T/fm.csv"
"$B/cosim" $F,engine=flit,max_bytes=1e5 --jobs-out "$T/fm.csv" > /dev/null 2> "$T/err"
check "on the flit engine, bytes above max_bytes refused (exit 1), naming it and the options" \
	status_says $? eq 1 "cosim: full: the workload's replay on the flit engine moves .*[0-9.e+]* bytes of messages .*, more than max_bytes=100000: .*raise the limit (full:max_bytes=N, 0: none)" "$T/err" "$T/fm.csv"
"$B/cosim" $F,max_bytes=1e5 --quiet --jobs-out "$T/fb.csv" > /dev/null 2> "$T/err" && cmp -s "$T/f1.csv" "$T/fb.csv" &&
	ok "max_bytes is the flit engine's: s4u runs as before" || ko "s4u with max_bytes: $(cat "$T/err")"
"$B/cosim" $F,max_actions=1000 --jobs-out "$T/fm.csv" > /dev/null 2> "$T/err"
check "a small max_actions refuses a small workload (exit 1)" status_says $? eq 1 "more than max_actions=1000:" "$T/err" "$T/fm.csv"
"$B/cosim" $F,max_actions=0,max_memory=0 --quiet --jobs-out "$T/f4.csv" > /dev/null 2> "$T/err" && cmp -s "$T/f1.csv" "$T/f4.csv" &&
	ok "no limits (0): the same outputs" || ko "no limits: $(cat "$T/err")"
# A job's iterations are counted whole: K was capped at 10^7 without a
# word, so a job of 1e9 s ran 10^4 s and reported an effective speed-up of
# 10^5, and the estimate said 1e+07 iterations whatever the run times.
printf '1 0 0 1000000000 1 -1 -1 1 1000000000 -1 1 1 1 -1 1 -1 -1 -1\n' > "$T/long.swf"
"$B/cosim" --workload "$T/long.swf" --machine kary-ntree:k=4,n=2 --runtime full:class=S,kernels=none \
	--jobs-out "$T/long.csv" > /dev/null 2> "$T/err"
check "a job of 1e9 s: its 1e+12 iterations estimated and refused (exit 1), nothing written" \
	status_says $? eq 1 "estimate: 1 jobs, 1e+12 iterations" "$T/err" "$T/long.csv"
finish
