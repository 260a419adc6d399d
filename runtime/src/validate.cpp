// DLPack argument validation for generated kernel wrappers.
#include <ntc/rt/validate.hpp>

#include <cstdint>
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

} // namespace

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
    if (!t->data && numel(t) != 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) +
                                                  "has a null data pointer but " +
                                                  std::to_string(numel(t)) + " elements");
    if (t->ndim != ndim)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has rank " +
                                                  std::to_string(t->ndim) + ", expected " +
                                                  std::to_string(ndim));
    if (!same_dtype(t->dtype, dtype))
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "has dtype " +
                                                  dtype_string(t->dtype) + ", expected " +
                                                  dtype_string(dtype));
    int32_t actual = t->device.device_type;
    bool device_ok =
        actual == int32_t(device) || (device == kDLCUDA && actual == int32_t(kDLCUDAManaged));
    if (!device_ok)
      return fail(NTC_ERROR_INVALID_ARGUMENT, prefix(kernel, param) + "is " +
                                                  device_phrase(actual) + ", expected " +
                                                  device_phrase(device));
    int64_t bytes = element_bytes(dtype);
    if (bytes > 0 && t->byte_offset % uint64_t(bytes) != 0)
      return fail(NTC_ERROR_INVALID_ARGUMENT,
                  prefix(kernel, param) + "has byte_offset " + std::to_string(t->byte_offset) +
                      ", which is not a multiple of its element size " + std::to_string(bytes));
    return NTC_SUCCESS;
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

bool index_fits_int32(const DLTensor *t) noexcept {
  constexpr int64_t limit = std::numeric_limits<int32_t>::max();
  for (int d = 0; d < t->ndim; ++d)
    if (t->shape[d] == 0)
      return true;
  int64_t reach = 0;
  for (int d = 0; d < t->ndim; ++d) {
    int64_t extent = t->shape[d] - 1;
    int64_t s = stride(t, d);
    // |s| without overflow for INT64_MIN: anything above the limit fails anyway.
    uint64_t magnitude = s < 0 ? uint64_t(0) - uint64_t(s) : uint64_t(s);
    if (extent == 0 || magnitude == 0)
      continue;
    if (magnitude > uint64_t(limit) || uint64_t(extent) > uint64_t(limit) / magnitude)
      return false;
    reach += extent * int64_t(magnitude);
    if (reach > limit)
      return false;
  }
  return true;
}

} // namespace ntc::rt
