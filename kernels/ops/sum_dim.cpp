// sum_dim: the sum of a tensor over one dimension, torch.sum(input, dim) (keepdim=False), for
// float32 and float16 (float32 accumulation, rounded once to the output type).
//
// The kernels take the reduction as a rank-3 view (outer, reduced, inner) -> (outer, inner): a
// reduction over dimension d of any tensor is this view with outer = the dimensions before d and
// inner = the dimensions after d (merged, as torch's .view does; size-1 dimensions may be
// inserted for d = 0 or the last dimension). One program per output element walks its row in
// blocks of SUM_BLOCK elements (the arrangement of reduction.hpp, ntops' reduction(dim=1)).

#include "reduction.hpp"

constexpr nt::Symbol SUM_BLOCK = nt::block_size("SUM_BLOCK", 256);

NT_ARRANGEMENT auto sum_dim_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(reduce_blocks(input, 1, SUM_BLOCK), one_per_program(output));
}

NT_APPLICATION void sum_dim_application(nt::Tile input, nt::Tile output) {
  auto partial = ntl::zeros({SUM_BLOCK}, ntl::float32); // one running sum per lane
  for (int i = 0; i < input.shape(0); ++i)
    partial += input[i].to(ntl::float32);
  output = ntl::sum(partial);
}

NT_KERNEL(sum_dim_f32, sum_dim_arrangement, sum_dim_application, nt::Tensor(3, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(sum_dim_f16, sum_dim_arrangement, sum_dim_application, nt::Tensor(3, nt::float16),
          nt::Tensor(2, nt::float16));
