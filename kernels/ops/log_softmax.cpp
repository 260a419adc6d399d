// log_softmax: the logarithm of the softmax over the last dimension,
// torch.log_softmax(input, -1) on (rows, C) tensors: output = input - logsumexp(input), for
// float32 and float16 (float32 arithmetic, rounded once to the output type).
//
// One program per row walks it twice in blocks of LOG_SOFTMAX_BLOCK elements: the online
// log-sum-exp of reduction.hpp (ntops' softmax), then the output. Masked lanes read -inf.

#include "reduction.hpp"

constexpr nt::Symbol LOG_SOFTMAX_BLOCK = nt::block_size("LOG_SOFTMAX_BLOCK", 1024);

NT_ARRANGEMENT auto log_softmax_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(reduce_blocks(input, -1, LOG_SOFTMAX_BLOCK),
                     reduce_blocks(output, -1, LOG_SOFTMAX_BLOCK));
}

NT_APPLICATION void log_softmax_application(nt::Tile input, nt::Tile output) {
  auto max = ntl::cast(-kInfinity, ntl::float32);
  auto sum_exp = ntl::cast(0, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i)
    online_logsumexp_step(input[i].to(ntl::float32), max, sum_exp);
  auto log_sum_exp = finish_logsumexp(max, sum_exp);

  for (int i = 0; i < input.shape(0); ++i)
    output[i] = input[i].to(ntl::float32) - log_sum_exp;
}

NT_KERNEL(log_softmax_f32, log_softmax_arrangement, log_softmax_application,
          nt::Tensor(2, nt::float32).other(-kInfinity), nt::Tensor(2, nt::float32));
NT_KERNEL(log_softmax_f16, log_softmax_arrangement, log_softmax_application,
          nt::Tensor(2, nt::float16).other(-kInfinity), nt::Tensor(2, nt::float16));
