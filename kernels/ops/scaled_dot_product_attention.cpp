// scaled_dot_product_attention: o = softmax(scale · q kᵀ + mask) v over (batch, heads,
// sequence, head_dim) float16 tensors with an additive float16 mask (B, H, Sq, Skv):
// torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
// (ntops' scaled_dot_product_attention with a mask, without a causal flag, GQA or a KV cache).
//
//   q (B, H, Sq, D), k and v (B, H, Skv, D), mask (B, H, Sq, Skv), scale a float32 at run time,
//   o (B, H, Sq, D); D ≤ 128. A mask entry −∞ excludes a key; a query row whose keys are all
//   excluded gives 0 (as PyTorch's math backend since 2.5; earlier versions gave NaN).
//
// FlashAttention-2 as kernels/attention.cpp (and its arrangement, kernels/attention.hpp): one
// program per BM query rows of one head walks the keys and values BN rows at a time with an online
// softmax in base 2, float32 statistics and accumulator. q is scaled by scale·log2(e) once (rounded
// to float16, as attention.cpp); the mask, in natural-log units, is scaled by log2(e) as it is
// added. ntops adds the mask unscaled to the base-2 scores, which divides a finite mask by ln 2 (−∞
// entries are unaffected).

#include "../attention.hpp"

#include <ntc/dsl.hpp>

#include <limits>

constexpr nt::Symbol BM = nt::block_size("SDPA_BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("SDPA_BLOCK_SIZE_N", 32, 64);

// (B, H, ⌈Sq/BM⌉, 1) -> (⌈Skv/BN⌉,) -> (BM, BN): the mask tiles of the query block's rows, one
// per key block.
static nt::Tensor arrange_mask(nt::Tensor mask) {
  auto arranged = mask.tile({1, 1, BM, BN}).tile({1, 1, 1, -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1, 2});
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze({0, 1});
  return arranged;
}

NT_ARRANGEMENT auto sdpa_masked_arrangement(nt::Tensor q, nt::Tensor k, nt::Tensor v,
                                            nt::Tensor mask, nt::Tensor scale, nt::Tensor o) {
  auto q_arranged = arrange_q_or_o(q, BM);
  return nt::arrange(q_arranged, arrange_k_or_v(k, q_arranged, BN),
                     arrange_k_or_v(v, q_arranged, BN), arrange_mask(mask), scale,
                     arrange_q_or_o(o, BM));
}

NT_APPLICATION void sdpa_masked_application(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile mask,
                                            nt::Tile scale, nt::Tile o) {
  constexpr double log2_e = 1.4426950408889634; // exp(x) = exp2(x · log2(e))
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  auto q_scaled = (q * (scale * log2_e)).to(q.dtype());

  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, minus_infinity, ntl::float32);

  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q_scaled, ntl::trans(k[i])) + mask[i].to(ntl::float32) * log2_e;
    qk = ntl::where(k[i].offsets(-2) < k.source().shape(-2), qk, minus_infinity);

    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    // A row with no key left so far keeps its statistics at 0 instead of −∞ − (−∞).
    auto m_ij_finite = ntl::where(m_ij == minus_infinity, 0.0, m_ij);
    auto p = ntl::exp2(qk - ntl::expand_dims(m_ij_finite, 1));
    auto l_ij = ntl::sum(p, 1);

    auto alpha = ntl::exp2(m_i - m_ij_finite);
    acc = acc * ntl::expand_dims(alpha, 1) + ntl::dot(p.to(v[i].dtype()), v[i]);
    m_i = m_ij;
    l_i = l_i * alpha + l_ij;
  }

  o = acc / ntl::expand_dims(ntl::where(l_i == 0.0, 1.0, l_i), 1);
}

#define SDPA_TENSOR nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128)

NT_KERNEL(sdpa_masked_f16, sdpa_masked_arrangement, sdpa_masked_application, SDPA_TENSOR,
          SDPA_TENSOR, SDPA_TENSOR, nt::Tensor(4, nt::float16), nt::Scalar(nt::float32),
          SDPA_TENSOR);
