/* Compiles <ntc/runtime.h> as C and exercises it from C. */
#include <ntc/runtime.h>

#include <string.h>

int ntc_test_c_header(void) {
  ntc_param_info_t params[2] = {{"x", NTC_PARAM_TENSOR, 1, {kDLFloat, 32, 1}, NTC_PARAM_WRITTEN},
                                {"alpha", NTC_PARAM_SCALAR, 0, {kDLFloat, 64, 1}, 0u}};
  static const char *const configs[1] = {"none"};
  ntc_kernel_info_t info = {"axpy", 2, params, "cpu", NULL, NULL, 1, configs};
  ntc_stream_t stream = NULL;
  (void)stream;
  if (strcmp(ntc_status_string(NTC_ERROR_CUDA), "NTC_ERROR_CUDA") != 0)
    return 1;
  if (info.num_params != 2 || info.params[1].kind != NTC_PARAM_SCALAR ||
      !(info.params[0].flags & NTC_PARAM_WRITTEN) || strcmp(info.configs[0], "none") != 0)
    return 2;
  return ntc_last_error() == NULL ? 3 : 0;
}
