//===- ntc/rt/tensor_map.hpp - TMA descriptions of DLPack tensors ---------===//
//
// Hopper's tensor memory accelerator (TMA) copies a box of a tensor between global and shared
// memory from a 128-byte tensor map that the host encodes (cuTensorMapEncodeTiled) and passes
// to the kernel. This header is the host side that does not need CUDA:
//   * describe_tma: the encoder's arguments for a DLPack tensor read in boxes of a given shape,
//     or why TMA cannot describe it (a base not 16-byte aligned, a row stride not a multiple
//     of 16 bytes, a non-contiguous innermost dimension, ...): the dispatcher then takes the
//     path without TMA, as it does for the vector variants;
//   * tma_map_cache: encoded maps kept per request, so that a steady-state launch on the same
//     tensors does not call the driver. The encoder is a callable, so tests pass a fake; the
//     CUDA one is ntc/rt/tensor_map_driver.hpp.
// TMA numbers dimensions innermost first; a request holds them in that order.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_RT_TENSOR_MAP_HPP
#define NTC_RT_TENSOR_MAP_HPP

#include <ntc/runtime.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>

namespace ntc::rt {

/// True when a device of compute capability major.minor runs the programs with TMA copies that
/// ntc generates (their code is sm_90a's: compute capability 9.0 exactly) and the environment
/// variable NTC_NO_TMA (`no_tma`, null when unset) does not turn them off: any value but "" and
/// "0" makes the dispatchers take the programs without TMA, as on sm_80.
inline bool tma_runs_on(int major, int minor, const char *no_tma) {
  const bool off = no_tma && no_tma[0] != '\0' && !(no_tma[0] == '0' && no_tma[1] == '\0');
  return major == 9 && minor == 0 && !off;
}

/// Element types of a tensor map, numbered as the driver's CUtensorMapDataType.
enum class tma_type : uint32_t {
  uint8 = 0,
  uint16 = 1,
  uint32 = 2,
  int32 = 3,
  uint64 = 4,
  int64 = 5,
  float16 = 6,
  float32 = 7,
  float64 = 8,
  bfloat16 = 9,
};

/// Swizzle of the box in shared memory, numbered as the driver's CUtensorMapSwizzle: 16-byte
/// chunks permuted within spans of 32, 64 or 128 bytes (the Swizzled<RowBytes> shared layout
/// of the device library, which wgmma reads).
enum class tma_swizzle : uint32_t { none = 0, span32 = 1, span64 = 2, span128 = 3 };

/// Whether describe_tma could describe a tensor and box, and if not, what stood in the way.
enum class tma_check {
  ok,             ///< described
  rank,           ///< not 1 to 5 dimensions
  dtype,          ///< an element type TMA does not move (vector lanes, sub-byte widths)
  base_alignment, ///< data + byte_offset is not a multiple of 16 bytes
  size,           ///< a dimension of size 0 or above 2^32
  inner_stride,   ///< the innermost dimension is not contiguous
  stride,         ///< an outer stride not a positive multiple of 16 bytes below 2^40
  box,            ///< a box dimension not 1 to 256
  box_bytes,      ///< the box's innermost extent is not a multiple of 16 bytes, or exceeds the
                  ///< swizzle's span
};

/// A short English explanation of a tma_check ("" for ok).
inline const char *tma_check_message(tma_check c) {
  switch (c) {
  case tma_check::ok:
    return "";
  case tma_check::rank:
    return "TMA describes 1 to 5 dimensions";
  case tma_check::dtype:
    return "TMA does not move this element type";
  case tma_check::base_alignment:
    return "the data pointer is not 16-byte aligned";
  case tma_check::size:
    return "a dimension is empty or larger than 2^32";
  case tma_check::inner_stride:
    return "the innermost dimension is not contiguous";
  case tma_check::stride:
    return "a stride is not a positive multiple of 16 bytes below 2^40";
  case tma_check::box:
    return "a box dimension is not between 1 and 256";
  case tma_check::box_bytes:
    return "the box's rows are not a multiple of 16 bytes or exceed the swizzle span";
  }
  return "";
}

/// Everything cuTensorMapEncodeTiled takes (no interleave, L2 promotion and out-of-bounds fill
/// chosen by the encoder), dimensions innermost first. Equal requests encode equal maps.
struct tma_request {
  const void *base = nullptr;
  tma_type type = tma_type::uint8;
  uint32_t rank = 0;
  uint64_t sizes[5] = {};        ///< elements per dimension
  uint64_t byte_strides[4] = {}; ///< bytes between consecutive indices of dimensions 1 … rank-1
  uint32_t box[5] = {};          ///< elements per dimension of the box
  tma_swizzle swizzle = tma_swizzle::none;

  /// Field-by-field equality (the cache's key).
  friend bool operator==(const tma_request &a, const tma_request &b) {
    if (a.base != b.base || a.type != b.type || a.rank != b.rank || a.swizzle != b.swizzle)
      return false;
    for (uint32_t d = 0; d < a.rank; ++d)
      if (a.sizes[d] != b.sizes[d] || a.box[d] != b.box[d] ||
          (d > 0 && a.byte_strides[d - 1] != b.byte_strides[d - 1]))
        return false;
    return true;
  }
};

/// An encoded tensor map: 128 opaque bytes, 64-byte aligned (the driver's CUtensorMap).
struct alignas(64) tma_map {
  unsigned char bytes[128] = {};
};

namespace detail {

/// The tensor-map type of a DLPack element type; false for those TMA cannot move.
inline bool tma_type_of(DLDataType t, tma_type &out) {
  if (t.lanes != 1)
    return false;
  const bool is_float = t.code == kDLFloat;
  switch (t.bits) {
  case 8:
    out = tma_type::uint8; // int8, uint8, bool, float8: bytes moved as they are
    return true;
  case 16:
    out = t.code == kDLBfloat ? tma_type::bfloat16
          : is_float          ? tma_type::float16
                              : tma_type::uint16;
    return true;
  case 32:
    out = is_float ? tma_type::float32 : t.code == kDLInt ? tma_type::int32 : tma_type::uint32;
    return true;
  case 64:
    out = is_float ? tma_type::float64 : t.code == kDLInt ? tma_type::int64 : tma_type::uint64;
    return true;
  default:
    return false;
  }
}

} // namespace detail

/// Fills `out` with the request that reads tensor `x` in boxes of box[0 … ndim-1] elements
/// (one per dimension of x, outermost first as x's own shape) with `swizzle`, when TMA can
/// describe them; otherwise returns what prevents it and leaves `out` unspecified. A
/// dimension of size 1 may have any stride (as DLPack allows): it is given one TMA accepts.
inline tma_check describe_tma(const DLTensor &x, const int64_t *box, tma_swizzle swizzle,
                              tma_request &out) {
  if (x.ndim < 1 || x.ndim > 5)
    return tma_check::rank;
  const uint32_t rank = static_cast<uint32_t>(x.ndim);
  tma_type type{};
  if (!detail::tma_type_of(x.dtype, type))
    return tma_check::dtype;
  const uint64_t element = x.dtype.bits / 8;
  const char *base = static_cast<const char *>(x.data) + x.byte_offset;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0)
    return tma_check::base_alignment;
  out = tma_request{};
  out.base = base;
  out.type = type;
  out.rank = rank;
  out.swizzle = swizzle;
  // Walk from the innermost dimension out: TMA dimension d is x's dimension rank - 1 - d.
  // Byte counts saturate at 2^40, the strides' limit, so that no product overflows.
  constexpr uint64_t limit = uint64_t{1} << 40;
  auto product = [](uint64_t a, uint64_t b) { return a >= limit / b ? limit : a * b; };
  uint64_t compact = 1; // x's stride in elements if it were contiguous from here in
  uint64_t extent = 0;  // bytes spanned by the dimensions inside the current one
  for (uint32_t d = 0; d < rank; ++d) {
    const int i = x.ndim - 1 - static_cast<int>(d);
    const int64_t size = x.shape[i];
    if (size < 1 || static_cast<uint64_t>(size) > (uint64_t{1} << 32))
      return tma_check::size;
    const int64_t stride = x.strides ? x.strides[i] : static_cast<int64_t>(compact);
    if (d == 0) {
      if (size > 1 && stride != 1)
        return tma_check::inner_stride;
    } else {
      uint64_t bytes;
      if (size == 1) // never stepped: any stride TMA accepts
        bytes = std::min(limit - 16, std::max<uint64_t>(16, (extent + 15) / 16 * 16));
      else if (stride <= 0)
        return tma_check::stride;
      else
        bytes = product(static_cast<uint64_t>(stride), element);
      if (bytes % 16 != 0 || bytes >= limit)
        return tma_check::stride;
      out.byte_strides[d - 1] = bytes;
    }
    out.sizes[d] = static_cast<uint64_t>(size);
    extent = d == 0
                 ? product(static_cast<uint64_t>(size), element)
                 : std::max(extent, product(static_cast<uint64_t>(size), out.byte_strides[d - 1]));
    compact = product(compact, static_cast<uint64_t>(size));
    if (box[i] < 1 || box[i] > 256)
      return tma_check::box;
    out.box[d] = static_cast<uint32_t>(box[i]);
  }
  const uint64_t row = out.box[0] * element;
  const uint64_t span =
      swizzle == tma_swizzle::none ? 0 : uint64_t{16} << static_cast<int>(swizzle);
  if (row % 16 != 0 || (span != 0 && row > span))
    return tma_check::box_bytes;
  return tma_check::ok;
}

/// Encoded maps kept per request (the last Capacity distinct requests, the oldest replaced
/// first), so that repeated launches on the same tensors encode each map once. `Encode` is
/// callable as `bool(const tma_request &, tma_map &)`; a failed (or throwing) encoding is not
/// kept. Safe to call from several threads.
template <class Encode, int Capacity = 32> class tma_map_cache {
  static_assert(Capacity > 0, "ntc::rt::tma_map_cache: at least one entry");

public:
  /// Stores the encoder; encodes nothing yet.
  explicit tma_map_cache(Encode encode) : encode_(std::move(encode)) {}

  /// Copies the map of `request` into `map`, encoding it on a miss; false when the encoder
  /// fails.
  bool get(const tma_request &request, tma_map &map) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int e = 0; e < used_; ++e)
      if (entries_[e].request == request) {
        map = entries_[e].map;
        return true;
      }
    tma_map fresh;
    bool ok = false;
    try {
      ok = static_cast<bool>(encode_(request, fresh));
    } catch (...) {
      ok = false;
    }
    if (!ok)
      return false;
    Entry &slot = entries_[next_];
    slot.request = request;
    slot.map = fresh;
    next_ = (next_ + 1) % Capacity;
    used_ = used_ < Capacity ? used_ + 1 : Capacity;
    map = fresh;
    return true;
  }

  /// Number of maps held (at most Capacity).
  int size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return used_;
  }

private:
  struct Entry {
    tma_request request;
    tma_map map;
  };
  Encode encode_;
  mutable std::mutex mutex_;
  Entry entries_[Capacity];
  int used_ = 0;
  int next_ = 0;
};

} // namespace ntc::rt

#endif // NTC_RT_TENSOR_MAP_HPP
