#!/usr/bin/env bash
# tune-h200.sh: writes kernels/tuning/h200.json, the stock kernels' tuning table, in two phases
# (the GPU machine has no LLVM, so ntc runs here and ntc-tune resumes there):
#
#   tools/scripts/tune-h200.sh generate     here: ntc-tune --generate-only for matmul,
#                                           attention_f16, softmax and the GEMM family (matmul_bf16,
#                                           addmm, linear, bmm) into gpu-bundle/tune/ (with
#                                           dlpack.h)
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
# The architecture the table is measured on: a configuration of the table runs there alone (the
# dispatcher matches the device's compute capability), so the candidates need to fit sm_90a only,
# also in the project's sm_80 + sm_90a build.
archs=90a
case "${1:-}" in
generate)
  rm -rf gpu-bundle/tune
  mkdir -p gpu-bundle/include
  cp -r /usr/include/dlpack gpu-bundle/include/
  build/tools/ntc-tune kernels/matmul.cpp --target cuda --cuda-arch $archs --kernel matmul \
    --shapes kernels/tuning/matmul.shapes --generate-only --work gpu-bundle/tune/matmul -- -Ikernels
  build/tools/ntc-tune kernels/attention.cpp --target cuda --cuda-arch $archs --kernel attention_f16 \
    --shapes kernels/tuning/attention.shapes --generate-only --work gpu-bundle/tune/attention -- -Ikernels
  build/tools/ntc-tune kernels/softmax.cpp --target cuda --cuda-arch $archs --kernel softmax \
    --shapes kernels/tuning/softmax.shapes --generate-only --work gpu-bundle/tune/softmax
  # The rest of the GEMM family runs matmul's main loop: it is tuned over the configurations
  # that won or came within the first five for matmul in the current table (plus the default).
  for kernel in matmul_bf16 addmm linear bmm; do
    configs=$(python3 - "$kernel" <<'PY'
import json, subprocess, sys
kernel = sys.argv[1]
table = json.load(open("kernels/tuning/h200.json"))
def pairs(config):
    return frozenset(config.split(","))
good = set()
for e in table["entries"]:
    if e["kernel"] == "matmul":
        good |= {pairs(c) for c in [e["config"]] + [x["config"] for x in e["candidates"][:4]]}
listed = subprocess.run(["build/tools/ntc", "--list-configs", "--target", "cuda", "--cuda-arch",
                         "90a", "--kernel", kernel, f"kernels/{kernel}.cpp", "--", "-Ikernels"],
                        capture_output=True, text=True, check=True).stdout
ids = [l.split()[1] for l in listed.splitlines() if l.startswith(kernel + " ")]
print(",".join(i for i in ids if "=" in i and pairs(i) in good))
PY
)
    grep "^$kernel " kernels/tuning/gemm_family.shapes >"gpu-bundle/tune/$kernel.shapes"
    build/tools/ntc-tune "kernels/$kernel.cpp" --target cuda --cuda-arch $archs --kernel "$kernel" \
      --shapes "gpu-bundle/tune/$kernel.shapes" --configs "$configs" --generate-only \
      --work "gpu-bundle/tune/$kernel" -- -Ikernels
  done
  ;;
measure)
  out=${OUT:-/tmp/ntc-tune-out}
  mkdir -p "$out" /tmp/ntc-tune-build
  # ntc-tune needs only the C++ standard library, POSIX and dlpack.h.
  ls tools/ntc-tune/*.cpp | xargs -P "$(nproc)" -I{} sh -c \
    'g++ -std=c++17 -O2 -I runtime/include -I gpu-bundle/include -c {} -o /tmp/ntc-tune-build/$(basename {}).o'
  g++ /tmp/ntc-tune-build/*.o -o /tmp/ntc-tune-build/ntc-tune -ldl -lpthread
  # One table per kernel (NTC_TUNE_KERNELS: which; default all), merged into $out/h200.json.
  all="matmul attention softmax matmul_bf16 addmm linear bmm"
  for work in ${NTC_TUNE_KERNELS:-$all}; do
    /tmp/ntc-tune-build/ntc-tune --resume "gpu-bundle/tune/$work" -o "$out/$work.json" \
      --runtime-include runtime/include --runtime-src runtime/src \
      --dlpack-include gpu-bundle/include --jobs "$(nproc)" 2>&1 | tee -a "$out/tune.log"
  done
  python3 - "$out" ${NTC_TUNE_KERNELS:-$all} <<'PY'
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
