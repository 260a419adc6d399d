#!/usr/bin/env bash
# On a GPU machine (see gpu-bundle.sh): times one GEMM-like kernel built several ways against cuBLAS, in one run
# (tools/bench/gemm_sweep.py). Each way is a folder of gpu-bundle/ab/ with the kernel's
# generated .cu and, optionally, the device library it is compiled against (include/; the
# checkout's runtime/include otherwise), so that a change of the compiler or of the device
# library can be measured against the code before it. Usage:
#   gemm-ab.sh KERNEL [--table T.json] LABEL [LABEL ...]   (folders gpu-bundle/ab/LABEL)
# Prepare a folder on the development machine with, for example,
#   ntc -o gpu-bundle/ab/after --target cuda kernels/matmul.cpp
#   git archive BASE runtime/include | tar -x -C gpu-bundle/ab/before --strip-components=1
set -euo pipefail
cd "$(dirname "$0")/../.."
kernel=$1
shift
table=()
if [ "${1:-}" = --table ]; then
  table=(--table "$2")
  shift 2
fi
out=${OUT:-/tmp/ntc-gpu}
arch="-gencode=arch=compute_90a,code=sm_90a"
mkdir -p "$out" /tmp/ntc-build/ab
. tools/scripts/runtime-objects.sh
build_runtime_objects
builds=()
pids=()
for label in "$@"; do
  dir=gpu-bundle/ab/$label
  include=runtime/include
  [ -d "$dir/include" ] && include=$dir/include
  nvcc -std=c++17 -O3 $arch -Xcompiler -fPIC -Xptxas -v -I "$include" -I gpu-bundle/include \
    -I "$dir" -c "$dir/$kernel.cu" -o "/tmp/ntc-build/ab/$label.o" > "$out/ptxas-ab-$label.txt" 2>&1 &
  pids+=($!)
  builds+=("$label=/tmp/ntc-build/ab/$label.so")
done
for p in "${pids[@]}"; do wait "$p"; done
for label in "$@"; do
  nvcc -shared $arch -o "/tmp/ntc-build/ab/$label.so" "/tmp/ntc-build/ab/$label.o" \
    /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o -lcudart
done
PYTHONUNBUFFERED=1 python3 tools/bench/gemm_sweep.py "${table[@]}" "$kernel" "${builds[@]}" 2>&1 |
  tee "$out/gemm-ab-$kernel.txt"
