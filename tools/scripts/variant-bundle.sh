#!/usr/bin/env bash
# Generate one configuration of one kernel as a "variant" for the GPU machine:
#   tools/scripts/variant-bundle.sh LABEL KERNEL_SOURCE KERNEL CONFIG_ID
# writes gpu-bundle/variants/LABEL/ (ntc --kernel KERNEL --config CONFIG_ID; git-ignored), which
# tools/scripts/gpu-variants.sh builds, checks (tools/bench/variant_check.py, plain and under
# compute-sanitizer) and times against the stock build. Run after gpu-bundle.sh, which starts
# gpu-bundle/ afresh. Example (the TMA programs of attention and matmul):
#   tools/scripts/variant-bundle.sh att-tma kernels/attention.cpp attention_f16 \
#     BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,stages=2,tma=1
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 4 ] || { sed -n 2,10p "$0"; exit 2; }
label=$1 source=$2 kernel=$3 config=$4
dir=gpu-bundle/variants/$label
rm -rf "$dir" && mkdir -p "$dir"
build/tools/ntc -o "$dir" --target cuda --cuda-arch 90a --kernel "$kernel" --config "$config" "$source"
echo "$kernel" > "$dir/KERNEL"
echo "$config" > "$dir/CONFIG"
ls "$dir"
