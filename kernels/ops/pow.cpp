// pow: input^exponent, elementwise over two tensors of the same shape (ntops' kernels/pow.py);
// torch.pow(input, exponent). Computed in float32 and rounded once to the output's type; a
// negative base with an integral exponent gives the signed result, as in PyTorch.
// Ranks 1 and 4 (element_wise.hpp). C signature: pow_f32(input, exponent, output, stream).
#include "element_wise.hpp"

NT_ARRANGEMENT auto pow_arrangement(nt::Tensor input, nt::Tensor exponent, nt::Tensor output) {
  return element_wise_arrangement(input, exponent, output);
}

NT_APPLICATION void pow_application(nt::Tile input, nt::Tile exponent, nt::Tile output) {
  output = ntl::pow(input.to(ntl::float32), exponent.to(ntl::float32));
}

NT_KERNEL(pow_f32, pow_arrangement, pow_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(pow_f16, pow_arrangement, pow_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16));
NT_KERNEL(pow_f32_4d, pow_arrangement, pow_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32), nt::Tensor(4, nt::float32));
NT_KERNEL(pow_f16_4d, pow_arrangement, pow_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16), nt::Tensor(4, nt::float16));
