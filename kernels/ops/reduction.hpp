// reduction.hpp: rank-generic arrangements shared by the reduction and normalization operators
// (NineToothed's / ntops' `reduction.arrangement(dim=…)`), built with std::vector so that one
// helper serves every rank and every reduced dimension.
//
// A reduced tensor gets one program per element of its other dimensions; each program walks the
// reduced dimension in blocks of `block` elements (rows longer than one block are a loop over
// blocks, as ntops writes it; the last block is masked and reads the tensor's `other`).

#ifndef NTC_KERNELS_OPS_REDUCTION_HPP
#define NTC_KERNELS_OPS_REDUCTION_HPP

#include <ntc/dsl.hpp>

#include <cstdint>
#include <limits>
#include <vector>

// +infinity, for `other` (masked lanes of a max read -infinity) and comparisons.
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// `t` reduced along `dim` (negative counts from the end):
//   (the other dimensions, in order) -> (⌈size(dim) / block⌉,) -> (block,)
// and, for a vector, (1,) -> (⌈size / block⌉,) -> (block,).
// The reduced dimension is moved last, cut into blocks, and the blocks of one row become the
// middle level; the size-1 dimensions that tiling leaves behind are squeezed away.
inline nt::Tensor reduce_blocks(nt::Tensor t, int dim, nt::Symbol block) {
  const int ndim = int(t.ndim());
  if (dim < 0)
    dim += ndim;
  std::vector<std::int64_t> order;
  for (int d = 0; d < ndim; ++d)
    if (d != dim)
      order.push_back(d);
  order.push_back(dim);

  std::vector<nt::Symbol> block_shape(ndim, 1), row_shape(ndim, 1);
  block_shape[ndim - 1] = block;
  row_shape[ndim - 1] = -1;
  std::vector<std::int64_t> other_dims; // held by the inner levels as leading 1s
  for (int d = 0; d + 1 < ndim; ++d)
    other_dims.push_back(d);

  auto arranged = t.permute(order).tile(block_shape).tile(row_shape);
  if (!other_dims.empty()) {
    arranged.dtype() = arranged.dtype().squeeze(other_dims);
    arranged.dtype().dtype() = arranged.dtype().dtype().squeeze(other_dims);
  }
  // The grid: the other dimensions only (a vector keeps a grid of one program, (1,)).
  return ndim > 1 ? arranged.squeeze(ndim - 1) : arranged;
}

// A tensor holding one value per program of a reduction (the reduced dimension already removed,
// torch's keepdim=False): (its dimensions) -> (1, …, 1).
inline nt::Tensor one_per_program(nt::Tensor t) {
  std::vector<nt::Symbol> ones(t.ndim(), 1);
  return t.tile(ones);
}

// A vector running along the reduced dimension (a normalization's weight or bias), cut into the
// same blocks as the rows and shared by every program of `grid` (an arranged reduced tensor):
//   (grid) -> (⌈size / block⌉,) -> (block,)
inline nt::Tensor shared_row_blocks(nt::Tensor v, nt::Symbol block, const nt::Tensor &grid) {
  auto arranged = v.tile({block}).tile({-1});
  std::vector<nt::Symbol> grid_shape;
  for (int d = 0; d < int(grid.ndim()); ++d) {
    if (d > 0)
      arranged = arranged.unsqueeze(0);
    grid_shape.push_back(grid.shape(d));
  }
  return arranged.expand(grid_shape);
}

//===- Application helpers ---------------------------------------------------------------===//

// One step of the online log-sum-exp of a row given in blocks (ntops' logsumexp, softmax): the
// running maximum `max` and running sum `sum_exp` of exp(x - max) are updated in place with the
// block `x` (float32; masked lanes read -inf), the sum rescaled when the maximum grows.
inline void online_logsumexp_step(nt::Tile x, nt::Tile &max, nt::Tile &sum_exp) {
  auto new_max = ntl::maximum(max, ntl::max(x));
  // Equal maxima (both -inf or both +inf included) keep the sum as it is.
  auto rescale = ntl::where(max == new_max, 1, ntl::exp(max - new_max));
  // A maximum of -inf means every element so far is -inf: shift by 0, so that exp gives 0.
  auto shift = ntl::where(new_max == -kInfinity, 0, new_max);
  sum_exp = sum_exp * rescale + ntl::sum(ntl::exp(x - shift));
  max = new_max;
}

// log(sum(exp(row))) from the running maximum and sum; +inf when the row holds +inf.
inline nt::Tile finish_logsumexp(nt::Tile max, nt::Tile sum_exp) {
  auto shift = ntl::where(max == -kInfinity, 0, max);
  return ntl::where(max == kInfinity, kInfinity, shift + ntl::log(sum_exp));
}

#endif // NTC_KERNELS_OPS_REDUCTION_HPP
