#!/usr/bin/env bash
# Prepare what a GPU machine needs to test and benchmark the stock kernels (and the GPU-only
# test kernels of tests/gpu/kernels): the machine has
# nvcc, g++ and PyTorch but no LLVM, so ntc runs here and the generated sources travel.
# Writes gpu-bundle/{cuda,cpu,ops-*,dsl-*}/ (git-ignored); then run tools/scripts/gpu-run.sh there
# (through the device tool: carry gpu-bundle).
set -euo pipefail
cd "$(dirname "$0")/../.."
ntc=build/tools/ntc
rm -rf gpu-bundle && mkdir -p gpu-bundle/cuda gpu-bundle/cpu gpu-bundle/ops-cuda \
  gpu-bundle/ops-cpu gpu-bundle/dsl-cuda gpu-bundle/dsl-cpu
# The stock kernels with the H200 tuning table, as the project builds them (kernels/CMakeLists.txt).
for k in kernels/*.cpp; do
  "$ntc" -o gpu-bundle/cuda --target cuda --tuning-table kernels/tuning/h200.json "$k"
  "$ntc" -o gpu-bundle/cpu --target cpu "$k"
done
for k in tests/gpu/kernels/*.cpp; do
  "$ntc" -o gpu-bundle/cuda --target cuda "$k"
  "$ntc" -o gpu-bundle/cpu --target cpu "$k"
done
# The operator library (kernels/ops) builds into libraries of its own (tests/gpu/check_ops.py).
for k in kernels/ops/*.cpp; do
  "$ntc" -o gpu-bundle/ops-cuda --target cuda "$k"
  "$ntc" -o gpu-bundle/ops-cpu --target cpu "$k"
done
# The DSL test kernels of tests/cpu/kernels (tests/gpu/check_dsl.py), CUDA and CPU; some
# include kernels/ headers (matmul.hpp), as tests/cpu/CMakeLists.txt's CLANG_ARGS say.
for k in tests/cpu/kernels/*.cpp; do
  "$ntc" -o gpu-bundle/dsl-cuda --target cuda "$k" -- -I kernels
  "$ntc" -o gpu-bundle/dsl-cpu --target cpu "$k" -- -I kernels
done
# The GPU machine has no DLPack header package: the header travels too.
mkdir -p gpu-bundle/include/dlpack
cp /usr/include/dlpack/dlpack.h gpu-bundle/include/dlpack/
# NineToothed for tools/bench/nt_compare.py, when its wheel was downloaded to .whl/
# (pip download --no-deps ninetoothed==0.25.0 -d .whl).
cp .whl/ninetoothed-*.whl gpu-bundle/ 2>/dev/null || true
ls gpu-bundle/cuda gpu-bundle/cpu
