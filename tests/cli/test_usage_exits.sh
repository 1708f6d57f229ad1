#!/usr/bin/env bash
# Usage errors exit 2 naming the option (the tools' convention: 1 is for
# runtime errors): an empty file name given to any option that takes a
# file, and with --stats every option it does not use (an output, a
# scheduler, ...) and --installed without --machine, instead of ignoring
# them.
# Usage: test_usage_exits.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
JS="$B/jobsched"
echo "1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1" > "$T/w.swf"

# usage NEEDLE ARGS..: exit 2, NEEDLE on stderr, no output written, no
# statistics printed
usage() {
	local needle=$1
	shift
	rm -f "$T/o.csv"
	"$JS" "$@" > "$T/out" 2> "$T/err"
	check "$* : exit 2, '$needle'" status_says $? eq 2 "$needle" "$T/err" "$T/o.csv"
	check "$* : nothing on stdout" test ! -s "$T/out"
}
RUN=(--workload "$T/w.swf" --machine flat:nodes=8)
for o in jobs-out summary-out groups-out series-out plot swf-out; do
	other=--summary-out
	[ $o = summary-out ] && other=--jobs-out
	usage "^jobsched: --$o: an empty file name$" "${RUN[@]}" $other "$T/o.csv" --$o ''
done
usage "^jobsched: --workload: an empty file name$" --workload '' --machine flat:nodes=8
usage "^jobsched: --stats: an empty file name$" --stats ''
usage "^jobsched: --platform: an empty file name$" --workload "$T/w.swf" --platform ''
# an empty name in the middle of the others: still the option named
usage "^jobsched: --jobs-out: an empty file name$" "${RUN[@]}" --jobs-out '' --summary-out "$T/o.csv"

# --stats: what it does not use is refused, named
for o in "--jobs-out $T/o.csv" "--summary-out $T/o.csv" "--groups-out $T/o.csv" "--series-out $T/o.csv" \
	"--plot $T/o.csv" "--swf-out $T/o.csv" "--sched fcfs" "--alloc first-free" "--runtime log" \
	"--queue-order sjf" "--resize pba" "--resizable 50:3" "--kill" "--seed 3" "--gamma 5" \
	"--time-alloc" "--choose-nodes" "--platform $T/w.swf"; do
	# shellcheck disable=SC2086
	usage "^jobsched: ${o%% *} with --stats: --stats prints a workload's statistics and simulates nothing" \
		--stats "$T/w.swf" $o
done
usage "^jobsched: --installed 4 with --stats: the installed nodes are the first of --machine's; give --machine" \
	--stats "$T/w.swf" --installed 4
# what it uses still works
"$JS" --stats "$T/w.swf" --machine flat:nodes=8 --installed 4 --quiet --first 1 --runtime-coef 2 > "$T/out"
check "--stats with --machine, --installed, cleaning, --quiet: P = 4" grep -q "^load_procs *4$" "$T/out"
finish
