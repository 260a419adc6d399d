// default-metas: a GEMM whose program also loads, after its main loop, a tile as large as the
// accumulator (an epilogue operand such as a residual) gets at most 32 accumulators per thread
// by default (128×64 on eight warps), where the same GEMM without it keeps the 128×256 tile
// (128 per thread): with the residual, the conversion of the accumulator and the epilogue's
// temporaries live at once, 128 per thread spill (docs/performance.md, eighth session).
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 256);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 32, 64);

NT_ARRANGEMENT auto with_residual(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor residual,
                                  nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     residual.axes("m", "n").tile({BM, BN}), output.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void gemm_residual(nt::Tile lhs, nt::Tile rhs, nt::Tile residual, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc + residual;
}
NT_KERNEL(residual_gemm, with_residual, gemm_residual, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// A bias is a (BLOCK_SIZE_N,) tile, not one as large as the accumulator: the plain choice.
NT_ARRANGEMENT auto with_bias(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor bias, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     bias.axes("n").tile({BN}), output.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void gemm_bias(nt::Tile lhs, nt::Tile rhs, nt::Tile bias, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc + bias;
}
NT_KERNEL(bias_gemm, with_bias, gemm_bias, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(1, nt::float16), nt::Tensor(2, nt::float16));

// LIST: residual_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_K=64,BLOCK_SIZE_N=64 default
// LIST: bias_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_K=32,BLOCK_SIZE_N=256 default
// CU: // residual_gemm with BLOCK_SIZE_K=64 BLOCK_SIZE_M=128 BLOCK_SIZE_N=64; 256 threads
// CU: // bias_gemm with BLOCK_SIZE_K=32 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256; 256 threads
