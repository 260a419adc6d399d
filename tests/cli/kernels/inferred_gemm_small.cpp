// The GEMM of gemm_small.cpp (fixed 2 x 2 blocks) with its axes inferred from the application
// (axes(nt::inferred)): --dump-layout and --eval must print exactly what they print for the
// classic and the named arrangements (named_gemm_small.cpp), plus the names derived. The other
// two kernels store the output through a helper's `nt::Tile &` parameter and through a
// capturing lambda: the inference reads through helpers and lambdas.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 2);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 2);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 2);

NT_ARRANGEMENT auto inferred_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({BM, BK}), rhs.axes(nt::inferred).tile({BK, BN}),
                     output.axes(nt::inferred).tile({BM, BN}));
}

NT_APPLICATION void direct(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator;
}

void store(nt::Tile &target, nt::Tile value) { target = value; }

NT_APPLICATION void through_helper(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  store(output, accumulator);
}

NT_APPLICATION void through_lambda(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  auto write = [&] { output = accumulator; };
  write();
}

NT_KERNEL(inferred_gemm_small, inferred_arrangement, direct, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(inferred_gemm_helper, inferred_arrangement, through_helper, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(inferred_gemm_lambda, inferred_arrangement, through_lambda, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
