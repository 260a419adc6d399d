// logsumexp: log(sum(exp(input))) over the last dimension, torch.logsumexp(input, -1) on
// (rows, C) tensors -> (rows,), for float32 and float16 (float32 arithmetic).
//
// One program per row walks it in blocks of LOGSUMEXP_BLOCK elements with the online rescaling
// ntops' logsumexp uses: a running maximum m and a running sum s of exp(x - m), rescaled by
// exp(m_old - m_new) when the maximum grows; the result is m + log(s). Masked lanes read -inf.
// Infinities behave as in torch: a row of -inf gives -inf, a row holding +inf gives +inf, NaN
// propagates.

#include "reduction.hpp"

constexpr nt::Symbol LOGSUMEXP_BLOCK = nt::block_size("LOGSUMEXP_BLOCK", 1024);

NT_ARRANGEMENT auto logsumexp_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(reduce_blocks(input, -1, LOGSUMEXP_BLOCK), one_per_program(output));
}

NT_APPLICATION void logsumexp_application(nt::Tile input, nt::Tile output) {
  auto max = ntl::cast(-kInfinity, ntl::float32);
  auto sum_exp = ntl::cast(0, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i)
    online_logsumexp_step(input[i].to(ntl::float32), max, sum_exp);
  output = finish_logsumexp(max, sum_exp);
}

NT_KERNEL(logsumexp_f32, logsumexp_arrangement, logsumexp_application,
          nt::Tensor(2, nt::float32).other(-kInfinity), nt::Tensor(1, nt::float32));
NT_KERNEL(logsumexp_f16, logsumexp_arrangement, logsumexp_application,
          nt::Tensor(2, nt::float16).other(-kInfinity), nt::Tensor(1, nt::float16));
