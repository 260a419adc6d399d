#!/usr/bin/env bash
# Build one configuration of one kernel here, with nvcc for sm_90a, into
# gpu-bundle/prebuilt/LABEL.so (exporting the kernel as the stock library does), so that a GPU
# machine runs it without compiling (tools/bench/gemm_sweep.py, variant_check.py):
#   tools/scripts/prebuild-variant.sh LABEL KERNEL_SOURCE KERNEL CONFIG_ID
# Needs the runtime objects of prebuild-stock.sh (/tmp/ntc-prebuild/cpu-{errors,validate}.o).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 4 ] || { sed -n 2,7p "$0"; exit 2; }
label=$1 source=$2 kernel=$3 config=$4
dir=/tmp/ntc-variant/$label
rm -rf "$dir" && mkdir -p "$dir" gpu-bundle/prebuilt
build/tools/ntc -o "$dir" --target cuda --cuda-arch 90a --kernel "$kernel" --config "$config" \
  "$source" -- -I kernels
stem=$(basename "$source" .cpp)
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Xptxas -v \
  -I runtime/include -I gpu-bundle/include -I "$dir" -c "$dir/$stem.cu" -o "$dir/$stem.o" \
  > "gpu-bundle/prebuilt/ptxas-$label.txt" 2>&1
nvcc -shared -gencode=arch=compute_90a,code=sm_90a -o "gpu-bundle/prebuilt/$label.so" \
  "$dir/$stem.o" /tmp/ntc-prebuild/cpu-errors.o /tmp/ntc-prebuild/cpu-validate.o -lcudart
echo "$config" > "gpu-bundle/prebuilt/$label.config"
ls -l "gpu-bundle/prebuilt/$label.so"
