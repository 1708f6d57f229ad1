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
# signal_stops SIG STATUS OUT CMD..: runs CMD in the background and sends it
# SIG once it has a child process; succeeds when CMD ends with STATUS, that
# child is gone and nothing named OUT* is in $T (for check).
signal_stops() {
	local sig=$1 want=$2 out=$3 pid child st
	shift 3
	"$@" > /dev/null 2>&1 &
	pid=$!
	child=$(first_child $pid)
	kill -"$sig" $pid
	wait $pid
	st=$?
	sleep 0.2
	[ -n "$child" ] && [ $st -eq "$want" ] && [ ! -e "/proc/$child" ] && [ -z "$(ls "$T" | grep -F "$out")" ]
}
