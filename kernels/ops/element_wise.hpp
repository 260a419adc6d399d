// The arrangement shared by the elementwise operators of kernels/ops (ntops'
// kernels/element_wise.py): every tensor parameter is flattened to one dimension and cut into
// blocks of ELEMENT_WISE_BLOCK elements, one block per program; scalar parameters (rank 0) pass
// through unchanged. The helper serves any rank; ranks are fixed per NT_KERNEL, so each
// operator instantiates it twice:
//   <op>_<dtype>      rank 1: a 1-D tensor of any stride, or any contiguous tensor viewed as
//                     1-D (on the GPU, the rank-1 kernels are the ones with 16-byte vector
//                     accesses when the data is contiguous and aligned)
//   <op>_<dtype>_4d   rank 4: a tensor of rank 1 to 4 with any strides, given with leading
//                     size-1 dimensions (PyTorch: x[(None,) * (4 - x.dim())])
// Element i of the output (row-major order) is computed from element i of each input, so the
// flattening does not show in the results; only dropout sees the layout, through the offsets
// of its input's elements.
#pragma once

#include <ntc/dsl.hpp>

constexpr nt::Symbol ELEMENT_WISE_BLOCK = nt::block_size("BLOCK_SIZE", 1024);

/// One parameter arranged for an elementwise kernel: flattened and cut into 1-D blocks, or
/// passed through when it is a scalar.
inline nt::Tensor element_wise(nt::Tensor tensor) {
  if (tensor.ndim() == 0)
    return tensor;
  return tensor.flatten().tile({ELEMENT_WISE_BLOCK});
}

/// The arrangement of ntops' element_wise helper: every parameter through element_wise(), in
/// order. Operators with scalars call it from an arrangement of their own, whose parameter
/// names become the names of the generated C function's parameters.
template <class... Tensors> auto element_wise_arrangement(Tensors... tensors) {
  return nt::arrange(element_wise(tensors)...);
}

/// `output = f(input)`.
NT_ARRANGEMENT inline auto unary_arrangement(nt::Tensor input, nt::Tensor output) {
  return element_wise_arrangement(input, output);
}
