// A "CUDA" kernel for ntc-tune's tests with the mock runtime (cudart.cpp): `scale`, output =
// input · FACTOR, taking about DELAY_US microseconds; run_mock_cuda_test.py writes one copy per
// configuration with @ID@, @FACTOR@ and @DELAY_US@ filled in. Compiled as C++ by mock nvcc.
#include <ntc/runtime.h>

#include <chrono>
#include <cstddef>

extern "C" void mock_cuda_launch(void (*fn)(void *), const void *arg, size_t bytes);

namespace {

struct Args {
  const float *input;
  float *output;
  int64_t n;
};

void program(void *p) {
  const Args &a = *static_cast<const Args *>(p);
  for (int64_t i = 0; i < a.n; ++i)
    a.output[i] = a.input[i] * static_cast<float>(@FACTOR@);
  auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(@DELAY_US@);
  while (std::chrono::steady_clock::now() < until) {
  }
}

ntc_status_t call(const void *const *args, ntc_stream_t) {
  const auto *input = static_cast<const DLTensor *>(args[0]);
  const auto *output = static_cast<const DLTensor *>(args[1]);
  if (input->device.device_type != kDLCUDA || input->shape[0] != output->shape[0])
    return NTC_ERROR_INVALID_ARGUMENT;
  Args a{static_cast<const float *>(input->data), static_cast<float *>(output->data),
         input->shape[0]};
  mock_cuda_launch(program, &a, sizeof a);
  return NTC_SUCCESS;
}

const char *const configs[] = {"@ID@"};

ntc_status_t configFor(const void *const *, const char **config) {
  *config = configs[0];
  return NTC_SUCCESS;
}

const ntc_param_info_t params[] = {
    {"input", NTC_PARAM_TENSOR, 1, {kDLFloat, 32, 1}, 0},
    {"output", NTC_PARAM_TENSOR, 1, {kDLFloat, 32, 1}, NTC_PARAM_WRITTEN},
};

} // namespace

extern "C" const ntc_kernel_info_t *ntc_scale_info(void) {
  static const ntc_kernel_info_t info = {"scale", 2, params, "cuda", call, configFor, 1, configs};
  return &info;
}
