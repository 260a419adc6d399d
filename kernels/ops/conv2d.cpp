// conv2d: a 2-D convolution of an NCHW input with an OIHW weight, plus an optional bias per
// output channel, as an implicit GEMM (im2col): torch.nn.functional.conv2d(input, weight, bias,
// stride, padding, dilation) with groups = 1 (ntops' conv2d arrangement).
//
//   input (N, C, H, W), weight (K, C, R, S), bias (K,), output (N, K, P, Q) with
//   P = ⌊(H + 2·padding − dilation·(R − 1) − 1) / stride⌋ + 1 (Q likewise from W and S).
//
// stride ∈ {1, 2}, padding ∈ {0, 1} and dilation ∈ {1, 2} are launch-time nt::Constexpr values,
// the same for both spatial dimensions (one kernel variant per combination; another value is
// NTC_ERROR_INVALID_ARGUMENT). Padding is the arrangement's pad(): padded elements read 0.
// Without a bias, pass a (K,) view of a single 0 with stride 0 (as ntops passes zeros): a
// second kernel without the bias would double the variants that CUDA builds compile.
//
// The arrangement cuts the padded input into one (C, R, S) patch per output pixel (a strided,
// dilated tile in floor mode), ravels and flattens the patches into the (N·P·Q, C·R·S) matrix of
// im2col, the weight into (C·R·S, K) and the output, channels last, into (N·P·Q, K); then it is
// the classic GEMM arrangement: one program per BM × BN output tile, walking C·R·S in BK steps,
// with float32 accumulation (float16 products are exact in it).

#include <ntc/dsl.hpp>

// float16: tuned tiles (the GPU's tensor-core main loop); float32 (the GPU's generic dot, whose
// 128 × 128 × 64 variants made ptxas take over 15 minutes for the file): fixed 64 × 32 × 32.
constexpr nt::Symbol BM = nt::block_size("CONV2D_BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("CONV2D_BLOCK_SIZE_N", 32, 128);
constexpr nt::Symbol BK = nt::block_size("CONV2D_BLOCK_SIZE_K", 32, 64);
constexpr nt::Symbol F32_BM = nt::block_size("CONV2D_F32_BLOCK_SIZE_M", 64);
constexpr nt::Symbol F32_BN = nt::block_size("CONV2D_F32_BLOCK_SIZE_N", 32);
constexpr nt::Symbol F32_BK = nt::block_size("CONV2D_F32_BLOCK_SIZE_K", 32);

// The im2col matrix of `input`: (N·P·Q, C·R·S), row n·P·Q + p·Q + q holding the patch of output
// pixel (n, p, q) in (c, r, s) order, the weight's order. The patch takes all of the input's
// channels (ntops takes the weight's C): the main loop's extents ⌈C·R·S/BK⌉ of the two operands
// then tie the input's C to the weight's at launch.
static nt::Tensor im2col(nt::Tensor input, nt::Tensor weight, nt::Tensor stride, nt::Tensor padding,
                         nt::Tensor dilation) {
  auto patches = input.pad({{0, 0}, {0, 0}, {padding, padding}, {padding, padding}})
                     .tile({1, input.shape(1), weight.shape(2), weight.shape(3)},
                           {-1, -1, stride, stride}, {1, 1, dilation, dilation},
                           /*floor_mode=*/true); // (N, 1, P, Q) -> (1, C, R, S)
  patches = patches.squeeze(1);
  patches.dtype() = patches.dtype().squeeze(0);    // (N, P, Q) -> (C, R, S)
  return patches.ravel().flatten(0, 3).flatten(1); // (N·P·Q, C·R·S)
}

// output: (⌈NPQ/BM⌉, ⌈K/BN⌉) -> (BM, BN), the (N·P·Q, K) view of the NCHW output.
static nt::Tensor output_matrix(nt::Tensor output, nt::Symbol bm, nt::Symbol bn) {
  return output.permute({0, 2, 3, 1}).flatten(0, 3).tile({bm, bn});
}

// lhs: (⌈NPQ/BM⌉, ⌈K/BN⌉) -> (⌈CRS/BK⌉,) -> (BM, BK)
static nt::Tensor lhs_tiles(nt::Tensor im2col_matrix, nt::Tensor output_tiles, nt::Symbol bm,
                            nt::Symbol bk) {
  auto tiles = im2col_matrix.tile({bm, bk}).tile({1, -1}).expand({-1, output_tiles.shape(1)});
  tiles.dtype() = tiles.dtype().squeeze(0);
  return tiles;
}

// rhs: (⌈NPQ/BM⌉, ⌈K/BN⌉) -> (⌈CRS/BK⌉,) -> (BK, BN), from the weight as (C·R·S, K).
static nt::Tensor rhs_tiles(nt::Tensor weight, nt::Tensor output_tiles, nt::Symbol bk,
                            nt::Symbol bn) {
  auto tiles = weight.flatten(1).permute({1, 0}).tile({bk, bn}).tile({-1, 1}).expand(
      {output_tiles.shape(0), -1});
  tiles.dtype() = tiles.dtype().squeeze(1);
  return tiles;
}

// bias: (⌈NPQ/BM⌉, ⌈K/BN⌉) -> (BN,), the same channels for every row tile.
static nt::Tensor bias_tiles(nt::Tensor bias, nt::Tensor output_tiles, nt::Symbol bn) {
  return bias.tile({bn}).unsqueeze(0).expand({output_tiles.shape(0), -1});
}

// The arranged parameters for blocks of bm output rows, bn output channels and bk of C·R·S.
static auto conv2d_tiles(nt::Tensor input, nt::Tensor weight, nt::Tensor bias, nt::Tensor output,
                         nt::Tensor stride, nt::Tensor padding, nt::Tensor dilation, nt::Symbol bm,
                         nt::Symbol bn, nt::Symbol bk) {
  auto output_tiles = output_matrix(output, bm, bn);
  return nt::arrange(
      lhs_tiles(im2col(input, weight, stride, padding, dilation), output_tiles, bm, bk),
      rhs_tiles(weight, output_tiles, bk, bn), bias_tiles(bias, output_tiles, bn), output_tiles,
      stride, padding, dilation);
}

NT_ARRANGEMENT auto conv2d_arrangement(nt::Tensor input, nt::Tensor weight, nt::Tensor bias,
                                       nt::Tensor output, nt::Tensor stride, nt::Tensor padding,
                                       nt::Tensor dilation) {
  return conv2d_tiles(input, weight, bias, output, stride, padding, dilation, BM, BN, BK);
}

NT_ARRANGEMENT auto conv2d_f32_arrangement(nt::Tensor input, nt::Tensor weight, nt::Tensor bias,
                                           nt::Tensor output, nt::Tensor stride, nt::Tensor padding,
                                           nt::Tensor dilation) {
  return conv2d_tiles(input, weight, bias, output, stride, padding, dilation, F32_BM, F32_BN,
                      F32_BK);
}

// The GEMM main loop over C·R·S in float32, then the bias of the tile's channels.
NT_APPLICATION void conv2d_application(nt::Tile input, nt::Tile weight, nt::Tile bias,
                                       nt::Tile output, nt::Tile stride, nt::Tile padding,
                                       nt::Tile dilation) {
  auto product = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < input.shape(0); ++k)
    product += ntl::dot(input[k], weight[k]);
  output = product + bias;
}

#define CONV2D_OPTIONS                                                                             \
  nt::Constexpr("stride", {1, 2}), nt::Constexpr("padding", {0, 1}),                               \
      nt::Constexpr("dilation", {1, 2})

NT_KERNEL(conv2d_f32, conv2d_f32_arrangement, conv2d_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(4, nt::float32),
          CONV2D_OPTIONS);

NT_KERNEL(conv2d_f16, conv2d_arrangement, conv2d_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(4, nt::float16),
          CONV2D_OPTIONS);
