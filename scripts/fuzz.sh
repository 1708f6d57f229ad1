#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang with ASan + UBSan) and
# runs each for SECONDS (default 60), growing its corpus in
# BUILD/fuzz/corpus-NAME from the seeds in tests/fuzz/corpus/NAME.
# Prints one line per parser: executions, their rate, edges covered,
# corpus size, crashes (crashes, leaks, memory past 2 GB, an input over
# FUZZ_TIMEOUT s, default 60: a machine at the 2^20-node limit takes ~20 s
# to build under ASan on a loaded machine);
# exits 1 when any harness crashed (its input is
# kept as BUILD/fuzz/crash-NAME-*, to become a regression test).
# Usage: scripts/fuzz.sh [SECONDS] [NAME...]   (names: swf batsim trace platform spec sweep tar)
# Environment: FUZZ_BUILD_DIR (default build-fuzz); FUZZ_SANITIZERS
# (address,undefined by default; "undefined" runs several times faster, for
# long accumulation runs, without leak and memory-error checks).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
names=${*:-swf batsim trace platform spec sweep tar}
B=${FUZZ_BUILD_DIR:-build-fuzz}
bash scripts/install-deps.sh # clang and its fuzzer runtime among them
CC=clang cmake -S . -B "$B" -DPLACESIM_FUZZ=ON -DPLACESIM_FUZZ_SANITIZERS="${FUZZ_SANITIZERS:-address,undefined}" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
targets=""
for n in $names; do targets="$targets --target fuzz_$n"; done
# shellcheck disable=SC2086
cmake --build "$B" -j"$(nproc)" $targets > "$B/fuzz-build.log" 2>&1 || { tail -20 "$B/fuzz-build.log"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# files a harness writes (the tar harness unpacks into /dev/shm, which is
# memory) stop at 1 GB: a reader that writes without end fails there
# instead of filling the machine's memory (it once wrote 18 GB)
ulimit -f 1048576
status=0
printf '%-9s %8s %12s %9s %7s %7s %s\n' parser seconds executions "exec/s" edges corpus crashes
for n in $names; do
	c="$B/fuzz/corpus-$n"
	mkdir -p "$c"
	rm -f "$B/fuzz/crash-$n-"* "$B/fuzz/leak-$n-"* "$B/fuzz/oom-$n-"* "$B/fuzz/timeout-$n-"*
	set +e +o pipefail # the figures below may be missing from a harness that crashed at once
	"$B/fuzz/fuzz_$n" -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout="${FUZZ_TIMEOUT:-60}" \
		-print_final_stats=1 -artifact_prefix="$B/fuzz/crash-$n-" "$c" "tests/fuzz/corpus/$n" \
		> "$B/fuzz/$n.log" 2>&1
	rc=$?
	execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$B/fuzz/$n.log" | tail -1)
	rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$B/fuzz/$n.log" | tail -1)
	edges=$(grep -o 'cov: [0-9]*' "$B/fuzz/$n.log" | tail -1 | awk '{print $2}')
	# crashes, leaks, memory past the limit, hangs (slow units are only noted)
	crashes=$(find "$B/fuzz" -maxdepth 1 -name "crash-$n-*" ! -name "crash-$n-slow-unit-*" | wc -l)
	printf '%-9s %8s %12s %9s %7s %7s %s\n' "$n" "$secs" "${execs:-?}" "${rate:-?}" "${edges:-?}" \
		"$(find "$c" -type f | wc -l)" "$crashes"
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		status=1
		grep -m3 -E "ERROR|SUMMARY|runtime error" "$B/fuzz/$n.log" | sed 's/^/    /'
		find "$B/fuzz" -maxdepth 1 -name "crash-$n-*" ! -name "crash-$n-slow-unit-*" | sed 's/^/    input: /'
	fi
	set -e -o pipefail
done
exit $status
