#!/usr/bin/env bash
# Build the stock kernel libraries of gpu-bundle/ (see gpu-bundle.sh) here, with nvcc for sm_90a,
# into gpu-bundle/prebuilt/stock/: libkernels_cuda.so and libkernels_cpu.so. A GPU machine then
# runs `NTC_PREBUILT=1 NTC_STOCK_ONLY=1 tools/scripts/gpu-run.sh` without compiling them again,
# which saves device time. NTC_JOBS: parallel compiles (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=gpu-bundle/prebuilt/stock
obj=/tmp/ntc-prebuild
rm -rf "$dest" "$obj" && mkdir -p "$dest" "$obj"
arch="-gencode=arch=compute_90a,code=sm_90a"
export arch obj
compile() {
  local src=$1 stem
  stem=$(basename "$src")
  stem=${stem%.*}
  case "$src" in
  *.cu)
    nvcc -std=c++17 -O3 $arch -Xcompiler -fPIC -Xptxas -v -I runtime/include -I gpu-bundle/include \
      -I gpu-bundle/cuda -c "$src" -o "$obj/$stem.o" > "$obj/ptxas-$stem.txt" 2>&1 ;;
  *)
    g++ -std=c++17 -O2 -fopenmp -fPIC -I runtime/include -I gpu-bundle/include -I gpu-bundle/cpu \
      -c "$src" -o "$obj/cpu-$stem.o" ;;
  esac
}
export -f compile
# The largest sources first, so the parallel compiles end together.
ls -S gpu-bundle/cuda/*.cu gpu-bundle/cpu/*.cpp runtime/src/*.cpp |
  xargs -P "${NTC_JOBS:-2}" -I{} bash -c 'compile {}'
g++ -shared -fopenmp -o "$dest/libkernels_cpu.so" "$obj"/cpu-*.o
nvcc -shared $arch -o "$dest/libkernels_cuda.so" $(ls "$obj"/*.o | grep -v '/cpu-') \
  "$obj/cpu-errors.o" "$obj/cpu-validate.o" -lcudart
cat "$obj"/ptxas-*.txt > "$dest/ptxas.txt"
ls -l "$dest"
