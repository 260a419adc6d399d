// Rank-generic arrangements: tile shapes and permutations computed in the arrangement with
// std::vector (NineToothed's element_wise / reduction(dim=...) helpers build them from Python
// lists), one helper serving kernels of rank 2 and 3 and any dimension: x − max(x) along a dim.

#include <cstdint>
#include <limits>
#include <ntc/dsl.hpp>
#include <vector>

// One row (all of dimension `dim`) per program, for any rank.
static nt::Tensor along(nt::Tensor t, int dim) {
  std::vector<nt::Symbol> shape(t.ndim(), 1);
  shape[dim] = -1;
  return t.tile(shape);
}

// The same with push_back and a computed permutation that moves `dim` last.
static nt::Tensor along_permuted(nt::Tensor t, int dim) {
  std::vector<std::int64_t> order;
  for (int i = 0; i < t.ndim(); ++i)
    if (i != dim)
      order.push_back(i);
  order.push_back(dim);
  std::vector<nt::Symbol> shape;
  for (std::size_t i = 0; i + 1 < order.size(); ++i)
    shape.push_back(1);
  shape.push_back(-1);
  return t.permute(order).tile(shape);
}

NT_ARRANGEMENT auto rows_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(along(x, 1), along(y, 1));
}
NT_ARRANGEMENT auto permuted_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(along_permuted(x, 0), along_permuted(y, 0));
}
NT_APPLICATION void minus_max(nt::Tile x, nt::Tile y) { y = x - ntl::max(x); }

NT_KERNEL(
    minus_max_2d, rows_arrangement, minus_max,
    nt::Tensor(2, nt::float32).upper_bound(1, 64).other(-std::numeric_limits<double>::infinity()),
    nt::Tensor(2, nt::float32).upper_bound(1, 64));
NT_KERNEL(
    minus_max_3d, rows_arrangement, minus_max,
    nt::Tensor(3, nt::float32).upper_bound(1, 64).other(-std::numeric_limits<double>::infinity()),
    nt::Tensor(3, nt::float32).upper_bound(1, 64));
NT_KERNEL(
    minus_max_dim0_3d, permuted_arrangement, minus_max,
    nt::Tensor(3, nt::float32).upper_bound(0, 64).other(-std::numeric_limits<double>::infinity()),
    nt::Tensor(3, nt::float32).upper_bound(0, 64));
