// The application of the tensor-map FileCheck tests (cuda_tensor_maps*.cpp): per block of k and
// v, a product with k's transpose, then one with v, both reading pipelined copies.
#pragma once

#include "every_block.hpp"

NT_APPLICATION void two_products(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q, ntl::trans(k[i]));
    acc = acc * 0.5 + ntl::dot(s.to(ntl::float16), v[i]);
  }
  o = acc;
}
