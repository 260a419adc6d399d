// add (kernels/add.cpp, block 1024) and add_block4 (tests/cpu/kernels/add_block4.cpp, block 4) on
// the CPU backend: tails, strided views, an empty grid.
#include "Common.hpp"

#include <add.h>
#include <add_block4.h>
#include <int_ops.h>

using namespace ntc_test;

namespace {

/// Runs `kernel` on random inputs of `n` elements (contiguous, with spare sentinel elements
/// after the output view) and checks output == float(lhs + rhs) exactly: the sum of two values
/// of T is exact in float, so the kernel must round it once to T like the reference.
template <class T, class Kernel> void check_add(Kernel kernel, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor<T> lhs({n}), rhs({n});
  Tensor<T> output({n}, {}, 0, n + 37); // 37 guard elements after the view
  lhs.randomize(rng, -4, 4);
  rhs.randomize(rng, -4, 4);

  REQUIRE_NTC_OK(kernel(&lhs, &rhs, &output, nullptr));

  Mismatch m;
  for (int64_t i = 0; i < n; ++i)
    m.add("[" + std::to_string(i) + "]", to_double(output(i)),
          to_double(T(to_double(lhs(i)) + to_double(rhs(i)))), 0, 0);
  CHECK_CLOSE(m);
  CHECK(output.touched_outside_view() == 0);
}

} // namespace

TEST_CASE("add_f32: 98432 elements, block 1024, 128-element tail", "[cpu][add]") {
  check_add<float>(add_f32, 98432, 1);
}

TEST_CASE("add_f16: 98432 elements, block 1024, 128-element tail", "[cpu][add]") {
  check_add<float16>(add_f16, 98432, 2);
}

TEST_CASE("add_f32: sizes around the block", "[cpu][add]") {
  for (int64_t n : {1, 5, 1023, 1024, 1025, 2047, 3000}) {
    INFO("n = " << n);
    check_add<float>(add_f32, n, 100 + uint64_t(n));
  }
}

TEST_CASE("add_block4: 10 elements, block 4, 2-element tail", "[cpu][add]") {
  check_add<float>(add_block4, 10, 3);
}

TEST_CASE("add_block4: every size from 1 to 17", "[cpu][add]") {
  for (int64_t n = 1; n <= 17; ++n) {
    INFO("n = " << n);
    check_add<float>(add_block4, n, 200 + uint64_t(n));
  }
}

TEST_CASE("add_f32: strided 1-D views with offsets and a tail", "[cpu][add][strided]") {
  std::mt19937_64 rng(4);
  const int64_t n = 3000;            // 2 full blocks and a 952-element tail
  Tensor<float> lhs({n}, {3}, 5);    // every third element, starting at 5
  Tensor<float> rhs({n}, {2}, 1);    // every other element
  Tensor<float> output({n}, {4}, 3); // every fourth element: the gaps must stay untouched
  lhs.randomize(rng);
  rhs.randomize(rng);

  REQUIRE_NTC_OK(add_f32(&lhs, &rhs, &output, nullptr));

  Mismatch m;
  for (int64_t i = 0; i < n; ++i)
    m.add("[" + std::to_string(i) + "]", output(i), double(lhs(i) + rhs(i)), 0, 0);
  CHECK_CLOSE(m);
  CHECK(output.touched_outside_view() == 0);
}

// DLPack allows negative strides: element offsets from the data pointer may be negative, so
// masked elements use a dedicated sentinel (ntc::cpu::masked), not "any negative offset".
TEST_CASE("add_f32: a negative stride (a reversed view)", "[cpu][add][strided]") {
  std::mt19937_64 rng(5);
  const int64_t n = 1500;
  Tensor<float> lhs({n}, {-1}, n - 1, n); // lhs(i) is buffer[n - 1 - i]
  Tensor<float> rhs({n});
  Tensor<float> output({n});
  lhs.randomize(rng);
  rhs.randomize(rng);

  REQUIRE_NTC_OK(add_f32(&lhs, &rhs, &output, nullptr));

  Mismatch m;
  for (int64_t i = 0; i < n; ++i)
    m.add("[" + std::to_string(i) + "]", output(i), double(lhs.buffer[size_t(n - 1 - i)] + rhs(i)),
          0, 0);
  CHECK_CLOSE(m);
}

TEST_CASE("add_block4: in place (output aliases lhs)", "[cpu][add]") {
  std::mt19937_64 rng(6);
  Tensor<float> x({10}), y({10});
  x.randomize(rng);
  y.randomize(rng);
  const std::vector<double> before = values(x);
  REQUIRE_NTC_OK(add_block4(&x, &y, &x, nullptr));
  for (int64_t i = 0; i < 10; ++i)
    CHECK(x(i) == float(before[size_t(i)] + double(y(i))));
}

TEST_CASE("add: an empty grid (0 elements) succeeds without touching memory",
          "[cpu][add][validation]") {
  Tensor<float> lhs({0}, {}, 0, 4), rhs({0}, {}, 0, 4), output({0}, {}, 0, 4);
  CHECK(add_f32(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
  CHECK(add_block4(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
  for (float v : output.buffer)
    CHECK(v == float(Tensor<float>::sentinel()));

  // A 0-element tensor may have a null data pointer.
  lhs.dl.data = rhs.dl.data = output.dl.data = nullptr;
  CHECK(add_f32(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
}

// The integer literal in `input + 1` stays an integer (the DSL's Tile(double) constructor
// converts it, the translator looks through that conversion), so an int32 tile stays int32 and
// 16777217 + 1 is exact.
TEST_CASE("add_one_i32: int32 + integer literal stays exact", "[cpu][int]") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int32_t> dist(-(1 << 30), 1 << 30);
  const int64_t n = 200;
  Tensor<int32_t> input({n}), output({n});
  for (int64_t i = 0; i < n; ++i)
    input(i) = dist(rng);
  input(0) = 16777217;
  input(1) = -16777219;
  REQUIRE_NTC_OK(add_one_i32(&input, &output, nullptr));
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    if (output(i) != input(i) + 1)
      ++wrong;
  INFO("input 16777217 gave " << output(0));
  CHECK(output(0) == 16777218);
  CHECK(wrong == 0);
}
