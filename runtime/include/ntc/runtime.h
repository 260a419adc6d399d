/* ntc runtime: the C ABI shared by every generated kernel function.
 *
 * Generated functions have C linkage, take DLPack tensors and a stream, and return an
 * ntc_status_t. They never print and never exit: on failure they return a status and leave a
 * message, readable with ntc_last_error(), in thread-local storage.
 */
#ifndef NTC_RUNTIME_H
#define NTC_RUNTIME_H

#include <dlpack/dlpack.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every generated function and runtime call. */
typedef enum ntc_status {
  NTC_SUCCESS = 0,                /**< the call succeeded */
  NTC_ERROR_INVALID_ARGUMENT = 1, /**< a tensor or scalar argument was rejected by validation */
  NTC_ERROR_UNSUPPORTED = 2,      /**< valid arguments that no compiled variant can handle */
  NTC_ERROR_LAUNCH = 3,           /**< the kernel launch failed */
  NTC_ERROR_CUDA = 4,             /**< a CUDA runtime call failed */
  NTC_ERROR_INTERNAL = 5          /**< a bug in ntc or its runtime */
} ntc_status_t;

/** A cudaStream_t; NULL is the default stream. CPU kernels ignore it. */
typedef void *ntc_stream_t;

/** Thread-local message of the last failure on the calling thread ("" if none). Successful
 * calls leave it unchanged. The pointer stays valid until the next failure on this thread. */
const char *ntc_last_error(void);

/** Static name of a status, e.g. "NTC_ERROR_INVALID_ARGUMENT" ("NTC_UNKNOWN_STATUS" if invalid). */
const char *ntc_status_string(ntc_status_t status);

/** Kind of a kernel parameter. */
typedef enum ntc_param_kind {
  NTC_PARAM_TENSOR = 0, /**< a DLTensor */
  NTC_PARAM_SCALAR = 1, /**< a run-time scalar passed by value */
  NTC_PARAM_JAGGED = 2, /**< the values of a jagged tensor: a DLTensor whose rank (ndim) is one
                             less than the kernel's tensor (its batch folded into the jagged
                             dimension); the next entry is its offsets */
  NTC_PARAM_OFFSETS = 3 /**< the offsets of the jagged tensor before it: int64, rank 1, one
                             entry per batch entry and one more */
} ntc_param_kind_t;

/** Flag of ntc_param_info_t::flags: the kernel writes this tensor (an output). */
#define NTC_PARAM_WRITTEN 1u

/** Description of one kernel parameter (for generic runners). */
typedef struct ntc_param_info {
  const char *name;      /**< parameter name in the kernel source */
  ntc_param_kind_t kind; /**< tensor, scalar, jagged values or their offsets */
  int32_t ndim;          /**< rank of the DLTensor passed (0 for scalars) */
  DLDataType dtype;      /**< element type */
  uint32_t flags;        /**< NTC_PARAM_WRITTEN or 0 */
} ntc_param_info_t;

/** A generated kernel called generically: args[i] points at the value of params[i] — a
 * `DLTensor` for tensors, jagged values and offsets; for a scalar, a value of the C type the
 * kernel's prototype takes: float for float16, bfloat16, float32 and float8 scalars, double for
 * float64, the integer's own type (int32_t, int64_t, uint8_t, ...) or bool for the others; an
 * nt::Constexpr is int64_t (double when its dtype is float64). Same checks and statuses as the
 * kernel's own function. */
typedef ntc_status_t (*ntc_generic_call_t)(const void *const *args, ntc_stream_t stream);

/** Which compiled configuration a call with these arguments would run: validates them like
 * the call, launches nothing, and on success sets *config to the configuration's id (a static
 * string, one of ntc_kernel_info_t::configs). */
typedef ntc_status_t (*ntc_config_query_t)(const void *const *args, const char **config);

/** Description of a generated kernel (for generic runners). */
typedef struct ntc_kernel_info {
  const char *name;               /**< kernel (and generated function) name */
  int32_t num_params;             /**< number of entries in params */
  const ntc_param_info_t *params; /**< parameters in call order */
  const char *target;             /**< "cpu" or "cuda" */
  ntc_generic_call_t call;        /**< the kernel, called with an argument array */
  ntc_config_query_t config_for;  /**< the configuration a call would take */
  int32_t num_configs;            /**< number of entries in configs (at least 1) */
  const char *const *configs;     /**< ids of the compiled configurations; configs[0] is the
                                       default, taken by shapes a tuning table does not cover */
} ntc_kernel_info_t;

/* DLPack >= 1.0 data-type codes that older <dlpack/dlpack.h> headers (e.g. Debian's 0.6) lack.
 * PyTorch exports bool, float8_e4m3fn and float8_e5m2 tensors with these codes. */
#define NTC_DL_BOOL 6           /**< kDLBool (bits = 8) */
#define NTC_DL_FLOAT8_E4M3FN 10 /**< kDLFloat8_e4m3fn: OCP e4m3 (no inf), ntc's float8_e4m3 */
#define NTC_DL_FLOAT8_E5M2 12   /**< kDLFloat8_e5m2: OCP e5m2 (IEEE-like), ntc's float8_e5m2 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NTC_RUNTIME_H */
