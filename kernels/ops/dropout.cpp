// dropout (training mode), as ntops' kernels/dropout.py: an element is kept where
// rand(seed, its offset in the input) > p and scaled by 1 / (1 − p), and is 0 otherwise.
// rand is Philox on (seed, offset), so a (seed, input layout) pair always gives the same mask.
// PyTorch equivalent up to the random stream: torch.nn.functional.dropout(x, p, training=True).
// float16 inputs are scaled in float32 and rounded once. Ranks 1 and 4 (element_wise.hpp).
// C signature: dropout_f32(input, float p, int64_t seed, output, stream).
#include "element_wise.hpp"

NT_ARRANGEMENT auto dropout_arrangement(nt::Tensor input, nt::Tensor p, nt::Tensor seed,
                                        nt::Tensor output) {
  return element_wise_arrangement(input, p, seed, output);
}

NT_APPLICATION void dropout_application(nt::Tile input, nt::Tile p, nt::Tile seed,
                                        nt::Tile output) {
  auto keep = ntl::rand(seed, input.offsets()) > p;
  output = ntl::where(keep, input.to(ntl::float32) / (1 - p), 0);
}

NT_KERNEL(dropout_f32, dropout_arrangement, dropout_application, nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(1, nt::float32));
NT_KERNEL(dropout_f16, dropout_arrangement, dropout_application, nt::Tensor(1, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(1, nt::float16));
NT_KERNEL(dropout_f32_4d, dropout_arrangement, dropout_application, nt::Tensor(4, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(4, nt::float32));
NT_KERNEL(dropout_f16_4d, dropout_arrangement, dropout_application, nt::Tensor(4, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(4, nt::float16));
