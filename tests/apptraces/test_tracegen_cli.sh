#!/usr/bin/env bash
# tracegen on real traces (SimGrid's examples, the recorded NPB archives) and
# on a corpus of bad traces: each error class with its message and line.
# Usage: test_tracegen_cli.sh BIN_DIR SHARED_DIR
set -u
TG="$1/tracegen"
SH=$(cd "$2" 2> /dev/null && pwd || echo "$2")
. "$(dirname "$0")/../check.sh"

if [ -d "$SH/traces" ]; then
	for f in "$SH"/traces/simgrid-examples/replay/actions*.txt "$SH"/traces/simgrid-examples/replay/split_traces \
		"$SH"/traces/simgrid-examples/replay_multiple/smpi_replay.txt; do
		check "SimGrid example $(basename "$f") validates" "$TG" --check "$f" > /dev/null
	done
	mkdir -p "$T/npb"
	for a in "$SH"/traces/npb/*.tar.gz; do
		(cd "$T/npb" && tar xzf "$a")
		b=$(basename "$a" .tar.gz)
		check "NPB $b loads and validates" "$TG" --check "$T/npb/$b.txt" > /dev/null
	done
	# every generator reproduces the recorded trace of the same kernel, class
	# and rank count: action counts per rank within 5%, the same message
	# sizes and peers (tracegen --compare exits 1 otherwise)
	for a in "$SH"/traces/npb/*.tar.gz; do
		b=$(basename "$a" .tar.gz)
		IFS=. read -r k c n <<< "$b"
		if "$TG" "$k" --class "$c" --ranks "$n" -o "$T/gen" 2> "$T/err" &&
			"$TG" --compare "$T/npb/$b.txt" "$T/gen/$b.txt" > "$T/cmp" 2>&1; then
			ok "generated $b matches the recording ($(tail -1 "$T/cmp"))"
		else
			ko "generated $b matches the recording: $(cat "$T/err"; grep -- '<-' "$T/cmp")"
		fi
	done
	# a gzip'ed single-file trace reads the same
	gzip -c "$SH/traces/simgrid-examples/replay/actions_alltoallv.txt" > "$T/a2av.txt.gz"
	"$TG" --stats "$T/a2av.txt.gz" > "$T/gz.out" && "$TG" --stats "$SH/traces/simgrid-examples/replay/actions_alltoallv.txt" > "$T/plain.out" &&
		[ "$(tail -n +2 "$T/gz.out")" = "$(tail -n +2 "$T/plain.out")" ] && ok "gzip'ed trace" || ko "gzip'ed trace"
	# a per-rank file alone is a fragment for --check, an error for a consumer
	"$TG" --stats "$SH/traces/simgrid-examples/replay/actions1.txt" > /dev/null 2> "$T/err"
	[ $? -eq 1 ] && grep -q "load the trace's index" "$T/err" && ok "a lone rank file is no whole trace" ||
		ko "a lone rank file is no whole trace: $(cat "$T/err")"
else
	echo "SKIP real traces: $SH/traces not found"
fi

# bad traces: name, expected exit, "file:line" suffix, message fragment, text
bad() {
	printf '%b' "$5" > "$T/$1.txt"
	"$TG" --check "$T/$1.txt" > /dev/null 2> "$T/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q "$1.txt:$3: " "$T/err" && grep -q -- "$4" "$T/err"; then
		ok "bad trace: $1"
	else
		ko "bad trace: $1 (exit $rc): $(cat "$T/err")"
	fi
}
bad unknown-action 1 2 "unknown action 'sendd'" '0 init\n0 sendd 1 0 10\n'
bad arg-count 1 2 "expects 3 to 4 arguments, got 2" '0 init\n0 send 1 0\n1 init\n'
bad arg-type 1 3 "not a non-negative number" '0 init\n1 init\n0 compute lots\n'
bad negative-size 1 3 "'-5' is not a non-negative number" '0 init\n1 init\n0 send 1 0 -5\n1 recv 0 0 5\n'
bad peer-range 1 2 "peer '7' is not a rank of this 2-rank trace" '0 init\n0 send 7 0 10\n1 init\n'
bad bad-tag 1 2 "tag 'x'" '0 init\n0 send 1 x 10\n1 recv 0 0 10\n'
bad datatype 1 2 "not a SimGrid datatype id" '0 init\n0 bcast 10 0 99\n1 bcast 10 0\n'
bad unmatched-send 1 4 "send to 1 tag 0 (2000 bytes) has no matching recv" \
	'0 init\n1 init\n0 send 1 0 1000\n0 send 1 0 2000\n1 recv 0 0 1000\n'
bad unmatched-recv 1 3 "recv from 0 tag 5 is never matched" '0 init\n1 init\n1 recv 0 5 10\n'
bad tag-mismatch 1 3 "has no matching recv" '0 init\n1 init\n0 send 1 1 10\n1 irecv 0 2 10\n'
bad unmatched-irecv 1 2 "irecv from 0 tag 3 is never matched" '1 init\n1 irecv 0 3 8\n0 init\n'
bad truncated 1 3 "truncated" '0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 10\n'
bad skipped-collective 1 3 "collective #2 (barrier) is never reached by rank 1" \
	'0 init\n0 bcast 8\n0 barrier\n1 init\n1 bcast 8\n1 finalize\n'
bad other-collective 1 4 "collective #1 is allreduce (root -1) here but bcast (root 0)" \
	'0 init\n0 bcast 8\n1 init\n1 allreduce 8 0\n'
bad other-root 1 4 "collective #1 is bcast (root 1) here but bcast (root 0)" \
	'0 init\n0 bcast 8 0\n1 init\n1 bcast 8 1\n'
bad wait-nothing 1 2 "no such isend or irecv is pending" '0 init\n0 wait 1 0 3\n1 init\n'
bad deadlock 1 2 "recv from 1 tag 0 is never matched" \
	'0 init\n0 recv 1 0 8\n0 send 1 0 8\n1 init\n1 recv 0 0 8\n1 send 0 0 8\n'
bad v-count 1 2 "count 2 'x'" '0 init\n0 alltoallv 10 5 x 10 5 5\n1 init\n'
printf '0 init\n2 init\n' > "$T/gap.txt"
"$TG" --check "$T/gap.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "rank 1 has no actions" "$T/err" && ok "bad trace: a missing rank" ||
	ko "bad trace: a missing rank: $(cat "$T/err")"
printf 'r0.txt\nmissing.txt\n' > "$T/index.txt"
printf '0 init\n0 finalize\n' > "$T/r0.txt"
"$TG" --check "$T/index.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "index.txt: rank 1: .*missing.txt: cannot open" "$T/err" && ok "bad index: a missing rank file" ||
	ko "bad index: a missing rank file: $(cat "$T/err")"
printf 'r1.txt\n' > "$T/index2.txt"
printf '1 init\n' > "$T/r1.txt"
"$TG" --check "$T/index2.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "r1.txt:1: '1' is not a rank of this 1-rank trace" "$T/err" && ok "bad index: a rank file of another rank" ||
	ko "bad index: a rank file of another rank: $(cat "$T/err")"
"$TG" --check "$T/nonexistent.txt" > /dev/null 2>&1
[ $? -eq 1 ] && ok "missing trace: exit 1" || ko "missing trace: exit 1"
# generation: files, statistics, matrix CSV, bad requests
"$TG" cg --class S --ranks 6 --iterations 2 -o "$T/g" 2> "$T/err" && [ -f "$T/g/cg.S.6.txt" ] &&
	[ "$(ls "$T/g/cg.S.6.txt_files" | wc -l)" = 6 ] && grep -q "generalized" "$T/err" &&
	ok "tracegen cg, 6 ranks (generalized)" || ko "tracegen cg, 6 ranks: $(cat "$T/err")"
"$TG" --stats "$T/g/cg.S.6.txt" --matrix-out "$T/m.csv" > "$T/st" && head -1 "$T/m.csv" | grep -q "src,dst,bytes,p2p_bytes,p2p_messages" &&
	grep -q "^ranks 6" "$T/st" && ok "--stats with --matrix-out" || ko "--stats with --matrix-out"
# --rewrite: any trace as index + rank files, compute scaled
"$TG" --rewrite "$T/g/cg.S.6.txt" --flop-scale 0.5 --name half -o "$T/rw" 2> /dev/null &&
	"$TG" --check "$T/rw/half.txt" > /dev/null &&
	a=$("$TG" --stats "$T/g/cg.S.6.txt" | sed -n 's/^compute (flop) \([^ ]*\) total.*/\1/p') &&
	b=$("$TG" --stats "$T/rw/half.txt" | sed -n 's/^compute (flop) \([^ ]*\) total.*/\1/p') &&
	python3 -c "import sys; sys.exit(0 if abs(float('$a') / 2 - float('$b')) <= 1e-6 * float('$a') else 1)" &&
	ok "--rewrite --flop-scale 0.5 halves the compute ($a -> $b)" || ko "--rewrite --flop-scale 0.5"
"$TG" cg --class Q --ranks 4 -o "$T/q" > /dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$T/q" ] && ok "bad class: exit 2, nothing written" || ko "bad class: exit 2, nothing written"
"$TG" dt --ranks 4 -o "$T/q" 2> "$T/err"
[ $? -eq 2 ] && grep -q "known: ep, ft, is, cg, mg, lu, bt, sp, none" "$T/err" && ok "unknown kernel" || ko "unknown kernel"
"$TG" --help | grep -q "tracegen KERNEL" && ok "--help" || ko "--help"
"$TG" --frobnicate > /dev/null 2>&1
[ $? -eq 2 ] && ok "bad option: exit 2" || ko "bad option: exit 2"
finish
