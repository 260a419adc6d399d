// linear: `output = relu(lhs @ rhs + bias + residual)` for float16 tensors with float32
// accumulation, arranged with named axes (docs/named-axes.md). lhs is (M, K), rhs (K, N),
// bias (N,), residual and output (M, N).
//
// The output's axes (m, n) are the program axes: one program per BM x BN output tile. lhs has
// k, which is not a program axis, so its k tiles become a level the application walks
// (lhs[k]); it lacks n, so every column block reads the same lhs tiles (broadcast). rhs
// likewise walks k and is broadcast over m. bias has only n: each row block reads the same
// (BN,) tile, which broadcasts against the (BM, BN) accumulator. residual is indexed like the
// output. The compiler derives what the classic arrangement (matmul.hpp) spells out.

#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 256);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 32, 64);

// lhs: (⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BM, BK); rhs: (⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BK, BN);
// bias: (⌈M/BM⌉, ⌈N/BN⌉) -> (BN,); residual, output: (⌈M/BM⌉, ⌈N/BN⌉) -> (BM, BN).
NT_ARRANGEMENT auto linear_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor bias,
                                       nt::Tensor residual, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     bias.axes("n").tile({BN}), residual.axes("m", "n").tile({BM, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void linear_application(nt::Tile lhs, nt::Tile rhs, nt::Tile bias,
                                       nt::Tile residual, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = ntl::maximum(acc + bias + residual, 0).to(output.dtype());
}

NT_KERNEL(linear, linear_arrangement, linear_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
