// small_gemm: `output = lhs @ rhs` for float32 matrices, the GEMM of kernels/matmul.hpp with
// small block-size ranges (2 x 2 x 2 = 8 configurations on the CPU), for ntc-tune's end-to-end
// test (tests/tune).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 32, 64);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32, 64);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 16, 32);

// lhs: (⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BM, BK); rhs: ... -> (BK, BN); output: -> (BM, BN).
NT_ARRANGEMENT auto gemm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  auto output_arranged = output.tile({BM, BN});

  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);

  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);

  return nt::arrange(lhs_arranged, rhs_arranged, output_arranged);
}

NT_APPLICATION void gemm_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator;
}

NT_KERNEL(small_gemm, gemm_arrangement, gemm_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
