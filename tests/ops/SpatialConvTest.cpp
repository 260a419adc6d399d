// conv2d (kernels/ops/conv2d.cpp: implicit GEMM over im2col patches, stride / padding / dilation
// chosen at launch) against a direct convolution in double, on the CPU backend: every listed
// stride × padding × dilation, tails in every dimension of the GEMM (N·P·Q, K and C·R·S against
// 64 × 32 × 32 tiles) and in H, W, a non-square kernel, channels-last and offset views, no bias
// (a stride-0 view of one zero), float16, and the launch-time checks (an output of the wrong
// size, a value that was not listed).
//
// Tolerances: the float32 kernel multiplies in IEEE float32 with float32 accumulation, so it is
// held to 1e-4 (about 100 ulp of the largest outputs); the float16 kernel multiplies float16
// inputs exactly into float32 and rounds once to float16 on the store: half an ulp, 2^-11
// relative, plus the accumulation error, so 2e-3 absolute and relative.
#include "Common.hpp"

#include <conv2d.h>

#include <iostream>
#include <memory>
#include <string>

using namespace ntc_test;

namespace {

/// The extent of a convolution's output along one dimension (PyTorch's formula).
int64_t conv_extent(int64_t size, int64_t kernel, int64_t stride, int64_t padding,
                    int64_t dilation) {
  return (size + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
}

/// torch.nn.functional.conv2d(input, weight, bias, stride, padding, dilation) in double,
/// row-major (N, K, P, Q); `bias` may be null.
template <class T>
std::vector<double> conv2d_reference(const Tensor<T> &input, const Tensor<T> &weight,
                                     const Tensor<T> *bias, int64_t stride, int64_t padding,
                                     int64_t dilation) {
  const int64_t N = input.shape[0], C = input.shape[1], H = input.shape[2], W = input.shape[3];
  const int64_t K = weight.shape[0], R = weight.shape[2], S = weight.shape[3];
  const int64_t P = conv_extent(H, R, stride, padding, dilation);
  const int64_t Q = conv_extent(W, S, stride, padding, dilation);
  std::vector<double> out;
  out.reserve(size_t(N * K * P * Q));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t q = 0; q < Q; ++q) {
          double sum = bias ? bias->get({k}) : 0.0;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t r = 0; r < R; ++r)
              for (int64_t s = 0; s < S; ++s) {
                const int64_t h = p * stride - padding + r * dilation;
                const int64_t w = q * stride - padding + s * dilation;
                if (h >= 0 && h < H && w >= 0 && w < W)
                  sum += input.get({n, c, h, w}) * weight.get({k, c, r, s});
              }
          out.push_back(sum);
        }
  return out;
}

template <class T> struct ConvTolerance;
template <> struct ConvTolerance<float> { static constexpr double atol = 1e-4, rtol = 1e-4; };
template <> struct ConvTolerance<float16> { static constexpr double atol = 2e-3, rtol = 2e-3; };

using ConvFn = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *,
                                const DLTensor *, int64_t, int64_t, int64_t, ntc_stream_t);

template <class T> ConvFn conv_kernel();
template <> ConvFn conv_kernel<float>() { return conv2d_f32; }
template <> ConvFn conv_kernel<float16>() { return conv2d_f16; }

/// Memory layouts of the operands.
enum class Layout {
  contiguous,
  channels_last, // input and output NHWC in memory, weight OHWI, the output at an offset
};

/// Strides of an NCHW view of an NHWC buffer.
std::vector<int64_t> nhwc_strides(const std::vector<int64_t> &shape) {
  return {shape[1] * shape[2] * shape[3], 1, shape[3] * shape[1], shape[1]};
}

/// Runs conv2d on random operands for one stride, padding and dilation, with a bias and without
/// (a (K,) view of a single 0 with stride 0), compares both with the reference and checks that
/// the output's neighbours are untouched.
template <class T>
void check_conv2d(int64_t N, int64_t C, int64_t H, int64_t W, int64_t K, int64_t R, int64_t S,
                  int64_t stride, int64_t padding, int64_t dilation, Layout layout, uint64_t seed) {
  const int64_t P = conv_extent(H, R, stride, padding, dilation);
  const int64_t Q = conv_extent(W, S, stride, padding, dilation);
  INFO("input " << N << "x" << C << "x" << H << "x" << W << ", weight " << K << "x" << C << "x" << R
                << "x" << S << ", stride " << stride << ", padding " << padding << ", dilation "
                << dilation << (layout == Layout::channels_last ? ", channels-last views" : ""));
  const bool cl = layout == Layout::channels_last;
  std::mt19937_64 rng(seed);
  Tensor<T> input({N, C, H, W}, cl ? nhwc_strides({N, C, H, W}) : std::vector<int64_t>{});
  Tensor<T> weight({K, C, R, S}, cl ? nhwc_strides({K, C, R, S}) : std::vector<int64_t>{});
  Tensor<T> bias({K}, cl ? std::vector<int64_t>{3} : std::vector<int64_t>{}); // every 3rd
  input.randomize(rng);
  weight.randomize(rng);
  bias.randomize(rng);
  const int64_t output_offset = cl ? 5 : 0;
  auto make_output = [&] {
    return Tensor<T>({N, K, P, Q}, cl ? nhwc_strides({N, K, P, Q}) : std::vector<int64_t>{},
                     output_offset, output_offset + N * K * P * Q + 7);
  };

  Tensor<T> output = make_output();
  REQUIRE_NTC_OK(
      conv_kernel<T>()(&input, &weight, &bias, &output, stride, padding, dilation, nullptr));
  CHECK_CLOSE(compare(
      output, conv2d_reference(input, weight, std::addressof(bias), stride, padding, dilation),
      ConvTolerance<T>::atol, ConvTolerance<T>::rtol));
  CHECK(output.touched_outside_view() == 0);

  Tensor<T> no_bias({K}, {0}); // one element, seen K times
  no_bias.fill(0);
  Tensor<T> output_no_bias = make_output();
  REQUIRE_NTC_OK(conv_kernel<T>()(&input, &weight, &no_bias, &output_no_bias, stride, padding,
                                  dilation, nullptr));
  CHECK_CLOSE(compare(output_no_bias,
                      conv2d_reference<T>(input, weight, nullptr, stride, padding, dilation),
                      ConvTolerance<T>::atol, ConvTolerance<T>::rtol));
  CHECK(output_no_bias.touched_outside_view() == 0);
}

} // namespace

TEST_CASE("conv2d_f32: every stride, padding and dilation, tails everywhere", "[ops][conv2d]") {
  // N·P·Q = 2·(9..5)·(8..4) against BM = 64, K = 37 against BN = 32, C·R·S = 5·3·2 = 30 and
  // larger against BK = 32; odd H and W.
  uint64_t seed = 100;
  for (int64_t stride : {1, 2})
    for (int64_t padding : {0, 1})
      for (int64_t dilation : {1, 2})
        check_conv2d<float>(2, 5, 11, 9, 37, 3, 2, stride, padding, dilation, Layout::contiguous,
                            seed++);
}

TEST_CASE("conv2d_f32: more channels than one k step, 1x1 and 5x5 kernels", "[ops][conv2d]") {
  check_conv2d<float>(3, 19, 13, 10, 70, 3, 3, 1, 1, 1, Layout::contiguous, 110);
  check_conv2d<float>(2, 40, 7, 6, 33, 1, 1, 2, 0, 1, Layout::contiguous, 111);
  check_conv2d<float>(1, 3, 17, 15, 5, 5, 5, 2, 1, 2, Layout::contiguous, 112);
}

TEST_CASE("conv2d: channels-last, strided bias and offset output views", "[ops][conv2d][strided]") {
  check_conv2d<float>(2, 6, 10, 12, 35, 3, 3, 2, 1, 1, Layout::channels_last, 120);
  check_conv2d<float>(1, 4, 9, 9, 9, 2, 3, 1, 0, 2, Layout::channels_last, 121);
  check_conv2d<float16>(2, 6, 10, 12, 35, 3, 3, 1, 1, 2, Layout::channels_last, 122);
}

TEST_CASE("conv2d_f16: every stride, padding and dilation", "[ops][conv2d]") {
  uint64_t seed = 130;
  for (int64_t stride : {1, 2})
    for (int64_t padding : {0, 1})
      for (int64_t dilation : {1, 2})
        check_conv2d<float16>(2, 16, 14, 13, 40, 3, 3, stride, padding, dilation,
                              Layout::contiguous, seed++);
}

TEST_CASE("conv2d: mismatched sizes and an unlisted stride are rejected", "[ops][conv2d]") {
  Tensor<float> input({2, 2, 8, 8}), weight({3, 2, 3, 3}), bias({3});
  input.fill(1);
  weight.fill(1);
  bias.fill(0);
  // Stride 1, padding 0: 2 x 3 x 6 x 6, 72 rows of the GEMM (two 64-row tiles). The wrapper
  // compares the numbers of row tiles of the im2col matrix and of the output, so a spatial size
  // that changes it is caught (one that keeps it is not: N·P·Q of the output and of the input
  // are expressions of different forms, which the wrapper does not tie).
  Tensor<float> wrong({2, 3, 4, 4});
  CHECK(conv2d_f32(&input, &weight, &bias, &wrong, 1, 0, 1, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  Tensor<float> input_channels({2, 3, 8, 8}); // the weight has 2
  input_channels.fill(1);
  Tensor<float> output({2, 3, 6, 6});
  CHECK(conv2d_f32(&input_channels, &weight, &bias, &output, 1, 0, 1, nullptr) ==
        NTC_ERROR_INVALID_ARGUMENT);
  Tensor<float> wrong_channels({2, 4, 6, 6}); // 3 filters
  CHECK(conv2d_f32(&input, &weight, &bias, &wrong_channels, 1, 0, 1, nullptr) ==
        NTC_ERROR_INVALID_ARGUMENT);
  Tensor<float> strided_output({2, 3, 2, 2}); // stride 3 would give 2 x 2, but 3 is not listed
  const ntc_status_t status = conv2d_f32(&input, &weight, &bias, &strided_output, 3, 0, 1, nullptr);
  const std::string message = ntc_last_error();
  INFO("ntc_last_error(): " << message);
  CHECK(status == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(message.find("'stride'") != std::string::npos);
  for (int64_t i = 0; i < strided_output.numel(); ++i)
    CHECK(strided_output.flat(i) == Tensor<float>::sentinel());
  for (int64_t i = 0; i < output.numel(); ++i)
    CHECK(output.flat(i) == Tensor<float>::sentinel());
}
