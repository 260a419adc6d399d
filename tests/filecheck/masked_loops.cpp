// Loops with masks. skip-masked-iterations: a loop whose iterations past some index are
// identities on its state, because a `where` replaces a value by a constant for every element
// there, ends at that index. guard-masks: a `where` whose condition holds for every element
// before some index is computed only from that index on, under an `if`.
#include <ntc/dsl.hpp>

#include <limits>

constexpr double kInf = std::numeric_limits<double>::infinity();

// (⌈S/16⌉, 1) -> (16, D): one program per 16 query rows.
nt::Tensor rows(nt::Tensor x) { return x.tile({16, -1}); }

// (⌈S/16⌉, 1) -> (⌈S/32⌉,) -> (32, D): every program walks all key blocks.
nt::Tensor blocks(nt::Tensor x, nt::Tensor q) {
  auto arranged = x.tile({32, -1}).tile({-1, -1}).expand({q.shape(0), -1});
  arranged.dtype() = arranged.dtype().squeeze({1});
  return arranged;
}

NT_ARRANGEMENT auto arrangement(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_arranged = rows(q);
  return nt::arrange(q_arranged, blocks(k, q_arranged), blocks(v, q_arranged), rows(o));
}

// Causal attention's online softmax: key blocks after the program's last query are skipped.
NT_APPLICATION void causal(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -kInf, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    qk = ntl::where(k[i].offsets(0) < k.source().shape(0), qk, -kInf);
    qk = ntl::where(ntl::expand_dims(q.offsets(0), 1) >= ntl::expand_dims(k[i].offsets(0), 0), qk,
                    -kInf);
    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    auto p = ntl::exp2(qk - ntl::expand_dims(m_ij, 1));
    auto alpha = ntl::exp2(m_i - m_ij);
    acc = acc * ntl::expand_dims(alpha, 1) + ntl::dot(p, v[i]);
    l_i = l_i * alpha + ntl::sum(p, 1);
    m_i = m_ij;
  }
  o = acc / ntl::expand_dims(l_i, 1);
}

// Only the sequence mask: it removes no whole block before the loop's end, which stays.
NT_APPLICATION void unmasked(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::where(k[i].offsets(0) < k.source().shape(0), ntl::dot(q, ntl::trans(k[i])), 0);
    acc = acc + ntl::dot(qk, v[i]);
  }
  o = acc;
}

// A masked iteration that still changes the state (+ 1) is not skipped.
NT_APPLICATION void counted(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    qk = ntl::where(ntl::expand_dims(q.offsets(0), 1) >= ntl::expand_dims(k[i].offsets(0), 0), qk,
                    0);
    acc = acc + ntl::dot(qk, v[i]) + 1;
  }
  o = acc;
}

// The mask removes elements of the first blocks, not of the last (keys at or after the query):
// the loop keeps its end, and the mask is computed in the blocks before the query's only.
NT_APPLICATION void anticausal(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    qk = ntl::where(ntl::expand_dims(q.offsets(0), 1) <= ntl::expand_dims(k[i].offsets(0), 0), qk,
                    0);
    acc = acc + ntl::dot(qk, v[i]);
  }
  o = acc;
}

#define TENSOR nt::Tensor(2, nt::float32).constexpr_dim(1).upper_bound(1, 16)
NT_KERNEL(causal_attention, arrangement, causal, TENSOR, TENSOR, TENSOR, TENSOR);
NT_KERNEL(unmasked_product, arrangement, unmasked, TENSOR, TENSOR, TENSOR, TENSOR);
NT_KERNEL(counted_product, arrangement, counted, TENSOR, TENSOR, TENSOR, TENSOR);
NT_KERNEL(anticausal_product, arrangement, anticausal, TENSOR, TENSOR, TENSOR, TENSOR);

// The causal loop ends after the key block of the program's last query (16·pid0 + 15); the
// others keep their end. The sequence mask is computed from the last whole block on, the causal
// one from the first block that reaches the program's first query (16·pid0) on, the anti-causal
// one before the first block whose keys all come at or after the program's last query.
// GIR:      IR after specialize ( NP2_16=16 ) and skip-masked-iterations, guard-masks
// GIR-NEXT: kernel causal_attention(
// GIR:        for i in range(0, min(⌈(16*pid0 + 16)/32⌉, ⌈k_size_0/32⌉), 1):
// GIR-NEXT:     %qk = dot(
// GIR-NEXT:     if ⌊k_size_0/32⌋ <= i:
// GIR-NEXT:       %qk <- where(lt(offsets k[i] dim 0
// GIR-NEXT:     if ⌊(16*pid0 - 31)/32⌋ + 1 <= i:
// GIR-NEXT:       %qk <- where(ge(
// GIR-NEXT:     %m_ij = maximum(
// GIR:      order-programs: grid dimension 0 numbered last to first
// GIR-NOT:  numbered last to first
// GIR:      IR after specialize ( NP2_16=16 ) and skip-masked-iterations, guard-masks
// GIR-NEXT: kernel unmasked_product(
// GIR:        for i in range(0, ⌈k_size_0/32⌉, 1):
// GIR-NEXT:     %qk = dot(load q[] : float32[16, 16], trans(load k[i]
// GIR-NEXT:     if ⌊k_size_0/32⌋ <= i:
// GIR-NEXT:       %qk <- where(lt(offsets k[i] dim 0 : int64[32], index(k_size_0) : int64[]) : bool[32], %qk : float32[16, 32], 0 : int32[])
// GIR:      IR after specialize ( NP2_16=16 ) and skip-masked-iterations, guard-masks
// GIR-NEXT: kernel counted_product(
// GIR:        for i in range(0, ⌈k_size_0/32⌉, 1):
// GIR:      IR after specialize ( NP2_16=16 ) and skip-masked-iterations, guard-masks
// GIR-NEXT: kernel anticausal_product(
// GIR:        for i in range(0, ⌈k_size_0/32⌉, 1):
// GIR-NEXT:     %qk = dot(
// GIR-NEXT:     if i < ⌈(16*pid0 + 15)/32⌉:
// GIR-NEXT:       %qk <- where(le(
// GIR-NOT:  numbered last to first

// order-programs: the causal loop's trip count grows with pid0, so its programs are numbered last
// to first (the longest start first); the others keep row order.
// CU-LABEL: void __launch_bounds__({{[0-9]+}}) ntc_causal_attention_program0(
// CU:         const Index pid0 = ntc::rt::ceil_div<Index>(ntc_q_size_0, 16) - 1 - ntc_rest; // numbered last to first
// CU-LABEL: void __launch_bounds__({{[0-9]+}}) ntc_unmasked_product_program0(
// CU:         const Index pid0 = ntc_rest;
// CU-LABEL: void __launch_bounds__({{[0-9]+}}) ntc_anticausal_product_program0(
// CU:         const Index pid0 = ntc_rest;

// CPP-LABEL: ntc_causal_attention_program0(
// CPP:         for (Index l_i = 0; l_i < ntc::rt::min<Index>(ntc::rt::ceil_div<Index>(((16 * pid0) + 16), 32), ntc::rt::ceil_div<Index>(ntc_k_size_0, 32)); l_i += 1) {
// CPP:           if (ntc::rt::floor_div<Index>(ntc_k_size_0, 32) <= l_i) {
// CPP-LABEL: ntc_unmasked_product_program0(
// CPP:         for (Index l_i = 0; l_i < ntc::rt::ceil_div<Index>(ntc_k_size_0, 32); l_i += 1) {
// CPP:           if (ntc::rt::floor_div<Index>(ntc_k_size_0, 32) <= l_i) {
