#!/usr/bin/env bash
# On a GPU machine (see gpu-bundle.sh): builds every variant of gpu-bundle/variants/ (one
# configuration of one kernel, tools/scripts/variant-bundle.sh) into
# /tmp/ntc-build/variants/LABEL.so, checks each at tail shapes (tools/bench/variant_check.py,
# NTC_CHECK_TIMEOUT seconds at most), plainly and under compute-sanitizer (NTC_SANITIZE_TOOLS,
# default memcheck racecheck synccheck; empty for none), then times the attention variants
# against the stock build (tools/bench/attention_sweep.py) and the matmul ones
# (tools/bench/gemm_sweep.py), in one run each. The stock build is gpu-run.sh's
# /tmp/ntc-build/libkernels_cuda.so when there is one, else the stock sources of the variants'
# kernels are built for the comparison. Logs go to $OUT when set.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/ntc-gpu}
arch="-gencode=arch=compute_90a,code=sm_90a"
mkdir -p "$out" /tmp/ntc-build/variants
. tools/scripts/runtime-objects.sh
build_runtime_objects
labels=()
pids=()
# The stock build to compare with: gpu-run.sh's library, or else the stock sources of the
# variants' kernels (gpu-bundle/cuda/<kernel source>.cu), compiled alongside the variants.
stock=/tmp/ntc-build/libkernels_cuda.so
stock_objects=()
if [ ! -f "$stock" ]; then
  stock=/tmp/ntc-build/variants/stock.so
  for cu in $(for dir in gpu-bundle/variants/*/; do basename "$dir"*.cu; done | sort -u); do
    obj=/tmp/ntc-build/variants/stock-${cu%.cu}.o
    nvcc -std=c++17 -O3 $arch -Xcompiler -fPIC -I runtime/include -I gpu-bundle/include \
      -I gpu-bundle/cuda -c "gpu-bundle/cuda/$cu" -o "$obj" > "$out/nvcc-stock-$cu.txt" 2>&1 &
    pids+=($!)
    stock_objects+=("$obj")
  done
fi
for dir in gpu-bundle/variants/*/; do
  label=$(basename "$dir")
  labels+=("$label")
  nvcc -std=c++17 -O3 $arch -Xcompiler -fPIC -Xptxas -v -I runtime/include -I gpu-bundle/include \
    -I "$dir" -c "$dir"*.cu -o "/tmp/ntc-build/variants/$label.o" \
    > "$out/ptxas-variant-$label.txt" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
if [ ${#stock_objects[@]} -gt 0 ]; then
  nvcc -shared $arch -o "$stock" "${stock_objects[@]}" /tmp/ntc-build/cpu-errors.o \
    /tmp/ntc-build/cpu-validate.o -lcudart
fi
status=0
attention=()
matmul=()
for label in "${labels[@]}"; do
  dir=gpu-bundle/variants/$label
  lib=/tmp/ntc-build/variants/$label.so
  nvcc -shared $arch -o "$lib" "/tmp/ntc-build/variants/$label.o" /tmp/ntc-build/cpu-errors.o \
    /tmp/ntc-build/cpu-validate.o -lcudart
  echo "== $label: $(cat "$dir/KERNEL") $(cat "$dir/CONFIG")"
  PYTHONUNBUFFERED=1 timeout "${NTC_CHECK_TIMEOUT:-120}" python3 tools/bench/variant_check.py "$lib" \
    > "$out/variant-check-$label.txt" 2>&1 || status=1
  tail -1 "$out/variant-check-$label.txt"
  for tool in ${NTC_SANITIZE_TOOLS-memcheck racecheck synccheck}; do
    timeout "${NTC_SANITIZE_TIMEOUT:-150}" compute-sanitizer --tool $tool --print-limit 20 \
      python3 tools/bench/variant_check.py "$lib" > "$out/variant-$tool-$label.txt" 2>&1 || status=1
    echo "   $tool: $(tail -1 "$out/variant-$tool-$label.txt")"
  done
  case $(cat "$dir/KERNEL") in
  attention_f16) attention+=("$label=$lib") ;;
  matmul) matmul+=("$label=$lib") ;;
  esac
done
if [ ${#attention[@]} -gt 0 ]; then
  PYTHONUNBUFFERED=1 python3 tools/bench/attention_sweep.py "stock=$stock" "${attention[@]}" 2>&1 |
    tee "$out/variant-attention-sweep.txt" || status=1
fi
if [ ${#matmul[@]} -gt 0 ]; then
  PYTHONUNBUFFERED=1 python3 tools/bench/gemm_sweep.py matmul "stock=$stock" "${matmul[@]}" 2>&1 |
    tee "$out/variant-gemm-sweep.txt" || status=1
fi
exit $status
