// The C ABI (status strings, thread-local errors) and the validation helpers of ntc/rt.
#include <ntc/rt/validate.hpp>
#include <ntc/runtime.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern "C" int ntc_test_c_header(void);

namespace rt = ntc::rt;

namespace {

/// A DLTensor over a static buffer with owned shape/strides arrays.
struct Tensor {
  std::vector<int64_t> shape, strides;
  DLTensor t{};

  explicit Tensor(std::vector<int64_t> s, DLDataType dtype = rt::dtypes::float32,
                  DLDeviceType device = kDLCPU, std::vector<int64_t> st = {})
      : shape(std::move(s)), strides(std::move(st)) {
    static double buffer[64];
    t.data = buffer;
    t.device = {device, 0};
    t.ndim = int32_t(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = 0;
  }
  const DLTensor *operator&() const { return &t; }
};

std::string last() { return ntc_last_error(); }

} // namespace

TEST_CASE("C header compiles as C and its functions link", "[abi]") {
  CHECK(ntc_test_c_header() == 0);
}

TEST_CASE("status strings", "[abi]") {
  CHECK(std::string(ntc_status_string(NTC_SUCCESS)) == "NTC_SUCCESS");
  CHECK(std::string(ntc_status_string(NTC_ERROR_INVALID_ARGUMENT)) == "NTC_ERROR_INVALID_ARGUMENT");
  CHECK(std::string(ntc_status_string(NTC_ERROR_UNSUPPORTED)) == "NTC_ERROR_UNSUPPORTED");
  CHECK(std::string(ntc_status_string(NTC_ERROR_LAUNCH)) == "NTC_ERROR_LAUNCH");
  CHECK(std::string(ntc_status_string(NTC_ERROR_CUDA)) == "NTC_ERROR_CUDA");
  CHECK(std::string(ntc_status_string(NTC_ERROR_INTERNAL)) == "NTC_ERROR_INTERNAL");
  CHECK(std::string(ntc_status_string(ntc_status_t(42))) == "NTC_UNKNOWN_STATUS");
}

TEST_CASE("fail sets the message, clear_error resets it", "[errors]") {
  rt::clear_error();
  CHECK(last().empty());
  CHECK(rt::fail(NTC_ERROR_UNSUPPORTED, "k: no variant") == NTC_ERROR_UNSUPPORTED);
  CHECK(last() == "k: no variant");
  rt::clear_error();
  CHECK(last().empty());
}

TEST_CASE("successful checks leave an earlier message alone", "[errors]") {
  rt::fail(NTC_ERROR_LAUNCH, "earlier failure");
  Tensor x({4});
  CHECK(rt::check_tensor("k", &x, "x", 1, rt::dtypes::float32, kDLCPU) == NTC_SUCCESS);
  CHECK(rt::check_equal("k", "a", 3, "b", 3) == NTC_SUCCESS);
  CHECK(last() == "earlier failure");
  rt::clear_error();
}

TEST_CASE("the last error is thread-local", "[errors]") {
  rt::fail(NTC_ERROR_INVALID_ARGUMENT, "main thread");
  std::string seen_before, seen_after;
  std::thread other([&] {
    seen_before = ntc_last_error();
    rt::fail(NTC_ERROR_CUDA, "other thread");
    seen_after = ntc_last_error();
  });
  other.join();
  CHECK(seen_before.empty());
  CHECK(seen_after == "other thread");
  CHECK(last() == "main thread");
  rt::clear_error();
}

TEST_CASE("guard turns exceptions into NTC_ERROR_INTERNAL", "[errors]") {
  CHECK(rt::guard("k", []() -> ntc_status_t { throw std::logic_error("boom"); }) ==
        NTC_ERROR_INTERNAL);
  CHECK(last() == "k: internal error: boom");
  CHECK(rt::guard("k", [] { return NTC_SUCCESS; }) == NTC_SUCCESS);
  rt::clear_error();
}

TEST_CASE("check_tensor accepts a valid tensor", "[validate]") {
  Tensor lhs({2, 3}, rt::dtypes::float16);
  CHECK(rt::check_tensor("matmul", &lhs, "lhs", 2, rt::dtypes::float16, kDLCPU) == NTC_SUCCESS);
  Tensor cuda({5}, rt::dtypes::bfloat16, kDLCUDA);
  CHECK(rt::check_tensor("k", &cuda, "x", 1, rt::dtypes::bfloat16, kDLCUDA) == NTC_SUCCESS);
  Tensor managed({5}, rt::dtypes::bfloat16, kDLCUDAManaged);
  CHECK(rt::check_tensor("k", &managed, "x", 1, rt::dtypes::bfloat16, kDLCUDA) == NTC_SUCCESS);
  Tensor scalar({}, rt::dtypes::int64);
  CHECK(rt::check_tensor("k", &scalar, "s", 0, rt::dtypes::int64, kDLCPU) == NTC_SUCCESS);
}

TEST_CASE("check_tensor failures, in order, with exact messages", "[validate]") {
  const auto f16 = rt::dtypes::float16;
  SECTION("null pointer") {
    CHECK(rt::check_tensor("matmul", nullptr, "lhs", 2, f16, kDLCPU) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "matmul: parameter 'lhs' is a null pointer");
  }
  SECTION("null data with elements") {
    Tensor x({2, 3}, rt::dtypes::float32);
    x.t.data = nullptr;
    CHECK(rt::check_tensor("matmul", &x, "lhs", 3, f16, kDLCUDA) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "matmul: parameter 'lhs' has a null data pointer but 6 elements");
  }
  SECTION("null data without elements is fine") {
    Tensor x({0, 3}, f16);
    x.t.data = nullptr;
    CHECK(rt::check_tensor("matmul", &x, "lhs", 2, f16, kDLCPU) == NTC_SUCCESS);
  }
  SECTION("rank") {
    Tensor x({2, 3, 4}, rt::dtypes::float32);
    CHECK(rt::check_tensor("matmul", &x, "lhs", 2, f16, kDLCUDA) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "matmul: parameter 'lhs' has rank 3, expected 2");
  }
  SECTION("dtype") {
    Tensor x({2, 3}, rt::dtypes::float32, kDLCUDA);
    CHECK(rt::check_tensor("matmul", &x, "lhs", 2, f16, kDLCPU) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "matmul: parameter 'lhs' has dtype float32, expected float16");
  }
  SECTION("dtype lanes and unknown codes") {
    Tensor x({2}, DLDataType{kDLFloat, 32, 4});
    CHECK(rt::check_tensor("k", &x, "x", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'x' has dtype float32x4, expected float32");
    Tensor y({2}, DLDataType{9, 8, 1});
    CHECK(rt::check_tensor("k", &y, "y", 1, rt::dtypes::float8_e4m3, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "k: parameter 'y' has dtype dtype(code=9, bits=8, lanes=1), expected "
                    "float8_e4m3");
  }
  SECTION("device") {
    Tensor x({4}, f16, kDLCPU);
    CHECK(rt::check_tensor("add", &x, "x", 1, f16, kDLCUDA) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'x' is a CPU tensor, expected a CUDA tensor");
    Tensor y({4}, f16, kDLCUDA);
    CHECK(rt::check_tensor("add", &y, "y", 1, f16, kDLCPU) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'y' is a CUDA tensor, expected a CPU tensor");
    Tensor z({4}, f16, kDLCUDAManaged);
    CHECK(rt::check_tensor("add", &z, "z", 1, f16, kDLCPU) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'z' is a CUDA managed tensor, expected a CPU tensor");
    Tensor w({4}, f16, kDLOpenCL);
    CHECK(rt::check_tensor("add", &w, "w", 1, f16, kDLCPU) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'w' is an OpenCL tensor, expected a CPU tensor");
  }
  SECTION("byte offset") {
    Tensor x({4}, rt::dtypes::float32);
    x.t.byte_offset = 6;
    CHECK(rt::check_tensor("add", &x, "x", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() ==
          "add: parameter 'x' has byte_offset 6, which is not a multiple of its element size 4");
    x.t.byte_offset = 8;
    CHECK(rt::check_tensor("add", &x, "x", 1, rt::dtypes::float32, kDLCPU) == NTC_SUCCESS);
  }
  SECTION("malformed shapes") {
    Tensor r({4});
    r.t.ndim = -1;
    CHECK(rt::check_tensor("add", &r, "r", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'r' has negative rank -1");
    Tensor x({4, -2});
    CHECK(rt::check_tensor("add", &x, "x", 2, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'x' has negative size -2 in dimension 1");
    Tensor y({4});
    y.t.shape = nullptr;
    CHECK(rt::check_tensor("add", &y, "y", 1, rt::dtypes::float32, kDLCPU) ==
          NTC_ERROR_INVALID_ARGUMENT);
    CHECK(last() == "add: parameter 'y' has a null shape");
  }
  SECTION("rank is checked before dtype, dtype before device") {
    Tensor x({2, 2, 2}, rt::dtypes::int32, kDLCUDA);
    rt::check_tensor("k", &x, "x", 2, f16, kDLCPU);
    CHECK(last() == "k: parameter 'x' has rank 3, expected 2");
    rt::check_tensor("k", &x, "x", 3, f16, kDLCPU);
    CHECK(last() == "k: parameter 'x' has dtype int32, expected float16");
    rt::check_tensor("k", &x, "x", 3, rt::dtypes::int32, kDLCPU);
    CHECK(last() == "k: parameter 'x' is a CUDA tensor, expected a CPU tensor");
  }
  rt::clear_error();
}

TEST_CASE("check_equal", "[validate]") {
  CHECK(rt::check_equal("matmul", "lhs.shape[1]", 130, "rhs.shape[0]", 129) ==
        NTC_ERROR_INVALID_ARGUMENT);
  CHECK(last() == "matmul: size mismatch: lhs.shape[1] is 130 but rhs.shape[0] is 129");
  rt::clear_error();
}

TEST_CASE("dtype names", "[validate]") {
  using namespace rt::dtypes;
  const std::vector<std::pair<DLDataType, std::string>> cases = {{float16, "float16"},
                                                                 {bfloat16, "bfloat16"},
                                                                 {float32, "float32"},
                                                                 {float64, "float64"},
                                                                 {int8, "int8"},
                                                                 {int16, "int16"},
                                                                 {int32, "int32"},
                                                                 {int64, "int64"},
                                                                 {uint8, "uint8"},
                                                                 {uint16, "uint16"},
                                                                 {uint32, "uint32"},
                                                                 {uint64, "uint64"},
                                                                 {bool_, "bool"},
                                                                 {float8_e4m3, "float8_e4m3"},
                                                                 {float8_e5m2, "float8_e5m2"},
                                                                 {{kDLComplex, 64, 1}, "complex64"},
                                                                 {{kDLFloat, 8, 1}, "unknown"}};
  for (const auto &[dtype, name] : cases) {
    INFO(name);
    CHECK(std::string(rt::dtype_name(dtype)) == name);
  }
  CHECK(rt::dtype_string({kDLInt, 8, 16}) == "int8x16");
  CHECK(rt::device_name(kDLCUDA) == "CUDA");
  CHECK(rt::device_name(99) == "device type 99");
  CHECK(rt::element_bytes(bfloat16) == 2);
  CHECK(rt::element_bytes({kDLFloat, 32, 4}) == 16);
}

TEST_CASE("accessors: size, stride, numel, data", "[validate]") {
  Tensor compact({2, 3, 4});
  CHECK(rt::size(&compact, 1) == 3);
  CHECK(rt::size(&compact, -1) == 4);
  CHECK(rt::stride(&compact, 0) == 12);
  CHECK(rt::stride(&compact, 1) == 4);
  CHECK(rt::stride(&compact, 2) == 1);
  CHECK(rt::stride(&compact, -3) == 12);
  CHECK(rt::numel(&compact) == 24);
  Tensor strided({3, 2}, rt::dtypes::float32, kDLCPU, {1, 3});
  CHECK(rt::stride(&strided, 0) == 1);
  CHECK(rt::stride(&strided, 1) == 3);
  Tensor scalar({});
  CHECK(rt::numel(&scalar) == 1);

  float values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  Tensor x({4});
  x.t.data = values;
  x.t.byte_offset = 3 * sizeof(float);
  CHECK(rt::data<float>(&x)[0] == 3.0f);
  CHECK(rt::data<const float>(&x)[2] == 5.0f);
}

TEST_CASE("contiguity and alignment", "[validate]") {
  CHECK(rt::is_contiguous(&Tensor({2, 3})));
  CHECK(rt::is_contiguous(&Tensor({2, 3}, rt::dtypes::float32, kDLCPU, {3, 1})));
  CHECK(rt::is_contiguous(&Tensor({1, 3}, rt::dtypes::float32, kDLCPU, {99, 1})));
  CHECK_FALSE(rt::is_contiguous(&Tensor({2, 3}, rt::dtypes::float32, kDLCPU, {1, 2})));
  CHECK_FALSE(rt::is_contiguous(&Tensor({2, 3}, rt::dtypes::float32, kDLCPU, {4, 1})));

  alignas(64) static float buffer[32];
  Tensor x({4});
  x.t.data = buffer;
  CHECK(rt::is_aligned(&x, 16));
  x.t.byte_offset = 4;
  CHECK_FALSE(rt::is_aligned(&x, 16));
  CHECK(rt::is_aligned(&x, 4));
  CHECK(rt::divisible(128, 64));
  CHECK_FALSE(rt::divisible(130, 64));
}

TEST_CASE("index_fits_int32", "[validate]") {
  CHECK(rt::index_fits_int32(&Tensor({1024, 1024})));
  // Largest offset (s0 − 1)·stride0 + (s1 − 1)·stride1 exactly at INT32_MAX fits.
  CHECK(rt::index_fits_int32(&Tensor({2, 2}, rt::dtypes::float32, kDLCPU, {2147483646, 1})));
  CHECK_FALSE(rt::index_fits_int32(&Tensor({2, 3}, rt::dtypes::float32, kDLCPU, {2147483646, 1})));
  CHECK(rt::index_fits_int32(&Tensor({65536, 32768}))); // reach 2^31 - 1
  CHECK_FALSE(rt::index_fits_int32(&Tensor({65537, 32768})));
  // Negative strides count by magnitude; broadcast (stride 0) dims reach nothing.
  CHECK_FALSE(rt::index_fits_int32(&Tensor({3}, rt::dtypes::float32, kDLCPU, {-1073741824})));
  CHECK(rt::index_fits_int32(&Tensor({1000000000, 4}, rt::dtypes::float32, kDLCPU, {0, 1})));
  // No elements: nothing is reachable, but the int32 program still casts every stride, so a
  // stride above INT32_MAX needs the int64 variant (ReliabilityTest.cpp has more).
  CHECK(rt::index_fits_int32(&Tensor({0, 1}, rt::dtypes::float32, kDLCPU, {1, 1})));
  CHECK_FALSE(rt::index_fits_int32(&Tensor({0, 1}, rt::dtypes::float32, kDLCPU, {INT64_MAX, 1})));
  CHECK_FALSE(rt::index_fits_int32(&Tensor({2}, rt::dtypes::float32, kDLCPU, {INT64_MIN})));
}

TEST_CASE("parallel_for visits every index once and rethrows", "[parallel]") {
  std::vector<int> hits(1000, 0);
  rt::parallel_for(int64_t(hits.size()), [&](int64_t i) { hits[i] += 1; });
  int total = 0;
  for (int h : hits) {
    CHECK(h == 1);
    total += h;
  }
  CHECK(total == 1000);
  CHECK_THROWS_AS(rt::parallel_for(64,
                                   [](int64_t i) {
                                     if (i == 17)
                                       throw std::runtime_error("seventeen");
                                   }),
                  std::runtime_error);
  int calls = 0;
  rt::parallel_for(0, [&](int64_t) { ++calls; });
  CHECK(calls == 0);
}
