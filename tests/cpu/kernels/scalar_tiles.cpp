// 0-d tiles made by ntl::full({}, v, dtype) (Triton's tl.full([], v, dtype), NineToothed's
// ntl.full((), v, dtype)): row_max keeps the running maximum of a row's 64-wide blocks in one.
#include <ntc/dsl.hpp>

#include <limits>

constexpr nt::Symbol ROW_BLOCK = nt::block_size("ROW_BLOCK", 64);

NT_ARRANGEMENT auto row_max_arrangement(nt::Tensor input, nt::Tensor output) {
  auto arranged = input.tile({1, ROW_BLOCK}).tile({1, -1});
  arranged.dtype() = arranged.dtype().squeeze(0);
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze(0);
  return nt::arrange(arranged.squeeze(1), output.tile({1}));
}

NT_APPLICATION void row_max_application(nt::Tile input, nt::Tile output) {
  auto best = ntl::full({}, -std::numeric_limits<double>::infinity(), ntl::float32);
  for (int i = 0; i < input.shape(0); ++i)
    best = ntl::maximum(best, ntl::max(input[i]));
  output = best;
}

// Masked lanes of a row's last block read -inf, which never wins.
NT_KERNEL(row_max, row_max_arrangement, row_max_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(1, nt::float32));
