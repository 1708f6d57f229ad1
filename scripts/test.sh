#!/usr/bin/env bash
# Installs what is missing (as root), builds, and runs the whole test suite with ctest.
# Environment: BUILD_DIR (default build), CMAKE_ARGS (extra configure arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
B=${BUILD_DIR:-build}
# shellcheck disable=SC2086
cmake -S . -B "$B" ${CMAKE_ARGS:-} > /dev/null
cmake --build "$B" -j"$(nproc)"
# the tests on every core: each has its own scratch folder (mktemp), so they
# run side by side (the sanitizer suite in CI took 16 minutes one at a time)
# in a temporary folder of their own (TMPDIR), which must be empty after:
# a test that leaves a file behind fails the suite
T=$(mktemp -d)
chmod 755 "$T" # tests that run a command as another user reach their folders
rc=0
TMPDIR=$T ctest --test-dir "$B" --output-on-failure -j"$(nproc)" || rc=$?
left=$(find "$T" -mindepth 1 -maxdepth 1 | head -5)
rm -rf "$T"
if [ -n "$left" ]; then
	echo "the tests left temporaries behind:" "$left"
	[ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"
