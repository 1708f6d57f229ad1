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
for tool in platgen tracegen sweep; do
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
	"$B/$tool" -o > "$T/out" 2> "$T/err"
	check "$tool: a missing argument is a usage error" status_says $? eq 2 "$tool: option '-o' needs an argument" "$T/err"
done
finish
