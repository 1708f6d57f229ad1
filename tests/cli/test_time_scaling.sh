#!/usr/bin/env bash
# --arrival-mult and --runtime-coef: values that cannot work are usage
# errors (exit 2) naming the option; a job whose scaled time would be lost
# (a non-zero time taken to 0, a run or requested time that vanishes at its
# submit time) or taken beyond the readers' 10^12 s is an error (exit 2)
# naming the file, the line and the job, with nothing written; the job is
# never changed silently.
# Usage: test_time_scaling.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
JS="$B/jobsched"

rec() { echo "$1 $2 -1 $3 1 -1 -1 1 $4 -1 1 1 1 1 1 1 -1 -1"; }
rec 1 0 100 200 > "$T/ok.swf"
{ rec 1 0 100 200; rec 2 0 1e-316 1; } > "$T/tiny_run.swf"
{ rec 1 0 100 200; rec 2 0 5 1e-316; } > "$T/tiny_req.swf"
{ rec 1 0 100 200; rec 2 1e-316 5 10; } > "$T/tiny_submit.swf"
{ rec 1 0 100 200; rec 2 1000000 0.001 0.002; } > "$T/late.swf"
{ rec 1 0 100 200; rec 2 10000 5 10; } > "$T/far.swf"
{ rec 1 0 100 200; rec 2 0 5000 9000; } > "$T/long.swf"

# refused NEEDLE ARGS..: exit 2, the message, no output written
refused() {
	local needle=$1
	shift
	rm -f "$T/out.csv"
	"$JS" --machine flat:nodes=8 --quiet --jobs-out "$T/out.csv" "$@" > /dev/null 2> "$T/err"
	check "$* : exit 2, '$needle', nothing written" status_says $? eq 2 "$needle" "$T/err" "$T/out.csv"
}
for v in 1e-320 1e300 -1 nan inf 0 -0 1e-10 2e9 '' x; do
	refused "--arrival-mult: '$v' is not a number in \[1e-09, 1e+09\]" --workload "$T/ok.swf" --arrival-mult "$v"
	refused "--runtime-coef: '$v' is not a number in \[1e-09, 1e+09\]" --workload "$T/ok.swf" --runtime-coef "$v"
done
refused "tiny_run.swf:2: job 2: --runtime-coef 1e-09 takes its run time 1e-316 s to 0 (below the least double): the time would be lost" \
	--workload "$T/tiny_run.swf" --runtime-coef 1e-9
refused "tiny_req.swf:2: job 2: --runtime-coef 1e-09 takes its requested time 1e-316 s to 0" \
	--workload "$T/tiny_req.swf" --runtime-coef 1e-9 --overrun keep
refused "tiny_submit.swf:2: job 2: --arrival-mult 1e-09 takes its submit time 1e-316 s to 0" \
	--workload "$T/tiny_submit.swf" --arrival-mult 1e-9
refused "late.swf:2: job 2: --runtime-coef 1e-09 takes its run time to 1e-12 s, which vanishes when added to its submit time 1000000 s" \
	--workload "$T/late.swf" --runtime-coef 1e-9
refused "late.swf:2: job 2: --runtime-coef 1e-07 and --arrival-mult 1000 (its submit time) take its run time to 1e-10 s, which vanishes" \
	--workload "$T/late.swf" --runtime-coef 1e-7 --arrival-mult 1000
refused "far.swf:2: job 2: --arrival-mult 1e+09 takes its submit time 10000 s to 1e+13 s, beyond 10^12 s" \
	--workload "$T/far.swf" --arrival-mult 1e9
refused "long.swf:2: job 2: --runtime-coef 1e+09 takes its run time 5000 s to 5e+12 s, beyond 10^12 s" \
	--workload "$T/long.swf" --runtime-coef 1e9
# a part of a job (partial executions sharing its number) is named with its part
{ rec 1 0 100 200; echo "2 10 -1 50 1 -1 -1 1 60 -1 2 1 1 1 1 1 -1 -1"; echo "2 1000000 -1 0.001 1 -1 -1 1 0.002 -1 3 1 1 1 1 1 -1 -1"; } > "$T/parts.swf"
refused "parts.swf:3: job 2 (part 2): --runtime-coef 1e-09 takes its run time" --workload "$T/parts.swf" --runtime-coef 1e-9
# --stats cleans the same way
"$JS" --stats "$T/late.swf" --runtime-coef 1e-9 > /dev/null 2> "$T/err"
check "--stats: the same error" status_says $? eq 2 "late.swf:2: job 2: --runtime-coef 1e-09 takes its run time" "$T/err"
# the job outside the selection is not scaled, so not refused
"$JS" --workload "$T/late.swf" --machine flat:nodes=8 --quiet --runtime-coef 1e-9 --first 1 > /dev/null 2> "$T/err"
check "a job not selected is not refused" test $? -eq 0
# the extremes that work: scaled exactly
"$JS" --workload "$T/ok.swf" --machine flat:nodes=8 --quiet --runtime-coef 1e-9 --arrival-mult 1e9 \
	--jobs-out "$T/x.csv" > /dev/null
check "1e-9 and 1e9 work: run time 1e-7 s" grep -q "^1,ok,,0,1,2e-07,1,COMPLETED_SUCCESSFULLY,0,1e-07," "$T/x.csv"
finish
