// compose-kernels (frontend/ComposeKernels.h): a kernel function called in another kernel's
// application is arranged for the caller's program grid and inlined, so the composed kernel
// is exactly the fusion written by hand: the same arrangements (the IR's header), the same
// program (its body) and, on the GPU, the same pipelined GEMM loop.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 16);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 8);

NT_ARRANGEMENT auto gemm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void gemm_application(nt::Tile lhs, nt::Tile rhs, nt::Tile &output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc.to(ntl::float16);
}

inline constexpr auto gemm = nt::kernel_function(gemm_arrangement, gemm_application);

#define T1 nt::Tensor(1, nt::float16)
#define T2 nt::Tensor(2, nt::float16)

// Epilogue: relu(gemm(x, w) + b + r), composed and by hand.
NT_ARRANGEMENT auto composed_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor b, nt::Tensor r,
                                         nt::Tensor out) {
  return nt::arrange(x, w, b.axes("n").tile({BN}), r.axes("m", "n").tile({BM, BN}),
                     out.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void composed_application(nt::Tile x, nt::Tile w, nt::Tile b, nt::Tile r,
                                         nt::Tile out) {
  out = ntl::maximum(gemm(x, w) + b + r, 0);
}
NT_KERNEL(linear_composed, composed_arrangement, composed_application, T2, T2, T1, T2, T2);

NT_ARRANGEMENT auto by_hand_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor b, nt::Tensor r,
                                        nt::Tensor out) {
  return nt::arrange(x.axes("m", "k").tile({BM, BK}), w.axes("k", "n").tile({BK, BN}),
                     b.axes("n").tile({BN}), r.axes("m", "n").tile({BM, BN}),
                     out.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void by_hand_application(nt::Tile x, nt::Tile w, nt::Tile b, nt::Tile r,
                                        nt::Tile out) {
  auto acc = ntl::zeros(out.shape(), ntl::float32);
  for (int k = 0; k < x.shape(0); ++k)
    acc += ntl::dot(x[k], w[k]);
  auto output = acc.to(ntl::float16);
  out = ntl::maximum(output + b + r, 0);
}
NT_KERNEL(linear_by_hand, by_hand_arrangement, by_hand_application, T2, T2, T1, T2, T2);

// clang-format off
// CHECK:      kernel linear_composed([[LINEAR:.*]]):
// CHECK-NEXT: {{^}}[[INIT:  %acc = full.+]]
// CHECK-NEXT: {{^}}[[LOOP:  for k in .+]]
// CHECK-NEXT: {{^}}[[DOT:    %acc <- add.+dot\(load x\[k\].+load w\[k\].+]]
// CHECK-NEXT: {{^}}[[CAST:  %output = cast.+]]
// CHECK-NEXT: {{^}}[[STORE:  store out\[\] <- maximum.+]]
// CHECK:      kernel linear_by_hand([[LINEAR]]):
// CHECK-NEXT: {{^}}[[INIT]]
// CHECK-NEXT: {{^}}[[LOOP]]
// CHECK-NEXT: {{^}}[[DOT]]
// CHECK-NEXT: {{^}}[[CAST]]
// CHECK-NEXT: {{^}}[[STORE]]
// clang-format on

// Prologue: the argument's expression is evaluated on each tile the callee selects.
NT_ARRANGEMENT auto prologue_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor out) {
  return nt::arrange(x, w, out.tile({BM, BN}));
}
NT_APPLICATION void prologue_application(nt::Tile x, nt::Tile w, nt::Tile out) {
  out = gemm(ntl::maximum(x, 0) * 2, w);
}
NT_KERNEL(prologue, prologue_arrangement, prologue_application, T2, T2, T2);

// clang-format off
// CHECK:      kernel prologue(x: (⌈x_size_0/16⌉, ⌈out_size_1/32⌉) -> (⌈x_size_1/8⌉,) -> (16, 8), w: (⌈out_size_0/16⌉, ⌈w_size_1/32⌉) -> (⌈w_size_0/8⌉,) -> (8, 32), out: (⌈out_size_0/16⌉, ⌈out_size_1/32⌉) -> (16, 32)):
// CHECK:        for k in range(0, ⌈x_size_1/8⌉, 1):
// CHECK-NEXT:     %acc <- add(%acc : float32[16, 32], dot(mul(maximum(load x[k] : float16[16, 8], 0 : int32[]) : float16[16, 8], 2 : int32[]) : float16[16, 8], load w[k] : float16[8, 32])
// clang-format on

// Row-wise: the caller's tile is a whole row of the product, so the callee's column block
// becomes the row's width (a block size of the callee alone takes the caller's extent).
constexpr nt::Symbol CALLEE_BN = nt::block_size("CALLEE_BLOCK_N", 32, 64);
NT_ARRANGEMENT auto gemm_tuned_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, CALLEE_BN}),
                     output.axes("m", "n").tile({BM, CALLEE_BN}));
}
inline constexpr auto gemm_tuned = nt::kernel_function(gemm_tuned_arrangement, gemm_application);
NT_ARRANGEMENT auto rows_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor out) {
  return nt::arrange(x, w, out.tile({BM, -1}));
}
NT_APPLICATION void rows_application(nt::Tile x, nt::Tile w, nt::Tile out) {
  auto y = gemm_tuned(x, w).to(ntl::float32);
  out = y - ntl::expand_dims(ntl::max(y, 1), 1);
}
NT_KERNEL(rows, rows_arrangement, rows_application, T2, T2,
          nt::Tensor(2, nt::float32).upper_bound(1, 64));

// clang-format off
// CHECK:      kernel rows(x: (⌈x_size_0/16⌉, 1) -> (⌈x_size_1/8⌉,) -> (16, 8), w: (⌈out_size_0/16⌉, ⌈w_size_1/out_size_1⌉) -> (⌈w_size_0/8⌉,) -> (8, out_size_1), out: (⌈out_size_0/16⌉, 1) -> (16, out_size_1)):
// CHECK-NEXT:   # NP2_64 = next power of two of max(out_size_1), at most 64
// CHECK-NEXT:   %acc = full(0) : float32[16, NP2_64]
// LIST-NOT:   CALLEE_BLOCK_N
// clang-format on

// On the GPU the composed kernel's program is the hand-written one's, line for line.
// clang-format off
// CU:      ntc_linear_composed_program0(
// CU:      [[CUGRID:.*const Index pid0 = .+]]
// CU:      [[CULOOP:for \(Index l_k = 0; .+]]
// CU-NEXT: [[CUDOT:t_acc = \(t_acc \+ ntc::dev::dot<float>\(.+]]
// CU:      [[CUCAST:auto t_output = ntc::dev::cast<ntc::dev::float16>\(t_acc\);]]
// CU:      ntc_linear_by_hand_program0(
// CU:      [[CUGRID]]
// CU:      [[CULOOP]]
// CU-NEXT: [[CUDOT]]
// CU:      [[CUCAST]]
// clang-format on
