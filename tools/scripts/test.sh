#!/usr/bin/env bash
# README command 2: install the dependencies, build everything and run the whole test suite,
# then the robustness job (tools/scripts/robustness.sh: sanitizers and fuzzers).
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
# The stock CUDA libraries for sm_90a alone (build.sh alone compiles sm_80 too): CI's time limit.
tools/scripts/build.sh -DNTC_KERNEL_CUDA_ARCHITECTURES=90a
status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" || status=$?
# Then the sanitizer build, the sanitized tests and the fuzzers (NTC_SKIP_ROBUSTNESS=1 skips).
if [ "${NTC_SKIP_ROBUSTNESS:-0}" != 1 ]; then
  tools/scripts/robustness.sh || status=1
fi
exit "$status"
