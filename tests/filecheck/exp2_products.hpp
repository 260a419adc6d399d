#pragma once

// An application of two products with a middle between them (attention's shape without its
// statistics): the first reads a loop-invariant A (resident in shared memory on sm_90a), the
// middle computes p from s, the last accumulates p · v (cuda_overlap_products.cpp,
// cuda_overlap_softmax.cpp, cuda_release_stages_overlapped.cpp).

#include "every_block.hpp"

NT_APPLICATION void product_then_exp2(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    auto p = ntl::exp2(s);
    acc = acc * 0.5 + ntl::dot(p.to(ntl::float16), v[i]);
  }
  o = acc;
}
