// matmul.hpp: the classic GEMM arrangement and application, `output = lhs @ rhs` (NineToothed's
// tests/test_matmul.py). One program per BM x BN output tile; it walks the K dimension in BK
// steps. Shared by matmul.cpp, addmm.cpp and the kernels that compose `matmul`.

#ifndef NTC_KERNELS_MATMUL_HPP
#define NTC_KERNELS_MATMUL_HPP

#include <ntc/dsl.hpp>

inline constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
inline constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 256);
inline constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 32, 64);

// lhs: (⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BM, BK); rhs: (⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BK, BN);
// output: (⌈M/BM⌉, ⌈N/BN⌉) -> (BM, BN).
NT_ARRANGEMENT inline auto mm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  auto output_arranged = output.tile({BM, BN});

  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);

  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);

  return nt::arrange(lhs_arranged, rhs_arranged, output_arranged);
}

// `output` is a reference so that another application can pass a local accumulator
// (addmm.cpp), as NineToothed's `matmul.application(mat1, mat2, mm_output)`.
NT_APPLICATION inline void mm_application(nt::Tile lhs, nt::Tile rhs, nt::Tile &output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator.to(ntl::float16);
}

// The classic GEMM as a kernel function (docs/composition.md): another kernel's application
// calls it on tensors it passes to nt::arrange untiled, `out = ntl::maximum(matmul(x, w) + b, 0)`,
// and ntc arranges them as mm_arrangement does, for the caller's tiles of `out`.
inline constexpr auto matmul = nt::kernel_function(mm_arrangement, mm_application);

#endif // NTC_KERNELS_MATMUL_HPP
