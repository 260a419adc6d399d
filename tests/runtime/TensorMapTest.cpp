// TMA descriptions of DLPack tensors (ntc/rt/tensor_map.hpp): what describe_tma accepts and
// rejects, the request it builds, and the cache of encoded maps with a fake encoder.
#include <ntc/rt/tensor_map.hpp>
#include <ntc/rt/validate.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = ntc::rt;

namespace {

/// A DLTensor over a 1024-byte aligned address (never dereferenced) with owned shape/strides.
struct Tensor {
  std::vector<int64_t> shape, strides;
  DLTensor t{};

  Tensor(std::vector<int64_t> s, DLDataType dtype, std::vector<int64_t> st = {},
         uint64_t byte_offset = 0)
      : shape(std::move(s)), strides(std::move(st)) {
    t.data = reinterpret_cast<void *>(uintptr_t{1} << 20);
    t.device = {kDLCUDA, 0};
    t.ndim = int32_t(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byte_offset;
  }
};

rt::tma_check describe(const Tensor &x, std::vector<int64_t> box,
                       rt::tma_swizzle swizzle = rt::tma_swizzle::none) {
  rt::tma_request r;
  return rt::describe_tma(x.t, box.data(), swizzle, r);
}

} // namespace

TEST_CASE("describe_tma: a contiguous matrix, dimensions innermost first") {
  Tensor x({100, 64}, rt::dtypes::float16);
  const int64_t box[] = {64, 64};
  rt::tma_request r;
  REQUIRE(rt::describe_tma(x.t, box, rt::tma_swizzle::span128, r) == rt::tma_check::ok);
  CHECK(r.base == x.t.data);
  CHECK(r.type == rt::tma_type::float16);
  CHECK(r.rank == 2);
  CHECK(r.sizes[0] == 64);
  CHECK(r.sizes[1] == 100);
  CHECK(r.byte_strides[0] == 128);
  CHECK(r.box[0] == 64);
  CHECK(r.box[1] == 64);
  CHECK(r.swizzle == rt::tma_swizzle::span128);
}

TEST_CASE("describe_tma: attention's four-dimensional tensors, strided views and byte offsets") {
  const int64_t box[] = {1, 1, 64, 64};
  rt::tma_request r;
  Tensor q({4, 32, 4096, 64}, rt::dtypes::bfloat16);
  REQUIRE(rt::describe_tma(q.t, box, rt::tma_swizzle::span128, r) == rt::tma_check::ok);
  CHECK(r.type == rt::tma_type::bfloat16);
  CHECK(r.byte_strides[0] == 128);
  CHECK(r.byte_strides[1] == 4096 * 128);
  CHECK(r.byte_strides[2] == 32 * 4096 * 128);
  CHECK(r.sizes[3] == 4);
  // Heads and batch swapped (a transposed view): any outer strides will do.
  Tensor swapped({32, 4, 4096, 64}, rt::dtypes::float16, {4096 * 64, 32 * 4096 * 64, 64, 1});
  REQUIRE(rt::describe_tma(swapped.t, box, rt::tma_swizzle::span128, r) == rt::tma_check::ok);
  CHECK(r.byte_strides[1] == 32 * 4096 * 128);
  CHECK(r.byte_strides[2] == 4096 * 128);
  // A 16-byte multiple offset into the buffer is a valid base.
  Tensor offset({8, 64}, rt::dtypes::float32, {}, 256);
  const int64_t box2[] = {8, 32};
  REQUIRE(rt::describe_tma(offset.t, box2, rt::tma_swizzle::span128, r) == rt::tma_check::ok);
  CHECK(r.base == static_cast<const char *>(offset.t.data) + 256);
}

TEST_CASE("describe_tma: a dimension of size 1 may have any stride") {
  Tensor x({1, 3, 1, 16}, rt::dtypes::float32, {7, 16, -5, 1});
  rt::tma_request r;
  const int64_t box[] = {1, 2, 1, 16};
  REQUIRE(rt::describe_tma(x.t, box, rt::tma_swizzle::none, r) == rt::tma_check::ok);
  CHECK(r.byte_strides[0] % 16 == 0);
  CHECK(r.byte_strides[0] >= 64);
  CHECK(r.byte_strides[1] == 64);
  CHECK(r.byte_strides[2] % 16 == 0);
  CHECK(r.byte_strides[2] >= 3 * 64);
}

TEST_CASE("describe_tma: what TMA cannot describe is named") {
  using c = rt::tma_check;
  // The base is not 16-byte aligned.
  CHECK(describe(Tensor({8, 64}, rt::dtypes::float16, {}, 2), {8, 64}) == c::base_alignment);
  // Rows of 7 halves: 14 bytes apart.
  CHECK(describe(Tensor({10, 7}, rt::dtypes::float16), {8, 8}) == c::stride);
  // The innermost dimension strided (a transposed matrix).
  CHECK(describe(Tensor({64, 64}, rt::dtypes::float16, {1, 64}), {64, 64}) == c::inner_stride);
  // A broadcast (stride 0) and a reversed (negative stride) outer dimension.
  CHECK(describe(Tensor({4, 64}, rt::dtypes::float16, {0, 1}), {4, 64}) == c::stride);
  CHECK(describe(Tensor({4, 64}, rt::dtypes::float16, {-64, 1}), {4, 64}) == c::stride);
  // Strides and shapes whose byte counts would overflow 64 bits.
  CHECK(describe(Tensor({4, 64}, rt::dtypes::float64, {int64_t{1} << 62, 1}), {4, 16}) ==
        c::stride);
  CHECK(describe(
            Tensor({int64_t{1} << 32, int64_t{1} << 32, int64_t{1} << 32, 16}, rt::dtypes::float32),
            {1, 1, 1, 16}) == c::stride);
  // Ranks 0 and 6.
  CHECK(describe(Tensor({}, rt::dtypes::float32), {}) == c::rank);
  CHECK(describe(Tensor({1, 1, 1, 1, 1, 16}, rt::dtypes::float32), {1, 1, 1, 1, 1, 16}) == c::rank);
  // An empty dimension.
  CHECK(describe(Tensor({0, 64}, rt::dtypes::float16), {1, 64}) == c::size);
  // Vector lanes.
  CHECK(describe(Tensor({4, 64}, DLDataType{kDLFloat, 16, 2}), {4, 64}) == c::dtype);
  // Boxes of 0 and 257 elements.
  CHECK(describe(Tensor({512, 64}, rt::dtypes::float16), {0, 64}) == c::box);
  CHECK(describe(Tensor({512, 64}, rt::dtypes::float16), {257, 64}) == c::box);
  // Box rows of 8 bytes; box rows of 128 bytes under a 64-byte swizzle.
  CHECK(describe(Tensor({512, 64}, rt::dtypes::float16), {64, 4}) == c::box_bytes);
  CHECK(describe(Tensor({512, 64}, rt::dtypes::float16), {64, 64}, rt::tma_swizzle::span64) ==
        c::box_bytes);
  CHECK(describe(Tensor({512, 64}, rt::dtypes::float16), {64, 32}, rt::tma_swizzle::span64) ==
        c::ok);
  for (c check : {c::rank, c::dtype, c::base_alignment, c::size, c::inner_stride, c::stride, c::box,
                  c::box_bytes})
    CHECK(std::string(rt::tma_check_message(check)).size() > 10);
  CHECK(std::string(rt::tma_check_message(c::ok)).empty());
}

TEST_CASE("describe_tma: element types") {
  rt::tma_request r;
  auto type_of = [&](DLDataType t) {
    Tensor x({4, 64}, t);
    const int64_t box[] = {4, 16};
    REQUIRE(rt::describe_tma(x.t, box, rt::tma_swizzle::none, r) == rt::tma_check::ok);
    return r.type;
  };
  CHECK(type_of(rt::dtypes::float32) == rt::tma_type::float32);
  CHECK(type_of(rt::dtypes::float64) == rt::tma_type::float64);
  CHECK(type_of(rt::dtypes::int32) == rt::tma_type::int32);
  CHECK(type_of(rt::dtypes::uint32) == rt::tma_type::uint32);
  CHECK(type_of(rt::dtypes::int64) == rt::tma_type::int64);
  CHECK(type_of(rt::dtypes::int16) == rt::tma_type::uint16);
  CHECK(type_of(rt::dtypes::int8) == rt::tma_type::uint8);
  CHECK(type_of(rt::dtypes::float8_e4m3) == rt::tma_type::uint8);
}

namespace {

/// A fake encoder: counts its calls, writes the request's rank into the map, fails on demand.
struct FakeEncoder {
  int *calls;
  bool *fail;
  bool operator()(const rt::tma_request &r, rt::tma_map &map) const {
    ++*calls;
    if (*fail)
      return false;
    map.bytes[0] = static_cast<unsigned char>(r.rank);
    map.bytes[1] = static_cast<unsigned char>(r.box[0]);
    return true;
  }
};

rt::tma_request request(const void *base, uint32_t box) {
  rt::tma_request r;
  r.base = base;
  r.type = rt::tma_type::float16;
  r.rank = 2;
  r.sizes[0] = 64;
  r.sizes[1] = 100;
  r.byte_strides[0] = 128;
  r.box[0] = box;
  r.box[1] = 64;
  return r;
}

} // namespace

TEST_CASE("tma_map_cache: a request is encoded once") {
  int calls = 0;
  bool fail = false;
  rt::tma_map_cache<FakeEncoder, 4> cache(FakeEncoder{&calls, &fail});
  static char buffer[16];
  rt::tma_map map;
  REQUIRE(cache.get(request(buffer, 64), map));
  CHECK(map.bytes[1] == 64);
  REQUIRE(cache.get(request(buffer, 64), map));
  CHECK(calls == 1);
  // Another box, or another tensor, is another map.
  REQUIRE(cache.get(request(buffer, 32), map));
  CHECK(map.bytes[1] == 32);
  REQUIRE(cache.get(request(buffer + 1, 32), map));
  CHECK(calls == 3);
  CHECK(cache.size() == 3);
}

TEST_CASE("tma_map_cache: failures are reported and not kept; the oldest map makes room") {
  int calls = 0;
  bool fail = true;
  rt::tma_map_cache<FakeEncoder, 2> cache(FakeEncoder{&calls, &fail});
  static char buffer[16];
  rt::tma_map map;
  CHECK_FALSE(cache.get(request(buffer, 64), map));
  CHECK(cache.size() == 0);
  fail = false;
  REQUIRE(cache.get(request(buffer, 64), map));
  REQUIRE(cache.get(request(buffer, 32), map));
  REQUIRE(cache.get(request(buffer, 16), map)); // replaces box 64
  CHECK(calls == 4);
  REQUIRE(cache.get(request(buffer, 16), map));
  REQUIRE(cache.get(request(buffer, 32), map));
  CHECK(calls == 4);
  REQUIRE(cache.get(request(buffer, 64), map)); // encoded again
  CHECK(calls == 5);
  CHECK(cache.size() == 2);
  // An encoder that throws counts as a failure.
  auto throwing = [](const rt::tma_request &, rt::tma_map &) -> bool {
    throw std::runtime_error("driver");
  };
  rt::tma_map_cache<decltype(throwing)> bad(throwing);
  CHECK_FALSE(bad.get(request(buffer, 64), map));
}

TEST_CASE("tma_runs_on: compute capability 9.0 only, unless NTC_NO_TMA turns TMA off") {
  CHECK(rt::tma_runs_on(9, 0, nullptr));
  CHECK_FALSE(rt::tma_runs_on(8, 0, nullptr));
  CHECK_FALSE(rt::tma_runs_on(8, 9, nullptr));
  // sm_90a code runs on 9.0 alone: not on later architectures.
  CHECK_FALSE(rt::tma_runs_on(10, 0, nullptr));
  CHECK_FALSE(rt::tma_runs_on(12, 0, nullptr));
  // NTC_NO_TMA: unset, empty or "0" leave TMA on; any other value turns it off.
  CHECK(rt::tma_runs_on(9, 0, ""));
  CHECK(rt::tma_runs_on(9, 0, "0"));
  CHECK_FALSE(rt::tma_runs_on(9, 0, "1"));
  CHECK_FALSE(rt::tma_runs_on(9, 0, "yes"));
  CHECK_FALSE(rt::tma_runs_on(9, 0, "00"));
}
