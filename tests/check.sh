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
