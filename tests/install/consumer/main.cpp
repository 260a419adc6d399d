// The consumer project's program: calls the generated `scale` on a CPU vector whose length is
// not a multiple of the 256-element tile (a tail program) and checks every element, and that
// nothing past the end was written; then checks that `tuned_scale`, built with a tuning table,
// takes the table's configuration for each size (the nearest bucket's for a size the table
// lacks) and computes the right values with it.

#include "scale.h"
#include "tuned_scale.h"

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

/// tuned_scale on `n` elements: the configuration it takes (through ntc_tuned_scale_info())
/// must be `want`, and every output element right.
bool check_tuned_size(int64_t n, const char *want) {
  std::vector<float> input(static_cast<size_t>(n)), output(static_cast<size_t>(n), -7.0f);
  for (int64_t i = 0; i < n; ++i)
    input[static_cast<size_t>(i)] = float(i % 1000) - 500.0f;
  int64_t shape[1] = {n};
  DLTensor in = vector_f32(input.data(), shape);
  DLTensor out = vector_f32(output.data(), shape);
  const void *args[] = {&in, &out};
  const char *config = nullptr;
  const ntc_kernel_info_t *info = ntc_tuned_scale_info();
  if (info->config_for(args, &config) != NTC_SUCCESS || !config || std::strcmp(config, want) != 0) {
    std::printf("consumer: tuned_scale on %lld elements takes configuration %s, want %s (%s)\n",
                (long long)n, config ? config : "(none)", want, ntc_last_error());
    return false;
  }
  if (info->call(args, nullptr) != NTC_SUCCESS) {
    std::printf("consumer: tuned_scale failed: %s\n", ntc_last_error());
    return false;
  }
  for (int64_t i = 0; i < n; ++i)
    if (output[static_cast<size_t>(i)] != 3.0f * input[static_cast<size_t>(i)]) {
      std::printf("consumer: tuned_scale output[%lld] = %g with %s\n", (long long)i,
                  output[static_cast<size_t>(i)], want);
      return false;
    }
  return true;
}

/// The table (written by run_install_test.cmake) gives the bucket of 1000 elements
/// BLOCK_SIZE=128 and that of a million BLOCK_SIZE=1024; other sizes take the nearer bucket.
bool check_tuned() {
  const ntc_kernel_info_t *info = ntc_tuned_scale_info();
  if (info->num_configs != 3 || std::strcmp(info->configs[0], "BLOCK_SIZE=64") != 0) {
    std::printf("consumer: tuned_scale compiled %d configurations, the default %s\n",
                info->num_configs, info->num_configs > 0 ? info->configs[0] : "(none)");
    return false;
  }
  return check_tuned_size(1000, "BLOCK_SIZE=128") && check_tuned_size(1000000, "BLOCK_SIZE=1024") &&
         check_tuned_size(600000, "BLOCK_SIZE=1024") && check_tuned_size(3000, "BLOCK_SIZE=128");
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
  return check_tuned() ? (std::printf("consumer: ok\n"), 0) : 1;
}
