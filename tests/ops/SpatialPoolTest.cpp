// max_pool2d and avg_pool2d (kernels/ops/max_pool2d.cpp, avg_pool2d.cpp: window, stride and
// padding chosen at launch; the output's size selects PyTorch's ceil or floor mode) against
// PyTorch's definitions in double, on the CPU backend: every listed window × stride × padding in
// both modes, including PyTorch's ceil-mode rule that drops a last window starting in the right
// padding and avg_pool2d's count_include_pad divisor for windows that overhang the padding;
// tails in H, W and in the N·C·P·Q rows of a program, strided views, float16, and the launch-time
// checks.
//
// Tolerances: max is exact (a float16 max is one of the inputs). avg sums in float32 and divides
// once: 1e-6 for float32, and half a float16 ulp (2^-11 relative) plus that for float16.
#include "Common.hpp"

#include <avg_pool2d.h>
#include <max_pool2d.h>

#include <algorithm>
#include <limits>
#include <string>

using namespace ntc_test;

namespace {

/// The number of windows along a dimension of `size` elements, as torch.nn.functional's pooling
/// computes it (dilation 1).
int64_t pooled_extent(int64_t size, int64_t window, int64_t stride, int64_t padding,
                      bool ceil_mode) {
  const int64_t span = size + 2 * padding - window;
  int64_t n = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
  if (ceil_mode && (n - 1) * stride >= size + padding)
    --n; // the last window would start in the right padding
  return n;
}

enum class Pool { max, avg };

/// torch.nn.functional.max_pool2d / avg_pool2d (count_include_pad=True) in double, row-major
/// (N, C, P, Q) for the given output extents.
template <class T>
std::vector<double> pool_reference(Pool pool, const Tensor<T> &input, int64_t window,
                                   int64_t stride, int64_t padding, int64_t P, int64_t Q) {
  const int64_t N = input.shape[0], C = input.shape[1], H = input.shape[2], W = input.shape[3];
  std::vector<double> out;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t q = 0; q < Q; ++q) {
          const int64_t h0 = p * stride - padding, w0 = q * stride - padding;
          // PyTorch's divisor: the window clipped to the padded input (count_include_pad).
          const int64_t divisor =
              (std::min(h0 + window, H + padding) - h0) * (std::min(w0 + window, W + padding) - w0);
          double max = -std::numeric_limits<double>::infinity(), sum = 0;
          for (int64_t h = std::max<int64_t>(h0, 0); h < std::min(h0 + window, H); ++h)
            for (int64_t w = std::max<int64_t>(w0, 0); w < std::min(w0 + window, W); ++w) {
              max = std::max(max, input.get({n, c, h, w}));
              sum += input.get({n, c, h, w});
            }
          out.push_back(pool == Pool::max ? max : sum / double(divisor));
        }
  return out;
}

using PoolFn = ntc_status_t (*)(const DLTensor *, const DLTensor *, int64_t, int64_t, int64_t,
                                ntc_stream_t);

template <class T> PoolFn pool_kernel(Pool pool);
template <> PoolFn pool_kernel<float>(Pool pool) {
  return pool == Pool::max ? max_pool2d_f32 : avg_pool2d_f32;
}
template <> PoolFn pool_kernel<float16>(Pool pool) {
  return pool == Pool::max ? max_pool2d_f16 : avg_pool2d_f16;
}

template <class T> double pool_tolerance(Pool pool) {
  if (pool == Pool::max)
    return 0;
  return sizeof(T) == 2 ? 5e-4 : 1e-6;
}

/// Runs both poolings on a random (N, C, H, W) input for one window, stride and padding in both
/// ceil and floor mode. With `strided`, the input is a view of every other element of a wider
/// buffer in W and channels last, and the output sits at an offset of a larger buffer.
template <class T>
void check_pool(int64_t N, int64_t C, int64_t H, int64_t W, int64_t window, int64_t stride,
                int64_t padding, bool strided, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<int64_t> input_strides =
      strided ? std::vector<int64_t>{H * 2 * W * C, 1, 2 * W * C, 2 * C} : std::vector<int64_t>{};
  Tensor<T> input({N, C, H, W}, input_strides, strided ? 3 : 0);
  input.randomize(rng, -4, 4);
  for (Pool pool : {Pool::max, Pool::avg})
    for (bool ceil_mode : {true, false}) {
      const int64_t P = pooled_extent(H, window, stride, padding, ceil_mode);
      const int64_t Q = pooled_extent(W, window, stride, padding, ceil_mode);
      INFO((pool == Pool::max ? "max_pool2d" : "avg_pool2d")
           << (sizeof(T) == 2 ? "_f16" : "_f32") << ": input " << N << "x" << C << "x" << H << "x"
           << W << (strided ? " (strided)" : "") << ", window " << window << ", stride " << stride
           << ", padding " << padding << ", ceil_mode " << ceil_mode << " -> " << P << "x" << Q);
      const int64_t offset = strided ? 2 : 0;
      Tensor<T> output({N, C, P, Q},
                       strided ? std::vector<int64_t>{C * P * Q + 1, P * Q, Q, 1}
                               : std::vector<int64_t>{},
                       offset, offset + N * (C * P * Q + 1) + 3);
      REQUIRE_NTC_OK(pool_kernel<T>(pool)(&input, &output, window, stride, padding, nullptr));
      const double tolerance = pool_tolerance<T>(pool);
      CHECK_CLOSE(compare(output, pool_reference(pool, input, window, stride, padding, P, Q),
                          tolerance, tolerance));
      CHECK(output.touched_outside_view() == 0);
    }
}

} // namespace

TEST_CASE("max_pool2d, avg_pool2d: every window, stride and padding, ceil and floor mode",
          "[ops][pool2d]") {
  // H = 11, W = 8 (and 9 x 12): the last ceil-mode window overhangs the padded input in some of
  // the combinations, and PyTorch's rule drops it in others (H = 11, window 2, stride 2,
  // padding 1: ⌈11 / 2⌉ + 1 = 7 windows, the 7th would start at 12 − 1 = H, so 6).
  uint64_t seed = 200;
  for (int64_t window : {2, 3})
    for (int64_t stride : {1, 2})
      for (int64_t padding : {0, 1}) {
        check_pool<float>(2, 3, 11, 8, window, stride, padding, false, seed++);
        check_pool<float16>(1, 5, 9, 12, window, stride, padding, false, seed++);
      }
}

TEST_CASE("max_pool2d, avg_pool2d: PyTorch's ceil-mode rule drops a window in the padding",
          "[ops][pool2d]") {
  // H = W = 5, window 2, stride 2, padding 1: ⌈(5 + 2 − 2) / 2⌉ + 1 = 4 windows, but the 4th
  // would start at 6 − 1 = 5 = H + padding − 1 ≥ H: PyTorch keeps 3 (its last one is [3, 5)).
  REQUIRE(pooled_extent(5, 2, 2, 1, true) == 3);
  check_pool<float>(2, 2, 5, 5, 2, 2, 1, false, 210);
  // H = 7, window 3, stride 2, padding 0: ⌈4 / 2⌉ + 1 = 3 windows in both modes; H = 8: the ceil
  // window [6, 9) overhangs by one, its avg divides by 2.
  check_pool<float>(1, 3, 7, 8, 3, 2, 0, false, 211);
}

TEST_CASE("max_pool2d, avg_pool2d: strided views, many rows per program",
          "[ops][pool2d][strided]") {
  check_pool<float>(3, 7, 10, 9, 3, 2, 1, true, 220);
  check_pool<float16>(2, 4, 13, 6, 2, 1, 0, true, 221);
  check_pool<float>(4, 16, 15, 17, 2, 2, 0, false, 222); // 4·16·8·9 outputs
}

TEST_CASE("max_pool2d: padding never wins over negative inputs", "[ops][pool2d]") {
  Tensor<float> input({1, 1, 4, 4});
  input.fill(-3);
  Tensor<float> output({1, 1, 3, 3}); // window 2, stride 2, padding 1 (ceil: 3, floor: 3)
  REQUIRE_NTC_OK(max_pool2d_f32(&input, &output, 2, 2, 1, nullptr));
  for (int64_t i = 0; i < output.numel(); ++i)
    CHECK(output.flat(i) == -3);
  REQUIRE_NTC_OK(avg_pool2d_f32(&input, &output, 2, 2, 1, nullptr));
  CHECK(output.flat(0) == -0.75); // one input element in a window of four (count_include_pad)
  CHECK(output.flat(4) == -3);
}

TEST_CASE("max_pool2d, avg_pool2d: unlisted window and mismatched batch are rejected",
          "[ops][pool2d]") {
  Tensor<float> input({2, 3, 8, 8}), output({2, 3, 2, 2});
  input.fill(1);
  const ntc_status_t status = max_pool2d_f32(&input, &output, 4, 2, 0, nullptr);
  const std::string message = ntc_last_error();
  INFO("ntc_last_error(): " << message);
  CHECK(status == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(message.find("'window'") != std::string::npos);
  for (int64_t i = 0; i < output.numel(); ++i)
    CHECK(output.flat(i) == Tensor<float>::sentinel());
  Tensor<float> wrong_batch({5, 3, 4, 4}); // 2 x 3 x 4 x 4 with window 2, stride 2
  CHECK(avg_pool2d_f32(&input, &wrong_batch, 2, 2, 0, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
}
