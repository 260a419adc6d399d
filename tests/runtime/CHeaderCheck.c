/* Compiles <ntc/runtime.h> as C and exercises it from C. */
#include <ntc/runtime.h>

#include <string.h>

int ntc_test_c_header(void) {
  ntc_param_info_t params[2] = {{"x", NTC_PARAM_TENSOR, 1, {kDLFloat, 32, 1}},
                                {"alpha", NTC_PARAM_SCALAR, 0, {kDLFloat, 64, 1}}};
  ntc_kernel_info_t info = {"axpy", 2, params, "cpu"};
  ntc_stream_t stream = NULL;
  (void)stream;
  if (strcmp(ntc_status_string(NTC_ERROR_CUDA), "NTC_ERROR_CUDA") != 0)
    return 1;
  if (info.num_params != 2 || info.params[1].kind != NTC_PARAM_SCALAR)
    return 2;
  return ntc_last_error() == NULL ? 3 : 0;
}
