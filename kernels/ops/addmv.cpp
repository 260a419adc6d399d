// addmv: output = beta * input + alpha * (mat @ vec), torch.addmv(input, mat, vec, beta=beta,
// alpha=alpha) for a matrix mat (M, K), vectors vec (K,), input and output (M,), float32
// run-time scalars beta and alpha; float32 and float16 tensors (float32 accumulation). As in
// torch, beta == 0 ignores input (NaN and inf in it do not propagate).
//
// One program per ADDMV_BLOCK_M rows walks K in blocks of ADDMV_BLOCK_K: the arrangement is the
// GEMM's (kernels/matmul.hpp) with the column dimension dropped, and each step multiplies the
// (BM, BK) block of mat by the broadcast (1, BK) block of vec elementwise, summing the rows once
// at the end. ntops' addmv instead runs its mm kernel with vec as a (K, 1) matrix and a block of
// one column; a matrix product of width 1 wastes the tensor cores, so GEMV is written as the
// broadcast product that Triton users write.

#include <ntc/dsl.hpp>

constexpr nt::Symbol ADDMV_BLOCK_M = nt::block_size("ADDMV_BLOCK_M", 64);
constexpr nt::Symbol ADDMV_BLOCK_K = nt::block_size("ADDMV_BLOCK_K", 64);

// input, output: (⌈M/BM⌉,) -> (BM,); mat: (⌈M/BM⌉,) -> (⌈K/BK⌉,) -> (BM, BK);
// vec: (⌈M/BM⌉,) -> (⌈K/BK⌉,) -> (BK,) (the same blocks for every program).
NT_ARRANGEMENT auto addmv_arrangement(nt::Tensor input, nt::Tensor mat, nt::Tensor vec,
                                      nt::Tensor beta, nt::Tensor alpha, nt::Tensor output) {
  auto output_arranged = output.tile({ADDMV_BLOCK_M});

  auto mat_arranged = mat.tile({ADDMV_BLOCK_M, ADDMV_BLOCK_K}).tile({1, -1}).squeeze(1);
  mat_arranged.dtype() = mat_arranged.dtype().squeeze(0);

  auto vec_arranged = vec.tile({ADDMV_BLOCK_K}).tile({-1}).expand({output_arranged.shape(0)});

  return nt::arrange(input.tile({ADDMV_BLOCK_M}), mat_arranged, vec_arranged, beta, alpha,
                     output_arranged);
}

NT_APPLICATION void addmv_application(nt::Tile input, nt::Tile mat, nt::Tile vec, nt::Tile beta,
                                      nt::Tile alpha, nt::Tile output) {
  auto products = ntl::zeros({ADDMV_BLOCK_M, ADDMV_BLOCK_K}, ntl::float32);
  for (int k = 0; k < mat.shape(0); ++k)
    products += mat[k].to(ntl::float32) * ntl::expand_dims(vec[k].to(ntl::float32), 0);
  auto scaled_input = ntl::where(beta == 0, 0, beta * input.to(ntl::float32));
  output = scaled_input + alpha * ntl::sum(products, 1);
}

NT_KERNEL(addmv_f32, addmv_arrangement, addmv_application, nt::Tensor(1, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Scalar(nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(addmv_f16, addmv_arrangement, addmv_application, nt::Tensor(1, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16), nt::Scalar(nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(1, nt::float16));
