#!/usr/bin/env bash
# Workloads that can be read only once: a FIFO, a pipe (/dev/stdin) and a
# process substitution, plain and gzip'ed, SWF and Batsim JSON, give what
# the file gives (--stats and a simulation; each within a time limit: a
# reader that opened them twice blocked or found nothing). And files that
# are not text logs, refused by name with exit 1: other compressions and
# archives, UTF-16, lines ending in CR only.
# Usage: test_workload_streams.sh BUILD_BIN_DIR
set -u
JS="$1/jobsched"
. "$(dirname "$0")/../check.sh"

{
	printf '; MaxNodes: 8\n; MaxProcs: 8\n'
	for i in $(seq 1 3000); do
		echo "$i $((3 * i)) -1 $((10 + i % 7)) 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1"
	done
} > "$T/log.swf"
gzip -c "$T/log.swf" > "$T/log.swf.gz"
cat > "$T/w.json" << 'EOF2'
{"nb_res": 4,
 "jobs": [{"id": "a", "subtime": 0, "walltime": 100, "res": 4, "profile": "d10"},
          {"id": "b", "subtime": 1, "res": 2, "profile": "d20"}],
 "profiles": {"d10": {"type": "delay", "delay": 10},
              "d20": {"type": "delay", "delay": 20}}}
EOF2
gzip -c "$T/w.json" > "$T/w.json.gz"

# --stats without the workload's name (its first line, and in notes) and
# a run's jobs line
stats() { timeout 20 "$JS" --stats "$1" 2> "$T/err" | tail -n +2 | sed "s|$1|FILE|"; }
run() { timeout 20 "$JS" --workload "$1" --machine flat:nodes=8 --quiet 2> "$T/err" | grep '^jobs'; }
for f in log.swf log.swf.gz w.json w.json.gz; do
	stats "$T/$f" > "$T/want.stats"
	run "$T/$f" > "$T/want.run"
	check "$f: the file reads" grep -q '^jobs ' "$T/want.stats"
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	(cat "$T/$f" > "$T/fifo" &)
	check "$f: --stats of a FIFO = of the file" cmp -s <(stats "$T/fifo") "$T/want.stats"
	(cat "$T/$f" > "$T/fifo" &)
	check "$f: --workload of a FIFO = of the file" cmp -s <(run "$T/fifo") "$T/want.run"
	check "$f: --stats of a pipe = of the file" cmp -s <(cat "$T/$f" | stats /dev/stdin) "$T/want.stats"
	check "$f: --workload of a pipe = of the file" cmp -s <(cat "$T/$f" | run /dev/stdin) "$T/want.run"
	check "$f: --stats of <(cat FILE) = of the file" cmp -s <(stats <(cat "$T/$f")) "$T/want.stats"
done

# not text logs: named, exit 1
refused() { # FILE NEEDLE
	timeout 20 "$JS" --stats "$1" > /dev/null 2> "$T/err"
	status_says $? eq 1 "$2" "$T/err"
}
if command -v bzip2 > /dev/null; then
	bzip2 -c "$T/log.swf" > "$T/log.bz2"
	check "bzip2 named" refused "$T/log.bz2" "log.bz2: error: bzip2-compressed: decompress it first (only gzip is read)"
fi
if command -v xz > /dev/null; then
	xz -c "$T/log.swf" > "$T/log.xz"
	check "xz named" refused "$T/log.xz" "log.xz: error: xz-compressed"
fi
printf '\x28\xb5\x2f\xfd\x24\x10\x00\x00' > "$T/log.zst"
check "zstd named" refused "$T/log.zst" "log.zst: error: zstd-compressed"
(cd "$T" && tar cf log.tar log.swf)
check "tar named" refused "$T/log.tar" "log.tar: error: a tar archive: extract the log first"
printf 'PK\x03\x04\x14\x00\x00\x00' > "$T/log.zip"
check "zip named" refused "$T/log.zip" "log.zip: error: a zip archive"
printf '7z\xbc\xaf\x27\x1c\x00\x04' > "$T/log.7z"
check "7z named" refused "$T/log.7z" "log.7z: error: a 7z archive"
printf '\xff\xfe;\x00 \x00M\x00' > "$T/u16.swf"
check "UTF-16 named" refused "$T/u16.swf" "u16.swf: error: UTF-16 text: convert to UTF-8/ASCII"
printf '; MaxNodes: 8\r1 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\r2 5 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\r' > "$T/mac.swf"
check "CR-only lines named" refused "$T/mac.swf" "mac.swf: error: lines end in CR only (old Mac text): convert to LF"
finish
