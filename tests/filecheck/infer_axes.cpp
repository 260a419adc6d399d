// infer-axes (frontend/InferAxes.h): kernels whose axes the compiler derives from the
// application give exactly the kernel IR of the same kernels with the axes named by hand:
// the arrangements (the IR's header) and the program (its body) are the same.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 16);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 8);

NT_APPLICATION void mm(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc;
}

// A batched GEMM whose rhs has no batch: the batch is tiled by 1 (not in the tiles), k is the
// contracted axis of the dot, and rhs is broadcast over the batch and the rows.
NT_ARRANGEMENT auto named_bmm(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("b", "m", "k").tile({1, BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("b", "m", "n").tile({1, BM, BN}));
}
NT_ARRANGEMENT auto inferred_bmm(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({1, BM, BK}),
                     rhs.axes(nt::inferred).tile({BK, BN}),
                     output.axes(nt::inferred).tile({1, BM, BN}));
}

#define T3 nt::Tensor(3, nt::float32)
#define T2 nt::Tensor(2, nt::float32)
NT_KERNEL(bmm_named, named_bmm, mm, T3, T2, T3);
NT_KERNEL(bmm_inferred, inferred_bmm, mm, T3, T2, T3);

// CHECK:      kernel bmm_named([[BMM:.*]]):
// CHECK-NEXT: {{^}}[[INIT:.+]]
// CHECK-NEXT: {{^}}[[LOOP:.+]]
// CHECK-NEXT: {{^}}[[PRODUCT:.+]]
// CHECK-NEXT: {{^}}[[STORE:.+]]
// CHECK:      kernel bmm_inferred([[BMM]]):
// CHECK-NEXT: {{^}}[[INIT]]
// CHECK-NEXT: {{^}}[[LOOP]]
// CHECK-NEXT: {{^}}[[PRODUCT]]
// CHECK-NEXT: {{^}}[[STORE]]

// Mixed: the output is named, the operands are inferred; their names come from the output's.
NT_ARRANGEMENT auto mixed_mm(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({BM, BK}), rhs.axes(nt::inferred).tile({BK, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}
NT_ARRANGEMENT auto named_mm(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}
NT_KERNEL(mm_named, named_mm, mm, T2, T2, T2);
NT_KERNEL(mm_mixed, mixed_mm, mm, T2, T2, T2);

// CHECK:      kernel mm_named([[MM:.*]]):
// CHECK:      kernel mm_mixed([[MM]]):

// A per-row scale: `expand_dims(scale, 1)` makes scale's dimension the rows of x, so scale is
// indexed by the row blocks and broadcast over the column blocks; its tile stays (BM,) as the
// application reads it.
NT_ARRANGEMENT auto row_scale_arrangement(nt::Tensor x, nt::Tensor scale, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({BM, BN}), scale.axes(nt::inferred).tile({BM}),
                     y.axes(nt::inferred).tile({BM, BN}));
}
NT_APPLICATION void row_scale_application(nt::Tile x, nt::Tile scale, nt::Tile y) {
  y = x * ntl::expand_dims(scale, 1);
}
NT_KERNEL(row_scale, row_scale_arrangement, row_scale_application, T2, nt::Tensor(1, nt::float32),
          T2);

// clang-format off
// CHECK:      kernel row_scale(x: (⌈x_size_0/16⌉, ⌈x_size_1/32⌉) -> (16, 32), scale: (⌈scale_size_0/16⌉, ⌈y_size_1/32⌉) -> (16,), y: (⌈y_size_0/16⌉, ⌈y_size_1/32⌉) -> (16, 32)):
// CHECK-NEXT:   store y[] <- mul(load x[] : float32[16, 32], expand_dims(load scale[] : float32[16], 1) : float32[16, 1]) : float32[16, 32]
// clang-format on
