// rms_norm: root-mean-square normalization over the last dimension,
// torch.nn.functional.rms_norm(input, (C,), weight, eps) on (rows, C) tensors:
//   output = input / sqrt(mean(input^2) + eps) * weight
// for float32 and float16 (arithmetic in float32, rounded once to the output type).
//
// One program per row walks it in blocks of RMS_NORM_BLOCK elements (ntops' rms_norm): one pass
// for the mean square (masked lanes read 0), one that writes the output.

#include "reduction.hpp"

constexpr nt::Symbol RMS_NORM_BLOCK = nt::block_size("RMS_NORM_BLOCK", 1024);

NT_ARRANGEMENT auto rms_norm_arrangement(nt::Tensor input, nt::Tensor weight, nt::Tensor eps,
                                         nt::Tensor output) {
  auto input_arranged = reduce_blocks(input, -1, RMS_NORM_BLOCK);
  return nt::arrange(input_arranged, shared_row_blocks(weight, RMS_NORM_BLOCK, input_arranged), eps,
                     reduce_blocks(output, -1, RMS_NORM_BLOCK));
}

NT_APPLICATION void rms_norm_application(nt::Tile input, nt::Tile weight, nt::Tile eps,
                                         nt::Tile output) {
  auto squares = ntl::zeros({RMS_NORM_BLOCK}, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i) {
    auto x = input[i].to(ntl::float32);
    squares += x * x;
  }
  auto inverse_rms = ntl::rsqrt(ntl::sum(squares) / input.source().shape(-1) + eps);

  for (int i = 0; i < input.shape(0); ++i)
    output[i] = input[i].to(ntl::float32) * inverse_rms * weight[i].to(ntl::float32);
}

NT_KERNEL(rms_norm_f32, rms_norm_arrangement, rms_norm_application, nt::Tensor(2, nt::float32),
          nt::Tensor(1, nt::float32), nt::Scalar(nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(rms_norm_f16, rms_norm_arrangement, rms_norm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(1, nt::float16), nt::Scalar(nt::float32), nt::Tensor(2, nt::float16));
