// attention: scaled-dot-product attention `o = softmax(q k^T) v` (scale 1, optionally causal)
// over (batch, heads, sequence, head_dim) tensors, as FlashAttention-2 with an online softmax
// in base 2 (NineToothed's tests/test_attention.py). One program per BM query rows of one head;
// it walks the keys/values BN rows at a time.

#include "attention.hpp"

#include <ntc/dsl.hpp>

#include <limits>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
// Key blocks of up to 128 rows (NineToothed's test declares 32 to 64): at head dimension 64 the
// tuner's 128-key programs spread the softmax's per-step costs over twice the keys
// (docs/decisions.md, twenty-first session).
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32, 128);

NT_ARRANGEMENT auto attention_arrangement(nt::Tensor q, nt::Tensor k, nt::Tensor v,
                                          nt::Tensor is_causal, nt::Tensor o) {
  auto q_arranged = arrange_q_or_o(q, BM);
  return nt::arrange(q_arranged, arrange_k_or_v(k, q_arranged, BN),
                     arrange_k_or_v(v, q_arranged, BN), is_causal, arrange_q_or_o(o, BM));
}

NT_APPLICATION void attention_application(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile is_causal,
                                          nt::Tile o) {
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

NT_KERNEL(attention_f16, attention_arrangement, attention_application,
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128));

NT_KERNEL(attention_f32, attention_arrangement, attention_application,
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128));
