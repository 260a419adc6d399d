// Reductions over one dimension (kernels/ops/sum_dim.cpp, mean_dim.cpp, max_dim.cpp: a rank-3
// (outer, reduced, inner) view reduced over its middle dimension, blocks of 256) and addmv
// (kernels/ops/addmv.cpp, 64 x 64 blocks) on the CPU backend, against double references: tails
// in every dimension, rows of several blocks, strided and transposed views, float16, ties, NaN
// and -inf for max, empty dimensions, size validation.
#include "Common.hpp"

#include <addmv.h>
#include <max_dim.h>
#include <mean_dim.h>
#include <sum_dim.h>

#include <cmath>
#include <limits>

using namespace ntc_test;

namespace {

enum class Reduce { sum, mean };

/// sum or mean of `input` (outer, reduced, inner) over its middle dimension, row-major.
template <class T> std::vector<double> sum_or_mean_reference(const Tensor<T> &input, Reduce op) {
  const int64_t outer = input.shape[0], length = input.shape[1], inner = input.shape[2];
  std::vector<double> out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double total = 0;
      for (int64_t r = 0; r < length; ++r)
        total += input.get({o, r, i});
      out.push_back(op == Reduce::sum ? total : total / double(length));
    }
  return out;
}

/// torch.max(input, 1) of `input` (outer, reduced, inner): the largest value (NaN if any) and
/// the index of its first occurrence.
template <class T>
void max_reference(const Tensor<T> &input, std::vector<double> &values,
                   std::vector<double> &indices) {
  const int64_t outer = input.shape[0], length = input.shape[1], inner = input.shape[2];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double best = input.get({o, 0, i});
      int64_t best_index = 0;
      for (int64_t r = 1; r < length && !std::isnan(best); ++r) {
        const double v = input.get({o, r, i});
        if (std::isnan(v) || v > best) {
          best = v;
          best_index = r;
        }
      }
      values.push_back(best);
      indices.push_back(double(best_index));
    }
}

/// Runs sum_dim_*, mean_dim_* and max_dim_* on `input` and checks them against the references
/// (outputs with the given strides, or contiguous); the tolerance is relative to the sum of the
/// magnitudes of a row, which bounds the rounding error of any summation order.
template <class T, class SumKernel, class MeanKernel, class MaxKernel>
void check_dim_reductions(Tensor<T> &input, SumKernel sum_kernel, MeanKernel mean_kernel,
                          MaxKernel max_kernel, double rtol,
                          std::vector<int64_t> out_strides = {}) {
  const std::vector<int64_t> out_shape = {input.shape[0], input.shape[2]};
  const int64_t length = input.shape[1];
  double magnitude = 0; // the largest sum of |x| over a row
  for (int64_t o = 0; o < input.shape[0]; ++o)
    for (int64_t i = 0; i < input.shape[2]; ++i) {
      double row = 0;
      for (int64_t r = 0; r < length; ++r)
        row += std::fabs(input.get({o, r, i}));
      magnitude = std::max(magnitude, row);
    }

  {
    Tensor<T> output(out_shape, out_strides);
    REQUIRE_NTC_OK(sum_kernel(&input, &output, nullptr));
    CHECK_CLOSE(compare(output, sum_or_mean_reference(input, Reduce::sum), magnitude * 1e-6, rtol));
    CHECK(output.touched_outside_view() == 0);
  }
  {
    Tensor<T> output(out_shape, out_strides);
    REQUIRE_NTC_OK(mean_kernel(&input, &output, nullptr));
    CHECK_CLOSE(compare(output, sum_or_mean_reference(input, Reduce::mean),
                        magnitude * 1e-6 / double(length), rtol));
    CHECK(output.touched_outside_view() == 0);
  }
  {
    Tensor<T> values(out_shape, out_strides);
    Tensor<int64_t> indices(out_shape, out_strides);
    REQUIRE_NTC_OK(max_kernel(&input, &values, &indices, nullptr));
    std::vector<double> ref_values, ref_indices;
    max_reference(input, ref_values, ref_indices);
    CHECK_CLOSE(compare(values, ref_values, 0, 0)); // max is exact
    CHECK_CLOSE(compare(indices, ref_indices, 0, 0));
    CHECK(values.touched_outside_view() == 0);
    CHECK(indices.touched_outside_view() == 0);
  }
}

} // namespace

TEST_CASE("sum/mean/max_dim_f32: (5, 700, 3), rows of three blocks with a tail",
          "[ops][reductions]") {
  std::mt19937_64 rng(1301);
  Tensor<float> input({5, 700, 3});
  input.randomize(rng, -2, 3);
  check_dim_reductions(input, sum_dim_f32, mean_dim_f32, max_dim_f32, 1e-6);
}

TEST_CASE("sum/mean/max_dim_f32: lengths around the block, first and last dimensions",
          "[ops][reductions]") {
  // (1, R, N) reduces dimension 0 of an (R, N) matrix, (M, R, 1) its dimension 1.
  for (int64_t length : {1, 2, 255, 256, 257, 513}) {
    INFO("length = " << length);
    std::mt19937_64 rng(1302 + uint64_t(length));
    Tensor<float> first({1, length, 7}), last({6, length, 1});
    first.randomize(rng, -1, 1);
    last.randomize(rng, -1, 1);
    check_dim_reductions(first, sum_dim_f32, mean_dim_f32, max_dim_f32, 1e-6);
    check_dim_reductions(last, sum_dim_f32, mean_dim_f32, max_dim_f32, 1e-6);
  }
}

TEST_CASE("sum/mean/max_dim_f32: a permuted input view and strided outputs",
          "[ops][reductions][strided]") {
  std::mt19937_64 rng(1303);
  // element (o, r, i) at o + 40 r + 8 i: the outer dimension is the fastest in memory.
  Tensor<float> input({4, 600, 5}, {1, 40, 8});
  input.randomize(rng, -1, 1);
  // outputs (o, i) at 3 + 11 o + 2 i, with holes between them.
  check_dim_reductions(input, sum_dim_f32, mean_dim_f32, max_dim_f32, 1e-6, {11, 2});
}

TEST_CASE("sum/mean/max_dim_f16: (3, 1100, 9), float32 accumulation", "[ops][reductions][f16]") {
  std::mt19937_64 rng(1304);
  Tensor<float16> input({3, 1100, 9});
  input.randomize(rng, 0, 1);
  // The output is rounded once to float16 (relative 2^-11); the sum itself must be accurate.
  check_dim_reductions(input, sum_dim_f16, mean_dim_f16, max_dim_f16, 1.0 / 1024);
}

TEST_CASE("mean_dim_f16: a row of 600000 elements (a float16 accumulator would stall)",
          "[ops][reductions][f16]") {
  std::mt19937_64 rng(1305);
  Tensor<float16> input({1, 600000, 1}), output({1, 1});
  input.randomize(rng, 0, 1);
  REQUIRE_NTC_OK(mean_dim_f16(&input, &output, nullptr));
  CHECK_CLOSE(compare(output, sum_or_mean_reference(input, Reduce::mean), 0, 1.0 / 1024));
}

TEST_CASE("max_dim: ties give the first index, NaN wins, rows of -inf", "[ops][reductions]") {
  const int64_t length = 600;
  Tensor<float> input({1, length, 5});
  for (int64_t r = 0; r < length; ++r) {
    input.at({0, r, 0}) = float(r % 7);                          // maximum 6 first at index 6
    input.at({0, r, 1}) = r == 300 || r == 520 ? 9 : 1;          // ties in different blocks
    input.at({0, r, 2}) = r == 400 || r == 550 ? NAN : float(r); // the first NaN wins
    input.at({0, r, 3}) = -std::numeric_limits<float>::infinity();
    input.at({0, r, 4}) = r >= 512 ? 5.0f : -1.0f; // the maximum starts in the last block
  }
  input.at({0, 10, 2}) = 1e30f; // a large value before the NaN does not win
  Tensor<float> values({1, 5});
  Tensor<int64_t> indices({1, 5});
  REQUIRE_NTC_OK(max_dim_f32(&input, &values, &indices, nullptr));
  CHECK(values.get({0, 0}) == 6);
  CHECK(indices.get({0, 0}) == 6);
  CHECK(values.get({0, 1}) == 9);
  CHECK(indices.get({0, 1}) == 300);
  CHECK(std::isnan(values.get({0, 2})));
  CHECK(indices.get({0, 2}) == 400);
  CHECK(values.get({0, 3}) == -std::numeric_limits<double>::infinity());
  CHECK(indices.get({0, 3}) == 0);
  CHECK(values.get({0, 4}) == 5);
  CHECK(indices.get({0, 4}) == 512);
}

TEST_CASE("sum/mean_dim: an empty reduced dimension gives 0 and NaN", "[ops][reductions]") {
  Tensor<float> input({2, 0, 3}, {}, 0, 4), sum({2, 3}), mean({2, 3});
  REQUIRE_NTC_OK(sum_dim_f32(&input, &sum, nullptr));
  REQUIRE_NTC_OK(mean_dim_f32(&input, &mean, nullptr));
  for (int64_t i = 0; i < 6; ++i) {
    CHECK(sum.flat(i) == 0);
    CHECK(std::isnan(mean.flat(i)));
  }
}

TEST_CASE("sum_dim: an output of the wrong shape is rejected", "[ops][reductions][validation]") {
  Tensor<float> input({4, 100, 3}), output({4, 2});
  input.fill(1);
  CHECK(sum_dim_f32(&input, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(output.get({0, 0}) == Tensor<float>::sentinel());
}

//===- addmv ----------------------------------------------------------------------------------===//

namespace {

/// beta * input + alpha * (mat @ vec) in double; beta == 0 ignores input.
template <class T>
std::vector<double> addmv_reference(const Tensor<T> &input, const Tensor<T> &mat,
                                    const Tensor<T> &vec, double beta, double alpha) {
  std::vector<double> out;
  for (int64_t m = 0; m < mat.shape[0]; ++m) {
    double dot = 0;
    for (int64_t k = 0; k < mat.shape[1]; ++k)
      dot += mat.get({m, k}) * vec.get({k});
    out.push_back((beta == 0 ? 0 : beta * input.get({m})) + alpha * dot);
  }
  return out;
}

/// The tolerance of a product row: relative to sum_k |mat[m, k] vec[k]| (any summation order).
template <class T> double addmv_atol(const Tensor<T> &mat, const Tensor<T> &vec, double rel) {
  double worst = 0;
  for (int64_t m = 0; m < mat.shape[0]; ++m) {
    double row = 0;
    for (int64_t k = 0; k < mat.shape[1]; ++k)
      row += std::fabs(mat.get({m, k}) * vec.get({k}));
    worst = std::max(worst, row);
  }
  return worst * rel;
}

} // namespace

TEST_CASE("addmv_f32: 200 x 1100 (tails in M and K), contiguous", "[ops][addmv]") {
  std::mt19937_64 rng(1401);
  const int64_t M = 200, K = 1100;
  Tensor<float> input({M}), mat({M, K}), vec({K}), output({M});
  input.randomize(rng);
  mat.randomize(rng);
  vec.randomize(rng);
  REQUIRE_NTC_OK(addmv_f32(&input, &mat, &vec, 0.75f, -1.5f, &output, nullptr));
  CHECK_CLOSE(compare(output, addmv_reference(input, mat, vec, 0.75, -1.5),
                      addmv_atol(mat, vec, 1e-6), 1e-6));
  CHECK(output.touched_outside_view() == 0);
}

TEST_CASE("addmv_f32: transposed matrix, strided vectors", "[ops][addmv][strided]") {
  std::mt19937_64 rng(1402);
  const int64_t M = 77, K = 130;
  Tensor<float> mat({M, K}, {1, M}); // the transpose of a contiguous K x M buffer
  Tensor<float> vec({K}, {3}, 2);    // every third element, from element 2
  Tensor<float> input({M}, {2}), output({M}, {5}, 1);
  input.randomize(rng);
  mat.randomize(rng);
  vec.randomize(rng);
  REQUIRE_NTC_OK(addmv_f32(&input, &mat, &vec, 2.0f, 0.5f, &output, nullptr));
  CHECK_CLOSE(compare(output, addmv_reference(input, mat, vec, 2.0, 0.5),
                      addmv_atol(mat, vec, 1e-6), 1e-6));
  CHECK(output.touched_outside_view() == 0);
}

TEST_CASE("addmv_f16: 129 x 700, float32 accumulation", "[ops][addmv][f16]") {
  std::mt19937_64 rng(1403);
  const int64_t M = 129, K = 700;
  Tensor<float16> input({M}), mat({M, K}), vec({K}), output({M});
  input.randomize(rng);
  mat.randomize(rng, 0, 1);
  vec.randomize(rng, 0, 1);
  REQUIRE_NTC_OK(addmv_f16(&input, &mat, &vec, 1.0f, 1.0f, &output, nullptr));
  // Sums of ~175 rounded once to float16 (spacing 0.125 there): relative 2^-11.
  CHECK_CLOSE(compare(output, addmv_reference(input, mat, vec, 1.0, 1.0),
                      addmv_atol(mat, vec, 1e-5), 1.0 / 1024));
}

TEST_CASE("addmv: beta = 0 ignores NaN and inf in input", "[ops][addmv]") {
  std::mt19937_64 rng(1404);
  const int64_t M = 70, K = 65;
  Tensor<float> input({M}), mat({M, K}), vec({K}), output({M});
  input.fill(std::numeric_limits<double>::quiet_NaN());
  input.at({3}) = std::numeric_limits<float>::infinity();
  mat.randomize(rng);
  vec.randomize(rng);
  REQUIRE_NTC_OK(addmv_f32(&input, &mat, &vec, 0.0f, 1.0f, &output, nullptr));
  CHECK_CLOSE(compare(output, addmv_reference(input, mat, vec, 0.0, 1.0),
                      addmv_atol(mat, vec, 1e-6), 1e-6));
}

TEST_CASE("addmv: mismatched sizes are rejected", "[ops][addmv][validation]") {
  Tensor<float> input({70}), mat({70, 65}), vec({64}), output({70});
  CHECK(addmv_f32(&input, &mat, &vec, 1.0f, 1.0f, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("vec") != std::string::npos);
}
