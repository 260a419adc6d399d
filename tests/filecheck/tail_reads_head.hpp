#pragma once

// An application of two products whose tail reads what the head computes (%s) and names a
// local `acc_in_flight` beside the accumulator `acc` (cuda_overlap_softmax_fallback.cpp,
// cuda_overlap_products_names.cpp).

#include "every_block.hpp"

NT_APPLICATION void tail_reads_head(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto total = ntl::zeros({q.shape(-2)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    auto p = ntl::exp2(s);
    acc = acc * 0.5 + ntl::dot(p.to(ntl::float16), v[i]);
    auto acc_in_flight = ntl::max(s, 1);
    total = total + acc_in_flight;
  }
  o = acc + ntl::expand_dims(total, 1);
}
