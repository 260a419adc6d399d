// Compositions whose callee computes its output in tiles other than the caller's: a callee that
// needs whole rows (a row-wise kernel) where the caller's programs hold 32 columns, and a GEMM
// whose column block the caller uses at twice its size.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 16, 64);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32, 64);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 16, 32);

NT_ARRANGEMENT auto row_arrangement(nt::Tensor input, nt::Tensor output) { // expected-note {{the callee's arrangement}}
  return nt::arrange(input.tile({1, -1}), output.tile({1, -1}));
}
NT_APPLICATION void row_softmax(nt::Tile input, nt::Tile output) {
  auto e = ntl::exp(input - ntl::max(input));
  output = e / ntl::sum(e);
}
inline constexpr auto softmax = nt::kernel_function(row_arrangement, row_softmax);

NT_ARRANGEMENT auto narrow(nt::Tensor x, nt::Tensor y) { return nt::arrange(x, y.tile({1, 32})); }
NT_APPLICATION void scaled_softmax(nt::Tile x, nt::Tile y) {
  y = 2 * softmax(x); // expected-error {{'row_softmax' computes its output 'output' in tiles of (1, y_size_1) ((y_size_0, 1) -> (1, y_size_1)), but a program of this kernel holds a (1, 32) tile of 'y' ((y_size_0, ⌈y_size_1/32⌉) -> (1, 32)), where the call's value is stored; a kernel function must compute exactly the caller's tile: tile 'y' as 'row_arrangement' tiles its output}}
}
NT_KERNEL(too_narrow, narrow, scaled_softmax, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto gemm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) { // expected-note {{the callee's arrangement}}
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void gemm_application(nt::Tile lhs, nt::Tile rhs, nt::Tile &output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc;
}
inline constexpr auto gemm = nt::kernel_function(gemm_arrangement, gemm_application);

NT_ARRANGEMENT auto wide(nt::Tensor x, nt::Tensor w, nt::Tensor out) {
  return nt::arrange(x, w, out.tile({BM, BN * 2}));
}
NT_APPLICATION void wide_product(nt::Tile x, nt::Tile w, nt::Tile out) {
  out = gemm(x, w); // expected-error {{'gemm_application' computes its output 'output' in tiles of (BLOCK_SIZE_M, BLOCK_SIZE_N) ((⌈out_size_0/BLOCK_SIZE_M⌉, ⌈out_size_1/BLOCK_SIZE_N⌉) -> (BLOCK_SIZE_M, BLOCK_SIZE_N)), but a program of this kernel holds a (BLOCK_SIZE_M, 2*BLOCK_SIZE_N) tile of 'out' ((⌈out_size_0/BLOCK_SIZE_M⌉, ⌈out_size_1/(2*BLOCK_SIZE_N)⌉) -> (BLOCK_SIZE_M, 2*BLOCK_SIZE_N)), where the call's value is stored; a kernel function must compute exactly the caller's tile: tile 'out' as 'gemm_arrangement' tiles its output}}
}
NT_KERNEL(too_wide, wide, wide_product, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
