# Sourced by the GPU-machine scripts (gpu-variants.sh, gemm-ab.sh): build_runtime_objects
# compiles the runtime's host objects that every kernel library links (error strings, tensor
# validation) into /tmp/ntc-build/cpu-{errors,validate}.o, unless gpu-run.sh built them.
build_runtime_objects() {
  local cpp obj
  mkdir -p /tmp/ntc-build
  for cpp in runtime/src/errors.cpp runtime/src/validate.cpp; do
    obj=/tmp/ntc-build/cpu-$(basename "$cpp" .cpp).o
    [ -f "$obj" ] ||
      g++ -std=c++17 -O2 -fPIC -I runtime/include -I gpu-bundle/include -c "$cpp" -o "$obj"
  done
}
