// The same GEMM with tuned block sizes (powers of two in [2, 64]); the CLI tests pick 2 with
// --define, which must give the index arrays of gemm_small.cpp.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 2, 64);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 2, 64);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 2, 64);

NT_ARRANGEMENT auto tunable_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  auto output_arranged = output.tile({BM, BN});

  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);

  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);

  return nt::arrange(lhs_arranged, rhs_arranged, output_arranged);
}

NT_APPLICATION void tunable_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator;
}

NT_KERNEL(gemm_tunable, tunable_arrangement, tunable_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
