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
		if "$TG" "$k" --class "$c" --ranks "$n" --out "$T/gen" 2> "$T/err" &&
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
	if [ $rc -eq 1 ] && grep -q "$1.txt:$3: error: " "$T/err" && grep -qF -- "$4" "$T/err"; then
		ok "bad trace: $1"
	else
		ko "bad trace: $1 (exit $rc): $(cat "$T/err")"
	fi
}
bad unknown-action 1 2 "unknown action 'sendd'" '0 init\n0 sendd 1 0 10\n'
bad arg-count 1 2 "expects 3 to 4 arguments, got 2" '0 init\n0 send 1 0\n1 init\n'
bad cr-only 1 1 "lines that end in CR only" '0 init\r0 compute 1\r0 finalize\r'
bad arg-type 1 3 "flops (argument 1) 'lots' is not a decimal number" '0 init\n1 init\n0 compute lots\n'
bad negative-size 1 3 "count (argument 3) '-5' is negative" '0 init\n1 init\n0 send 1 0 -5\n1 recv 0 0 5\n'
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
bad deadlock 1 2 "deadlock of 2 ranks: blocked in recv from 1 tag 0, it waits for rank 1, blocked in recv from 0 tag 0 at $T/deadlock.txt:5: rank 1, which waits for rank 0; rank 1 sends what rank 0 waits for only later, at $T/deadlock.txt:6: rank 1" \
	'0 init\n0 recv 1 0 8\n0 send 1 0 8\n1 init\n1 recv 0 0 8\n1 send 0 0 8\n'
bad never-sent 1 2 "recv from 1 tag 0 is never matched by a send" '0 init\n0 recv 1 0 8\n1 init\n1 recv 0 0 8\n'
bad after-finalize 1 4 "rank 0: send after finalize (line 3)" '0 init\n1 init\n0 finalize\n0 send 1 0 10\n1 recv 0 0 10\n'
# collectives whose counts disagree (SMPI's replay aborts with MPI_ERR_TRUNCATE):
# both actions, the collective's number and the byte counts named
bad coll-bcast 1 2 "collective #1 (bcast) has a count of 10 bytes here but 100 bytes at $T/coll-bcast.txt:1: rank 0 (MPI requires equal counts)" '0 bcast 100\n1 bcast 10\n'
bad coll-allreduce 1 2 "collective #1 (allreduce) has a count of 10 bytes here but 100 bytes" '0 allreduce 100 1\n1 allreduce 10 1\n'
bad coll-gather 1 1 "collective #1 (gather) sends 100 bytes to rank 0, which receives 10 bytes at $T/coll-gather.txt:1: rank 0 (truncated)" '0 gather 100 10\n1 gather 100 10\n'
bad coll-scatter 1 1 "collective #1 (scatter) sends 100 bytes to rank 0, which receives 10 bytes" '0 scatter 100 10\n1 scatter 100 10\n'
bad coll-allgather 1 1 "collective #1 (allgather) sends 100 bytes to rank 0, which receives 10 bytes" '0 allgather 100 10\n1 allgather 100 10\n'
bad coll-alltoall 1 1 "collective #1 (alltoall) sends 100 bytes to rank 1, which receives 10 bytes at $T/coll-alltoall.txt:2: rank 1" '0 alltoall 100 100\n1 alltoall 10 10\n'
bad coll-alltoallv 1 3 "rank 0: collective #2 (alltoallv) sends 2 bytes to rank 1, which receives 1 bytes at $T/coll-alltoallv.txt:4: rank 1" \
	'0 barrier\n1 barrier\n0 alltoallv 10 1 2 10 1 2\n1 alltoallv 10 1 2 10 1 2\n'
bad coll-gatherv 1 1 "collective #1 (gatherv) sends 10 bytes to rank 0, which receives 1 bytes" '0 gatherv 10 1 0\n1 gatherv 10 1 0\n'
bad coll-allgatherv 1 1 "collective #1 (allgatherv) sends 10 bytes to rank 0, which receives 5 bytes" '0 allgatherv 10 5 10\n1 allgatherv 10 5 10\n'
bad coll-reducescatter 1 2 "collective #1 (reducescatter) has a recv count of 20 bytes for rank 0 here but 10 bytes at $T/coll-reducescatter.txt:1: rank 0" \
	'0 reducescatter 10 20 1\n1 reducescatter 20 10 1\n'
printf '0 init 1\n0 bcast 2\n0 alltoall 1 16 0 6\n0 reducescatter 1 2 0\n1 init\n1 bcast 2 0 0\n1 alltoall 4 4 1 1\n1 reducescatter 8 16 0 6\n' > "$T/coll-ok.txt"
check "collectives whose counts agree in bytes through other datatypes are accepted" "$TG" --check "$T/coll-ok.txt" > /dev/null
bad v-count 1 2 "count 2 'x'" '0 init\n0 alltoallv 10 5 x 10 5 5\n1 init\n'
# sizes (counts of send, recv, every collective, each count of a v-list):
# whole numbers 0..2^53 in decimal, an exponent allowed; in bytes (times the
# datatype's size, a v-list summed) at most 2^53 too
i=0
for v in 1e300 -5 1.5 nan inf 0x10 18446744073709551617 9007199254740993 10abc +5 1e .5e-1; do
	i=$((i + 1))
	bad size-$i 1 3 "send: count (argument 3) '$v' is" "0 init\n1 init\n0 send 1 0 $v\n1 recv 0 0 8\n"
done
bad size-bytes 1 3 "send: count 9007199254740992 is 36028797018963968 bytes, more than 2^53" \
	'0 init\n1 init\n0 send 1 0 9007199254740992 1\n1 recv 0 0 8\n'
bad size-default-double 1 3 "send: count 2000000000000000 is 16000000000000000 bytes" \
	'0 init 1\n1 init 1\n0 send 1 0 2000000000000000\n1 recv 0 0 8\n'
bad bcast-size 1 2 "bcast: count (argument 1) '1e300' is more than 2^53 (9007199254740992)" '0 init\n0 bcast 1e300\n1 bcast 8\n'
bad allreduce-size 1 2 "allreduce: count (argument 1) '-5' is negative" '0 init\n0 allreduce -5 0\n1 allreduce 8 0\n'
bad gather-size 1 2 "gather: recv count (argument 2) '0x10' is not a decimal number" '0 init\n0 gather 8 0x10\n1 gather 8 8\n'
bad alltoall-size 1 2 "alltoall: send count (argument 1) '1.5' is not a whole number" '0 init\n0 alltoall 1.5 8\n1 alltoall 8 8\n'
bad v-fraction 1 2 "gatherv: recv counts: count 1 '1.5' is not a whole number (argument 2)" '0 init\n0 gatherv 5 1.5 2\n1 gatherv 5 1 2\n'
bad v-huge 1 2 "scatterv: send counts: count 2 '18446744073709551617' is more than 2^53" '0 init\n0 scatterv 1 18446744073709551617 1\n1 scatterv 1 1 1\n'
bad v-sum 1 2 "alltoallv: send counts sum to more than 2^53 (9007199254740992) bytes" \
	'0 init\n0 alltoallv 0 9007199254740992 9007199254740992 0 0 0\n1 alltoallv 0 0 0 0 0 0\n'
bad v-sum-reducescatter 1 2 "reducescatter: recv counts sum to more than 2^53" \
	'0 init\n0 reducescatter 9007199254740992 1 0\n1 reducescatter 1 1 0\n'
printf '0 init\n1 init\n0 send 1 0 9007199254740992\n1 recv 0 0 9.007199254740992e15\n0 alltoallv 0 0 9007199254740992 0 0 0\n1 alltoallv 0 0 0 9007199254740992 9007199254740992 0\n' > "$T/max.txt"
check "sizes of exactly 2^53 bytes (an exponent allowed) are accepted" "$TG" --check "$T/max.txt" > /dev/null
# compute amounts (flops) and sleeps: decimal numbers 0..2^53, fractions allowed
bad compute-huge 1 2 "compute: flops (argument 1) '1e300' is more than 2^53" '0 init\n0 compute 1e300\n'
bad compute-negative 1 2 "compute: flops (argument 1) '-1' is negative" '0 init\n0 compute -1\n'
bad compute-nan 1 2 "compute: flops (argument 1) 'nan' is not a decimal number" '0 init\n0 compute nan\n'
bad compute-hex 1 2 "compute: flops (argument 1) '0x10' is not a decimal number" '0 init\n0 compute 0x10\n'
bad sleep-inf 1 2 "sleep: seconds (argument 1) 'inf' is not a decimal number" '0 init\n0 sleep inf\n'
bad reduce-flops 1 2 "reduce: flops (argument 2) '1e400' is more than 2^53" '0 init\n0 reduce 8 1e400\n1 reduce 8 0\n'
printf '0 init\n0 compute 1.5\n0 compute 1.30081e+06\n0 sleep 0.25\n0 compute 9007199254740992\n' > "$T/amounts.txt"
check "fractional compute amounts and sleeps are accepted" "$TG" --check "$T/amounts.txt" > /dev/null
# ranks and tags: digits only, within the trace
bad rank-negative 1 2 "'-1' is not a rank of this 1-rank trace" '0 init\n-1 init\n'
bad rank-huge 1 2 "rank '5000000': a trace has at most 1048576 ranks" '0 init\n5000000 init\n'
bad rank-enormous 1 2 "rank '99999999999999999999999': a trace has at most" '0 init\n99999999999999999999999 init\n'
bad peer-huge 1 2 "send: peer '99999999999999999999' is not a rank of this 2-rank trace" '0 init\n0 send 99999999999999999999 0 8\n1 init\n'
bad root-negative 1 2 "bcast: root '-1' is not a rank of this 2-rank trace" '0 init\n0 bcast 8 -1\n1 bcast 8\n'
bad wait-beyond 1 3 "wait: destination '5' is not a rank of this 2-rank trace" '0 init\n1 init\n0 wait 1 5 0\n'
bad tag-negative 1 3 "send: tag '-3' is not an integer 0..2147483647" '0 init\n1 init\n0 send 1 -3 8\n'
# lines: a NUL byte, an endless line; CRLF, no final newline, no finalize are fine
bad nul-byte 1 2 "a NUL byte in the line" '0 init\n0 comp\0ute 5\n'
# a UTF-8 byte-order mark (an editor's) is refused by name, and the fix the
# message gives makes the file read
bad bom 1 1 "begins with a UTF-8 byte-order mark" '\xef\xbb\xbf0 init\n0 compute 5\n'
fix=$(sed -n "s/.*remove it: \(sed .*\) FILE$/\1/p" "$T/err")
sh -c "$fix \"\$1\"" sh "$T/bom.txt" 2> /dev/null
check "the byte-order mark's fix, as printed, makes the trace read" "$TG" --check "$T/bom.txt" > /dev/null
{ printf '0 compute '; head -c 67200000 /dev/zero | tr '\0' '1'; printf '\n'; } > "$T/long.txt"
"$TG" --check "$T/long.txt" > /dev/null 2> "$T/err"
check "a line of 64 MiB: error naming the line" status_says $? eq 1 "long.txt:1: error: line longer than 67108864 bytes" "$T/err"
rm -f "$T/long.txt"
printf '0 init\r\n1 init\r\n0 send 1 0 5\r\n1 recv 0 0 5\r\n' > "$T/crlf.txt"
check "CRLF line ends are accepted" "$TG" --check "$T/crlf.txt" > /dev/null
printf '0 init\n1 init\n0 send 1 0 5\n1 recv 0 0 5' > "$T/nonl.txt"
check "a last line without newline is read" "$TG" --check "$T/nonl.txt" > /dev/null
printf '0 init\n1 init\n0 send 1 0 5\n1 recv 0 0 5\n' > "$T/nofin.txt"
check "ranks without finalize are accepted" "$TG" --check "$T/nofin.txt" > /dev/null
printf '# nothing\n\n' > "$T/empty.txt"
"$TG" --check "$T/empty.txt" > /dev/null 2> "$T/err"
check "an empty trace: error" status_says $? eq 1 "empty.txt: error: empty trace" "$T/err"
mkdir -p "$T/adir" && mkfifo "$T/fifo.txt"
"$TG" --check "$T/adir" > /dev/null 2> "$T/err"
check "a directory as trace: error" status_says $? eq 1 "adir: error: is a directory" "$T/err"
"$TG" --check "$T/fifo.txt" > /dev/null 2> "$T/err"
check "a FIFO as trace: error, not a hang" status_says $? eq 1 "fifo.txt: error: not a regular file" "$T/err"
gzip -c "$T/crlf.txt" | head -c 20 > "$T/cut.txt.gz"
"$TG" --check "$T/cut.txt.gz" > /dev/null 2> "$T/err"
check "a gzip'ed trace cut short: error" status_says $? eq 1 "cut.txt.gz:1: error: cannot read: the gzip'ed file is cut short" "$T/err"
{ printf '0 init\n'; for i in $(seq 65535); do echo "0 compute 10000"; done; printf '0 finalize\n'; } > "$T/long.txt"
gzip -c "$T/long.txt" > "$T/long.txt.gz"
truncate -s -4 "$T/long.txt.gz" # only the trailer's size missing (gzread may see a clean end)
"$TG" --check "$T/long.txt.gz" > /dev/null 2> "$T/err"
check "a gzip'ed trace without its last 4 bytes: error" status_says $? eq 1 "long.txt.gz:65538: error: cannot read: the gzip'ed file is cut short" "$T/err"
printf '0 init\n1 init\n0 send 1 0 1e300\n' > "$T/big.txt"
"$TG" --stats "$T/big.txt" --matrix-out "$T/big.csv" > /dev/null 2> "$T/err"
check "--stats of a bad trace: exit 1, the line, no matrix written" status_says $? eq 1 "big.txt:3: error: rank 0: send: count" "$T/err" "$T/big.csv"
printf '0 init\n2 init\n' > "$T/gap.txt"
"$TG" --check "$T/gap.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "rank 1 has no actions" "$T/err" && ok "bad trace: a missing rank" ||
	ko "bad trace: a missing rank: $(cat "$T/err")"
printf 'r0.txt\nmissing.txt\n' > "$T/index.txt"
printf '0 init\n0 finalize\n' > "$T/r0.txt"
"$TG" --check "$T/index.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "index.txt:2: error: rank 1: .*missing.txt: cannot open" "$T/err" && ok "bad index: a missing rank file" ||
	ko "bad index: a missing rank file: $(cat "$T/err")"
printf 'r1.txt\n' > "$T/index2.txt"
printf '1 init\n' > "$T/r1.txt"
"$TG" --check "$T/index2.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "r1.txt:1: error: '1' is not a rank of this 1-rank trace" "$T/err" && ok "bad index: a rank file of another rank" ||
	ko "bad index: a rank file of another rank: $(cat "$T/err")"
mkdir -p "$T/rdir" && printf 'r0.txt\nrdir\n' > "$T/index3.txt"
"$TG" --check "$T/index3.txt" > /dev/null 2> "$T/err"
check "bad index: a directory as a rank file" status_says $? eq 1 "index3.txt:2: error: rank 1: .*rdir: is a directory" "$T/err"
printf '1 init\n1 finalize\n' > "$T/r1b.txt"
printf 'r0.txt\nr1b.txt\n./r0.txt\n' > "$T/index4.txt"
"$TG" --check "$T/index4.txt" > /dev/null 2> "$T/err"
check "bad index: one file for two ranks" status_says $? eq 1 "index4.txt:3: error: rank 2: .*r0.txt is rank 0's file too (line 1)" "$T/err"
"$TG" --check "$T/nonexistent.txt" > /dev/null 2>&1
[ $? -eq 1 ] && ok "missing trace: exit 1" || ko "missing trace: exit 1"
# generation: files, statistics, matrix CSV, bad requests
"$TG" cg --class S --ranks 6 --iterations 2 --out "$T/g" 2> "$T/err" && [ -f "$T/g/cg.S.6.txt" ] &&
	[ "$(ls "$T/g/cg.S.6.txt_files" | wc -l)" = 6 ] && grep -q "generalized" "$T/err" &&
	ok "tracegen cg, 6 ranks (generalized)" || ko "tracegen cg, 6 ranks: $(cat "$T/err")"
"$TG" --stats "$T/g/cg.S.6.txt" --matrix-out "$T/m.csv" > "$T/st" && head -1 "$T/m.csv" | grep -q "src,dst,bytes,p2p_bytes,p2p_messages" &&
	grep -q "^ranks 6" "$T/st" && ok "--stats with --matrix-out" || ko "--stats with --matrix-out"
# --rewrite: any trace as index + rank files, compute scaled
"$TG" --rewrite "$T/g/cg.S.6.txt" --flop-scale 0.5 --name half --out "$T/rw" 2> /dev/null &&
	"$TG" --check "$T/rw/half.txt" > /dev/null &&
	a=$("$TG" --stats "$T/g/cg.S.6.txt" | sed -n 's/^compute (flop) \([^ ]*\) total.*/\1/p') &&
	b=$("$TG" --stats "$T/rw/half.txt" | sed -n 's/^compute (flop) \([^ ]*\) total.*/\1/p') &&
	python3 -c "import sys; sys.exit(0 if abs(float('$a') / 2 - float('$b')) <= 1e-6 * float('$a') else 1)" &&
	ok "--rewrite --flop-scale 0.5 halves the compute ($a -> $b)" || ko "--rewrite --flop-scale 0.5"
"$TG" cg --class Q --ranks 4 --out "$T/q" > /dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$T/q" ] && ok "bad class: exit 2, nothing written" || ko "bad class: exit 2, nothing written"
"$TG" dt --ranks 4 --out "$T/q" 2> "$T/err"
[ $? -eq 2 ] && grep -q "known: ep, ft, is, cg, mg, lu, bt, sp, none" "$T/err" && ok "unknown kernel" || ko "unknown kernel"
"$TG" --help | grep -q "tracegen KERNEL" && ok "--help" || ko "--help"
# LU's process grid wider than the class's points: refused, nothing written
"$TG" lu --class A --ranks 2990 --out "$T/q" 2> "$T/err"
[ $? -eq 2 ] && [ ! -e "$T/q" ] &&
	grep -q "lu.A.2990: 2990 ranks make a 46 x 65 process grid, wider than the class's 64 points" "$T/err" &&
	ok "lu: a grid wider than the class refused" || ko "lu: a grid wider than the class refused"
"$TG" lu --class S --ranks 144 --out "$T/lu144" > /dev/null 2>&1 && "$TG" --check "$T/lu144/lu.S.144.txt" > /dev/null &&
	ok "lu: 12 x 12 ranks of class S" || ko "lu: 12 x 12 ranks of class S"
"$TG" --frobnicate > /dev/null 2>&1
[ $? -eq 2 ] && ok "bad option: exit 2" || ko "bad option: exit 2"
# Bad numeric option values: exit 2, the option named, nothing written.
bad_opt() { # needle args..
	local needle=$1
	shift
	rm -rf "$T/bo"
	"$TG" "$@" > /dev/null 2> "$T/err"
	check "bad option $*: exit 2, says '$needle', nothing written" \
		status_says $? eq 2 "$needle" "$T/err" "$T/bo"
}
bad_opt "--ranks: '4.5' is not an integer" cg --ranks 4.5 --out "$T/bo"
bad_opt "--ranks: '99999999999' is not an integer" cg --ranks 99999999999 --out "$T/bo"
bad_opt "cg: 2147483647 ranks: give 1 to 65536" cg --ranks 2147483647 --out "$T/bo"
bad_opt "--ranks: ' 4' is not an integer" cg --ranks " 4" --out "$T/bo"
bad_opt "--iterations: '-1' is not an integer" cg --ranks 4 --iterations -1 --out "$T/bo"
bad_opt "--iterations: '1e3' is not an integer" cg --ranks 4 --iterations 1e3 --out "$T/bo"
bad_opt "--flop-scale: '0' is not a number" cg --ranks 4 --flop-scale 0 --out "$T/bo"
bad_opt "--flop-scale: 'inf' is not a number" cg --ranks 4 --flop-scale inf --out "$T/bo"
bad_opt "--flop-scale: '1e300' is not a number" cg --ranks 4 --flop-scale 1e300 --out "$T/bo"
bad_opt "--tolerance: 'nan' is not a number" --compare a b --tolerance nan

# Archives wherever a trace is (trace_archive.h): NAME.tar.gz holding
# NAME.txt, or one index .txt at its top; read as the unpacked trace is;
# each refusal names the archive.
A="$T/arch"
mkdir -p "$A/p" "$A/two" "$A/bad"
"$TG" cg --class S --ranks 4 --out "$A/p" 2> /dev/null
(cd "$A/p" && tar czf ../cg.S.4.tar.gz cg.S.4.txt cg.S.4.txt_files && tar cf ../other.tar cg.S.4.txt cg.S.4.txt_files)
"$TG" --check "$A/cg.S.4.tar.gz" > "$T/ck" 2>&1
check "archive: --check reads NAME.txt" grep -q "cg.S.4.tar.gz: ok, 4 ranks, 21848 actions" "$T/ck"
"$TG" --check "$A/other.tar" > "$T/ck" 2>&1
check "archive: a plain tar with one index at its top" grep -q "other.tar: ok, 4 ranks" "$T/ck"
"$TG" --compare "$A/cg.S.4.tar.gz" "$A/p/cg.S.4.txt" > "$T/ck" 2>&1
check "archive: --compare equal to the unpacked trace" grep -q "^0 quantities differ" "$T/ck"
(cd "$A/p" && cp cg.S.4.txt second.txt && tar czf ../two.tar.gz cg.S.4.txt second.txt cg.S.4.txt_files)
"$TG" --check "$A/two.tar.gz" > "$T/ck" 2>&1
check "archive: two indexes, none named for it" status_says $? ne 0 "two.tar.gz: holds several .txt files at its top" "$T/ck"
(cd "$A/p" && tar czf ../none.tar.gz cg.S.4.txt_files)
"$TG" --check "$A/none.tar.gz" > "$T/ck" 2>&1
check "archive: no index" status_says $? ne 0 "none.tar.gz: holds no index" "$T/ck"
cp -r "$A/p/." "$A/bad/" && sed -i '3s/.*/0 send 1 x/' "$A/bad/cg.S.4.txt_files/rank-0.txt" 2> /dev/null ||
	sed -i '3s/.*/0 send 1 x/' "$(ls "$A"/bad/cg.S.4.txt_files/* | head -1)"
(cd "$A/bad" && tar czf ../cg.S.4.bad.tar.gz cg.S.4.txt cg.S.4.txt_files)
mv "$A/cg.S.4.bad.tar.gz" "$A/bad.tar.gz"
"$TG" --check "$A/bad.tar.gz" > "$T/ck" 2>&1
check "archive: a bad line named by archive, member and line" \
	status_says $? ne 0 "bad.tar.gz:cg.S.4.txt_files/[^:]*:3: error" "$T/ck"
head -c 2000 "$A/cg.S.4.tar.gz" > "$A/cut.tar.gz"
"$TG" --check "$A/cut.tar.gz" > "$T/ck" 2>&1
check "archive: a cut archive refused, named" status_says $? ne 0 "cut.tar.gz" "$T/ck"
# an index entry outside the archive (absolute, or climbing out with
# ..) is refused before it is read: it was read (its first line quoted in
# the error) or replayed silently
printf '0 init\n0 compute 5e9\n0 finalize\n' > "$A/outside.txt"
python3 - "$A" << 'EOF'
import io, sys, tarfile
a = sys.argv[1]
def mk(name, first):
    with tarfile.open(f"{a}/{name}", "w:gz") as t:
        for n, data in (("job.txt", first + "\njob.txt_files/rank-1.txt\n"),
                        ("job.txt_files/rank-0.txt", "0 init\n0 send 1 0 100\n0 finalize\n"),
                        ("job.txt_files/rank-1.txt", "1 init\n1 recv 0 0 100\n1 finalize\n")):
            ti = tarfile.TarInfo(n); b = data.encode(); ti.size = len(b); t.addfile(ti, io.BytesIO(b))
mk("in.tar.gz", "job.txt_files/rank-0.txt")
mk("abs.tar.gz", a + "/outside.txt")
mk("up.tar.gz", "job.txt_files/" + "../" * 12 + a.lstrip("/") + "/outside.txt")
EOF
"$TG" --check "$A/in.tar.gz" > "$T/ck" 2>&1
check "archive: an index of relative entries inside it reads" grep -q "in.tar.gz: ok, 2 ranks" "$T/ck"
for x in abs up; do
	"$TG" --check "$A/$x.tar.gz" > "$T/ck" 2>&1
	check "archive: an index entry outside it ($x) refused, not read" status_says $? eq 1 "rank 0: .*outside.txt is not in the archive" "$T/ck"
done
# the same through a TMPDIR that is a symbolic link (the confinement
# compares resolved paths)
mkdir -p "$T/realtmp" && ln -s "$T/realtmp" "$T/linktmp"
TMPDIR="$T/linktmp" "$TG" --check "$A/in.tar.gz" > "$T/ck" 2>&1
check "archive: read through a symbolic-link TMPDIR" grep -q "in.tar.gz: ok, 2 ranks" "$T/ck"
for x in abs up; do
	TMPDIR="$T/linktmp" "$TG" --check "$A/$x.tar.gz" > "$T/ck" 2>&1
	check "archive: outside entry ($x) refused through a symbolic-link TMPDIR" status_says $? eq 1 "rank 0: .*outside.txt is not in the archive" "$T/ck"
done
[ -z "$(ls "$T/realtmp")" ] || ko "archive: a folder left behind in the linked TMPDIR"
[ -z "$(ls "${TMPDIR:-/tmp}" | grep -c trace-archive- | grep -v '^0$')" ] || ko "archive: temporary folders left behind"

# A small archive that would unpack to more than a trace can be (a tar
# bomb): refused at the member's header, before its bytes are written;
# and one that would fill the file system TMPDIR is on (a tmpfs, when
# /dev/shm is one with less room than the 32 GiB limit)
bomb() { # FILE NAME SIZE: a gzip'ed tar whose member NAME says SIZE bytes
	python3 - "$1" "$2" "$3" << 'EOF'
import gzip, sys, tarfile
ti = tarfile.TarInfo(sys.argv[2]); ti.size = int(sys.argv[3])
data = ti.tobuf(tarfile.GNU_FORMAT) + b"0 init\n" * 1000
open(sys.argv[1], "wb").write(gzip.compress(data))
EOF
}
bomb "$A/bomb.tar.gz" job.txt $((40 << 30))
"$TG" --check "$A/bomb.tar.gz" > "$T/ck" 2>&1
check "archive: a member of 40 GiB refused at its header" \
	status_says $? eq 1 "bomb.tar.gz: member job.txt: the archive unpacks to more than 34359738368 bytes" "$T/ck"
shm=$(df -B1 --output=avail /dev/shm 2> /dev/null | tail -1)
if [ -n "$shm" ] && [ "$shm" -gt $((2 << 30)) ] && [ "$shm" -lt $((31 << 30)) ] && [ -w /dev/shm ]; then
	bomb "$A/full.tar.gz" job.txt $((shm - (512 << 20)))
	TMPDIR=/dev/shm "$TG" --check "$A/full.tar.gz" > "$T/ck" 2>&1
	check "archive: a member that would leave TMPDIR under 1 GiB free refused" \
		status_says $? eq 1 "full.tar.gz: member job.txt: unpacking it would leave less than 1073741824 bytes free.*set TMPDIR" "$T/ck"
	[ -z "$(ls /dev/shm | grep trace-archive-)" ] || ko "archive: a folder left behind in /dev/shm"
else
	echo "skip: /dev/shm is not a writable file system of 2-31 GiB free (the free-room check)"
fi

# The index names its rank files by absolute path, so that SimGrid's own
# replay (which opens them from its working directory) reads the trace
# from any folder; a moved folder still reads here (beside the index).
"$TG" cg --class S --ranks 4 --out "$T/abs" 2> /dev/null
check "index: absolute rank files" grep -qx "$(cd "$T/abs" && pwd)/cg.S.4.txt_files/rank-0.txt" "$T/abs/cg.S.4.txt"
mv "$T/abs" "$T/moved"
"$TG" --check "$T/moved/cg.S.4.txt" > "$T/ck" 2>&1
check "index: a moved trace folder still reads" grep -q "moved/cg.S.4.txt: ok, 4 ranks" "$T/ck"
if command -v smpirun > /dev/null && [ -x "$(dirname "$TG")/platgen" ] && [ -x "$(dirname "$TG")/netsim" ]; then
	"$TG" cg --class S --ranks 4 --out "$T/sm" 2> /dev/null
	"$(dirname "$TG")/platgen" --machine flat:nodes=4 -o "$T/p4.xml"
	printf 'node-0\nnode-1\nnode-2\nnode-3\n' > "$T/hosts"
	mkdir -p "$T/elsewhere"
	sm=$(cd "$T/elsewhere" && timeout 120 smpirun -np 4 -platform ../p4.xml -hostfile ../hosts \
		-replay ../sm/cg.S.4.txt 2>&1 | sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p')
	ns=$("$(dirname "$TG")/netsim" --platform "$T/p4.xml" --job "$T/sm/cg.S.4.txt@0-3" --no-alone --jobs-out /dev/stdout 2> /dev/null | tail -1 | cut -d, -f7)
	python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(a - b) <= 1e-6 else 1)" "${sm:-0}" "${ns:-1}" &&
		ok "smpirun -replay from another folder: $sm s, netsim $ns s" || ko "smpirun from another folder: '$sm' against netsim '$ns'"
else
	echo "skip: smpirun, platgen or netsim absent (the smpirun check)"
fi

# SP and BT on more cells than grid points a side: a usage error naming the
# most ranks, not "a bug of the generator" (sp.S.256: a count of -176)
"$TG" sp --class S --ranks 256 --dry-run > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "sp class S's 12^3 grid on 256 ranks.*at most 144 ranks" "$T/err" &&
	"$TG" sp --class S --ranks 144 --dry-run > /dev/null 2>&1 &&
	ok "sp.S.256 refused (at most 144 ranks), sp.S.144 made" || ko "sp.S.256: $(cat "$T/err")"
# bt the same: its faces of side + 1 hid cells of no point (bt.S.4096 ran
# 46 s, then out of memory)
"$TG" bt --class S --ranks 169 --dry-run > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "bt class S's 12^3 grid on 169 ranks.*at most 144 ranks" "$T/err" &&
	"$TG" bt --class S --ranks 144 --dry-run > /dev/null 2>&1 &&
	ok "bt.S.169 refused (at most 144 ranks), bt.S.144 made" || ko "bt.S.169: $(cat "$T/err")"
# iterations that would take more actions than the generator allows: said
# before anything runs (2^31 iterations of EP ran for minutes, then out of memory)
timeout 20 "$TG" ep --ranks 4 --iterations 2147483647 --dry-run > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "more than 268435456 actions" "$T/err" &&
	ok "2^31 iterations refused at once" || ko "huge iterations: $(cat "$T/err")"
# a trace that would take more memory than the process may use while it is
# built: refused naming it, before malloc fails or the OOM killer comes
# (cg.S.2048: 50 M actions, 3.9 GB at the peak); not under a sanitizer,
# whose shadow memory a ulimit -v cannot hold
if [ "${PLACESIM_SANITIZED:-0}" != 1 ]; then
	(ulimit -v 1500000 && exec "$TG" cg --ranks 2048 --dry-run) > /dev/null 2> "$T/err"
	[ $? -eq 2 ] && grep -q "cg.S.2048 with the class's iterations: more than [0-9]* actions, which would take more than the 1.5 GB this process may use" "$T/err" &&
		ok "a trace beyond the memory a process may use: refused by name" || ko "beyond the memory: $(cat "$T/err")"
fi
# the text's size: said before writing, exact (the rank files' bytes)
for k in is cg lu; do
	rm -rf "$T/sz"
	"$TG" $k --ranks 16 --out "$T/sz" > /dev/null 2> "$T/err"
	said=$(grep -o "about [0-9.]* MB of text" "$T/err" | cut -d' ' -f2)
	got=$(cat "$T/sz"/*.txt_files/* | wc -c | awk '{printf "%.1f", $1 / 1e6}')
	[ -n "$said" ] && [ "$said" = "$got" ] && ok "$k.S.16: about $said MB of text, $got written" ||
		ko "$k.S.16's size: said '$said', wrote $got MB"
done
# a file system without room for the trace: refused before writing
# (is grows with the square of the ranks: 65,536 would take 185 GB); on a
# 1 MB tmpfs when this user may mount one
mkdir -p "$T/small"
if mount -t tmpfs -o size=1m tmpfs "$T/small" 2> /dev/null; then
	"$TG" is --ranks 128 --out "$T/small/tr" > /dev/null 2> "$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "the trace takes about [0-9.]* MB and its file system has 1.0[0-9]* MB free: nothing written" "$T/err" &&
		[ -z "$(find "$T/small/tr" -type f)" ] &&
		ok "a file system without room: refused, nothing written" || ko "no room: exit $rc, $(cat "$T/err")"
	umount "$T/small"
else
	echo "SKIP a file system without room: cannot mount a tmpfs here"
fi
# --out naming a file: said so, the file kept
echo keep > "$T/afile"
"$TG" cg --class S --ranks 4 --out "$T/afile" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "afile: not a folder" "$T/err" && [ "$(cat "$T/afile")" = keep ] &&
	ok "--out on a file: not a folder, the file kept" || ko "--out on a file: $(cat "$T/err")"
# --name is a file name in --out: a path, an empty or a hidden name are
# usage errors (../x wrote beside --out, '' a hidden .txt), nothing written
for n in ../escape '' a/b .hid; do
	rm -rf "$T/nm"
	"$TG" cg --class S --ranks 4 --name "$n" --out "$T/nm" > /dev/null 2> "$T/err"
	[ $? -eq 2 ] && grep -q "a file name" "$T/err" && [ ! -e "$T/nm" ] && [ ! -e "$T/escape.txt" ] &&
		ok "--name '$n' refused, nothing written" || ko "--name '$n': $(cat "$T/err")"
done

finish
