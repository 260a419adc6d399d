// layer_norm: layer normalization over the last dimension,
// torch.nn.functional.layer_norm(input, (C,), weight, bias, eps) on (rows, C) tensors:
//   output = (input - mean) / sqrt(var + eps) * weight + bias   (var: biased, over the row)
// for float32 and float16 (statistics and arithmetic in float32, rounded once to the output).
//
// One program per row walks it in blocks of LAYER_NORM_BLOCK elements (ntops' layer_norm, rows of
// any length): one pass for the mean, one for the variance of the centred values (masked lanes
// excluded), one that writes the output. A normalization over several trailing dimensions is
// this kernel on the (rows, C) view that merges them.

#include "reduction.hpp"

constexpr nt::Symbol LAYER_NORM_BLOCK = nt::block_size("LAYER_NORM_BLOCK", 1024);

NT_ARRANGEMENT auto layer_norm_arrangement(nt::Tensor input, nt::Tensor weight, nt::Tensor bias,
                                           nt::Tensor eps, nt::Tensor output) {
  auto input_arranged = reduce_blocks(input, -1, LAYER_NORM_BLOCK);
  return nt::arrange(input_arranged, shared_row_blocks(weight, LAYER_NORM_BLOCK, input_arranged),
                     shared_row_blocks(bias, LAYER_NORM_BLOCK, input_arranged), eps,
                     reduce_blocks(output, -1, LAYER_NORM_BLOCK));
}

NT_APPLICATION void layer_norm_application(nt::Tile input, nt::Tile weight, nt::Tile bias,
                                           nt::Tile eps, nt::Tile output) {
  auto row_length = input.source().shape(-1);

  auto sums = ntl::zeros({LAYER_NORM_BLOCK}, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i)
    sums += input[i].to(ntl::float32);
  auto mean = ntl::sum(sums) / row_length;

  auto squares = ntl::zeros({LAYER_NORM_BLOCK}, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i) {
    auto in_row = input[i].offsets(-1) < row_length; // masked lanes would add mean^2
    auto centred = ntl::where(in_row, input[i].to(ntl::float32) - mean, 0);
    squares += centred * centred;
  }
  auto inverse_std = ntl::rsqrt(ntl::sum(squares) / row_length + eps);

  for (int i = 0; i < input.shape(0); ++i)
    output[i] = (input[i].to(ntl::float32) - mean) * inverse_std * weight[i].to(ntl::float32) +
                bias[i].to(ntl::float32);
}

NT_KERNEL(layer_norm_f32, layer_norm_arrangement, layer_norm_application,
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(layer_norm_f16, layer_norm_arrangement, layer_norm_application,
          nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16),
          nt::Scalar(nt::float32), nt::Tensor(2, nt::float16));
