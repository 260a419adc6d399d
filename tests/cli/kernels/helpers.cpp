// Arrangements written with ordinary C++: helper functions, lambdas (with captures),
// constexpr globals and constexpr functions in tile sizes, symbol arithmetic, for and if.
#include <ntc/dsl.hpp>

#include <vector>

constexpr int kRows = 2;
constexpr int twice(int v) { return 2 * v; }
constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 2);

static nt::Tensor by_rows(nt::Tensor t, nt::Symbol rows) { return t.tile({rows, -1}); }

// (6, 8): rows of 2 -> (3, 1) -> (2, 8); columns of twice(kRows) = 4 -> (3, 1) -> (1, 2) -> (2, 4),
// squeezed to (3, 1) -> (2,) -> (2, 4).
NT_ARRANGEMENT auto helper_and_lambda(nt::Tensor x) {
  int columns = twice(kRows);
  auto split_columns = [&](nt::Tensor t) {
    auto inner = t.tile({-1, columns});
    return inner.squeeze(0);
  };
  auto t = by_rows(x, kRows);
  t.dtype() = split_columns(t.dtype());
  return nt::arrange(t);
}

// Tile sizes from symbol arithmetic: BLOCK * 2 - 1 = 3, and BLOCK % 2 + 1 = 1.
NT_ARRANGEMENT auto arithmetic(nt::Tensor x) {
  return nt::arrange(x.tile({BLOCK * 2 - 1, BLOCK % 2 + 1}));
}

// A loop and a compile-time if: tile three times by 2 when the rank is 1.
NT_ARRANGEMENT auto loop(nt::Tensor x) {
  auto t = x;
  if (x.ndim() == 1)
    for (int i = 0; i < 3; ++i)
      t = t.tile({BLOCK});
  return nt::arrange(t);
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_APPLICATION void one_loop(nt::Tile x) {
  for (int k = 0; k < x.shape(0); ++k)
    x[k] = x[k] + 1;
}

NT_APPLICATION void two_loops(nt::Tile x) {
  for (int i = 0; i < x.shape(0); ++i)
    for (int j = 0; j < x[i].shape(0); ++j)
      x[i][j] = x[i][j] + 1;
}

NT_KERNEL(helper_and_lambda, helper_and_lambda, one_loop, nt::Tensor(2, nt::float32));
NT_KERNEL(arithmetic, arithmetic, application, nt::Tensor(2, nt::float32));
NT_KERNEL(loop, loop, two_loops, nt::Tensor(1, nt::float32));

// Helpers that take references write back to any lvalue: a vector element (the tile size of
// dimension 1 becomes 3) and an inner level (`x.dtype()`, squeezed inside the helper).
static void set_extent(nt::Symbol &extent, nt::Symbol value) { extent = value; }
static void squeeze_first(nt::Tensor &t) { t = t.squeeze(0); }

NT_ARRANGEMENT auto reference_helpers(nt::Tensor x) {
  std::vector<nt::Symbol> shape(x.ndim(), 2);
  set_extent(shape[1], 3);
  auto t = x.tile(shape).tile({1, -1});
  squeeze_first(t.dtype());
  return nt::arrange(t);
}
NT_KERNEL(reference_helpers, reference_helpers, one_loop, nt::Tensor(2, nt::float32));

// A helper's omitted arguments take their C++ defaults (an omitted argument of a user function
// is not the DSL's "not given"): rows of `rows` (default 2) and blocks of `cols` (default 3).
static nt::Tensor blocks(nt::Tensor t, nt::Symbol rows = 2, int cols = 1 + 2) {
  return t.tile({rows, cols});
}

NT_ARRANGEMENT auto default_arguments(nt::Tensor x) { return nt::arrange(blocks(x)); }
NT_KERNEL(default_arguments, default_arguments, application, nt::Tensor(2, nt::float32));
