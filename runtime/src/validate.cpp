// DLPack argument validation for generated kernel wrappers.
#include <ntc/rt/validate.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace ntc::rt {

const char *dtype_name(DLDataType dtype) noexcept {
  if (dtype.lanes != 1)
    return "unknown";
  switch (dtype.code) {
  case kDLFloat:
    switch (dtype.bits) {
    case 16:
      return "float16";
    case 32:
      return "float32";
    case 64:
      return "float64";
    }
    break;
  case kDLBfloat:
    if (dtype.bits == 16)
      return "bfloat16";
    break;
  case kDLInt:
    switch (dtype.bits) {
    case 8:
      return "int8";
    case 16:
      return "int16";
    case 32:
      return "int32";
    case 64:
      return "int64";
    }
    break;
  case kDLUInt:
    switch (dtype.bits) {
    case 8:
      return "uint8";
    case 16:
      return "uint16";
    case 32:
      return "uint32";
    case 64:
      return "uint64";
    }
    break;
  case kDLComplex:
    if (dtype.bits == 64)
      return "complex64";
    if (dtype.bits == 128)
      return "complex128";
    break;
  case NTC_DL_BOOL:
    if (dtype.bits == 8)
      return "bool";
    break;
  case NTC_DL_FLOAT8_E4M3FN:
    if (dtype.bits == 8)
      return "float8_e4m3";
    break;
  case NTC_DL_FLOAT8_E5M2:
    if (dtype.bits == 8)
      return "float8_e5m2";
    break;
  default:
    break;
  }
  return "unknown";
}

std::string dtype_string(DLDataType dtype) {
  DLDataType one = dtype;
  one.lanes = 1;
  std::string name = dtype_name(one);
  if (name != "unknown")
    return dtype.lanes == 1 ? name : name + "x" + std::to_string(dtype.lanes);
  return "dtype(code=" + std::to_string(dtype.code) + ", bits=" + std::to_string(dtype.bits) +
         ", lanes=" + std::to_string(dtype.lanes) + ")";
}

std::string device_name(int32_t device_type) {
  // Values from DLPack 1.1 (older headers lack the later ones).
  switch (device_type) {
  case 1:
    return "CPU";
  case 2:
    return "CUDA";
  case 3:
    return "CUDA host";
  case 4:
    return "OpenCL";
  case 7:
    return "Vulkan";
  case 8:
    return "Metal";
  case 9:
    return "VPI";
  case 10:
    return "ROCm";
  case 11:
    return "ROCm host";
  case 12:
    return "ext_dev";
  case 13:
    return "CUDA managed";
  case 14:
    return "oneAPI";
  case 15:
    return "WebGPU";
  case 16:
    return "Hexagon";
  case 17:
    return "MAIA";
  case 18:
    return "Trainium";
  }
  return "device type " + std::to_string(device_type);
}

namespace {

/// "a CPU tensor", "an OpenCL tensor", …
std::string device_phrase(int32_t device_type) {
  std::string name = device_name(device_type);
  bool vowel = name.find_first_of("AEIOUaeiou") == 0 && name != "oneAPI";
  return (vowel ? "an " : "a ") + name + " tensor";
}

std::string prefix(const char *kernel, const char *param) {
  return std::string(kernel) + ": parameter '" + param + "' ";
}

/// The device type as a plain integer. A producer may store any 32-bit value (e.g. -5) in the
/// DLDeviceType field, and loading an out-of-range value as the enum type is undefined.
int32_t device_type_of(const DLTensor *t) noexcept {
  static_assert(sizeof(t->device.device_type) == sizeof(int32_t), "DLDeviceType is 32 bits");
  int32_t value = 0;
  std::memcpy(&value, &t->device.device_type, sizeof value);
  return value;
}

/// "0x1f40".
std::string hex(std::uintptr_t value) {
  char buffer[2 + 2 * sizeof value + 1];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

/// "[2, 3]" (for a well-formed shape).
std::string list_string(const int64_t *values, int32_t n) {
  std::string s = "[";
  for (int32_t d = 0; d < n; ++d)
    s += (d ? ", " : "") + std::to_string(values[d]);
  return s + "]";
}

std::string shape_string(const DLTensor *t) { return list_string(t->shape, t->ndim); }

/// "[4, 1]", or "compact" for a null `strides`.
std::string strides_string(const DLTensor *t) {
  return t->strides ? list_string(t->strides, t->ndim) : "compact";
}

/// The element count with checked arithmetic (shape already well-formed); false on overflow.
bool checked_numel(const DLTensor *t, int64_t &count) noexcept {
  count = 1;
  bool overflow = false;
  for (int32_t d = 0; d < t->ndim; ++d) {
    if (t->shape[d] == 0) {
      count = 0;
      return true;
    }
    overflow = overflow || __builtin_mul_overflow(count, t->shape[d], &count);
  }
  return !overflow;
}

/// |v| as an unsigned value (exact for INT64_MIN too).
uint64_t magnitude(int64_t v) noexcept { return v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v); }

/// The element offsets a tensor with elements reaches, relative to data + byte_offset.
struct Reach {
  int64_t low = 0;   ///< lowest element offset (≤ 0): Σ over negative strides
  int64_t high = 0;  ///< highest element offset (≥ 0): Σ over positive strides
  int64_t total = 0; ///< Σ (size − 1)·|stride| = high − low
  int dim = -1;      ///< on failure, the dimension whose (size − 1)·|stride| overflows, or -1
};

/// Computes the reach of a well-formed tensor with elements whose element count fits in int64
/// (compact strides for a null `strides`). False when a dimension's (size − 1)·|stride| or the
/// sum overflows int64 (r.dim says which).
bool element_reach(const DLTensor *t, Reach &r) noexcept {
  r = Reach{};
  int64_t compact = 1; // suffix product of sizes: ≤ element count, so it fits
  for (int32_t d = t->ndim - 1; d >= 0; --d) {
    const int64_t extent = t->shape[d] - 1;
    const int64_t s = t->strides ? t->strides[d] : compact;
    compact *= t->shape[d];
    if (extent == 0 || s == 0)
      continue;
    const uint64_t m = magnitude(s);
    int64_t term = 0;
    if (m > uint64_t(INT64_MAX) || __builtin_mul_overflow(extent, int64_t(m), &term)) {
      r.dim = d;
      return false;
    }
    if (__builtin_add_overflow(r.total, term, &r.total))
      return false;
    // |low| + high == total, so neither overflows once total fits.
    if (s < 0)
      r.low -= term;
    else
      r.high += term;
  }
  return true;
}

/// The interval of bytes [lo, hi] a well-formed tensor with elements occupies, for element size
/// `bytes` (≥ 1). False when the reach, its byte size or an address overflows.
bool byte_range(const DLTensor *t, int64_t bytes, std::uintptr_t &lo, std::uintptr_t &hi) noexcept {
  Reach r;
  int64_t span = 0; // (reach + 1) · bytes
  int64_t reach_plus_one = 0;
  if (!element_reach(t, r) || __builtin_add_overflow(r.total, int64_t(1), &reach_plus_one) ||
      __builtin_mul_overflow(reach_plus_one, bytes, &span))
    return false;
  std::uintptr_t base = 0;
  if (__builtin_add_overflow(reinterpret_cast<std::uintptr_t>(t->data), t->byte_offset, &base))
    return false;
  // low·bytes and high·bytes are at most span, so they fit.
  const std::uintptr_t below = std::uintptr_t(-r.low) * std::uintptr_t(bytes);
  const std::uintptr_t above =
      std::uintptr_t(r.high) * std::uintptr_t(bytes) + std::uintptr_t(bytes - 1);
  return !__builtin_sub_overflow(base, below, &lo) && !__builtin_add_overflow(base, above, &hi);
}

/// Well-formed: not null, ndim ≥ 0, shape not null (when ndim > 0), no negative size, element
/// count fits in int64 (stored in `count`).
bool well_formed(const DLTensor *t, int64_t &count) noexcept {
  if (!t || t->ndim < 0 || (t->ndim > 0 && !t->shape))
    return false;
  for (int32_t d = 0; d < t->ndim; ++d)
    if (t->shape[d] < 0)
      return false;
  return checked_numel(t, count);
}

} // namespace

std::string exact_string(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

ntc_status_t check_offsets(const char *kernel, const DLTensor *offsets, const char *param,
                           const int64_t *host, int64_t rows, int64_t &longest) noexcept {
  try {
    longest = 0;
    const int64_t count = offsets->ndim == 1 ? offsets->shape[0] : 0;
    if (count < 1)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has no entry (it needs batch + 1 entries)");
    if (count > 1 && stride(offsets, 0) != 1)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has stride " +
                                                  std::to_string(stride(offsets, 0)) +
                                                  ", expected a contiguous tensor");
    if (host[0] < 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "starts at " + std::to_string(host[0]) + " < 0");
    for (int64_t i = 1; i < count; ++i) {
      if (host[i] < host[i - 1])
        return fail(NTC_ERROR_INVALID_ARGUMENT,
                    prefix(kernel, param) + "decreases at entry " + std::to_string(i) + " (" +
                        std::to_string(host[i]) + " after " + std::to_string(host[i - 1]) + ")");
      longest = std::max(longest, host[i] - host[i - 1]);
    }
    if (host[count - 1] > rows)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "ends at " + std::to_string(host[count - 1]) +
                      ", past the values' extent " + std::to_string(rows) +
                      " along the jagged dimension");
    return NTC_SUCCESS;
  } catch (...) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": cannot check '" + param + "'");
  }
}

ntc_status_t check_tensor(const char *kernel, const DLTensor *t, const char *param, int32_t ndim,
                          DLDataType dtype, DLDeviceType device) noexcept {
  try {
    if (!t)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "is a null pointer");
    if (t->ndim < 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has negative rank " + std::to_string(t->ndim));
    if (t->ndim > 0 && !t->shape)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has a null shape");
    for (int d = 0; d < t->ndim; ++d)
      if (t->shape[d] < 0)
        return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has negative size " +
                                                    std::to_string(t->shape[d]) + " in dimension " +
                                                    std::to_string(d));
    int64_t count = 0;
    if (!checked_numel(t, count))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has shape " +
                                                  shape_string(t) +
                                                  ", whose element count exceeds INT64_MAX");
    if (!t->data && count != 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) +
                                                  "has a null data pointer but " +
                                                  std::to_string(count) + " elements");
    if (t->ndim != ndim)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has rank " +
                                                  std::to_string(t->ndim) + ", expected " +
                                                  std::to_string(ndim));
    if (!same_dtype(t->dtype, dtype))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has dtype " +
                                                  dtype_string(t->dtype) + ", expected " +
                                                  dtype_string(dtype));
    const int32_t actual = device_type_of(t);
    const int32_t expected = static_cast<int32_t>(device);
    const bool device_ok =
        actual == expected || (expected == int32_t(kDLCUDA) && actual == int32_t(kDLCUDAManaged));
    if (!device_ok)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "is " +
                                                  device_phrase(actual) + ", expected " +
                                                  device_phrase(expected));
    const auto data = reinterpret_cast<std::uintptr_t>(t->data);
    std::uintptr_t address = 0;
    if (t->byte_offset > uint64_t(INT64_MAX))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has byte_offset " +
                                                  std::to_string(t->byte_offset) +
                                                  ", which exceeds INT64_MAX");
    if (__builtin_add_overflow(data, t->byte_offset, &address))
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has byte_offset " + std::to_string(t->byte_offset) +
                      ", which overflows its data pointer " + hex(data));
    // The expected dtype is one of ntc's element types, so bytes ≥ 1 below; stay defensive.
    const int64_t bytes = std::max<int64_t>(element_bytes(dtype), 1);
    if (t->byte_offset % uint64_t(bytes) != 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has byte_offset " + std::to_string(t->byte_offset) +
                      ", which is not a multiple of its element size " + std::to_string(bytes));
    if (const uint64_t misalignment = address % uint64_t(bytes); misalignment != 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has address " + hex(address) +
                      " (data + byte_offset), which is misaligned by " +
                      std::to_string(misalignment) + (misalignment == 1 ? " byte" : " bytes") +
                      " for its element size " + std::to_string(bytes));
    int64_t size_bytes = 0;
    if (__builtin_mul_overflow(count, bytes, &size_bytes))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has shape " +
                                                  shape_string(t) + " of " + std::to_string(count) +
                                                  " elements of " + std::to_string(bytes) +
                                                  " bytes, whose byte size exceeds INT64_MAX");
    if (count == 0)
      return NTC_SUCCESS; // no elements: strides and addresses are never used
    Reach r;
    if (!element_reach(t, r)) {
      if (r.dim >= 0)
        return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has stride " +
                                                    std::to_string(stride(t, r.dim)) +
                                                    " in dimension " + std::to_string(r.dim) +
                                                    " of size " + std::to_string(t->shape[r.dim]) +
                                                    ", so (size - 1) * |stride| overflows int64");
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has shape " + shape_string(t) + " and strides " +
                      strides_string(t) +
                      ", whose reach (the sum of (size - 1) * |stride|) overflows int64");
    }
    int64_t span = 0, reach_plus_one = 0;
    if (__builtin_add_overflow(r.total, int64_t(1), &reach_plus_one) ||
        __builtin_mul_overflow(reach_plus_one, bytes, &span))
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has shape " + shape_string(t) + " and strides " +
                      strides_string(t) + ", whose reach of " + std::to_string(r.total) +
                      " elements of " + std::to_string(bytes) + " bytes overflows int64");
    const std::uintptr_t below = std::uintptr_t(-r.low) * std::uintptr_t(bytes);
    if (below > address)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "reaches " +
                                                  std::to_string(below) +
                                                  " bytes below its address " + hex(address) +
                                                  " (negative strides), past address 0");
    const std::uintptr_t above =
        std::uintptr_t(r.high) * std::uintptr_t(bytes) + std::uintptr_t(bytes - 1);
    std::uintptr_t last = 0;
    if (__builtin_add_overflow(address, above, &last))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "reaches " +
                                                  std::to_string(above) +
                                                  " bytes above its address " + hex(address) +
                                                  ", past the end of the address space");
    return NTC_SUCCESS;
  } catch (...) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": out of memory during validation");
  }
}

ntc_status_t check_no_overlap(const char *kernel, const DLTensor *written, const char *written_name,
                              const DLTensor *other, const char *other_name,
                              bool allow_identical) noexcept {
  try {
    if (!written)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, written_name) + "is a null pointer");
    if (!other)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, other_name) + "is a null pointer");
    int64_t written_count = 0, other_count = 0;
    if (!well_formed(written, written_count))
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, written_name) + "has a malformed shape (check it first)");
    if (!well_formed(other, other_count))
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, other_name) + "has a malformed shape (check it first)");
    if (written_count == 0 || other_count == 0)
      return NTC_SUCCESS;
    if (device_type_of(written) != device_type_of(other) ||
        written->device.device_id != other->device.device_id)
      return NTC_SUCCESS;
    const auto address = [](const DLTensor *t) {
      return reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset; // wraps, never UB
    };
    if (allow_identical && address(written) == address(other) &&
        same_dtype(written->dtype, other->dtype) && written->ndim == other->ndim) {
      bool identical = true;
      for (int32_t d = 0; d < written->ndim && identical; ++d)
        identical = written->shape[d] == other->shape[d] &&
                    (written->shape[d] == 1 || stride(written, d) == stride(other, d));
      if (identical)
        return NTC_SUCCESS;
    }
    std::uintptr_t written_lo = 0, written_hi = 0, other_lo = 0, other_hi = 0;
    if (!byte_range(written, std::max<int64_t>(element_bytes(written->dtype), 1), written_lo,
                    written_hi))
      return fail(
          NTC_ERROR_INVALID_ARGUMENT,
          prefix(kernel, written_name) +
              "has a byte range that overflows int64 or the address space (check it first)");
    if (!byte_range(other, std::max<int64_t>(element_bytes(other->dtype), 1), other_lo, other_hi))
      return fail(
          NTC_ERROR_INVALID_ARGUMENT,
          prefix(kernel, other_name) +
              "has a byte range that overflows int64 or the address space (check it first)");
    if (written_hi < other_lo || other_hi < written_lo)
      return NTC_SUCCESS;
    return fail(NTC_ERROR_INVALID_ARGUMENT,
                prefix(kernel, written_name) + "(bytes [" + hex(written_lo) + ", " +
                    hex(written_hi) + "]) overlaps parameter '" + other_name + "' (bytes [" +
                    hex(other_lo) + ", " + hex(other_hi) + "])" +
                    (allow_identical ? "; an output may only alias another parameter exactly "
                                       "(same address, dtype, shape and strides)"
                                     : "; an output must not share memory with another parameter"));
  } catch (...) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": out of memory during validation");
  }
}

ntc_status_t check_same_device(const char *kernel, const DLTensor *a, const char *a_name,
                               const DLTensor *b, const char *b_name) noexcept {
  try {
    if (!a)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, a_name) + "is a null pointer");
    if (!b)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, b_name) + "is a null pointer");
    const int32_t a_type = device_type_of(a), b_type = device_type_of(b);
    if (a->device.device_id == b->device.device_id ||
        (a_type == int32_t(kDLCPU) && b_type == int32_t(kDLCPU)))
      return NTC_SUCCESS;
    return fail(NTC_ERROR_INVALID_ARGUMENT,
                prefix(kernel, a_name) + "is on " + device_name(a_type) + " device " +
                    std::to_string(a->device.device_id) + " but parameter '" + b_name + "' is on " +
                    device_name(b_type) + " device " + std::to_string(b->device.device_id));
  } catch (...) {
    return fail(NTC_ERROR_INTERNAL, std::string(kernel) + ": out of memory during validation");
  }
}

ntc_status_t check_equal(const char *kernel, const char *what_a, int64_t a, const char *what_b,
                         int64_t b) noexcept {
  if (a == b)
    return NTC_SUCCESS;
  try {
    return fail(NTC_ERROR_INVALID_ARGUMENT, std::string(kernel) + ": size mismatch: " + what_a +
                                                " is " + std::to_string(a) + " but " + what_b +
                                                " is " + std::to_string(b));
  } catch (...) {
    return fail(NTC_ERROR_INVALID_ARGUMENT, "");
  }
}

bool is_contiguous(const DLTensor *t) noexcept {
  if (!t->strides)
    return true;
  int64_t expected = 1;
  for (int d = t->ndim - 1; d >= 0; --d) {
    if (t->shape[d] == 0)
      return true; // no elements: any strides describe the same (empty) tensor
    if (t->shape[d] != 1 && t->strides[d] != expected)
      return false;
    expected *= t->shape[d];
  }
  return true;
}

bool is_aligned(const DLTensor *t, std::size_t bytes) noexcept {
  auto address = reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset;
  return address % bytes == 0;
}

bool vector_ready(const DLTensor *t, int dim, int width) noexcept {
  if (dim < 0 || dim >= t->ndim || stride(t, dim) != 1)
    return false;
  for (int d = 0; d < t->ndim; ++d)
    if (d != dim && stride(t, d) % width != 0)
      return false;
  return is_aligned(t, static_cast<std::size_t>(width) * element_bytes(t->dtype));
}

bool index_fits_int32(const DLTensor *t) noexcept { return index_fits_int32(t, 0); }

bool index_fits_int32(const DLTensor *t, int64_t headroom) noexcept {
  if (headroom < 0 || headroom >= int64_t(std::numeric_limits<int32_t>::max()))
    return false;
  const uint64_t limit = uint64_t(std::numeric_limits<int32_t>::max()) - uint64_t(headroom);
  if (!t || t->ndim < 0 || (t->ndim > 0 && !t->shape))
    return false;
  uint64_t reach = 0;
  uint64_t compact = 1; // the compact stride of dimension d, saturated at limit + 1
  for (int32_t d = t->ndim - 1; d >= 0; --d) {
    const int64_t n = t->shape[d];
    if (n < 0 || uint64_t(n) > limit)
      return false; // a size the int32 program would truncate (even with stride 0 or no elements)
    const uint64_t m = t->strides ? magnitude(t->strides[d]) : compact;
    compact = std::min(compact * uint64_t(n), limit + 1); // ≤ 2^31 · (2^31 − 1): no overflow
    if (m > limit)
      return false; // a stride the int32 program would truncate
    if (n > 1) {
      reach += uint64_t(n - 1) * m; // each term < 2^62 and reach ≤ limit before: no overflow
      if (reach > limit)
        return false;
    }
  }
  return true;
}

} // namespace ntc::rt
