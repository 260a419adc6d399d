// C++ helpers called by generated kernel wrappers: error reporting, DLPack argument
// validation, tensor accessors and a parallel-for for the CPU backend.
//
// Generated wrappers never print and never exit: every check returns NTC_SUCCESS or sets the
// thread-local message (read with ntc_last_error()) and returns an error status. A successful
// check leaves an earlier message in place; call clear_error() to reset it.
#pragma once

#include <ntc/runtime.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace ntc::rt {

// --- errors -----------------------------------------------------------------------------------

/// Sets the calling thread's last-error message to `message` and returns `status`.
ntc_status_t fail(ntc_status_t status, std::string message) noexcept;

/// Clears the calling thread's last-error message (ntc_last_error() then returns "").
void clear_error() noexcept;

/// Runs `f` (which returns ntc_status_t) and turns any escaping exception into
/// NTC_ERROR_INTERNAL with the message "<kernel>: internal error: <what()>".
template <class F> ntc_status_t guard(const char *kernel, F &&f) noexcept {
  try {
    return f();
  } catch (const std::exception &e) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": internal error: " + e.what());
  } catch (...) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": internal error: unknown exception");
  }
}

// --- data types and devices -------------------------------------------------------------------

/// DLPack data types of the element types ntc supports.
namespace dtypes {
inline constexpr DLDataType float16{kDLFloat, 16, 1};                ///< IEEE binary16
inline constexpr DLDataType bfloat16{kDLBfloat, 16, 1};              ///< bfloat16
inline constexpr DLDataType float32{kDLFloat, 32, 1};                ///< IEEE binary32
inline constexpr DLDataType float64{kDLFloat, 64, 1};                ///< IEEE binary64
inline constexpr DLDataType int8{kDLInt, 8, 1};                      ///< int8_t
inline constexpr DLDataType int16{kDLInt, 16, 1};                    ///< int16_t
inline constexpr DLDataType int32{kDLInt, 32, 1};                    ///< int32_t
inline constexpr DLDataType int64{kDLInt, 64, 1};                    ///< int64_t
inline constexpr DLDataType uint8{kDLUInt, 8, 1};                    ///< uint8_t
inline constexpr DLDataType uint16{kDLUInt, 16, 1};                  ///< uint16_t
inline constexpr DLDataType uint32{kDLUInt, 32, 1};                  ///< uint32_t
inline constexpr DLDataType uint64{kDLUInt, 64, 1};                  ///< uint64_t
inline constexpr DLDataType bool_{NTC_DL_BOOL, 8, 1};                ///< bool (one byte)
inline constexpr DLDataType float8_e4m3{NTC_DL_FLOAT8_E4M3FN, 8, 1}; ///< OCP e4m3 (fn)
inline constexpr DLDataType float8_e5m2{NTC_DL_FLOAT8_E5M2, 8, 1};   ///< OCP e5m2
} // namespace dtypes

/// True when code, bits and lanes all agree.
constexpr bool same_dtype(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/// Name of a one-lane data type (`float16 bfloat16 float32 float64 int8 … uint64 bool
/// float8_e4m3 float8_e5m2 complex64 complex128`), or "unknown".
const char *dtype_name(DLDataType dtype) noexcept;

/// dtype_name() for known types; "float32x4" for vector types; otherwise
/// "dtype(code=C, bits=B, lanes=L)".
std::string dtype_string(DLDataType dtype);

/// Human name of a device type ("CPU", "CUDA", "CUDA host", "CUDA managed", "ROCm", …), or
/// "device type N".
std::string device_name(int32_t device_type);

/// Bytes per element: (bits · lanes + 7) / 8.
constexpr int64_t element_bytes(DLDataType dtype) {
  return (int64_t(dtype.bits) * dtype.lanes + 7) / 8;
}

// --- validation -------------------------------------------------------------------------------

/// Checks tensor parameter `param` of `kernel`, in this order: `t` not null; a well-formed
/// shape (ndim ≥ 0, shape not null, no negative size); an element count that fits in int64;
/// data not null (unless the tensor has no elements); rank == `ndim`; dtype == `dtype` (code,
/// bits, lanes); device type == `device` (for kDLCUDA, kDLCUDAManaged is accepted too; the
/// device type is read as a plain int32_t, so any value is reported cleanly); byte_offset at
/// most INT64_MAX and data + byte_offset not past the end of the address space; byte_offset a
/// multiple of the element size; the address data + byte_offset aligned to the element size; a
/// byte size (elements · element size) that fits in int64. Then, for tensors with elements and
/// explicit strides: (size − 1)·|stride| of every dimension, their sum (the reach, in elements)
/// and (reach + 1) · element size all fit in int64. Finally, for tensors with elements, the
/// lowest and highest bytes the tensor reaches lie inside the address space (negative strides
/// must not reach below address 0). After a successful check, numel() is exact and, for a
/// tensor with elements, stride() is exact and every element offset and byte offset the tensor
/// reaches fits in int64_t.
/// Returns NTC_SUCCESS or NTC_ERROR_INVALID_ARGUMENT with e.g.
/// "matmul: parameter 'lhs' has rank 3, expected 2".
ntc_status_t check_tensor(const char *kernel, const DLTensor *t, const char *param, int32_t ndim,
                          DLDataType dtype, DLDeviceType device) noexcept;

/// Rejects an output `written` whose memory may overlap that of `other` (another parameter of
/// the same call): NTC_ERROR_INVALID_ARGUMENT with "<kernel>: parameter '<written_name>'
/// (bytes [lo, hi]) overlaps parameter '<other_name>' (bytes [lo, hi])". The byte range of a
/// tensor is the interval from the lowest to the highest byte any of its elements occupies
/// (holes between strided elements count as covered, so the check is conservative). Tensors
/// without elements never overlap, nor do tensors on different devices (device type or id
/// differ). With `allow_identical`, exact aliases are accepted: same address data +
/// byte_offset, dtype, rank, shape and strides (strides of size-1 dimensions are ignored), so
/// every element is the same memory in both (an elementwise kernel that reads and writes one
/// element in the same program). Also rejects null or malformed tensors and layouts whose byte
/// range overflows; call it after check_tensor. Arithmetic is checked: it never overflows.
ntc_status_t check_no_overlap(const char *kernel, const DLTensor *written, const char *written_name,
                              const DLTensor *other, const char *other_name,
                              bool allow_identical) noexcept;

/// Rejects tensors `a` and `b` on different devices of a multi-GPU machine:
/// NTC_ERROR_INVALID_ARGUMENT with "<kernel>: parameter '<a_name>' is on CUDA device 0 but
/// parameter '<b_name>' is on CUDA device 1" when their device ids differ. Two CPU tensors
/// always pass (host memory is shared, whatever ids a producer sets); device types are
/// check_tensor's business and are not compared. Also rejects null tensors.
ntc_status_t check_same_device(const char *kernel, const DLTensor *a, const char *a_name,
                               const DLTensor *b, const char *b_name) noexcept;

/// Returns NTC_SUCCESS when a == b, else NTC_ERROR_INVALID_ARGUMENT with
/// "<kernel>: size mismatch: <what_a> is <a> but <what_b> is <b>".
ntc_status_t check_equal(const char *kernel, const char *what_a, int64_t a, const char *what_b,
                         int64_t b) noexcept;

/// `value` with the digits that read back as the same double (%.17g), for messages.
std::string exact_string(double value);

/// Checks the offsets of a jagged tensor, read from host memory `host` (the tensor `offsets`
/// itself on the CPU, a copy of it for a GPU): rank 1 and contiguous (checked on `offsets`), at
/// least one entry, non-decreasing from offsets[0] >= 0 to offsets[last] <= `rows` (the values'
/// extent along the jagged dimension). Sets `longest` to the longest sequence (0 without
/// batch entries). Returns NTC_SUCCESS or NTC_ERROR_INVALID_ARGUMENT with e.g.
/// "to_padded: parameter 'x_offsets' decreases at entry 3 (10 after 12)". `rows` is the values'
/// extent along the jagged dimension.
ntc_status_t check_offsets(const char *kernel, const DLTensor *offsets, const char *param,
                           const int64_t *host, int64_t rows, int64_t &longest) noexcept;

// --- accessors --------------------------------------------------------------------------------

/// Extent of dimension `d` (negative `d` counts from the end).
inline int64_t size(const DLTensor *t, int d) {
  if (d < 0)
    d += t->ndim;
  return t->shape[d];
}

/// Stride of dimension `d` in elements (negative `d` counts from the end); a null `strides`
/// means compact row-major. The compact stride is the product of the later sizes: 0 when one of
/// them is 0, and saturated at INT64_MAX when it overflows (possible only for tensors without
/// elements, e.g. shape {0, 2^40, 2^40}; check_tensor rejects the others) or when one of them
/// is negative (a malformed shape).
inline int64_t stride(const DLTensor *t, int d) {
  if (d < 0)
    d += t->ndim;
  if (t->strides)
    return t->strides[d];
  int64_t s = 1;
  bool saturated = false;
  for (int i = t->ndim - 1; i > d; --i) {
    const int64_t n = t->shape[i];
    if (n == 0)
      return 0;
    if (saturated || n < 0 || s > INT64_MAX / n)
      saturated = true;
    else
      s *= n;
  }
  return saturated ? INT64_MAX : s;
}

/// Number of elements (1 for rank 0): 0 when a size is 0, saturated at INT64_MAX when the
/// product overflows or a size is negative (check_tensor rejects both).
inline int64_t numel(const DLTensor *t) {
  int64_t n = 1;
  bool saturated = false;
  for (int i = 0; i < t->ndim; ++i) {
    const int64_t s = t->shape[i];
    if (s == 0)
      return 0;
    if (saturated || s < 0 || n > INT64_MAX / s)
      saturated = true;
    else
      n *= s;
  }
  return saturated ? INT64_MAX : n;
}

/// The data pointer with byte_offset applied; null when data is null (check_tensor allows that
/// only for tensors without elements, whatever their byte_offset).
template <class T> T *data(const DLTensor *t) {
  if (!t->data)
    return nullptr;
  return reinterpret_cast<T *>(static_cast<char *>(t->data) + t->byte_offset);
}

/// True when the tensor is compact row-major (size-1 dimensions may have any stride).
bool is_contiguous(const DLTensor *t) noexcept;

/// True when data + byte_offset is a multiple of `bytes` (a power of two).
bool is_aligned(const DLTensor *t, std::size_t bytes) noexcept;

/// True when vector accesses of `width` elements along dimension `dim` are safe for `t`: that
/// dimension has stride 1, every other stride is a multiple of `width`, and the data pointer
/// (with byte_offset) is aligned to `width` elements. The dispatcher checks this before it
/// picks a variant that uses vector loads and stores.
bool vector_ready(const DLTensor *t, int dim, int width) noexcept;

/// True when `value` is a multiple of `divisor` (> 0).
constexpr bool divisible(int64_t value, int64_t divisor) { return value % divisor == 0; }

/// True when the int32 variant of a generated program is safe for `t`. That variant casts every
/// size and every stride to int32 and computes element offsets in int32, so this holds exactly
/// when: every size ≤ INT32_MAX; every stride's magnitude ≤ INT32_MAX (with a null `strides`,
/// the compact strides stride() returns); and the reach Σ max(size − 1, 0)·|stride| ≤ INT32_MAX,
/// so every element offset, positive or negative, lies in [−INT32_MAX, INT32_MAX]. Each
/// condition covers every dimension, size-1 and broadcast (stride-0) ones included, whether or
/// not the tensor has elements: a size-0 dimension does not excuse a huge size or stride
/// elsewhere. False for a null or malformed tensor (negative rank, null shape, negative size).
bool index_fits_int32(const DLTensor *t) noexcept;

/// Headroom that generated wrappers ask of int32 indexing: coordinates of masked lanes (a
/// tile hanging over the end of a dimension, padding) may exceed a size by this much.
inline constexpr int64_t kIndexHeadroom = int64_t(1) << 24;

/// index_fits_int32 with every size, stride and the reach at most INT32_MAX - `headroom`
/// (false for a negative headroom or one of INT32_MAX or more).
bool index_fits_int32(const DLTensor *t, int64_t headroom) noexcept;

// --- parallelism ------------------------------------------------------------------------------

/// Calls f(i) for i in [0, n): across threads with OpenMP (`schedule(dynamic)`) when the code is
/// compiled with OpenMP, else serially. An exception thrown by `f` is rethrown after the loop
/// (the first one caught wins); the remaining iterations still run.
template <class F> void parallel_for(int64_t n, F f) {
#ifdef _OPENMP
  if (n > 1) {
    std::exception_ptr error;
#pragma omp parallel for schedule(dynamic)
    for (int64_t i = 0; i < n; ++i) {
      try {
        f(i);
      } catch (...) {
#pragma omp critical(ntc_rt_parallel_for)
        if (!error)
          error = std::current_exception();
      }
    }
    if (error)
      std::rethrow_exception(error);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i)
    f(i);
}

} // namespace ntc::rt
