#!/usr/bin/env bash
# On a GPU machine (see gpu-bundle.sh): build the CUDA and CPU kernel libraries from
# gpu-bundle/, run the device-library tests, the GPU kernel tests (tests/gpu; check_dsl.py runs
# the DSL test kernels of tests/cpu/kernels) and the benchmark (tools/bench/gpu_bench.py). Logs
# go to $OUT when set. NTC_DEVICE_TEST=1: the device-library tests too; NTC_CHECK_MMA=1: the
# kernels also as sm_80 runs them (mma.sync); NTC_STOCK_ONLY=1: the stock kernels only (no
# operator library, no DSL test kernels); NTC_WITH_DSL=1: the DSL test kernels even then;
# NTC_COMPARE_GROUPS: which nt_compare.py groups; NTC_COMPOSED_BENCH=0: without the benchmark of
# the composed kernels (tools/bench/composed_bench.py, run with the DSL test kernels).
# NTC_PREBUILT=1: the stock libraries that prebuild-stock.sh built elsewhere, not compiled here.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/ntc-gpu}
mkdir -p "$out" /tmp/ntc-build
arch="-gencode=arch=compute_90a,code=sm_90a"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
# The device-library tests compile meanwhile, twice: for sm_90a as it is (wgmma paths) and with
# NTC_DEV_NO_WGMMA (the mma.sync paths that sm_80 takes), both run on this GPU.
test_pids=()
if [ "${NTC_DEVICE_TEST:-0}" = 1 ]; then
  for flavour in wgmma mma; do
    defines=""; [ "$flavour" = mma ] && defines="-DNTC_DEV_NO_WGMMA"
    nvcc -std=c++17 -O2 $arch $defines --extended-lambda -I runtime/include -I gpu-bundle/include \
      tests/device/device_test.cu -o /tmp/ntc-build/device_test_$flavour > "$out/nvcc-device-test-$flavour.txt" 2>&1 &
    test_pids+=($!)
  done
fi
pids=()
# compile_cuda DIR OBJDIR PREFIX: every .cu of DIR into OBJDIR/<stem>.o, in the background (ptxas
# report in $out/ptxas-<PREFIX><stem>.txt).
compile_cuda() {
  local cu stem
  for cu in "$1"/*.cu; do
    stem=$(basename "$cu" .cu)
    nvcc -std=c++17 -O3 $arch -Xcompiler -fPIC -Xptxas -v -I runtime/include -I gpu-bundle/include \
      -I "$1" -c "$cu" -o "$2/$stem.o" > "$out/ptxas-$3$stem.txt" 2>&1 &
    pids+=($!)
  done
}
# compile_cpu OBJDIR INCLUDE SOURCE...: each C++ source into OBJDIR/cpu-<stem>.o, in the background.
compile_cpu() {
  local obj=$1 include=$2 cpp
  shift 2
  for cpp in "$@"; do
    g++ -std=c++17 -O2 -fopenmp -fPIC -I runtime/include -I gpu-bundle/include -I "$include" \
      -c "$cpp" -o "$obj/cpu-$(basename "$cpp" .cpp).o" &
    pids+=($!)
  done
}
stock_only=${NTC_STOCK_ONLY:-0}
# NTC_PREBUILT=1: the stock libraries that tools/scripts/prebuild-stock.sh built
# (gpu-bundle/prebuilt/stock), not compiled here; implies NTC_STOCK_ONLY=1.
prebuilt=${NTC_PREBUILT:-0}
[ "$prebuilt" = 1 ] && stock_only=1
# NTC_WITH_DSL=1: the DSL test kernels too, also with NTC_STOCK_ONLY=1.
with_dsl=0
if [ "$stock_only" != 1 ] || [ "${NTC_WITH_DSL:-0}" = 1 ]; then
  with_dsl=1
fi
if [ "$prebuilt" = 1 ]; then
cp gpu-bundle/prebuilt/stock/libkernels_cuda.so gpu-bundle/prebuilt/stock/libkernels_cpu.so /tmp/ntc-build/
cp gpu-bundle/prebuilt/stock/ptxas.txt "$out/ptxas-stock.txt"
else
compile_cuda gpu-bundle/cuda /tmp/ntc-build ""
compile_cpu /tmp/ntc-build gpu-bundle/cpu gpu-bundle/cpu/*.cpp runtime/src/*.cpp
if [ "$stock_only" != 1 ]; then
  # The operator library (kernels/ops) into libops_cuda.so / libops_cpu.so.
  mkdir -p /tmp/ntc-build/ops
  compile_cuda gpu-bundle/ops-cuda /tmp/ntc-build/ops ops-
  compile_cpu /tmp/ntc-build/ops gpu-bundle/ops-cpu gpu-bundle/ops-cpu/*.cpp
fi
if [ "$with_dsl" = 1 ]; then
  # The DSL test kernels (tests/cpu/kernels) into libdsl_cuda.so / libdsl_cpu.so.
  mkdir -p /tmp/ntc-build/dsl
  compile_cuda gpu-bundle/dsl-cuda /tmp/ntc-build/dsl dsl-
  compile_cpu /tmp/ntc-build/dsl gpu-bundle/dsl-cpu gpu-bundle/dsl-cpu/*.cpp
fi
# With NTC_CHECK_MMA=1 the kernels are also built with NTC_DEV_NO_WGMMA: the device code that
# sm_80 runs (mma.sync products), checked on this GPU as well.
if [ "${NTC_CHECK_MMA:-0}" = 1 ]; then
  mkdir -p /tmp/ntc-build/mma
  for cu in gpu-bundle/cuda/*.cu; do
    nvcc -std=c++17 -O3 $arch -DNTC_DEV_NO_WGMMA -Xcompiler -fPIC -I runtime/include -I gpu-bundle/include \
      -I gpu-bundle/cuda -c "$cu" -o "/tmp/ntc-build/mma/$(basename "$cu" .cu).o" &
    pids+=($!)
  done
fi
for p in "${pids[@]}"; do wait "$p" || { echo "a compile failed"; cat "$out"/ptxas-*.txt | grep -m5 error; exit 1; }; done
g++ -shared -fopenmp -o /tmp/ntc-build/libkernels_cpu.so /tmp/ntc-build/cpu-*.o
if [ "$stock_only" != 1 ]; then
g++ -shared -fopenmp -o /tmp/ntc-build/libops_cpu.so /tmp/ntc-build/ops/cpu-*.o \
  /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o
nvcc -shared $arch -o /tmp/ntc-build/libops_cuda.so $(ls /tmp/ntc-build/ops/*.o | grep -v '/cpu-') \
  /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o -lcudart
fi
if [ "$with_dsl" = 1 ]; then
g++ -shared -fopenmp -o /tmp/ntc-build/libdsl_cpu.so /tmp/ntc-build/dsl/cpu-*.o \
  /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o
nvcc -shared $arch -o /tmp/ntc-build/libdsl_cuda.so $(ls /tmp/ntc-build/dsl/*.o | grep -v '/cpu-') \
  /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o -lcudart
fi
nvcc -shared $arch -o /tmp/ntc-build/libkernels_cuda.so \
  $(ls /tmp/ntc-build/*.o | grep -v '/cpu-') /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o -lcudart
fi
grep -h "registers\|spill" "$out"/ptxas-*.txt | sort | uniq -c | sort -rn | head -20 > "$out/ptxas-summary.txt" || true
status=0
if [ "${NTC_DEVICE_TEST:-0}" = 1 ]; then
  for p in "${test_pids[@]}"; do wait "$p" || status=1; done
  for flavour in wgmma mma; do
    echo "== device tests ($flavour)"
    /tmp/ntc-build/device_test_$flavour 2>&1 | tee "$out/device-test-$flavour.txt" | tail -3 || status=1
  done
fi
PYTHONUNBUFFERED=1 python3 tests/gpu/check_kernels.py /tmp/ntc-build/libkernels_cuda.so \
  /tmp/ntc-build/libkernels_cpu.so 2>&1 | tee "$out/check.txt" | tail -50 || status=1
if [ "$stock_only" != 1 ]; then
  echo "== operator library (kernels/ops)"
  PYTHONUNBUFFERED=1 python3 tests/gpu/check_ops.py /tmp/ntc-build/libops_cuda.so \
    /tmp/ntc-build/libops_cpu.so 2>&1 | tee "$out/check-ops.txt" | grep -v "^ok " | tail -40 || status=1
fi
if [ "$with_dsl" = 1 ]; then
  echo "== DSL test kernels (tests/cpu/kernels)"
  PYTHONUNBUFFERED=1 python3 tests/gpu/check_dsl.py /tmp/ntc-build/libdsl_cuda.so \
    /tmp/ntc-build/libdsl_cpu.so 2>&1 | tee "$out/check-dsl.txt" | grep -v "^ok " | tail -40 || status=1
fi
if [ "${NTC_CHECK_MMA:-0}" = 1 ]; then
  nvcc -shared $arch -o /tmp/ntc-build/libkernels_cuda_mma.so /tmp/ntc-build/mma/*.o \
    /tmp/ntc-build/cpu-errors.o /tmp/ntc-build/cpu-validate.o -lcudart
  echo "== kernels with NTC_DEV_NO_WGMMA (the sm_80 device code)"
  PYTHONUNBUFFERED=1 python3 tests/gpu/check_kernels.py /tmp/ntc-build/libkernels_cuda_mma.so \
    /tmp/ntc-build/libkernels_cpu.so 2>&1 | tee "$out/check-mma.txt" | tail -3 || status=1
fi
if [ "$with_dsl" = 1 ] && [ "${NTC_COMPOSED_BENCH:-1}" = 1 ]; then
  echo "== composed kernels against the fusion by hand and two kernels in a row"
  PYTHONUNBUFFERED=1 python3 tools/bench/composed_bench.py /tmp/ntc-build/libkernels_cuda.so \
    /tmp/ntc-build/libdsl_cuda.so 2>&1 | tee "$out/composed-bench.txt" || status=1
fi
if [ "${NTC_BENCH:-1}" = 1 ]; then
  PYTHONUNBUFFERED=1 python3 tools/bench/gpu_bench.py /tmp/ntc-build/libkernels_cuda.so 2>&1 \
    | tee "$out/bench.txt" || status=1
fi
if [ "${NTC_COMPARE:-1}" = 1 ]; then
  python3 -m pip install --no-deps gpu-bundle/ninetoothed-*.whl > "$out/pip.txt" 2>&1 || true
  python3 -c "import ninetoothed" >> "$out/pip.txt" 2>&1 || true
  PYTHONUNBUFFERED=1 python3 tools/bench/nt_compare.py /tmp/ntc-build/libkernels_cuda.so ${NTC_COMPARE_GROUPS:-} 2>&1 \
    | tee "$out/compare.txt" || status=1
fi
# Every stock kernel at tail shapes under each compute-sanitizer tool (NTC_SANITIZE_TOOLS to
# choose, empty for none; initcheck also tracks the CUDA API, synccheck the barriers of reductions and dot).
for tool in ${NTC_SANITIZE_TOOLS-memcheck racecheck initcheck synccheck}; do
  timeout "${NTC_SANITIZE_TIMEOUT:-150}" compute-sanitizer --tool $tool --print-limit 20 \
    python3 tests/gpu/sanitize_kernels.py /tmp/ntc-build/libkernels_cuda.so \
    > "$out/sanitizer-$tool.txt" 2>&1 || status=1
  echo "== $tool"; tail -3 "$out/sanitizer-$tool.txt"
done
exit $status
