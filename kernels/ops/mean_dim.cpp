// mean_dim: the mean of a tensor over one dimension, torch.mean(input, dim) (keepdim=False), for
// float32 and float16 (float32 accumulation, rounded once to the output type). An empty
// dimension gives NaN, as torch does.
//
// Same view as sum_dim.cpp: a rank-3 (outer, reduced, inner) input and an (outer, inner) output;
// one program per output element walks its row in blocks of MEAN_BLOCK elements.

#include "reduction.hpp"

constexpr nt::Symbol MEAN_BLOCK = nt::block_size("MEAN_BLOCK", 256);

NT_ARRANGEMENT auto mean_dim_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(reduce_blocks(input, 1, MEAN_BLOCK), one_per_program(output));
}

NT_APPLICATION void mean_dim_application(nt::Tile input, nt::Tile output) {
  auto partial = ntl::zeros({MEAN_BLOCK}, ntl::float32); // one running sum per lane
  for (int i = 0; i < input.shape(0); ++i)
    partial += input[i].to(ntl::float32);
  output = ntl::sum(partial) / input.source().shape(1);
}

NT_KERNEL(mean_dim_f32, mean_dim_arrangement, mean_dim_application, nt::Tensor(3, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(mean_dim_f16, mean_dim_arrangement, mean_dim_application, nt::Tensor(3, nt::float16),
          nt::Tensor(2, nt::float16));
