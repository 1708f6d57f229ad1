# Shared by the shell test scripts (sourced): a scratch folder $T removed on
# exit, PASS/FAIL lines, and the closing "N passed, N failed" line.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
# status_says STATUS OP N NEEDLE FILE [ABSENT]: the status compares (-eq,
# -ne) with N, FILE holds NEEDLE and ABSENT, if given, does not exist; for
# check, so that every part counts ("check ... && grep" would not).
status_says() { [ "$1" "-$2" "$3" ] && grep -q -- "$4" "$5" && { [ -z "${6:-}" ] || [ ! -e "$6" ]; }; }
# first_child PID: the pid of a child process of PID, waiting up to 20 s for
# one to appear (empty if none did).
first_child() {
	local c=""
	for i in $(seq 1 400); do
		c=$(awk -v p="$1" '$4 == p { print $1 }' /proc/[0-9]*/stat 2> /dev/null | head -1)
		[ -n "$c" ] && break
		sleep 0.05
	done
	echo "$c"
}
