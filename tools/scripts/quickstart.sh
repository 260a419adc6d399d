#!/usr/bin/env bash
# README command 1: install the dependencies, build ntc and run the main job on an example, then
# the example program that calls kernels ntc compiled (examples/main.cpp).
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
tools/scripts/build.sh
echo "== ntc --dump-layout kernels/matmul.cpp (the GEMM tutorial's shapes)"
build/tools/ntc --dump-layout kernels/matmul.cpp \
  --shape lhs=128x192 --shape rhs=192x256 --shape output=128x256 \
  --define BLOCK_SIZE_M=64 --define BLOCK_SIZE_N=64 --define BLOCK_SIZE_K=64
echo "== build/examples/ntc_example (matmul and softmax compiled by ntc for the CPU, checked against C++)"
build/examples/ntc_example
