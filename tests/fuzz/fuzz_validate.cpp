//===- fuzz_validate.cpp - DLPack validation of the runtime ----------------===//
//
// Decodes the input into two DLTensor descriptors (rank -3..6, sizes and strides among small,
// huge and negative values, null or explicit shape and strides, byte_offset, data pointers
// that are null, misaligned or near the end of the address space, any dtype and device) and
// calls what generated wrappers call: ntc::rt::check_tensor, index_fits_int32 (with and
// without headroom), check_no_overlap, check_same_device and vector_ready. None may crash or
// trip UBSan, and each answer is compared with a model written here in 128-bit arithmetic from
// the contracts in <ntc/rt/validate.hpp>:
//   * check_tensor accepts exactly the tensors its comment describes; after acceptance numel(),
//     stride() and data() are exact, the reach and (reach + 1) · element size fit int64, and
//     every byte the tensor reaches lies inside the address space;
//   * index_fits_int32 holds exactly when every size, every |stride| and the reach fit in
//     INT32_MAX - headroom;
//   * check_no_overlap rejects two accepted tensors exactly when their byte ranges intersect
//     (and they are not an allowed exact alias); check_same_device compares device ids unless
//     both tensors are on the CPU; vector_ready holds exactly under its three conditions.
//
//===----------------------------------------------------------------------===//
#include <ntc/rt/validate.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace {

using i128 = __int128;
using u128 = unsigned __int128;
constexpr i128 kInt64Max = std::numeric_limits<int64_t>::max();
constexpr i128 kUintptrMax = i128(std::numeric_limits<std::uintptr_t>::max());

std::string trace; // the decoded tensors, printed on a failure

[[noreturn]] void violated(const char *what, int line) {
  std::fprintf(stderr, "fuzz_validate: invariant violated (line %d): %s\n%s", line, what,
               trace.c_str());
  std::abort();
}
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      violated(#cond, __LINE__);                                                                   \
  } while (0)

/// A descriptor with room for its own shape and strides.
struct Tensor {
  DLTensor t{};
  int64_t shape[8]{};
  int64_t strides[8]{};
};

int64_t interestingInt64(FuzzedDataProvider &in) {
  // clang-format off
  static constexpr int64_t kSpecial[] = {
      0, 1, 2, 3, 4, 7, 8, 16, -1, -2, -8, int64_t(1) << 31, (int64_t(1) << 31) - 1,
      (int64_t(1) << 31) + 1, (int64_t(1) << 31) - (int64_t(1) << 24), int64_t(1) << 32,
      int64_t(1) << 62, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
      std::numeric_limits<int64_t>::max() / 2, std::numeric_limits<int64_t>::min() + 1,
      -(int64_t(1) << 31), int64_t(3) << 40};
  // clang-format on
  switch (in.ConsumeIntegralInRange(0, 3)) {
  case 0:
    return in.ConsumeIntegralInRange<int64_t>(-3, 12);
  case 1:
    return in.PickValueInArray(kSpecial);
  case 2: {
    int shift = in.ConsumeIntegralInRange(0, 62);
    return (int64_t(1) << shift) + in.ConsumeIntegralInRange<int64_t>(-2, 2);
  }
  default:
    return in.ConsumeIntegral<int64_t>();
  }
}

std::uintptr_t interestingPointer(FuzzedDataProvider &in) {
  // clang-format off
  static constexpr std::uintptr_t kSpecial[] = {0, 1, 2, 4, 8, 16, 0x1000, 0x1001, 0x7fff0000,
                                                std::uintptr_t(-1), std::uintptr_t(-16),
                                                std::uintptr_t(-4096), std::uintptr_t(1) << 63};
  // clang-format on
  if (in.ConsumeBool())
    return in.PickValueInArray(kSpecial) + in.ConsumeIntegralInRange<std::uintptr_t>(0, 3);
  return in.ConsumeIntegral<std::uintptr_t>();
}

// clang-format off
constexpr DLDataType kNtcTypes[] = {
    ntc::rt::dtypes::float16, ntc::rt::dtypes::bfloat16,   ntc::rt::dtypes::float32,
    ntc::rt::dtypes::float64, ntc::rt::dtypes::int8,       ntc::rt::dtypes::int16,
    ntc::rt::dtypes::int32,   ntc::rt::dtypes::int64,      ntc::rt::dtypes::uint8,
    ntc::rt::dtypes::uint16,  ntc::rt::dtypes::uint32,     ntc::rt::dtypes::uint64,
    ntc::rt::dtypes::bool_,   ntc::rt::dtypes::float8_e4m3, ntc::rt::dtypes::float8_e5m2};
// clang-format on

/// What a kernel expects of one parameter.
struct Expected {
  int32_t ndim;
  DLDataType dtype;
  DLDeviceType device;
};

void decodeTensor(FuzzedDataProvider &in, Tensor &x, const Expected &want) {
  DLTensor &t = x.t;
  // Most inputs match the expectations, so that the deeper checks are reached.
  const bool matchRank = in.ConsumeIntegralInRange(0, 7) != 0;
  t.ndim = matchRank ? want.ndim : in.ConsumeIntegralInRange<int32_t>(-3, 6);
  const int rank = t.ndim > 0 ? t.ndim : 0;
  for (int d = 0; d < rank; ++d)
    x.shape[d] = in.ConsumeIntegralInRange(0, 3) != 0 ? in.ConsumeIntegralInRange<int64_t>(0, 9)
                                                      : interestingInt64(in);
  t.shape = (rank > 0 && in.ConsumeIntegralInRange(0, 15) == 0) ? nullptr : x.shape;
  if (t.ndim <= 0 && in.ConsumeBool())
    t.shape = nullptr;
  if (in.ConsumeBool()) {
    for (int d = 0; d < rank; ++d)
      x.strides[d] =
          in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-4, 40) : interestingInt64(in);
    t.strides = x.strides;
  }
  t.byte_offset = in.ConsumeBool() ? uint64_t(in.ConsumeIntegralInRange(0, 8)) * 4
                                   : uint64_t(interestingInt64(in));
  t.data = reinterpret_cast<void *>(in.ConsumeBool() ? std::uintptr_t(0x10000) * 64
                                                     : interestingPointer(in));
  if (in.ConsumeIntegralInRange(0, 7) != 0) {
    t.dtype = want.dtype;
  } else {
    t.dtype.code = in.ConsumeIntegral<uint8_t>();
    t.dtype.bits = in.ConsumeIntegral<uint8_t>();
    t.dtype.lanes = in.ConsumeIntegral<uint16_t>();
  }
  int32_t deviceType = in.ConsumeIntegralInRange(0, 7) != 0
                           ? int32_t(want.device)
                           : in.PickValueInArray<int32_t>(
                                 {1, 2, 3, 13, 0, -5, 99, std::numeric_limits<int32_t>::min()});
  std::memcpy(&t.device.device_type, &deviceType, sizeof deviceType); // any 32-bit value
  t.device.device_id =
      in.ConsumeBool() ? in.ConsumeIntegralInRange(0, 1) : in.ConsumeIntegral<int32_t>();
}

int32_t deviceTypeOf(const DLTensor &t) {
  int32_t v;
  std::memcpy(&v, &t.device.device_type, sizeof v);
  return v;
}

std::string show(const char *name, const DLTensor *t) {
  if (!t)
    return std::string(name) + ": null\n";
  std::string s = std::string(name) + ": ndim " + std::to_string(t->ndim) + " shape ";
  auto list = [&](const int64_t *v) {
    if (!v)
      return std::string("null");
    std::string l = "[";
    for (int d = 0; d < t->ndim; ++d)
      l += (d ? ", " : "") + std::to_string(v[d]);
    return l + "]";
  };
  char address[64];
  std::snprintf(address, sizeof address, "%#llx",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(t->data)));
  return s + list(t->shape) + " strides " + list(t->strides) + " data " + address +
         " byte_offset " + std::to_string(t->byte_offset) + " dtype (" +
         std::to_string(t->dtype.code) + ", " + std::to_string(t->dtype.bits) + ", " +
         std::to_string(t->dtype.lanes) + ") device (" + std::to_string(deviceTypeOf(*t)) + ", " +
         std::to_string(t->device.device_id) + ")\n";
}

/// Product of the sizes, saturated at 2^64 (exact below); requires sizes >= 0.
u128 product(const int64_t *sizes, int from, int to) {
  u128 p = 1;
  for (int d = from; d < to; ++d) {
    if (sizes[d] == 0)
      return 0;
    p = p * u128(sizes[d]);
    if (p > (u128(1) << 64))
      p = u128(1) << 64;
  }
  return p;
}

/// rt::stride()'s documented value for a well-formed shape: explicit, or the compact stride
/// (the product of the later sizes, saturated at INT64_MAX).
i128 modelStride(const DLTensor &t, int d) {
  if (t.strides)
    return t.strides[d];
  u128 p = product(t.shape, d + 1, t.ndim);
  return p > u128(kInt64Max) ? kInt64Max : i128(p);
}

i128 magnitude(i128 v) { return v < 0 ? -v : v; }

bool wellFormed(const DLTensor *t) {
  if (!t || t->ndim < 0 || (t->ndim > 0 && !t->shape))
    return false;
  for (int d = 0; d < t->ndim; ++d)
    if (t->shape[d] < 0)
      return false;
  return product(t->shape, 0, t->ndim) <= u128(kInt64Max);
}

int64_t elementBytes(DLDataType dtype) {
  int64_t b = (int64_t(dtype.bits) * dtype.lanes + 7) / 8;
  return b < 1 ? 1 : b;
}

/// Reach of a well-formed tensor with elements: lowest and highest element offsets and their
/// distance, exact (each term is at most 2^63 · 2^63, six of them fit in 130 bits... so stop
/// early once a bound is exceeded).
struct Reach {
  i128 low = 0, high = 0, total = 0;
  bool fits = true; ///< every term and the total fit int64
};
Reach modelReach(const DLTensor &t) {
  Reach r;
  for (int d = 0; d < t.ndim; ++d) {
    i128 extent = i128(t.shape[d]) - 1;
    i128 term = extent * magnitude(modelStride(t, d));
    if (term > kInt64Max) {
      r.fits = false;
      return r;
    }
    r.total += term;
    (modelStride(t, d) < 0 ? r.low : r.high) += modelStride(t, d) < 0 ? -term : term;
  }
  r.fits = r.total <= kInt64Max;
  return r;
}

/// check_tensor's documented acceptance.
bool modelAccepts(const DLTensor *t, const Expected &want) {
  if (!wellFormed(t))
    return false;
  const u128 count = product(t->shape, 0, t->ndim);
  if (!t->data && count != 0)
    return false;
  if (t->ndim != want.ndim || !ntc::rt::same_dtype(t->dtype, want.dtype))
    return false;
  const int32_t actual = deviceTypeOf(*t);
  if (actual != int32_t(want.device) &&
      !(want.device == kDLCUDA && actual == int32_t(kDLCUDAManaged)))
    return false;
  const i128 data = i128(reinterpret_cast<std::uintptr_t>(t->data));
  if (t->byte_offset > uint64_t(kInt64Max) || data + i128(t->byte_offset) > kUintptrMax)
    return false;
  const i128 address = data + i128(t->byte_offset);
  const int64_t bytes = elementBytes(want.dtype);
  if (t->byte_offset % uint64_t(bytes) != 0 || address % bytes != 0)
    return false;
  if (i128(count) * bytes > kInt64Max)
    return false;
  if (count == 0)
    return true;
  Reach r = modelReach(*t);
  if (!r.fits || (r.total + 1) * bytes > kInt64Max)
    return false;
  return address + r.low * bytes >= 0 && address + r.high * bytes + bytes - 1 <= kUintptrMax;
}

/// index_fits_int32's documented answer.
bool modelFitsInt32(const DLTensor *t, int64_t headroom) {
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  if (headroom < 0 || headroom >= kInt32Max)
    return false;
  const i128 limit = kInt32Max - headroom;
  if (!t || t->ndim < 0 || (t->ndim > 0 && !t->shape))
    return false;
  for (int d = 0; d < t->ndim; ++d)
    if (t->shape[d] < 0 || t->shape[d] > limit)
      return false;
  i128 reach = 0;
  for (int d = 0; d < t->ndim; ++d) {
    i128 m = magnitude(modelStride(*t, d));
    if (m > limit)
      return false;
    if (t->shape[d] > 1)
      reach += (i128(t->shape[d]) - 1) * m; // < 2^62 per term
  }
  return reach <= limit;
}

/// Byte interval [lo, hi] of an accepted tensor with elements.
void byteRange(const DLTensor &t, i128 &lo, i128 &hi) {
  const int64_t bytes = elementBytes(t.dtype);
  const i128 address = i128(reinterpret_cast<std::uintptr_t>(t.data)) + i128(t.byte_offset);
  Reach r = modelReach(t);
  lo = address + r.low * bytes;
  hi = address + r.high * bytes + bytes - 1;
}

void checkAccepted(const DLTensor &t, const Expected &want) {
  const u128 count = product(t.shape, 0, t.ndim);
  EXPECT(i128(ntc::rt::numel(&t)) == i128(count));
  char *p = ntc::rt::data<char>(&t); // data + byte_offset, never past the address space
  EXPECT(!t.data || reinterpret_cast<std::uintptr_t>(p) ==
                        reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset);
  if (count == 0)
    return;
  for (int d = 0; d < t.ndim; ++d) {
    EXPECT(i128(ntc::rt::stride(&t, d)) == modelStride(t, d));
    EXPECT(ntc::rt::size(&t, d) == t.shape[d]);
    EXPECT(ntc::rt::stride(&t, d - t.ndim) == ntc::rt::stride(&t, d));
  }
  Reach r = modelReach(t);
  EXPECT(r.fits && (r.total + 1) * elementBytes(want.dtype) <= kInt64Max);
  i128 lo, hi;
  byteRange(t, lo, hi);
  EXPECT(lo >= 0 && hi <= kUintptrMax);
  for (int64_t headroom : {int64_t(0), ntc::rt::kIndexHeadroom})
    if (ntc::rt::index_fits_int32(&t, headroom)) {
      EXPECT(r.total <= std::numeric_limits<int32_t>::max());
      for (int d = 0; d < t.ndim; ++d)
        EXPECT(t.shape[d] <= std::numeric_limits<int32_t>::max() &&
               magnitude(modelStride(t, d)) <= std::numeric_limits<int32_t>::max());
    }
}

/// Exact aliases that check_no_overlap(allow_identical = true) lets through.
bool identical(const DLTensor &a, const DLTensor &b) {
  const auto address = [](const DLTensor &t) {
    return reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset;
  };
  if (address(a) != address(b) || !ntc::rt::same_dtype(a.dtype, b.dtype) || a.ndim != b.ndim)
    return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.shape[d] != b.shape[d] || (a.shape[d] != 1 && modelStride(a, d) != modelStride(b, d)))
      return false;
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  Expected want{in.ConsumeIntegralInRange<int32_t>(0, 6), in.PickValueInArray(kNtcTypes),
                in.ConsumeBool() ? kDLCPU : kDLCUDA};
  Tensor a, b;
  decodeTensor(in, a, want);
  // The second tensor: often a copy of the first with a few changes (aliases, overlaps).
  if (in.ConsumeBool()) {
    b = a;
    if (a.t.shape == a.shape)
      b.t.shape = b.shape;
    if (a.t.strides == a.strides)
      b.t.strides = b.strides;
    if (in.ConsumeBool())
      b.t.byte_offset += uint64_t(in.ConsumeIntegralInRange(-2, 2)) * elementBytes(want.dtype);
    if (b.t.ndim > 0 && b.t.strides && in.ConsumeBool())
      b.strides[in.ConsumeIntegralInRange(0, b.t.ndim - 1)] = in.ConsumeIntegralInRange(-2, 8);
  } else {
    decodeTensor(in, b, want);
  }
  const DLTensor *ta = in.ConsumeIntegralInRange(0, 31) == 0 ? nullptr : &a.t;
  const DLTensor *tb = &b.t;
  trace = "expected: ndim " + std::to_string(want.ndim) + " " + ntc::rt::dtype_string(want.dtype) +
          " device " + std::to_string(want.device) + "\n" + show("a", ta) + show("b", tb);

  const bool acceptA =
      ntc::rt::check_tensor("k", ta, "a", want.ndim, want.dtype, want.device) == NTC_SUCCESS;
  EXPECT(acceptA == modelAccepts(ta, want));
  if (!acceptA)
    EXPECT(std::strlen(ntc_last_error()) > 0);
  const bool acceptB =
      ntc::rt::check_tensor("k", tb, "b", want.ndim, want.dtype, want.device) == NTC_SUCCESS;
  EXPECT(acceptB == modelAccepts(tb, want));
  ntc::rt::clear_error();

  const int64_t headroom = in.ConsumeBool() ? ntc::rt::kIndexHeadroom : interestingInt64(in);
  for (const DLTensor *t : {ta, tb}) {
    EXPECT(ntc::rt::index_fits_int32(t) == modelFitsInt32(t, 0));
    EXPECT(ntc::rt::index_fits_int32(t, headroom) == modelFitsInt32(t, headroom));
  }

  const bool allowIdentical = in.ConsumeBool();
  const bool separate =
      ntc::rt::check_no_overlap("k", ta, "a", tb, "b", allowIdentical) == NTC_SUCCESS;
  if (!ta || !wellFormed(ta) || !wellFormed(tb))
    EXPECT(!separate);
  const bool sameDevice = ntc::rt::check_same_device("k", ta, "a", tb, "b") == NTC_SUCCESS;
  EXPECT(sameDevice == (ta && (ta->device.device_id == tb->device.device_id ||
                               (deviceTypeOf(*ta) == kDLCPU && deviceTypeOf(*tb) == kDLCPU))));

  if (acceptA)
    checkAccepted(*ta, want);
  if (acceptB)
    checkAccepted(*tb, want);
  if (acceptA && acceptB) {
    bool expectSeparate = true;
    if (product(ta->shape, 0, ta->ndim) != 0 && product(tb->shape, 0, tb->ndim) != 0 &&
        deviceTypeOf(*ta) == deviceTypeOf(*tb) && ta->device.device_id == tb->device.device_id &&
        !(allowIdentical && identical(*ta, *tb))) {
      i128 loA, hiA, loB, hiB;
      byteRange(*ta, loA, hiA);
      byteRange(*tb, loB, hiB);
      expectSeparate = hiA < loB || hiB < loA;
    }
    EXPECT(separate == expectSeparate);
  }

  // Vector accesses: only for accepted tensors, with the positive widths generated code uses.
  const int width = in.PickValueInArray({1, 2, 4, 8, 16, 3});
  for (const DLTensor *t : {ta, tb}) {
    if (!(t == ta ? acceptA : acceptB))
      continue;
    const int dim = in.ConsumeIntegralInRange(-1, t->ndim);
    bool expect = dim >= 0 && dim < t->ndim && modelStride(*t, dim) == 1;
    for (int d = 0; expect && d < t->ndim; ++d)
      expect = d == dim || modelStride(*t, d) % width == 0;
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset;
    expect = expect && address % (std::uintptr_t(width) * elementBytes(t->dtype)) == 0;
    EXPECT(ntc::rt::vector_ready(t, dim, width) == expect);
  }
  ntc::rt::clear_error();
  return 0;
}
