#!/usr/bin/env bash
# The tools on common/options.h: -h and --help print the help (its usage
# first, every option of the table, -h and --version among them) and exit
# 0; --version prints "TOOL VERSION"; an unknown option or a missing
# argument is a usage error (exit 2) that points to --help, nothing on
# stdout.
# Usage: test_options.sh BIN_DIR
set -u
B=$1
. "$(dirname "$0")/../check.sh"
# each tool and one of its options that takes an argument
for spec in platgen:-o tracegen:--out sweep:-o jobsched:--machine cosim:--machine netsim:--machine; do
	tool=${spec%%:*} needs=${spec#*:}
	for h in -h --help; do
		"$B/$tool" $h > "$T/help" 2> "$T/err"
		check "$tool $h: exit 0, the usage first" status_says $? eq 0 "^usage: $tool" "$T/help"
	done
	check "$tool --help lists -h and --version" grep -q -- "-h, --help" "$T/help"
	grep -q -- "--version" "$T/help" || ko "$tool --help lists --version"
	"$B/$tool" --version > "$T/v"
	check "$tool --version" grep -qx "$tool [0-9][0-9.]*.*" "$T/v"
	"$B/$tool" --no-such-option > "$T/out" 2> "$T/err"
	check "$tool: an unknown option is a usage error" status_says $? eq 2 "$tool: unknown option '--no-such-option'" "$T/err"
	check "$tool: ... pointing to --help, nothing on stdout" \
		status_says 0 eq 0 "(try $tool --help)" "$T/err"
	[ -s "$T/out" ] && ko "$tool wrote to stdout on a usage error"
	# the manual page from the same table: every long option of the help in it
	"$B/$tool" --man > "$T/man" 2> "$T/err"
	check "$tool --man: a manual page" status_says $? eq 0 "^\.TH $tool 1" "$T/man"
	for o in $(grep -o -- "--[a-z][a-z-]*" "$T/help" | sort -u); do
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$T/man" || ko "$tool --man lacks $o"
	done
	if command -v groff > /dev/null; then
		groff -man -ww -z "$T/man" 2> "$T/gw"
		check "$tool --man: groff renders it without a warning" test ! -s "$T/gw"
	fi
	"$B/$tool" $needs > "$T/out" 2> "$T/err"
	check "$tool: a missing argument is a usage error" status_says $? eq 2 "$tool: option '$needs' needs an argument" "$T/err"
done
# -o is a file wherever it is (platgen, sweep); tracegen's folder is --out
"$B/tracegen" cg --ranks 4 -o "$T/tg" > /dev/null 2> "$T/err"
check "tracegen -o: refused (its folder is --out DIR)" status_says $? eq 2 "unknown option" "$T/err" "$T/tg"
# jobsched's options are cosim's; cosim's study options are its own
"$B/jobsched" --out "$T/x" > /dev/null 2> "$T/err"
check "jobsched has no --out" status_says $? eq 2 "jobsched: unknown option '--out'" "$T/err"
S="--synthetic dq:jobs=3 --machine flat:nodes=8"
"$B/cosim" $S --parallel 2 > /dev/null 2> "$T/err"
check "cosim: --parallel without --out" status_says $? eq 2 "cosim: --parallel is for a study (--out DIR)" "$T/err"
"$B/jobsched" $S --alloc first-free --alloc random > /dev/null 2> "$T/err"
check "one run, two --alloc: refused" status_says $? eq 2 "jobsched: --alloc given 2 times: a run takes one allocator" "$T/err"
"$B/cosim" $S --out "$T/study" --jobs-out "$T/j.csv" > /dev/null 2> "$T/err"
check "cosim --out with --jobs-out: refused" status_says $? eq 2 "cosim: --jobs-out: with --out every output goes into the folder" "$T/err"
[ -e "$T/study" ] && ko "the refused study made its folder"
# netsim's two modes share one table: an option of the other mode is named
"$B/netsim" --traffic uniform --machine mesh:dims=4x4 --job cg.S.4@0-3 > /dev/null 2> "$T/err"
check "netsim: --job with --traffic" status_says $? eq 2 "netsim: --job replays traces: not with --traffic" "$T/err"
"$B/netsim" --machine flat:nodes=4 --job cg.S.4@0-3 --load 0.2 > /dev/null 2> "$T/err"
check "netsim: --load without --traffic" status_says $? eq 2 "netsim: --load is for synthetic traffic (--traffic)" "$T/err"
"$B/netsim" --help > "$T/help"
for o in --job --per-iteration --until --repeat --traffic --sweep-load --heatmap; do
	grep -q -- "  $o " "$T/help" || ko "netsim --help lists $o"
done
finish
