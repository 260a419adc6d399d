// addmm: `output = beta * input + alpha * (mat1 @ mat2)` for float16 matrices and float32
// run-time scalars beta, alpha (NineToothed's tests/test_addmm.py). Reuses the GEMM of
// matmul.hpp; `input` is arranged like the output.

#include "matmul.hpp"

NT_ARRANGEMENT auto addmm_arrangement(nt::Tensor input, nt::Tensor mat1, nt::Tensor mat2,
                                      nt::Tensor beta, nt::Tensor alpha, nt::Tensor output) {
  auto input_arranged = input.tile({BM, BN});
  auto output_arranged = output.tile({BM, BN});

  auto mat1_arranged = mat1.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  mat1_arranged.dtype() = mat1_arranged.dtype().squeeze(0);

  auto mat2_arranged = mat2.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  mat2_arranged.dtype() = mat2_arranged.dtype().squeeze(1);

  return nt::arrange(input_arranged, mat1_arranged, mat2_arranged, beta, alpha, output_arranged);
}

NT_APPLICATION void addmm_application(nt::Tile input, nt::Tile mat1, nt::Tile mat2, nt::Tile beta,
                                      nt::Tile alpha, nt::Tile output) {
  auto mm_out = ntl::zeros(output.shape(), ntl::float32);
  mm_application(mat1, mat2, mm_out);
  output = beta * input + alpha * mm_out;
}

NT_KERNEL(addmm, addmm_arrangement, addmm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Scalar(nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(2, nt::float16));
