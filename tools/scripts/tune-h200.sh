#!/usr/bin/env bash
# tune-h200.sh: writes kernels/tuning/h200.json, the stock kernels' tuning table, in two phases
# (the GPU machine has no LLVM, so ntc runs here and ntc-tune resumes there):
#
#   tools/scripts/tune-h200.sh generate     here: ntc-tune --generate-only for matmul and
#                                           attention_f16 into gpu-bundle/tune/ (with dlpack.h)
#   tools/scripts/tune-h200.sh measure      on the GPU machine (through the device tool, carry
#                                           gpu-bundle): builds ntc-tune with g++, then builds,
#                                           checks and times every candidate; the table and the
#                                           log go to $OUT (default /tmp/ntc-tune-out)
#
# Copy $OUT/h200.json to kernels/tuning/h200.json and commit it with the measured numbers; time
# the result with tools/bench/gemm_sweep.py --table kernels/tuning/h200.json (default and tuned
# builds of matmul.cu against cuBLAS, and the configuration each shape takes).
set -euo pipefail
cd "$(dirname "$0")/../.."
archs=80,90a # the architectures the project builds ntc_kernels_cuda for
case "${1:-}" in
generate)
  rm -rf gpu-bundle/tune
  mkdir -p gpu-bundle/include
  cp -r /usr/include/dlpack gpu-bundle/include/
  build/tools/ntc-tune kernels/matmul.cpp --target cuda --cuda-arch $archs --kernel matmul \
    --shapes kernels/tuning/matmul.shapes --generate-only --work gpu-bundle/tune/matmul -- -Ikernels
  build/tools/ntc-tune kernels/attention.cpp --target cuda --cuda-arch $archs --kernel attention_f16 \
    --shapes kernels/tuning/attention.shapes --generate-only --work gpu-bundle/tune/attention -- -Ikernels
  ;;
measure)
  out=${OUT:-/tmp/ntc-tune-out}
  mkdir -p "$out" /tmp/ntc-tune-build
  # ntc-tune needs only the C++ standard library, POSIX and dlpack.h.
  ls tools/ntc-tune/*.cpp | xargs -P "$(nproc)" -I{} sh -c \
    'g++ -std=c++17 -O2 -I runtime/include -I gpu-bundle/include -c {} -o /tmp/ntc-tune-build/$(basename {}).o'
  g++ /tmp/ntc-tune-build/*.o -o /tmp/ntc-tune-build/ntc-tune -ldl -lpthread
  # One table per kernel (NTC_TUNE_KERNELS: which; default all), merged into $out/h200.json.
  for work in ${NTC_TUNE_KERNELS:-matmul attention}; do
    /tmp/ntc-tune-build/ntc-tune --resume "gpu-bundle/tune/$work" -o "$out/$work.json" \
      --runtime-include runtime/include --runtime-src runtime/src \
      --dlpack-include gpu-bundle/include --jobs "$(nproc)" 2>&1 | tee -a "$out/tune.log"
  done
  python3 - "$out" ${NTC_TUNE_KERNELS:-matmul attention} <<'PY'
import json, sys
out, kernels = sys.argv[1], sys.argv[2:]
tables = [json.load(open(f"{out}/{k}.json")) for k in kernels]
merged = dict(tables[0], entries=[e for t in tables for e in t["entries"]])
json.dump(merged, open(f"{out}/h200.json", "w"), indent=2)
PY
  ;;
*)
  echo "usage: $0 generate|measure" >&2
  exit 2
  ;;
esac
