#!/usr/bin/env bash
# cosim's usage errors exit 2 naming the option (1 is for runtime errors):
# an empty file name, a --runtime map= that names no file, --stats with an
# option it does not use, and in a study (--out) a folder whose files'
# paths the system would refuse and an allocator's run that fails on a
# usage error; nothing is written.
# Usage: test_cosim_usage.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
CS="$B/cosim"
echo "1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1" > "$T/w.swf"
RUN=(--workload "$T/w.swf" --machine flat:nodes=8 --quiet)

# usage NEEDLE ABSENT ARGS..: exit 2, NEEDLE on stderr, ABSENT not created
usage() {
	local needle=$1 absent=$2
	shift 2
	"$CS" "$@" > /dev/null 2> "$T/err"
	check "$* : exit 2, '$needle'" status_says $? eq 2 "$needle" "$T/err" "$absent"
}
usage "^cosim: --jobs-out: an empty file name$" "$T/o.csv" "${RUN[@]}" --summary-out "$T/o.csv" --jobs-out ''
usage "^cosim: --jobs-out with --stats: --stats prints a workload's statistics" "$T/o.csv" \
	--stats "$T/w.swf" --jobs-out "$T/o.csv"
# map=: a file that is not there, or a folder, is the spec's fault
usage "^cosim: --runtime linkload: map=$T/missing/dir/x: cannot open: No such file or directory$" "$T/o.csv" \
	"${RUN[@]}" --summary-out "$T/o.csv" --runtime "linkload:map=$T/missing/dir/x"
mkdir "$T/mapdir"
usage "^cosim: --runtime linkload: map=$T/mapdir: cannot read: Is a directory$" "$T/o.csv" \
	"${RUN[@]}" --summary-out "$T/o.csv" --runtime "linkload:map=$T/mapdir"
# ... and in a study, where each allocator's run meets it
usage "an allocator's run failed on a usage error (above): nothing written to $T/s1" "$T/s1" \
	"${RUN[@]}" --out "$T/s1" --runtime "linkload:map=$T/missing/dir/x"
check "study: the run's own message shown" grep -q "map=$T/missing/dir/x: cannot open" "$T/err"
# an allocator the machine has not, an unknown one: each run's usage error
usage "an allocator's run failed on a usage error (above): nothing written to $T/s2" "$T/s2" \
	"${RUN[@]}" --out "$T/s2" --alloc contiguous --alloc first-free
check "study: the allocator's message shown" grep -q "contiguous: cosim: allocator .contiguous.: needs a kary-ntree machine" "$T/err"
usage "an allocator's run failed on a usage error (above)" "$T/s3" "${RUN[@]}" --out "$T/s3" --alloc bogus
# --out whose files would have paths beyond PATH_MAX: refused before any
# folder is made (each run failed on its outputs, without a word, exit 1)
long="$T"
while [ ${#long} -lt 4060 ]; do long="$long/$(printf 'd%.0s' $(seq 1 200))"; done
long=${long:0:4060}
usage "^cosim: --out: a folder of 4060 bytes: the study's files in it would have paths of up to [0-9]* bytes, beyond the system's 4095 (PATH_MAX): give a shorter one$" \
	"$T/dddd" "${RUN[@]}" --out "$long"
check "... no folder made" test -z "$(ls -d "$T"/d* 2> /dev/null)"
# a name longer than a folder's can be, a file where a folder is needed
usage "^cosim: --out $T/$(printf 'n%.0s' $(seq 1 300)): File name too long$" "$T/o.csv" \
	"${RUN[@]}" --out "$T/$(printf 'n%.0s' $(seq 1 300))"
usage "^cosim: --out $T/w.swf/x: Not a directory$" "$T/o.csv" "${RUN[@]}" --out "$T/w.swf/x"
# a flit model's network beyond its max_memory (netsim's key): refused
# before it is made, each part's size said
usage "^cosim: job 1: flit network: kary-ntree:k=8,n=3,.* takes [0-9]* MB (the VCs' buffers .*), more than max_memory=1 MB" \
	"$T/o.csv" --workload "$T/w.swf" --machine kary-ntree:k=8,n=3 --quiet \
	--runtime flit:class=S,max_memory=1 --jobs-out "$T/o.csv"
# a TMPDIR that cannot hold a replaying model's platform file: named
TMPDIR=/nonexistent "$CS" --workload "$T/w.swf" --machine kary-ntree:k=4,n=2 --quiet \
	--runtime simgrid:class=S,engine=s4u --jobs-out "$T/tmpd.csv" > /dev/null 2> "$T/err"
check "TMPDIR=/nonexistent: exit 1, the folder and why, nothing written" \
	status_says $? eq 1 "cannot create a temporary platform file in /nonexistent: No such file or directory" "$T/err" "$T/tmpd.csv"
# a study that works still does
"$CS" "${RUN[@]}" --out "$T/ok" > /dev/null 2> "$T/err"
check "a study: exit 0, its files" test $? -eq 0 -a -f "$T/ok/first-free/jobs.csv"
finish
