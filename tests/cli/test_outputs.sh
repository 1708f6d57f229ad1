#!/usr/bin/env bash
# Outputs of every tool (common/outfile.h): /dev/stdout and FIFOs written
# directly (also as a non-root user), a symbolic link kept and its target
# replaced, a dangling one's target created, a directory, a read-only folder
# and a full device refused with exit 1 and nothing written.
# Usage: test_outputs.sh BIN_DIR
set -u
B="$1"
. "$(dirname "$0")/../check.sh"
J=("$B/jobsched" --synthetic dq:jobs=40 --machine flat:nodes=32 --quiet)
HDR="job_id,workload_name,profile,"

# As root, a build that renames a temporary over its target (the bug this
# guards against) would replace /dev/stdout or /dev/full themselves. So as
# root every command naming a device runs in a private mount namespace whose
# /dev is a scratch folder with the same names (unshare -m); where that is
# not allowed, /dev/fd/1 (the same code path as /dev/stdout) and a device
# node made here stand in. Another user cannot replace anything in /dev.
RUN=()
STDOUT=/dev/stdout
FULL=/dev/full
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$T/dev" && ln -s /proc/self/fd "$T/dev/fd" && ln -s /proc/self/fd/1 "$T/dev/stdout" &&
		ln -s /proc/self/fd/2 "$T/dev/stderr"
	mknod -m 666 "$T/dev/null" c 1 3 2> /dev/null
	mknod -m 666 "$T/dev/full" c 1 7 2> /dev/null || FULL=
	if unshare -m sh -c 'mount --bind "$0" /dev' "$T/dev" 2> /dev/null; then
		RUN=(unshare -m sh -c 'mount --bind "$0" /dev && exec "$@"' "$T/dev")
		echo "NOTE root: commands naming devices run with a private /dev (unshare -m)"
	else
		echo "NOTE unshare -m not allowed: /dev/fd/1 for /dev/stdout, $T/dev/full for /dev/full"
		STDOUT=/dev/fd/1
		[ -n "$FULL" ] && FULL="$T/dev/full"
	fi
fi

# /dev/stdout through a pipe (temporaries in a folder of this test's own:
# other tests running beside it write theirs under /tmp)
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
"${RUN[@]}" "${J[@]}" --jobs-out "$STDOUT" | head -3 > "$T/head.txt"
check "jobsched --jobs-out $STDOUT | head: the CSV's first lines" \
	bash -c "[ \$(wc -l < '$T/head.txt') -eq 3 ] && head -1 '$T/head.txt' | grep -q '^$HDR'"
"${RUN[@]}" "${J[@]}" --jobs-out "$STDOUT" --summary-out "$T/s.csv" > "$T/out.txt"
check "--jobs-out $STDOUT > FILE: the CSV alone in FILE (the summary table left off)" \
	bash -c "head -1 '$T/out.txt' | grep -q '^$HDR' && [ \$(grep -c '^[0-9]*,' '$T/out.txt') -eq 40 ] && [ \$(wc -l < '$T/out.txt') -eq 41 ]"
"${J[@]}" --jobs-out "$T/plain.csv" > "$T/table.txt"
check "... and the table on stdout when no output is there" grep -q '^makespan' "$T/table.txt"
# an output that is an input, or two outputs in one file: exit 2 before
# anything runs (the run replaced the workload with its CSV)
"${J[@]}" --swf-out "$T/in.swf" > /dev/null && cp "$T/in.swf" "$T/in.ref" && ln -sf in.swf "$T/in.link"
W=("$B/jobsched" --workload "$T/in.swf" --machine flat:nodes=32 --quiet)
"${W[@]}" --jobs-out "$T/in.link" > /dev/null 2> "$T/err"
check "--jobs-out naming the --workload (through a link): exit 2, the log kept" \
	bash -c "[ $? -eq 2 ] && grep -q 'is the --workload file' '$T/err' && cmp -s '$T/in.swf' '$T/in.ref'"
"${W[@]}" --jobs-out "$T/same.csv" --summary-out "$T/./same.csv" > /dev/null 2> "$T/err"
check "two outputs in one file: exit 2, nothing written" status_says $? eq 2 "name the same file" "$T/err" "$T/same.csv"
"${W[@]}" --jobs-out /dev/null --summary-out /dev/null > /dev/null 2> "$T/err"
check "two outputs to /dev/null: fine" test $? -eq 0
# the same for netsim (a job's trace, through a link; two outputs) and
# tracegen (--stats' trace; --rewrite into its own file)
"$B/tracegen" cg --ranks 2 --iterations 1 --out "$T/own" 2> /dev/null && cp "$T/own/cg.S.2.txt" "$T/own.ref" && ln -sf cg.S.2.txt "$T/own/link.txt"
"$B/netsim" --machine flat:nodes=2 --job "$T/own/cg.S.2.txt@0-1" --jobs-out "$T/own/link.txt" > /dev/null 2> "$T/err"
check "netsim --jobs-out naming a job's trace (through a link): exit 2, the trace kept" \
	bash -c "[ $? -eq 2 ] && grep -q \"is job 1's trace\" '$T/err' && cmp -s '$T/own/cg.S.2.txt' '$T/own.ref'"
"$B/netsim" --machine flat:nodes=2 --job "$T/own/cg.S.2.txt@0-1" --jobs-out "$T/n2.csv" --links-out "$T/n2.csv" > /dev/null 2> "$T/err"
check "netsim: two outputs in one file: exit 2, nothing written" status_says $? eq 2 "name the same file" "$T/err" "$T/n2.csv"
"$B/tracegen" --stats "$T/own/cg.S.2.txt" --matrix-out "$T/own/link.txt" > /dev/null 2> "$T/err"
check "tracegen --matrix-out naming the --stats trace: exit 2, the trace kept" \
	bash -c "[ $? -eq 2 ] && grep -q 'is the --stats trace' '$T/err' && cmp -s '$T/own/cg.S.2.txt' '$T/own.ref'"
"$B/tracegen" --rewrite "$T/own/cg.S.2.txt" --out "$T/own" > /dev/null 2> "$T/err"
check "tracegen --rewrite into its own file: exit 2, the trace kept" \
	bash -c "[ $? -eq 2 ] && grep -q 'the --rewrite trace' '$T/err' && cmp -s '$T/own/cg.S.2.txt' '$T/own.ref'"
"${RUN[@]}" "$B/netsim" --machine flat:nodes=4 --job cg.S.4@0-3 --no-alone --quiet --jobs-out "$STDOUT" | head -1 > "$T/n.txt"
check "netsim --jobs-out $STDOUT" grep -q '^job,trace,ranks' "$T/n.txt"
"$B/tracegen" cg --ranks 4 --iterations 1 --out "$T/tr" 2> /dev/null
"${RUN[@]}" "$B/tracegen" --stats "$T/tr/cg.S.4.txt" --matrix-out "$STDOUT" | grep -c '^[0-9]*,[0-9]*,' > "$T/m.txt"
check "tracegen --matrix-out $STDOUT" bash -c "[ \$(cat '$T/m.txt') -gt 0 ]"
"${RUN[@]}" "$B/platgen" --machine flat:nodes=4 -o "$STDOUT" | head -1 > "$T/p.txt"
check "platgen -o $STDOUT (written by libxml2 to a temporary, copied)" grep -q '^<?xml' "$T/p.txt"
[ -z "$(ls "$TMPDIR")" ] && ok "no temporary left under TMPDIR" || ko "temporaries left: $(ls "$TMPDIR")"
unset TMPDIR

# a FIFO with a reader: the CSV through it, the FIFO kept
mkfifo "$T/fifo"
timeout 30 cat "$T/fifo" > "$T/from-fifo.csv" &
reader=$!
"${J[@]}" --jobs-out "$T/fifo" > /dev/null
st=$?
wait $reader
check "a FIFO with a reader: written, still a FIFO" \
	bash -c "[ $st -eq 0 ] && [ -p '$T/fifo' ] && [ \$(wc -l < '$T/from-fifo.csv') -eq 41 ]"
timeout 30 cat "$T/fifo" > "$T/from-fifo.png" &
reader=$!
"${J[@]}" --plot "$T/fifo" > /dev/null
st=$?
wait $reader
check "--plot to a FIFO: gnuplot's PNG through it" \
	bash -c "[ $st -eq 0 ] && [ -p '$T/fifo' ] && head -c 4 '$T/from-fifo.png' | grep -q PNG"

# symbolic links: kept, their targets replaced; a dangling one's target created
echo old > "$T/target.csv"
ln -s target.csv "$T/link.csv"
"${J[@]}" --jobs-out "$T/link.csv" > /dev/null
check "a symlink: kept, its target replaced" \
	bash -c "[ -L '$T/link.csv' ] && head -1 '$T/target.csv' | grep -q '^$HDR'"
ln -s absent.csv "$T/dangling.csv"
"${J[@]}" --jobs-out "$T/dangling.csv" > /dev/null
check "a dangling symlink: kept, its target created" \
	bash -c "[ -L '$T/dangling.csv' ] && head -1 '$T/absent.csv' | grep -q '^$HDR'"

# refused: exit 1, the path named, nothing written (not the other outputs either)
mkdir "$T/adir"
"${J[@]}" --jobs-out "$T/adir" --summary-out "$T/s2.csv" > /dev/null 2> "$T/err"
check "a directory: exit 1, named, nothing written" \
	status_says $? eq 1 "adir: cannot write: is a directory" "$T/err" "$T/s2.csv"
check "... the directory untouched" bash -c "[ -z \"\$(ls -A '$T/adir')\" ]"
if [ -n "$FULL" ] && [ -e "$FULL" ]; then
	"${RUN[@]}" "${J[@]}" --jobs-out "$FULL" > /dev/null 2> "$T/err"
	check "a full device: exit 1, named" status_says $? eq 1 "$FULL: cannot write: No space left on device" "$T/err"
	check "... and still a device" test -c "$([ ${#RUN[@]} -gt 0 ] && echo "$T/dev/full" || echo "$FULL")"
	"${RUN[@]}" "${J[@]}" --jobs-out "$T/g1.csv" --summary-out "$FULL" --series-out "$T/g2.csv" > /dev/null 2> "$T/err"
	check "a full device beside two files: exit 1, neither file written" status_says $? eq 1 "No space left on device" "$T/err" "$T/g1.csv"
	check "... the other one neither" test ! -e "$T/g2.csv"
fi

# standard output on a full disk: every tool says so and exits 1 (what it
# printed there is incomplete), whatever it was returning
if [ -c /dev/full ]; then
	"$B/tracegen" cg --ranks 4 --out "$T/tr" > /dev/null 2>&1
	while IFS='|' read -r tool args; do
		# shellcheck disable=SC2086
		"$B/$tool" $args > /dev/full 2> "$T/err"
		check "$tool $args > /dev/full: exit 1, said" \
			status_says $? eq 1 "$tool: standard output: cannot write: No space left on device" "$T/err"
	done <<-EOF2
		jobsched|--synthetic dq:jobs=40 --machine flat:nodes=32
		jobsched|--help
		cosim|--synthetic dq:jobs=4 --machine flat:nodes=32 --runtime log
		netsim|--traffic uniform --machine mesh:dims=4x4 --engine flit --load 0.1 --cycles 20000
		tracegen|--stats $T/tr/cg.S.4.txt
		platgen|--help
		sweep|--help
	EOF2
fi

# a file size limit (ulimit -f, in KiB): a write past it fails (the tools
# ignore SIGXFSZ, which killed them with exit 153 and left their
# temporaries); each says which file and why, exits 1 and leaves nothing
mkdir -p "$T/fsz"
while IFS='|' read -r tool args; do
	# shellcheck disable=SC2086
	(ulimit -f 100 && exec "$B/$tool" $args > /dev/null 2> "$T/err")
	check "ulimit -f 100, $tool $args: exit 1, which file and why, nothing left" \
		status_says $? eq 1 "$tool: $T/fsz/.*cannot write: File too large" "$T/err" "$T/fsz/out"
	check "... no temporary either" test -z "$(ls -A "$T/fsz")"
done <<-EOF2
	jobsched|--synthetic dq:jobs=20000 --machine flat:nodes=1000 --quiet --jobs-out $T/fsz/out
	cosim|--synthetic dq:jobs=20000 --machine flat:nodes=1000 --quiet --jobs-out $T/fsz/out
	platgen|--machine mesh:dims=100x100 -o $T/fsz/out
	tracegen|cg --ranks 64 --out $T/fsz/out
	netsim|--traffic uniform --machine torus:dims=32x32 --cycles 200 --warmup 10 --sample 50 --quiet --links-out $T/fsz/out
EOF2

# a target whose name is as long as the folder allows (255 bytes): its
# temporary keeps what fits of the name (DEST.tmp.PID.HOST.XXXXXX was too
# long, "cannot create: File name too long" for a name the folder takes)
mkdir -p "$T/long"
long="$T/long/$(printf 'n%.0s' $(seq 1 251)).csv"
"$B/jobsched" --synthetic dq:jobs=10 --machine flat:nodes=8 --quiet --jobs-out "$long" > /dev/null 2> "$T/err"
check "jobsched --jobs-out with a 255-byte name: written" test $? -eq 0 -a -s "$long"
"$B/platgen" --machine mesh:dims=4x4 -o "$long" 2> "$T/err"
check "platgen -o the same name: written" grep -q '<platform' "$long"
check "... nothing else in the folder" test "$(ls -A "$T/long" | wc -l)" -eq 1

# a run killed by SIGKILL (the OOM killer) leaves its temporary beside the
# output; the next run writing there removes it (this host's, its process
# gone), not another live process's nor another host's
mkdir -p "$T/kill"
"$B/jobsched" --synthetic dq:jobs=2000000 --machine flat:nodes=64 --quiet --jobs-out "$T/kill/o.csv" > /dev/null 2>&1 &
kp=$!
for i in $(seq 1 1200); do ls "$T"/kill/o.csv.tmp.* > /dev/null 2>&1 && break; sleep 0.05; done
kill -KILL $kp 2> /dev/null
wait $kp 2> /dev/null
left=$(ls "$T"/kill/ | grep -c '^o.csv.tmp\.')
H=$(hostname | tr './' '__')
touch "$T/kill/o.csv.tmp.$$.$H.keep01" "$T/kill/o.csv.tmp.1.otherhost.keep02"
"${J[@]}" --jobs-out "$T/kill/o.csv" > /dev/null
check "SIGKILL: its temporary removed by the next run, a live one's and another host's kept" \
	bash -c "[ $left -eq 1 ] && [ \$(ls '$T/kill' | grep -c '^o.csv.tmp\.') -eq 2 ] && [ -e '$T/kill/o.csv.tmp.$$.$H.keep01' ] && [ -s '$T/kill/o.csv' ]"
# as a user who is not root: /dev/stdout through a pipe, a read-only folder
if [ "$(id -u)" -ne 0 ]; then
	AS=()
	mkdir "$T/ro" && chmod 555 "$T/ro"
elif command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
	AS=(setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups env TMPDIR=/tmp)
	chmod 755 "$T" && mkdir "$T/ro" && chmod 755 "$T/ro" # root's: nobody may not write
else
	AS=(none)
fi
if [ "${AS[0]:-}" = none ]; then
	echo "SKIP non-root outputs: running as root without setpriv or a user 'nobody'"
else
	"${AS[@]}" "${J[@]}" --jobs-out /dev/stdout 2> "$T/err" | head -2 > "$T/nr.txt"
	check "non-root: --jobs-out /dev/stdout | head" bash -c "head -1 '$T/nr.txt' | grep -q '^$HDR' || { cat '$T/err'; false; }"
	"${AS[@]}" "${J[@]}" --jobs-out "$T/ro/o.csv" --summary-out /dev/null > /dev/null 2> "$T/err"
	check "non-root: a read-only folder: exit 1, named, nothing written" \
		status_says $? eq 1 "ro/o.csv: cannot create: Permission denied" "$T/err" "$T/ro/o.csv"
	check "... and nothing left in it" bash -c "[ -z \"\$(ls -A '$T/ro')\" ]"
fi
finish
