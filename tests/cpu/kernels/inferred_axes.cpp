// Kernels whose axes the compiler infers from the application (`axes(nt::inferred)`,
// frontend/InferAxes.h), each beside the kernel it must equal: the classic GEMM's application
// over inferred tensors, linear with bias and residual, bmm with a batch and with a broadcast
// batch, softmax and layer norm (tests/cpu/InferredAxesTest.cpp compares them with the
// named-axes stock kernels and with plain references; tests/filecheck/inferred_axes.cpp checks
// that their arrangements equal the named ones).
#include "matmul.hpp"

#include <limits>

// GEMM: dot(lhs[k], rhs[k]) contracts lhs's second and rhs's first dimension; the product
// accumulates into a tile of output.shape(), so output is (lhs's first, rhs's second).
NT_ARRANGEMENT auto inferred_mm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({BM, BK}), rhs.axes(nt::inferred).tile({BK, BN}),
                     output.axes(nt::inferred).tile({BM, BN}));
}

NT_KERNEL(inferred_matmul, inferred_mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// linear: bias (N,) broadcasts against the (BM, BN) accumulator from the right, so it is the
// output's second axis; residual is added elementwise, so it has both.
NT_ARRANGEMENT auto inferred_linear_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor bias,
                                                nt::Tensor residual, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({BM, BK}), rhs.axes(nt::inferred).tile({BK, BN}),
                     bias.axes(nt::inferred).tile({BN}), residual.axes(nt::inferred).tile({BM, BN}),
                     output.axes(nt::inferred).tile({BM, BN}));
}

NT_APPLICATION void inferred_linear_application(nt::Tile lhs, nt::Tile rhs, nt::Tile bias,
                                                nt::Tile residual, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = ntl::maximum(acc + bias + residual, 0).to(output.dtype());
}

NT_KERNEL(inferred_linear, inferred_linear_arrangement, inferred_linear_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// bmm: the batch is tiled by 1, so the application never sees it; it lines up with the
// output's batch from the right. With a 2-D rhs there is nothing to line up: every batch
// element reads the same rhs tiles.
NT_ARRANGEMENT auto inferred_bmm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({1, BM, BK}),
                     rhs.axes(nt::inferred).tile({1, BK, BN}),
                     output.axes(nt::inferred).tile({1, BM, BN}));
}

NT_ARRANGEMENT auto inferred_bmm_shared_rhs_arrangement(nt::Tensor lhs, nt::Tensor rhs,
                                                        nt::Tensor output) {
  return nt::arrange(lhs.axes(nt::inferred).tile({1, BM, BK}),
                     rhs.axes(nt::inferred).tile({BK, BN}),
                     output.axes(nt::inferred).tile({1, BM, BN}));
}

NT_KERNEL(inferred_bmm, inferred_bmm_arrangement, mm_application, nt::Tensor(3, nt::float16),
          nt::Tensor(3, nt::float16), nt::Tensor(3, nt::float16));
NT_KERNEL(inferred_bmm_shared_rhs, inferred_bmm_shared_rhs_arrangement, mm_application,
          nt::Tensor(3, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(3, nt::float16));

// softmax: one program per row (the row axis is tiled by 1), output = f(input) elementwise.
NT_ARRANGEMENT auto inferred_softmax_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.axes(nt::inferred).tile({1, -1}),
                     output.axes(nt::inferred).tile({1, -1}));
}

NT_APPLICATION void inferred_softmax_application(nt::Tile input, nt::Tile output) {
  auto row_minus_max = input - ntl::max(input);
  auto numerator = ntl::exp(row_minus_max);
  output = numerator / ntl::sum(numerator);
}

NT_KERNEL(inferred_softmax, inferred_softmax_arrangement, inferred_softmax_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

// The same softmax with named axes, the reference of the inferred one.
NT_ARRANGEMENT auto named_softmax_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.axes("m", "n").tile({1, -1}), output.axes("m", "n").tile({1, -1}));
}

NT_KERNEL(named_softmax, named_softmax_arrangement, inferred_softmax_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

// layer norm over whole rows: weight and bias (C,) broadcast against the row from the right.
NT_ARRANGEMENT auto inferred_layer_norm_arrangement(nt::Tensor input, nt::Tensor weight,
                                                    nt::Tensor bias, nt::Tensor eps,
                                                    nt::Tensor output) {
  return nt::arrange(input.axes(nt::inferred).tile({1, -1}), weight.axes(nt::inferred).tile({-1}),
                     bias.axes(nt::inferred).tile({-1}), eps,
                     output.axes(nt::inferred).tile({1, -1}));
}

NT_APPLICATION void layer_norm_application(nt::Tile input, nt::Tile weight, nt::Tile bias,
                                           nt::Tile eps, nt::Tile output) {
  auto length = input.source().shape(-1);
  auto x = input.to(ntl::float32);
  auto mean = ntl::sum(x) / length;
  auto centred = ntl::where(input.offsets(-1) < length, x - mean, 0);
  auto inverse_std = ntl::rsqrt(ntl::sum(centred * centred) / length + eps);
  output = centred * inverse_std * weight.to(ntl::float32) + bias.to(ntl::float32);
}

NT_KERNEL(inferred_layer_norm, inferred_layer_norm_arrangement, layer_norm_application,
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(2, nt::float32));

// The same layer norm with named axes.
NT_ARRANGEMENT auto named_layer_norm_arrangement(nt::Tensor input, nt::Tensor weight,
                                                 nt::Tensor bias, nt::Tensor eps,
                                                 nt::Tensor output) {
  return nt::arrange(input.axes("m", "c").tile({1, -1}), weight.axes("c").tile({-1}),
                     bias.axes("c").tile({-1}), eps, output.axes("m", "c").tile({1, -1}));
}

NT_KERNEL(named_layer_norm, named_layer_norm_arrangement, layer_norm_application,
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Tensor(2, nt::float32));
