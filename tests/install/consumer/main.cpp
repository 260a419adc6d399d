// The consumer project's program: calls the generated `scale` on a CPU vector whose length is
// not a multiple of the 256-element tile (a tail program) and checks every element, and that
// nothing past the end was written.

#include "scale.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

DLTensor vector_f32(float *data, int64_t *shape) {
  DLTensor t{};
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = shape;
  t.strides = nullptr; // compact row-major
  t.byte_offset = 0;
  return t;
}

} // namespace

int main() {
  constexpr int64_t n = 3 * 256 + 100; // three full tiles and a tail of 100
  constexpr int64_t guard = 16;        // elements past the end that must stay untouched
  std::vector<float> input(n), output(n + guard, -7.0f);
  for (int64_t i = 0; i < n; ++i)
    input[i] = 0.25f * float(i) - 50.0f;

  int64_t shape[1] = {n};
  DLTensor in = vector_f32(input.data(), shape);
  DLTensor out = vector_f32(output.data(), shape);
  ntc_status_t status = scale(&in, &out, nullptr);
  if (status != NTC_SUCCESS) {
    std::printf("consumer: scale failed: %s: %s\n", ntc_status_string(status), ntc_last_error());
    return 1;
  }
  for (int64_t i = 0; i < n; ++i)
    if (output[i] != 2.0f * input[i]) {
      std::printf("consumer: output[%lld] = %g, want %g\n", (long long)i, output[i],
                  2.0f * input[i]);
      return 1;
    }
  for (int64_t i = n; i < n + guard; ++i)
    if (output[i] != -7.0f) {
      std::printf("consumer: output[%lld] past the end was written\n", (long long)i);
      return 1;
    }

  // A bad argument is a status and a message, not a crash.
  DLTensor bad = out;
  bad.dtype = DLDataType{kDLFloat, 64, 1};
  if (scale(&in, &bad, nullptr) != NTC_ERROR_INVALID_ARGUMENT || !*ntc_last_error()) {
    std::printf("consumer: a float64 output was not rejected\n");
    return 1;
  }

  const ntc_kernel_info_t *info = ntc_scale_info();
  if (!info || std::strcmp(info->name, "scale") != 0 || info->num_params != 2) {
    std::printf("consumer: ntc_scale_info() does not describe scale\n");
    return 1;
  }
  std::printf("consumer: ok\n");
  return 0;
}
