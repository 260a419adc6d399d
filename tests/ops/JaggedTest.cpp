// Jagged tensors (kernels/ops/jagged.cpp: to_padded, jagged_sum, jagged_broadcast; rows in
// blocks of 16, features in blocks of 64) on the CPU backend, against plain C++ references:
// sequences of length 0, 1, shorter and longer than a block, features with tails, values that
// are a strided view, offsets that do not start at 0, float16, and every way the offsets can be
// wrong (a status naming the parameter, nothing written).
#include "Common.hpp"

#include <jagged.h>

#include <cstring>

using namespace ntc_test;

namespace {

/// Offsets (batch + 1 entries) of sequences of the given lengths, starting at row `first`.
struct Offsets : Tensor<int64_t> {
  explicit Offsets(const std::vector<int64_t> &lengths, int64_t first = 0)
      : Tensor<int64_t>({int64_t(lengths.size()) + 1}) {
    int64_t row = first;
    for (size_t b = 0; b <= lengths.size(); ++b) {
      (*this)(int64_t(b)) = row;
      if (b < lengths.size())
        row += lengths[b];
    }
  }
};

int64_t longest(const std::vector<int64_t> &lengths) {
  int64_t n = 0;
  for (int64_t l : lengths)
    n = std::max(n, l);
  return n;
}

/// Values holding the sequences of `lengths` from row `first` on, `features` wide, random, with
/// the given row stride (elements; at least `features`).
template <class T> struct Values : Tensor<T> {
  Values(const std::vector<int64_t> &lengths, int64_t first, int64_t features, int64_t row_stride,
         std::mt19937_64 &rng)
      : Tensor<T>({rows(lengths, first), features}, {row_stride, 1}) {
    this->randomize(rng);
  }
  static int64_t rows(const std::vector<int64_t> &lengths, int64_t first) {
    for (int64_t l : lengths)
      first += l;
    return first;
  }
};

/// to_padded(values, offsets) of the given lengths against the reference.
template <class T, class Kernel>
void check_to_padded(Kernel kernel, const std::vector<int64_t> &lengths, int64_t first,
                     int64_t features, int64_t row_stride, std::mt19937_64 &rng) {
  Values<T> values(lengths, first, features, row_stride, rng);
  Offsets offsets(lengths, first);
  const int64_t batch = int64_t(lengths.size()), rows = longest(lengths);
  Tensor<T> output({batch, rows, features});
  REQUIRE_NTC_OK(kernel(&values, &offsets, &output, nullptr));
  std::vector<double> ref;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t f = 0; f < features; ++f)
        ref.push_back(i < lengths[size_t(b)] ? values.get({offsets(b) + i, f}) : 0.0);
  if (output.numel() > 0)
    CHECK_CLOSE(compare(output, ref, 0, 0));
}

/// The sum of each sequence (batch, features), row-major, in double.
template <class T>
std::vector<double> sequence_sums(const Values<T> &values, Offsets &offsets,
                                  const std::vector<int64_t> &lengths, int64_t features) {
  std::vector<double> sums;
  for (size_t b = 0; b < lengths.size(); ++b)
    for (int64_t f = 0; f < features; ++f) {
      double s = 0;
      for (int64_t i = 0; i < lengths[b]; ++i)
        s += values.get({offsets(int64_t(b)) + i, f});
      sums.push_back(s);
    }
  return sums;
}

} // namespace

TEST_CASE("to_padded: sequences of every length against the reference", "[jagged]") {
  std::mt19937_64 rng(11);
  check_to_padded<float>(to_padded_f32, {3, 0, 17, 1, 40, 16}, 0, 70, 70, rng);
  check_to_padded<float>(to_padded_f32, {5}, 0, 1, 1, rng);
  // Values that are a strided view, offsets that start past row 0.
  check_to_padded<float>(to_padded_f32, {33, 2, 9}, 4, 65, 80, rng);
  check_to_padded<float16>(to_padded_f16, {7, 31, 0, 12}, 2, 130, 131, rng);
}

TEST_CASE("to_padded: an empty batch, and sequences that are all empty", "[jagged]") {
  std::mt19937_64 rng(12);
  Tensor<float> values({0, 8});
  Tensor<int64_t> offsets({1});
  offsets(0) = 0;
  Tensor<float> output({0, 0, 8});
  REQUIRE_NTC_OK(to_padded_f32(&values, &offsets, &output, nullptr));
  check_to_padded<float>(to_padded_f32, {0, 0, 0}, 0, 8, 8, rng);
}

TEST_CASE("jagged_sum: the sum of each sequence", "[jagged]") {
  std::mt19937_64 rng(13);
  for (const auto &lengths :
       std::vector<std::vector<int64_t>>{{3, 0, 17, 1, 40, 16}, {100}, {0, 65, 2}}) {
    Values<float> values(lengths, 1, 97, 100, rng);
    Offsets offsets(lengths, 1);
    const int64_t batch = int64_t(lengths.size());
    Tensor<float> output({batch, 97});
    REQUIRE_NTC_OK(jagged_sum_f32(&values, &offsets, &output, nullptr));
    CHECK_CLOSE(compare(output, sequence_sums(values, offsets, lengths, 97), 1e-5, 1e-5));
  }
  // float16: float32 accumulation, rounded once.
  std::vector<int64_t> lengths = {20, 5, 33};
  Values<float16> values(lengths, 0, 64, 64, rng);
  Offsets offsets(lengths);
  Tensor<float16> output({3, 64});
  REQUIRE_NTC_OK(jagged_sum_f16(&values, &offsets, &output, nullptr));
  CHECK_CLOSE(compare(output, sequence_sums(values, offsets, lengths, 64), 1e-2, 2e-3));
}

TEST_CASE("jagged_broadcast: a dense row repeated along each sequence", "[jagged]") {
  std::mt19937_64 rng(14);
  const std::vector<int64_t> lengths = {4, 0, 19, 1};
  Tensor<float> input({4, 70});
  input.randomize(rng);
  Offsets offsets(lengths, 2);
  // The values buffer has rows before the first sequence: they must stay untouched.
  Tensor<float> values({26, 70});
  REQUIRE_NTC_OK(jagged_broadcast_f32(&input, &values, &offsets, nullptr));
  std::vector<double> ref;
  for (int64_t r = 0; r < 26; ++r)
    for (int64_t f = 0; f < 70; ++f) {
      double v = Tensor<float>::sentinel();
      for (int64_t b = 0; b < 4; ++b)
        if (r >= offsets(b) && r < offsets(b + 1))
          v = input.get({b, f});
      ref.push_back(v);
    }
  CHECK_CLOSE(compare(values, ref, 0, 0));
}

TEST_CASE("jagged tensors: bad offsets are a status naming the parameter", "[jagged]") {
  std::mt19937_64 rng(15);
  Tensor<float> values({10, 8});
  values.randomize(rng);
  Tensor<float> output({2, 6, 8});
  auto expect_error = [&](Tensor<int64_t> &offsets, const char *message) {
    REQUIRE(to_padded_f32(&values, &offsets, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(ntc_last_error()) == message);
    CHECK(output.touched_outside_view() == 0);
    for (int64_t i = 0; i < output.numel(); ++i)
      CHECK(output.flat(i) == Tensor<float>::sentinel());
  };
  Tensor<int64_t> decreasing({3});
  decreasing(0) = 0, decreasing(1) = 6, decreasing(2) = 5;
  expect_error(decreasing,
               "to_padded_f32: parameter 'input_offsets' decreases at entry 2 (5 after 6)");
  Tensor<int64_t> past({3});
  past(0) = 0, past(1) = 6, past(2) = 11;
  expect_error(past, "to_padded_f32: parameter 'input_offsets' ends at 11, past the values' "
                     "extent 10 along the jagged dimension");
  Tensor<int64_t> negative({3});
  negative(0) = -1, negative(1) = 4, negative(2) = 9;
  expect_error(negative, "to_padded_f32: parameter 'input_offsets' starts at -1 < 0");
  Tensor<int64_t> none({0});
  expect_error(none, "to_padded_f32: parameter 'input_offsets' has no entry (it needs batch + 1 "
                     "entries)");
  Tensor<int64_t> strided({3}, {2});
  strided(0) = 0, strided(1) = 6, strided(2) = 10;
  expect_error(strided,
               "to_padded_f32: parameter 'input_offsets' has stride 2, expected a contiguous "
               "tensor");
  // The padded output's sequence extent must be the longest sequence (6 here).
  Tensor<int64_t> good({3});
  good(0) = 0, good(1) = 4, good(2) = 10;
  Tensor<float> wrong({2, 5, 8});
  REQUIRE(to_padded_f32(&values, &good, &wrong, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("size mismatch") != std::string::npos);
  // Offsets of another dtype.
  Tensor<int32_t> narrow({3});
  REQUIRE(to_padded_f32(&values, reinterpret_cast<const DLTensor *>(&narrow.dl), &output,
                        nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("'input_offsets' has dtype int32") != std::string::npos);
}

TEST_CASE("jagged tensors: the info lists the offsets after the values", "[jagged]") {
  const ntc_kernel_info_t *info = ntc_to_padded_f32_info();
  REQUIRE(info->num_params == 3);
  CHECK(std::strcmp(info->params[0].name, "input") == 0);
  CHECK(info->params[0].kind == NTC_PARAM_JAGGED);
  CHECK(info->params[0].ndim == 2);
  CHECK(std::strcmp(info->params[1].name, "input_offsets") == 0);
  CHECK(info->params[1].kind == NTC_PARAM_OFFSETS);
  CHECK(info->params[1].ndim == 1);
  CHECK(info->params[2].kind == NTC_PARAM_TENSOR);
  CHECK(info->params[2].ndim == 3);
}
