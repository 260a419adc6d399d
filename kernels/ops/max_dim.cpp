// max_dim: the largest element of a tensor over one dimension and its index,
// torch.max(input, dim) -> (values, indices) (keepdim=False), for float32 and float16. NaN wins
// (the value is NaN and the index that of the first NaN, as torch's); among equal maxima the
// first index is returned.
//
// Same view as sum_dim.cpp: a rank-3 (outer, reduced, inner) input and (outer, inner) outputs;
// one program per output element walks its row in blocks of MAX_BLOCK elements, keeping the best
// value and index seen so far (masked lanes of the last block read -inf and never win).

#include "reduction.hpp"

#include <limits>

constexpr nt::Symbol MAX_BLOCK = nt::block_size("MAX_BLOCK", 256);

NT_ARRANGEMENT auto max_dim_arrangement(nt::Tensor input, nt::Tensor values, nt::Tensor indices) {
  return nt::arrange(reduce_blocks(input, 1, MAX_BLOCK), one_per_program(values),
                     one_per_program(indices));
}

NT_APPLICATION void max_dim_application(nt::Tile input, nt::Tile values, nt::Tile indices) {
  auto best_value = ntl::cast(-std::numeric_limits<double>::infinity(), ntl::float32);
  auto best_index = ntl::cast(0, ntl::int64);
  for (int i = 0; i < input.shape(0); ++i) {
    auto block = input[i].to(ntl::float32);
    auto block_max = ntl::max(block);
    auto block_index = ntl::argmax(block).to(ntl::int64) + i * MAX_BLOCK;
    // A later block wins only with a strictly larger value, or with the first NaN.
    auto better =
        (block_max > best_value) | ((block_max != block_max) & (best_value == best_value));
    best_index = ntl::where(better, block_index, best_index);
    best_value = ntl::where(better, block_max, best_value);
  }
  values = best_value;
  indices = best_index;
}

NT_KERNEL(max_dim_f32, max_dim_arrangement, max_dim_application,
          nt::Tensor(3, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::int64));
NT_KERNEL(max_dim_f16, max_dim_arrangement, max_dim_application,
          nt::Tensor(3, nt::float16).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::int64));
