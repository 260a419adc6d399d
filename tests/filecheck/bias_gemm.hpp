// The GEMM with an epilogue load of the persistent-program FileCheck tests (cuda_persistent_*.cpp):
// `output = input + lhs @ rhs`, `input` arranged like the output, as addmm does.
#pragma once

#include "../../kernels/matmul.hpp"

NT_ARRANGEMENT auto bias_arrangement(nt::Tensor input, nt::Tensor lhs, nt::Tensor rhs,
                                     nt::Tensor output) {
  auto input_arranged = input.tile({BM, BN});
  auto output_arranged = output.tile({BM, BN});
  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);
  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);
  return nt::arrange(input_arranged, lhs_arranged, rhs_arranged, output_arranged);
}

NT_APPLICATION void bias_application(nt::Tile input, nt::Tile lhs, nt::Tile rhs,
                                     nt::Tile output) {
  auto product = ntl::zeros(output.shape(), ntl::float32);
  mm_application(lhs, rhs, product);
  output = input + product;
}

// The transpose of `input` (tiled as the output's transpose) added to the product: a load that
// cannot be read in the accumulator's layout (converted through shared memory).
NT_ARRANGEMENT auto transposed_arrangement(nt::Tensor input, nt::Tensor lhs, nt::Tensor rhs,
                                           nt::Tensor output) {
  auto output_arranged = output.tile({BM, BN});
  auto input_arranged = input.tile({BN, BM}).permute({1, 0});
  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);
  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);
  return nt::arrange(input_arranged, lhs_arranged, rhs_arranged, output_arranged);
}

NT_APPLICATION void transposed_application(nt::Tile input, nt::Tile lhs, nt::Tile rhs,
                                           nt::Tile output) {
  auto product = ntl::zeros(output.shape(), ntl::float32);
  mm_application(lhs, rhs, product);
  output = ntl::trans(input) + product;
}
