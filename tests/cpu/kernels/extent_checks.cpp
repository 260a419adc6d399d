// extent_checks: arrangements that are valid only for some run-time sizes (test-only kernels of
// tests/cpu). The wrapper checks the sizes and returns NTC_ERROR_INVALID_ARGUMENT otherwise.
//   squeeze_tile_rows: x.tile({4, 4}).squeeze(0) needs ⌈x_size_0/4⌉ == 1.
//   expand_tile_vector: y.tile({4}).expand(...) needs ⌈y_size_0/4⌉ == 1.
//   tile_by_size_minus_100: x.tile({x.shape(0) - 100}) needs x_size_0 - 100 >= 1.
//   rows_tiled_by_x: y.tile({1, x.shape(1)}) needs ⌈y_size_1/x_size_1⌉ == 1 (below).

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto squeeze_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({4, 4}).squeeze(0), y.tile({4, 4}).squeeze(0));
}

NT_APPLICATION void copy_application(nt::Tile x, nt::Tile y) { y = x; }

NT_KERNEL(squeeze_tile_rows, squeeze_arrangement, copy_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto expand_arrangement(nt::Tensor x, nt::Tensor y, nt::Tensor out) {
  auto x_arranged = x.tile({4});
  return nt::arrange(x_arranged, y.tile({4}).expand({x_arranged.shape(0)}), out.tile({4}));
}

NT_APPLICATION void add_application(nt::Tile x, nt::Tile y, nt::Tile out) { out = x + y; }

NT_KERNEL(expand_tile_vector, expand_arrangement, add_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto minus_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({x.shape(0) - 100}), y.tile({x.shape(0) - 100}));
}

NT_KERNEL(tile_by_size_minus_100, minus_arrangement, copy_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

//   third_tile_of_y: x = y[2] needs the inner level ⌈y_size_0/4⌉ to have at least 3 tiles.
NT_ARRANGEMENT auto inner_arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({4});
  auto y_arranged = y.tile({4}).tile({-1}).expand({x_arranged.shape(0)});
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void third_tile_application(nt::Tile x, nt::Tile y) { x = y[2]; }

NT_KERNEL(third_tile_of_y, inner_arrangement, third_tile_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

//   rows_tiled_by_x: y tiled by x's row length, y.tile({1, x.shape(1)}), needs ⌈y_size_1 /
//   x_size_1⌉ == 1 — provably 1 only once the sizes are known, so the wrapper checks it.
NT_ARRANGEMENT auto rows_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, x.shape(1)}), y.tile({1, x.shape(1)}));
}

NT_APPLICATION void double_application(nt::Tile x, nt::Tile y) { y = x * 2; }

NT_KERNEL(rows_tiled_by_x, rows_arrangement, double_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

//   copy_row_blocks: y[i] = x[i] + 1 over the 64-wide blocks of each row, for i < x.shape(0):
//   y's block count ⌈y_size_1/64⌉ is tied to the loop bound ⌈x_size_1/64⌉ like x's (a y with
//   more blocks would keep blocks the loop never writes).
static nt::Tensor row_blocks(nt::Tensor t) {
  auto arranged = t.tile({1, 64}).tile({1, -1});
  arranged.dtype() = arranged.dtype().squeeze(0);
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze(0);
  return arranged.squeeze(1); // (rows,) -> (⌈cols/64⌉,) -> (64,)
}

NT_ARRANGEMENT auto row_blocks_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(row_blocks(x), row_blocks(y));
}

NT_APPLICATION void copy_row_blocks_application(nt::Tile x, nt::Tile y) {
  for (int i = 0; i < x.shape(0); ++i)
    y[i] = x[i] + 1;
}

NT_KERNEL(copy_row_blocks, row_blocks_arrangement, copy_row_blocks_application,
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

//   flattened_copy: y.flatten().tile({4}) against x.tile({4}): the tile counts ⌈x_size_0/4⌉ and
//   ⌈y_size_0·y_size_1/4⌉ tie x_size_0 to y_size_0·y_size_1 (the same number of tiles is not
//   enough: x of 7 against y of 2×3 would drop x's 7th element).
NT_ARRANGEMENT auto flattened_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({4}), y.flatten().tile({4}));
}

NT_KERNEL(flattened_copy, flattened_arrangement, copy_application, nt::Tensor(1, nt::float32),
          nt::Tensor(2, nt::float32));

//   pair_sums: y[i] = x[2i] + x[2i + 1] for the first y_size_0 pairs, x.tile({2}) sliced to y's
//   size: the run-time stop is clamped to x's ⌈x_size_0/2⌉ pairs (NumPy's slicing), so a y
//   longer than that is a size mismatch, not programs that read only masked elements.
NT_ARRANGEMENT auto pair_sums_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({2}).slice(0, 0, y.shape(0)), y.tile({1}));
}

NT_APPLICATION void pair_sums_application(nt::Tile x, nt::Tile y) { y = ntl::sum(x); }

NT_KERNEL(pair_sums, pair_sums_arrangement, pair_sums_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
