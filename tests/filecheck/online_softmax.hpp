#pragma once

// Attention's application as kernels/attention.cpp writes it, without the masks: an online
// softmax in base 2 whose row sums the loop only carries (attention_default_metas.cpp,
// cuda_defer_lane_sums.cpp, cuda_min_blocks.cpp).

#include <ntc/dsl.hpp>

#include <limits>

NT_APPLICATION void online_softmax(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -std::numeric_limits<double>::infinity(), ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
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
