// named_linear_small.cpp with its axes inferred from the application: bias, added to the
// (BM, BN) accumulator, broadcasts from the right, so it is the output's second axis and is
// broadcast over the row blocks; residual is added elementwise, so it is indexed like the output.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 2);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 2);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 2);

NT_ARRANGEMENT auto linear_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor bias,
                                       nt::Tensor residual, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({BM, BK}), rhs.axes(nt::inferred).tile({BK, BN}),
                     bias.axes(nt::inferred).tile({BN}), residual.axes(nt::inferred).tile({BM, BN}),
                     output.axes(nt::inferred).tile({BM, BN}));
}

NT_APPLICATION void linear_application(nt::Tile lhs, nt::Tile rhs, nt::Tile bias, nt::Tile residual,
                                       nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = ntl::maximum(acc + bias + residual, 0).to(output.dtype());
}

NT_KERNEL(inferred_linear_small, linear_arrangement, linear_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
