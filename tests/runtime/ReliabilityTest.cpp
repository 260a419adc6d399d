// Hostile DLTensor descriptors: validation must reject them with a clean status and message and
// never overflow, crash or accept them silently. Every case here is a row of
// docs/reliability.md. Data pointers are fake addresses: validation never dereferences.
#include <ntc/rt/device_guard.hpp>
#include <ntc/rt/index.hpp>
#include <ntc/rt/validate.hpp>
#include <ntc/runtime.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = ntc::rt;

namespace {

constexpr int64_t P31 = int64_t(1) << 31;
constexpr int64_t P32 = int64_t(1) << 32;
constexpr int64_t P40 = int64_t(1) << 40;
constexpr int64_t P58 = int64_t(1) << 58;
constexpr int64_t P61 = int64_t(1) << 61;
constexpr int64_t P62 = int64_t(1) << 62;
constexpr uint64_t P63 = uint64_t(1) << 63;

/// A DLTensor with owned shape/strides at a fake address (default 0x10000, 64-byte aligned).
struct Tensor {
  std::vector<int64_t> shape, strides;
  DLTensor t{};

  explicit Tensor(std::vector<int64_t> s, DLDataType dtype = rt::dtypes::float32,
                  std::vector<int64_t> st = {}, std::uintptr_t address = 0x10000,
                  DLDeviceType device = kDLCPU, int32_t device_id = 0)
      : shape(std::move(s)), strides(std::move(st)) {
    t.data = reinterpret_cast<void *>(address);
    t.device = {device, device_id};
    t.ndim = int32_t(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = 0;
  }
  const DLTensor *operator&() const { return &t; }
  /// Stores any 32-bit value in the DLDeviceType field without forming an invalid enum value.
  void set_device_type(int32_t value) { std::memcpy(&t.device.device_type, &value, sizeof value); }
};

std::string last() { return ntc_last_error(); }

/// check_tensor with kernel "k" and parameter "x"; `ndim` defaults to the tensor's rank and
/// `dtype` to its dtype.
ntc_status_t check(const Tensor &x, DLDeviceType device = kDLCPU) {
  return rt::check_tensor("k", &x, "x", x.t.ndim, x.t.dtype, device);
}

} // namespace

TEST_CASE("check_tensor: element counts that overflow int64", "[reliability]") {
  SECTION("64 x 2^58 with null data is rejected for its size, not accepted and crashed on") {
    Tensor x({64, P58});
    x.t.data = nullptr;
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "k: parameter 'x' has shape [64, 288230376151711744], whose element count exceeds "
          "INT64_MAX");
  }
  SECTION("2^32 x 2^32") {
    Tensor x({P32, P32});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "k: parameter 'x' has shape [4294967296, 4294967296], whose element count exceeds "
          "INT64_MAX");
  }
  SECTION("2^31 x 2^31 x 2 (exactly 2^63)") {
    Tensor x({P31, P31, 2}, rt::dtypes::int8);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2147483648, 2147483648, 2], whose element count "
                    "exceeds INT64_MAX");
  }
  SECTION("a size-0 dimension makes any other sizes fine, even with null data") {
    Tensor x({P62, P62, 0});
    x.t.data = nullptr;
    CHECK(check(x) == NTC_SUCCESS);
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: byte sizes that overflow int64", "[reliability]") {
  SECTION("2^61 float32 elements are 2^63 bytes") {
    Tensor x({P61});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2305843009213693952] of 2305843009213693952 "
                    "elements of 4 bytes, whose byte size exceeds INT64_MAX");
  }
  SECTION("2^62 float16 elements") {
    Tensor x({2, P61}, rt::dtypes::float16);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2, 2305843009213693952] of 4611686018427387904 "
                    "elements of 2 bytes, whose byte size exceeds INT64_MAX");
  }
  SECTION("INT64_MAX bytes is the largest accepted tensor") {
    Tensor x({INT64_MAX}, rt::dtypes::uint8);
    CHECK(check(x) == NTC_SUCCESS);
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: byte offsets that overflow", "[reliability]") {
  SECTION("byte_offset 2^63") {
    Tensor x({4});
    x.t.byte_offset = P63;
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "k: parameter 'x' has byte_offset 9223372036854775808, which exceeds INT64_MAX");
  }
  SECTION("byte_offset UINT64_MAX") {
    Tensor x({4});
    x.t.byte_offset = UINT64_MAX;
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "k: parameter 'x' has byte_offset 18446744073709551615, which exceeds INT64_MAX");
  }
  SECTION("data + byte_offset wraps around the address space") {
    Tensor x({4}, rt::dtypes::float32, {}, 0xffffffffffff0000u);
    x.t.byte_offset = uint64_t(P62);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has byte_offset 4611686018427387904, which overflows its "
                    "data pointer 0xffffffffffff0000");
  }
  SECTION("also for tensors without elements") {
    Tensor x({0});
    x.t.data = nullptr;
    x.t.byte_offset = P63;
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "k: parameter 'x' has byte_offset 9223372036854775808, which exceeds INT64_MAX");
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: strides whose reach overflows int64", "[reliability]") {
  SECTION("(size - 1) * stride of one dimension overflows") {
    Tensor x({3}, rt::dtypes::float32, {P62});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has stride 4611686018427387904 in dimension 0 of size 3, so "
                    "(size - 1) * |stride| overflows int64");
  }
  SECTION("stride INT64_MIN, whose magnitude does not fit") {
    Tensor x({2, 4}, rt::dtypes::float32, {INT64_MIN, 1});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has stride -9223372036854775808 in dimension 0 of size 2, "
                    "so (size - 1) * |stride| overflows int64");
  }
  SECTION("every dimension fits but the sum does not") {
    Tensor x({2, 2}, rt::dtypes::float32, {P62, P62});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2, 2] and strides [4611686018427387904, "
                    "4611686018427387904], whose reach (the sum of (size - 1) * |stride|) "
                    "overflows int64");
  }
  SECTION("negative strides: the lowest offset would underflow") {
    Tensor x({2, 2}, rt::dtypes::float32, {-P62, -P62});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2, 2] and strides [-4611686018427387904, "
                    "-4611686018427387904], whose reach (the sum of (size - 1) * |stride|) "
                    "overflows int64");
  }
  SECTION("the reach fits in elements but not in bytes") {
    Tensor x({2}, rt::dtypes::float32, {P62});
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has shape [2] and strides [4611686018427387904], whose "
                    "reach of 4611686018427387904 elements of 4 bytes overflows int64");
    Tensor y({2}, rt::dtypes::int8, {P62}); // 2^62 + 1 bytes: fine
    CHECK(check(y) == NTC_SUCCESS);
  }
  SECTION("huge strides of size-1 dimensions are never multiplied") {
    Tensor x({1, 4}, rt::dtypes::float32, {INT64_MIN, 1});
    CHECK(check(x) == NTC_SUCCESS);
  }
  SECTION("tensors without elements accept any strides") {
    Tensor x({0, 5}, rt::dtypes::float32, {INT64_MAX, INT64_MIN});
    CHECK(check(x) == NTC_SUCCESS);
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: strides that reach outside the address space", "[reliability]") {
  SECTION("negative strides below address 0") {
    Tensor x({5}, rt::dtypes::float32, {-1024}, 0x1000);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' reaches 16384 bytes below its address 0x1000 (negative "
                    "strides), past address 0");
    Tensor y({4}, rt::dtypes::float32, {-1}, 0x10000); // 12 bytes below: fine
    CHECK(check(y) == NTC_SUCCESS);
  }
  SECTION("past the end of the address space") {
    Tensor x({1025}, rt::dtypes::float32, {}, 0xfffffffffffff000u);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' reaches 4099 bytes above its address 0xfffffffffffff000, "
                    "past the end of the address space");
    Tensor y({1024}, rt::dtypes::float32, {}, 0xfffffffffffff000u); // ends at the last byte
    CHECK(check(y) == NTC_SUCCESS);
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: data + byte_offset must be aligned to the element size", "[reliability]") {
  SECTION("float32 at an address 2 bytes off") {
    Tensor x({4}, rt::dtypes::float32, {}, 0x10002);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has address 0x10002 (data + byte_offset), which is "
                    "misaligned by 2 bytes for its element size 4");
  }
  SECTION("float16 at an odd address") {
    Tensor x({4}, rt::dtypes::float16, {}, 0x10001);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has address 0x10001 (data + byte_offset), which is "
                    "misaligned by 1 byte for its element size 2");
  }
  SECTION("float64: an aligned byte_offset on a misaligned data pointer") {
    Tensor x({4}, rt::dtypes::float64, {}, 0x10004);
    x.t.byte_offset = 8;
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has address 0x1000c (data + byte_offset), which is "
                    "misaligned by 4 bytes for its element size 8");
  }
  SECTION("one-byte types fit any address") {
    Tensor x({4}, rt::dtypes::int8, {}, 0x10003);
    CHECK(check(x) == NTC_SUCCESS);
  }
  rt::clear_error();
}

TEST_CASE("check_tensor: out-of-range device types and odd dtypes give clean messages",
          "[reliability]") {
  SECTION("device_type -5") {
    Tensor x({4});
    x.set_device_type(-5);
    CHECK(check(x) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' is a device type -5 tensor, expected a CPU tensor");
  }
  SECTION("device_type INT32_MIN and 1000") {
    Tensor x({4});
    x.set_device_type(INT32_MIN);
    CHECK(check(x, kDLCUDA) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' is a device type -2147483648 tensor, expected a CUDA tensor");
    x.set_device_type(1000);
    CHECK(check(x, kDLCUDA) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' is a device type 1000 tensor, expected a CUDA tensor");
    CHECK(rt::device_name(-5) == "device type -5");
  }
  SECTION("lanes 0 and 65535") {
    Tensor x({4}, DLDataType{kDLFloat, 32, 0});
    CHECK(rt::check_tensor("k", &x, "x", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has dtype float32x0, expected float32");
    x.t.dtype = DLDataType{255, 255, 65535};
    CHECK(rt::check_tensor("k", &x, "x", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has dtype dtype(code=255, bits=255, lanes=65535), expected "
                    "float32");
  }
  SECTION("zero bits") {
    Tensor x({4}, DLDataType{kDLFloat, 0, 1});
    CHECK(rt::check_tensor("k", &x, "x", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has dtype dtype(code=2, bits=0, lanes=1), expected float32");
  }
  rt::clear_error();
}

TEST_CASE("compact stride() and numel() saturate instead of overflowing", "[reliability]") {
  // Generated wrappers call stride() for every dimension of every tensor that passed
  // check_tensor, including tensors without elements whose later sizes multiply past int64.
  Tensor x({0, P40, P40});
  CHECK(rt::check_tensor("k", &x, "x", 3, rt::dtypes::float32, kDLCPU) == NTC_SUCCESS);
  CHECK(rt::stride(&x, 0) == INT64_MAX);
  CHECK(rt::stride(&x, 1) == P40);
  CHECK(rt::stride(&x, 2) == 1);
  CHECK(rt::numel(&x) == 0);
  Tensor y({7, 0, P40, P40}); // the 0 wins over the overflow of the sizes after it
  CHECK(rt::stride(&y, 0) == 0);
  CHECK(rt::stride(&y, 1) == INT64_MAX);
  Tensor z({P32, P32});
  CHECK(rt::numel(&z) == INT64_MAX);
  Tensor w({P32, P32, 0});
  CHECK(rt::numel(&w) == 0);
  Tensor malformed({P40, -P40, 3}); // negative sizes saturate instead of overflowing
  CHECK(rt::numel(&malformed) == INT64_MAX);
  CHECK(rt::stride(&malformed, 0) == INT64_MAX);
}

TEST_CASE("data() of an empty tensor with null data and a byte_offset is null", "[reliability]") {
  // Null data is allowed without elements; null + byte_offset would be undefined.
  Tensor x({0, 4});
  x.t.data = nullptr;
  x.t.byte_offset = 64;
  CHECK(check(x) == NTC_SUCCESS);
  CHECK(rt::data<float>(&x) == nullptr);
}

TEST_CASE("next_pow2 terminates and saturates", "[reliability]") {
  static_assert(rt::next_pow2(-7) == 1);
  static_assert(rt::next_pow2(0) == 1);
  static_assert(rt::next_pow2(1) == 1);
  static_assert(rt::next_pow2(5) == 8);
  static_assert(rt::next_pow2(P62) == P62);
  static_assert(rt::next_pow2(P62 + 1) == INT64_MAX);
  static_assert(rt::next_pow2(INT64_MAX) == INT64_MAX);
  // At run time too (the old loop never ended for these).
  volatile int64_t inputs[] = {P62 + 1, INT64_MAX, P62, P62 - 1, 3};
  CHECK(rt::next_pow2(inputs[0]) == INT64_MAX);
  CHECK(rt::next_pow2(inputs[1]) == INT64_MAX);
  CHECK(rt::next_pow2(inputs[2]) == P62);
  CHECK(rt::next_pow2(inputs[3]) == P62);
  CHECK(rt::next_pow2(inputs[4]) == 4);
  // What a generated wrapper does with it: the result exceeds any upper bound.
  const int64_t bound = 1 << 20;
  CHECK(std::max<int64_t>(16, rt::next_pow2(inputs[1])) > bound);
}

TEST_CASE("index_fits_int32: sizes and strides the int32 program would truncate", "[reliability]") {
  const auto f32 = rt::dtypes::float32;
  SECTION("a broadcast (stride 0) dimension of 2^31 + 32") {
    CHECK_FALSE(rt::index_fits_int32(&Tensor({P31 + 32}, f32, {0})));
    CHECK_FALSE(rt::index_fits_int32(&Tensor({P31 + 32, 4}, f32, {0, 1})));
    CHECK(rt::index_fits_int32(&Tensor({INT32_MAX, 4}, f32, {0, 1})));
  }
  SECTION("a size above INT32_MAX next to a size-0 dimension") {
    CHECK_FALSE(rt::index_fits_int32(&Tensor({0, P31 + 32})));
    CHECK_FALSE(rt::index_fits_int32(&Tensor({P31 + 32, 0}, f32, {1, 1})));
  }
  SECTION("a stride above INT32_MAX in a size-1 dimension") {
    CHECK_FALSE(rt::index_fits_int32(&Tensor({1, 4}, f32, {P31, 1})));
    CHECK(rt::index_fits_int32(&Tensor({1, 4}, f32, {INT32_MAX, 1})));
  }
  SECTION("compact strides above INT32_MAX of an empty tensor") {
    // stride(t, 0) is 2^32 for null strides: the int32 program would truncate it.
    CHECK_FALSE(rt::index_fits_int32(&Tensor({0, 65536, 65536})));
    CHECK(rt::index_fits_int32(&Tensor({65536, 65536, 0}))); // compact strides 0, 0, 1
  }
  SECTION("exact limits") {
    CHECK(rt::index_fits_int32(&Tensor({INT32_MAX})));                     // reach 2^31 - 2
    CHECK(rt::index_fits_int32(&Tensor({2}, f32, {-INT32_MAX})));          // reach INT32_MAX
    CHECK_FALSE(rt::index_fits_int32(&Tensor({2}, f32, {INT32_MIN})));     // |stride| 2^31
    CHECK_FALSE(rt::index_fits_int32(&Tensor({3, 2}, f32, {P31 / 2, 1}))); // reach 2^31 + 1
  }
  SECTION("null and malformed tensors") {
    CHECK_FALSE(rt::index_fits_int32(nullptr));
    CHECK_FALSE(rt::index_fits_int32(&Tensor({4, -1})));
    Tensor x({4});
    x.t.shape = nullptr;
    CHECK_FALSE(rt::index_fits_int32(&x));
  }
}

TEST_CASE("check_no_overlap", "[reliability]") {
  const auto f32 = rt::dtypes::float32;
  const std::string exclusive = "; an output must not share memory with another parameter";
  const std::string alias =
      "; an output may only alias another parameter exactly (same address, dtype, shape and "
      "strides)";
  Tensor out({4});
  SECTION("disjoint and adjacent ranges") {
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({4}, f32, {}, 0x10010), "x", false) ==
          NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({4}, f32, {}, 0xfff0), "x", false) ==
          NTC_SUCCESS);
  }
  SECTION("partial overlap") {
    Tensor x({4}, f32, {}, 0x1000c);
    CHECK(rt::check_no_overlap("k", &out, "out", &x, "x", false) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0x10000, 0x1000f]) overlaps parameter 'x' "
                    "(bytes [0x1000c, 0x1001b])" +
                        exclusive);
    CHECK(rt::check_no_overlap("k", &out, "out", &x, "x", true) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0x10000, 0x1000f]) overlaps parameter 'x' "
                    "(bytes [0x1000c, 0x1001b])" +
                        alias);
  }
  SECTION("exact aliases: allowed only with allow_identical") {
    Tensor x({4});
    CHECK(rt::check_no_overlap("k", &out, "out", &x, "x", true) == NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &out, "out", &x, "x", false) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0x10000, 0x1000f]) overlaps parameter 'x' "
                    "(bytes [0x10000, 0x1000f])" +
                        exclusive);
    // The same address through data or byte_offset; compact strides spelled out or not;
    // strides of size-1 dimensions ignored.
    Tensor y({4}, f32, {1}, 0xfff0);
    y.t.byte_offset = 16;
    CHECK(rt::check_no_overlap("k", &out, "out", &y, "y", true) == NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &Tensor({1, 4}, f32, {4, 1}), "out",
                               &Tensor({1, 4}, f32, {99, 1}), "y", true) == NTC_SUCCESS);
  }
  SECTION("same address but not identical: transposed, other shape, other dtype") {
    Tensor square({2, 2});
    Tensor transposed({2, 2}, f32, {1, 2});
    CHECK(rt::check_no_overlap("k", &square, "out", &transposed, "x", true) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0x10000, 0x1000f]) overlaps parameter 'x' "
                    "(bytes [0x10000, 0x1000f])" +
                        alias);
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({2}), "x", true) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({4}, rt::dtypes::int32), "x", true) ==
          NTC_ERROR_INVALID_ARGUMENT);
  }
  SECTION("negative strides") {
    Tensor reversed({4}, f32, {-1}, 0x10010); // bytes 0x10004 .. 0x10013
    CHECK(rt::check_no_overlap("k", &reversed, "out", &Tensor({2}), "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0x10004, 0x10013]) overlaps parameter 'x' "
                    "(bytes [0x10000, 0x10007])" +
                        exclusive);
    CHECK(rt::check_no_overlap("k", &reversed, "out", &Tensor({1}), "x", false) == NTC_SUCCESS);
  }
  SECTION("interleaved strided views count as overlapping (conservative)") {
    Tensor even({4}, f32, {2}, 0x10000), odd({4}, f32, {2}, 0x10004);
    CHECK(rt::check_no_overlap("k", &even, "out", &odd, "x", false) == NTC_ERROR_INVALID_ARGUMENT);
  }
  SECTION("empty tensors and other devices never overlap") {
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({0, 4}), "x", false) == NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &Tensor({4, 0}), "out", &out, "x", false) == NTC_SUCCESS);
    Tensor gpu0({4}, f32, {}, 0x10000, kDLCUDA, 0), gpu1({4}, f32, {}, 0x10000, kDLCUDA, 1);
    CHECK(rt::check_no_overlap("k", &gpu0, "out", &gpu1, "x", false) == NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &gpu0, "out", &out, "x", false) == NTC_SUCCESS);
    CHECK(rt::check_no_overlap("k", &gpu0, "out", &gpu0, "x", false) == NTC_ERROR_INVALID_ARGUMENT);
  }
  SECTION("ranges at the top of the address space") {
    Tensor top({1024}, f32, {}, 0xfffffffffffff000u);
    CHECK(rt::check_no_overlap("k", &top, "out", &Tensor({1}, f32, {}, 0xfffffffffffffffcu), "x",
                               false) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' (bytes [0xfffffffffffff000, 0xffffffffffffffff]) "
                    "overlaps parameter 'x' (bytes [0xfffffffffffffffc, 0xffffffffffffffff])" +
                        exclusive);
  }
  SECTION("null, malformed and overflowing tensors") {
    CHECK(rt::check_no_overlap("k", nullptr, "out", &out, "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' is a null pointer");
    CHECK(rt::check_no_overlap("k", &out, "out", nullptr, "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' is a null pointer");
    CHECK(rt::check_no_overlap("k", &Tensor({4, -1}), "out", &out, "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' has a malformed shape (check it first)");
    CHECK(rt::check_no_overlap("k", &out, "out", &Tensor({P32, P32}), "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has a malformed shape (check it first)");
    CHECK(rt::check_no_overlap("k", &Tensor({3}, f32, {P62}), "out", &out, "x", false) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'out' has a byte range that overflows int64 or the address "
                    "space (check it first)");
  }
  rt::clear_error();
}

TEST_CASE("check_same_device", "[reliability]") {
  const auto f32 = rt::dtypes::float32;
  Tensor a({4}, f32, {}, 0x10000, kDLCUDA, 0), b({4}, f32, {}, 0x20000, kDLCUDA, 1);
  CHECK(rt::check_same_device("k", &a, "a", &b, "b") == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(last() == "k: parameter 'a' is on CUDA device 0 but parameter 'b' is on CUDA device 1");
  CHECK(rt::check_same_device("k", &a, "a", &a, "a2") == NTC_SUCCESS);
  Tensor managed({4}, f32, {}, 0x30000, kDLCUDAManaged, 1);
  CHECK(rt::check_same_device("k", &b, "b", &managed, "m") == NTC_SUCCESS);
  CHECK(rt::check_same_device("k", &managed, "m", &a, "a") == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(last() == "k: parameter 'm' is on CUDA managed device 1 but parameter 'a' is on CUDA "
                  "device 0");
  // CPU tensors share host memory whatever their ids.
  Tensor cpu0({4}, f32, {}, 0x10000, kDLCPU, 0), cpu3({4}, f32, {}, 0x10000, kDLCPU, 3);
  CHECK(rt::check_same_device("k", &cpu0, "x", &cpu3, "y") == NTC_SUCCESS);
  Tensor odd({4}, f32, {}, 0x10000, kDLCUDA, 2);
  odd.set_device_type(-5);
  CHECK(rt::check_same_device("k", &odd, "x", &a, "a") == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(last() == "k: parameter 'x' is on device type -5 device 2 but parameter 'a' is on CUDA "
                  "device 0");
  CHECK(rt::check_same_device("k", &a, "a", nullptr, "b") == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(last() == "k: parameter 'b' is a null pointer");
  rt::clear_error();
}

namespace {

/// A fake device runtime for device_guard: the current device and a log of Set calls.
struct FakeDevices {
  int32_t current = 0;
  bool get_fails = false, set_fails = false, set_throws = false;
  std::vector<int32_t> sets;
  auto get() {
    return [this](int32_t &d) {
      d = current;
      return !get_fails;
    };
  }
  auto set() {
    return [this](int32_t d) {
      if (set_throws)
        throw std::runtime_error("set");
      if (set_fails)
        return false;
      sets.push_back(d);
      current = d;
      return true;
    };
  }
};

} // namespace

TEST_CASE("device_guard switches and restores the current device", "[reliability]") {
  FakeDevices fake;
  SECTION("switch, switch again, restore once") {
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK_FALSE(guard.saved());
      CHECK(guard.switch_to(1));
      CHECK(guard.saved());
      CHECK(guard.previous() == 0);
      CHECK(fake.current == 1);
      CHECK(guard.switch_to(2));
      CHECK(guard.switch_to(2)); // already current: no Set
    }
    CHECK(fake.sets == std::vector<int32_t>{1, 2, 0});
    CHECK(fake.current == 0);
  }
  SECTION("the current device: nothing to set or restore") {
    fake.current = 3;
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK(guard.switch_to(3));
    }
    CHECK(fake.sets.empty());
  }
  SECTION("switching back by hand: nothing to restore") {
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK(guard.switch_to(1));
      CHECK(guard.switch_to(0));
    }
    CHECK(fake.sets == std::vector<int32_t>{1, 0});
  }
  SECTION("failures") {
    fake.get_fails = true;
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK_FALSE(guard.switch_to(1));
      CHECK_FALSE(guard.saved());
    }
    CHECK(fake.sets.empty());
    fake.get_fails = false;
    fake.set_fails = true;
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK_FALSE(guard.switch_to(1));
    }
    CHECK(fake.sets.empty());
    fake.set_fails = false;
    fake.set_throws = true;
    {
      rt::device_guard guard(fake.get(), fake.set());
      CHECK_FALSE(guard.switch_to(1));
    }
    CHECK(fake.current == 0);
  }
}
