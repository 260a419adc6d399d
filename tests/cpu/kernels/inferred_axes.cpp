// Kernels whose axes the compiler infers from the application (`axes(nt::inferred)`,
// frontend/InferAxes.h), each beside the kernel it must equal: the classic GEMM's application
// over inferred tensors, linear with bias and residual, bmm with a batch and with a broadcast
// batch, softmax, layer norm and attention (tests/cpu/InferredAxesTest.cpp compares them with the
// named-axes stock kernels and with plain references; tests/filecheck/infer_axes.cpp checks
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

// attention (kernels/attention.cpp's application, unchanged) over inferred tensors: the dots
// relate q's head dimension to k's and the keys to v's rows; the batch and head dimensions are
// tiled by 1 and line up with o's; k and v are walked by the loop index, so the keys are the
// axis they iterate.
constexpr nt::Symbol ATTENTION_BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol ATTENTION_BN = nt::block_size("BLOCK_SIZE_N", 32, 64);

NT_ARRANGEMENT auto inferred_attention_arrangement(nt::Tensor q, nt::Tensor k, nt::Tensor v,
                                                   nt::Tensor is_causal, nt::Tensor o) {
  return nt::arrange(q.axes(nt::inferred).tile({1, 1, ATTENTION_BM, -1}),
                     k.axes(nt::inferred).tile({1, 1, ATTENTION_BN, -1}),
                     v.axes(nt::inferred).tile({1, 1, ATTENTION_BN, -1}), is_causal,
                     o.axes(nt::inferred).tile({1, 1, ATTENTION_BM, -1}));
}

NT_APPLICATION void inferred_attention_application(nt::Tile q, nt::Tile k, nt::Tile v,
                                                   nt::Tile is_causal, nt::Tile o) {
  auto q_loaded = (q * 1.44269504089).to(q.dtype()); // log2(e): exp(x) = exp2(x * log2(e))

  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -std::numeric_limits<double>::infinity(), ntl::float32);

  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q_loaded, ntl::trans(k[i]));
    qk = ntl::where(k[i].offsets(-2) < k.source().shape(-2), qk,
                    -std::numeric_limits<double>::infinity());

    if (is_causal)
      qk = ntl::where(ntl::expand_dims(q.offsets(-2), 1) >= ntl::expand_dims(k[i].offsets(-2), 0),
                      qk, -std::numeric_limits<double>::infinity());

    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    auto p = ntl::exp2(qk - ntl::expand_dims(m_ij, 1));
    auto l_ij = ntl::sum(p, 1);

    auto alpha = ntl::exp2(m_i - m_ij);
    acc = acc * ntl::expand_dims(alpha, 1) + ntl::dot(p.to(v[i].dtype()), v[i]);
    m_i = m_ij;
    l_i = l_i * alpha + l_ij;
  }

  o = acc / ntl::expand_dims(l_i, 1);
}

NT_KERNEL(inferred_attention, inferred_attention_arrangement, inferred_attention_application,
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128));
