// permute() reorders dimensions; flatten(start, end) merges [start, end) (exclusive end).
#include <ntc/dsl.hpp>

// (2, 3) -> (3, 2) -> (6,)
NT_ARRANGEMENT auto transpose_flatten(nt::Tensor x) {
  return nt::arrange(x.permute({1, 0}).flatten(0, 2));
}

// (2, 2, 3) -> (3, 2, 2) -> (6, 2)
NT_ARRANGEMENT auto rotate_flatten(nt::Tensor x) {
  return nt::arrange(x.permute({2, 0, 1}).flatten(0, 2));
}

// Permute and flatten the inner level of a tiling: (4, 6) tiled (2, 3) -> (2, 2) -> (6,) with
// each tile read column by column.
NT_ARRANGEMENT auto tiles_by_column(nt::Tensor x) {
  auto t = x.tile({2, 3});
  t.dtype() = t.dtype().permute({1, 0}).flatten(0, 2);
  return nt::arrange(t);
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(transpose_flatten, transpose_flatten, application, nt::Tensor(2, nt::float32));
NT_KERNEL(rotate_flatten, rotate_flatten, application, nt::Tensor(3, nt::float32));
NT_KERNEL(tiles_by_column, tiles_by_column, application, nt::Tensor(2, nt::float32));
