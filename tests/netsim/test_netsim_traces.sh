#!/usr/bin/env bash
# Bad trace values in every engine (simgrid, s4u, flit): refused before
# anything runs, exit 1, the message naming file:line, nothing written; each
# engine's own narrower limits (SMPI's int counts, the flit engine's packets
# and clock) named the same way; SMPI replays what the reader validated.
# Usage: test_netsim_traces.sh BIN_DIR
set -u
NS="$1/netsim"
. "$(dirname "$0")/../check.sh"
M="--machine flat:nodes=2 --no-alone --quiet"
# refused NAME ENGINE NEEDLE TEXT: the trace $T/NAME.txt (TEXT) is refused
# by ENGINE with exit 1, NEEDLE in the message, no --jobs-out written
refused() {
	printf '%b' "$4" > "$T/$1.txt"
	rm -f "$T/out.csv"
	timeout 60 "$NS" $M --engine "$2" --job "$T/$1.txt@0-1" --jobs-out "$T/out.csv" > /dev/null 2> "$T/err"
	check "$2 refuses $1" status_says $? eq 1 "$3" "$T/err" "$T/out.csv"
	grep -q "$3" "$T/err" || echo "  got: $(cat "$T/err")"
}
for eng in simgrid s4u flit; do
	refused size-huge $eng "size-huge.txt:3: error: rank 0: send: count (argument 3) '1e300' is more than 2^53" \
		'0 init\n1 init\n0 send 1 0 1e300\n1 recv 0 0 1e300\n'
	refused size-fraction $eng "size-fraction.txt:3: error: rank 0: isend: count (argument 3) '1.5' is not a whole number" \
		'0 init\n1 init\n0 isend 1 0 1.5\n1 recv 0 0 2\n'
	refused size-hex $eng "size-hex.txt:2: error: rank 0: bcast: count (argument 1) '0x10' is not a decimal number" \
		'0 init\n0 bcast 0x10\n1 init\n1 bcast 16\n'
	refused size-wrap $eng "size-wrap.txt:2: error: rank 0: alltoallv: send counts: count 2 '18446744073709551617' is more" \
		'0 init\n0 alltoallv 0 0 18446744073709551617 0 0 0\n1 init\n1 alltoallv 0 0 0 0 0 0\n'
	refused compute-huge $eng "compute-huge.txt:2: error: rank 0: compute: flops (argument 1) '1e300' is more than 2^53" \
		'0 init\n0 compute 1e300\n1 init\n'
	refused peer-huge $eng "peer-huge.txt:2: error: rank 0: send: peer '4294967297' is not a rank of this 2-rank trace" \
		'0 init\n0 send 4294967297 0 8\n1 init\n'
done
# SMPI counts in C ints: a message of 2^31 units is refused (it aborted the
# replay), at its line; the s4u engine runs it
refused smpi-int simgrid "smpi-int.txt:3: error: rank 0: send: count 3000000000 is more than 2147483647: SMPI's replay" \
	'0 init\n1 init\n0 send 1 0 3000000000\n1 recv 0 0 3000000000\n'
refused smpi-int-sum simgrid "smpi-int-sum.txt:2: error: rank 0: reducescatter: recv counts sum to more than 2147483647" \
	'0 init\n0 reducescatter 2000000000 2000000000 0\n1 init\n1 reducescatter 2000000000 2000000000 0\n'
check "s4u runs a message of 3e9 bytes" "$NS" $M --engine s4u --job "$T/smpi-int.txt@0-1" --jobs-out "$T/out.csv"
# the flit engine queues a message's packets at once and counts cycles in 64 bits
refused flit-packets flit "flit-packets.txt:3: error: rank 0: send: a message of 9007199254740992 bytes is more than 1048576 packets" \
	'0 init\n1 init\n0 send 1 0 9007199254740992\n1 recv 0 0 9007199254740992\n'
refused flit-coll-packets flit "flit-coll-packets.txt:2: error: rank 0: bcast: a message of 4000000000 bytes is more than" \
	'0 init\n0 bcast 4000000000\n1 init\n1 bcast 4000000000\n'
refused flit-clock flit "flit-clock.txt:3: error: rank 0: sleep: the rank's compute and sleep reach" \
	'0 init\n0 compute 1e6\n0 sleep 1e15\n1 init\n'
# SMPI reads our copy of a trace, not its files: comments after actions, CRLF
# and a last line without newline (SMPI would misread or drop them) replay
# as the plain trace does, on both SimGrid engines
mkdir -p "$T/plain.txt_files" "$T/messy.txt_files"
printf '0 init\n0 compute 1000000\n0 send 1 0 1000000\n0 recv 1 0 1000000\n0 finalize\n' > "$T/plain.txt_files/rank-0.txt"
printf '1 init\n1 recv 0 0 1000000\n1 compute 1000000\n1 send 0 0 1000000\n1 finalize\n' > "$T/plain.txt_files/rank-1.txt"
printf 'plain.txt_files/rank-0.txt\nplain.txt_files/rank-1.txt\n' > "$T/plain.txt"
printf '# rank 0\r\n0 init\r\n0 compute 1e6 # flops\r\n0 send 1 0 1e6\r\n0 recv 1 0 1000000.0\r\n0 finalize' > "$T/messy.txt_files/rank-0.txt"
printf '1 init\n1 recv 0 0 1000000   # a comment\n\n1 compute 1000000\n1 send 0 0 1000000\n1 finalize' > "$T/messy.txt_files/rank-1.txt"
printf 'messy.txt_files/rank-0.txt\r\nmessy.txt_files/rank-1.txt\r\n' > "$T/messy.txt"
for eng in simgrid s4u; do
	"$NS" $M --engine $eng --job "$T/plain.txt@0-1" --jobs-out "$T/p.csv" 2> /dev/null &&
		timeout 60 "$NS" $M --engine $eng --job "$T/messy.txt@0-1" --jobs-out "$T/m.csv" 2> "$T/err" &&
		[ "$(tail -1 "$T/p.csv" | cut -d, -f7)" = "$(tail -1 "$T/m.csv" | cut -d, -f7)" ] &&
		ok "$eng: a trace with comments, CRLF, no final newline replays as the plain one" ||
		ko "$eng: messy trace: $(tail -1 "$T/p.csv") vs $(tail -1 "$T/m.csv" 2> /dev/null): $(tail -2 "$T/err")"
done
# an archive (NAME.tar.gz) wherever a trace is: the same times as unpacked,
# on every engine; a refusal names the archive
"$1/tracegen" cg --class S --ranks 4 --out "$T/arch" 2> /dev/null
(cd "$T/arch" && tar czf ../cg.S.4.tar.gz cg.S.4.txt cg.S.4.txt_files)
for eng in simgrid s4u flit; do
	"$NS" --machine flat:nodes=4 --no-alone --quiet --engine $eng --job "$T/arch/cg.S.4.txt@0-3" --jobs-out "$T/u.csv" 2> "$T/err"
	"$NS" --machine flat:nodes=4 --no-alone --quiet --engine $eng --job "$T/cg.S.4.tar.gz@0-3" --jobs-out "$T/a.csv" 2>> "$T/err"
	[ -s "$T/a.csv" ] && [ "$(tail -1 "$T/u.csv" | cut -d, -f5-)" = "$(tail -1 "$T/a.csv" | cut -d, -f5-)" ] &&
		ok "$eng: an archived trace replays as the unpacked one" ||
		ko "$eng: archive: $(tail -1 "$T/a.csv" 2> /dev/null) vs $(tail -1 "$T/u.csv"): $(tail -2 "$T/err")"
done
# init is implied where a rank's first MPI action comes before any (the
# format's other readers and the s4u and flit engines take it so); SMPI's
# replay died of SIGSEGV on such a trace, so the copy it reads gets an init
printf '0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n' > "$T/withinit.txt"
printf '0 send 1 0 1000\n1 recv 0 0 1000\n1 init\n' > "$T/noinit.txt"
printf '0 compute 10\n0 init\n0 send 1 0 1000\n1 recv 0 0 1000\n1 init\n' > "$T/lateinit.txt"
for eng in simgrid s4u; do
	"$NS" $M --engine $eng --job "$T/withinit.txt@0-1" --jobs-out "$T/w.csv" > /dev/null 2>&1
	"$NS" $M --engine $eng --job "$T/noinit.txt@0-1" --jobs-out "$T/n.csv" > /dev/null 2> "$T/err"
	st=$?
	"$NS" $M --engine $eng --job "$T/lateinit.txt@0-1" --jobs-out "$T/l.csv" > /dev/null 2>> "$T/err"
	[ $st -eq 0 ] && [ $? -eq 0 ] && [ -s "$T/n.csv" ] && [ -s "$T/l.csv" ] &&
		[ "$(tail -1 "$T/w.csv" | cut -d, -f7)" = "$(tail -1 "$T/n.csv" | cut -d, -f7)" ] &&
		ok "$eng: ranks without init (or with it after their first message) replay" ||
		ko "$eng: no init: $(tail -2 "$T/err")"
done
# a file whose name reads as KERNEL.CLASS.RANKS wins over the generator:
# said on stderr (./NAME, another path to it, is silent)
mkdir -p "$T/shadow" && cp "$T/withinit.txt" "$T/shadow/cg.S.2"
ns=$(readlink -f "$NS")
(cd "$T/shadow" && "$ns" $M --job cg.S.2@0-1 --jobs-out s1.csv > /dev/null 2> err1 &&
	"$ns" $M --job ./cg.S.2@0-1 --jobs-out s2.csv > /dev/null 2> err2)
check "a file named like a generated trace: read, with a note" \
	bash -c "grep -q 'cg.S.2 is read from the file of that name here, not generated' '$T/shadow/err1' && ! grep -q note '$T/shadow/err2' && [ \"\$(tail -1 '$T/shadow/s1.csv' | cut -d, -f7)\" = \"\$(tail -1 '$T/shadow/s2.csv' | cut -d, -f7)\" ]"
printf 'not a tar' | gzip > "$T/junk.tar.gz"
"$NS" $M --job "$T/junk.tar.gz@0-1" > /dev/null 2> "$T/err"
check "a broken archive: refused, named" status_says $? ne 0 "junk.tar.gz" "$T/err"
finish
