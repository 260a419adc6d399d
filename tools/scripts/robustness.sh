#!/usr/bin/env bash
# The robustness job (CI runs it from test.sh, after the main tests; docs/fuzzing.md):
#   1. configure and build a clang build with AddressSanitizer + UndefinedBehaviorSanitizer
#      and the libFuzzer targets into build-sanitize/ (NTC_SANITIZE=ON, NTC_FUZZ=ON, CUDA off,
#      kernels on, the operator library off: no test of step 2 uses it);
#   2. run the unit, runtime, diagnostics, CLI, FileCheck, golden, CPU-numerics and example
#      tests under the sanitizers (not: dsl, which only runs compilers; scale, whose time limits
#      assume an optimised ntc; install, whose consumer project is not sanitized; the GPU ones),
#      and each fuzzer once over its seeds and saved reproducers;
#   3. run each fuzzer for NTC_FUZZ_SECONDS (default 30) from its seeds and the corpus kept in
#      build-sanitize/fuzz/<fuzzer>/corpus.
# Prints "N passed, N failed" last and fails when anything failed. A finding's input is saved
# as build-sanitize/fuzz/<fuzzer>/crash-* (or leak-*, timeout-*, oom-*); reproduce it with
#   build-sanitize/tests/fuzz/<fuzzer> <file>
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=$root/build-sanitize
seconds=${NTC_FUZZ_SECONDS:-30}
jobs=$(nproc)
llvm=${NTC_LLVM_VERSION:-19}

# Known leaks (each reported for a fix) are suppressed; UBSan prints where it stopped.
export LSAN_OPTIONS="suppressions=$root/tools/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1"
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"

passed=0
failed=0
pass() { passed=$((passed + $1)); }
fail() { failed=$((failed + $1)); echo "robustness: FAILED: $2"; }
elapsed() { echo "robustness: $1 after $((SECONDS / 60)) min $((SECONDS % 60)) s"; }
summary() {
  elapsed "done"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

echo "=== robustness: sanitizer build in build-sanitize/"
mkdir -p "$build"
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_C_COMPILER="clang-$llvm" -DCMAKE_CXX_COMPILER="clang++-$llvm" \
       -DNTC_SANITIZE=ON -DNTC_FUZZ=ON -DNTC_ENABLE_CUDA=OFF -DNTC_BUILD_KERNELS=ON \
       -DNTC_BUILD_OPS=OFF \
       > "$build/configure.log" 2>&1; then
  cat "$build/configure.log"
  fail 1 "configuring build-sanitize"
  summary
  exit 1
fi
if ! cmake --build "$build" -j"$jobs"; then
  fail 1 "building build-sanitize"
  summary
  exit 1
fi
pass 1
elapsed "build"

echo "=== robustness: tests under ASan + UBSan"
tests='^((unit|runtime|diagnostics|cli|cpu|filecheck|golden|example|fuzz): ?'
tests+='|device: (mma fragment layout|register and shared layouts))'
ctest --test-dir "$build" -j"$jobs" --output-on-failure -R "$tests" | tee "$build/ctest.log"
# "98% tests passed, 3 tests failed out of 187"
total=$(sed -nE 's/.* tests failed out of ([0-9]+)$/\1/p' "$build/ctest.log" | tail -1)
bad=$(sed -nE 's/.*tests passed, ([0-9]+) tests? failed out of.*/\1/p' "$build/ctest.log" | tail -1)
if [ -z "$total" ] || [ -z "$bad" ]; then
  fail 1 "ctest did not run"
else
  pass $((total - bad))
  [ "$bad" -eq 0 ] || fail "$bad" "$bad sanitized tests"
fi

elapsed "tests"

echo "=== robustness: fuzzing, ${seconds} s per fuzzer"
for fuzzer in fuzz_frontend fuzz_layout fuzz_validate; do
  work=$build/fuzz/$fuzzer
  rm -rf "$work/seeds"
  mkdir -p "$work/corpus" "$work/seeds"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
        -artifact_prefix="$work/")
  if [ "$fuzzer" = fuzz_frontend ]; then
    # Seeds: every kernel source of the repository (copied, not committed).
    cp kernels/*.cpp tests/diagnostics/*.cpp tests/cpu/kernels/*.cpp tests/filecheck/*.cpp \
       "$work/seeds/"
    args+=(-dict="$root/tests/fuzz/frontend.dict")
  fi
  if [ -d "tests/fuzz/regressions/$fuzzer" ]; then
    cp "tests/fuzz/regressions/$fuzzer"/* "$work/seeds/"
  fi
  echo "--- $fuzzer"
  if "$build/tests/fuzz/$fuzzer" "${args[@]}" "$work/corpus" "$work/seeds" > "$work/log" 2>&1; then
    pass 1
    # The last coverage line and the final statistics.
    grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/log"
  else
    tail -n 80 "$work/log"
    fail 1 "$fuzzer (log: $work/log; inputs: $work/crash-* leak-* timeout-* oom-*)"
  fi
done

summary
