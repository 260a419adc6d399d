// Kernels composed from kernels (docs/composition.md): applications that call the classic GEMM
// (matmul.hpp's `matmul` kernel function) on tensors they pass to nt::arrange untiled, and the
// kernels the compositions must equal when called one after the other.
#include "matmul.hpp"

#include <limits>

// ---- epilogue: linear as relu(matmul(x, w) + b + r) -------------------------------------------

NT_ARRANGEMENT auto composed_linear_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor b,
                                                nt::Tensor r, nt::Tensor out) {
  return nt::arrange(x, w, b.axes("n").tile({BN}), r.axes("m", "n").tile({BM, BN}),
                     out.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void composed_linear_application(nt::Tile x, nt::Tile w, nt::Tile b, nt::Tile r,
                                                nt::Tile out) {
  out = ntl::maximum(matmul(x, w) + b + r, 0);
}

NT_KERNEL(composed_linear, composed_linear_arrangement, composed_linear_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// The same fusion written by hand: the GEMM loop of mm_application inline, then the epilogue.
NT_ARRANGEMENT auto fused_linear_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor b, nt::Tensor r,
                                             nt::Tensor out) {
  return nt::arrange(x.axes("m", "k").tile({BM, BK}), w.axes("k", "n").tile({BK, BN}),
                     b.axes("n").tile({BN}), r.axes("m", "n").tile({BM, BN}),
                     out.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void fused_linear_application(nt::Tile x, nt::Tile w, nt::Tile b, nt::Tile r,
                                             nt::Tile out) {
  auto accumulator = ntl::zeros(out.shape(), ntl::float32);
  for (int k = 0; k < x.shape(0); ++k)
    accumulator += ntl::dot(x[k], w[k]);
  auto output = accumulator.to(ntl::float16);
  out = ntl::maximum(output + b + r, 0);
}

NT_KERNEL(fused_linear, fused_linear_arrangement, fused_linear_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// The epilogue alone, for calling the two kernels one after the other: relu(y + b + r).
NT_ARRANGEMENT auto bias_residual_relu_arrangement(nt::Tensor y, nt::Tensor b, nt::Tensor r,
                                                   nt::Tensor out) {
  return nt::arrange(y.axes("m", "n").tile({BM, BN}), b.axes("n").tile({BN}),
                     r.axes("m", "n").tile({BM, BN}), out.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void bias_residual_relu_application(nt::Tile y, nt::Tile b, nt::Tile r,
                                                   nt::Tile out) {
  out = ntl::maximum(y + b + r, 0);
}

NT_KERNEL(bias_residual_relu, bias_residual_relu_arrangement, bias_residual_relu_application,
          nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));

// ---- prologue: matmul(gelu(x * s), w), elementwise work on an input before the GEMM loop -------

/// GELU (tanh approximation), computed in float32 and rounded to float16.
inline nt::Tile gelu(nt::Tile v) {
  auto f = v.to(ntl::float32);
  return (0.5f * f * (1.0f + ntl::tanh(0.7978845608f * (f + 0.044715f * f * f * f))))
      .to(ntl::float16);
}

NT_ARRANGEMENT auto gelu_matmul_arrangement(nt::Tensor x, nt::Tensor s, nt::Tensor w,
                                            nt::Tensor out) {
  return nt::arrange(x, s, w, out.tile({BM, BN}));
}

NT_APPLICATION void gelu_matmul_application(nt::Tile x, nt::Tile s, nt::Tile w, nt::Tile out) {
  out = matmul(gelu(x * s), w);
}

NT_KERNEL(gelu_matmul, gelu_matmul_arrangement, gelu_matmul_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// The prologue alone: gelu(x * s), elementwise.
NT_ARRANGEMENT auto scaled_gelu_arrangement(nt::Tensor x, nt::Tensor s, nt::Tensor out) {
  return nt::arrange(x.tile({BM, BK}), s.tile({BM, BK}), out.tile({BM, BK}));
}

NT_APPLICATION void scaled_gelu_application(nt::Tile x, nt::Tile s, nt::Tile out) {
  out = gelu(x * s);
}

NT_KERNEL(scaled_gelu, scaled_gelu_arrangement, scaled_gelu_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// ---- row-wise: softmax(matmul(x, w)) where one program holds whole rows of the product --------

constexpr nt::Symbol ROWS = nt::block_size("ROWS", 16, 32);

NT_ARRANGEMENT auto matmul_softmax_arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor out) {
  return nt::arrange(x, w, out.tile({ROWS, -1}));
}

NT_APPLICATION void matmul_softmax_application(nt::Tile x, nt::Tile w, nt::Tile out) {
  // Columns past the end of a row (the tile is a power of two wide) must not count.
  auto logits = ntl::where(out.offsets(1) < out.source().shape(1), matmul(x, w).to(ntl::float32),
                           -std::numeric_limits<float>::infinity());
  auto numerator = ntl::exp(logits - ntl::expand_dims(ntl::max(logits, 1), 1));
  out = numerator / ntl::expand_dims(ntl::sum(numerator, 1), 1);
}

NT_KERNEL(matmul_softmax, matmul_softmax_arrangement, matmul_softmax_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float32).upper_bound(1, 128));

// ---- a callee with named axes, and two calls in one application --------------------------------

NT_ARRANGEMENT auto named_mm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}

inline constexpr auto named_mm = nt::kernel_function(named_mm_arrangement, mm_application);

NT_ARRANGEMENT auto two_products_arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c, nt::Tensor d,
                                             nt::Tensor alpha, nt::Tensor out) {
  return nt::arrange(a, b, c, d, alpha, out.tile({BM, BN}));
}

NT_APPLICATION void two_products_application(nt::Tile a, nt::Tile b, nt::Tile c, nt::Tile d,
                                             nt::Tile alpha, nt::Tile out) {
  auto first = named_mm(a, b).to(ntl::float32);
  auto second = matmul(c, d).to(ntl::float32);
  out = alpha * first - second;
}

NT_KERNEL(two_products, two_products_arrangement, two_products_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Scalar(nt::float32), nt::Tensor(2, nt::float32));
