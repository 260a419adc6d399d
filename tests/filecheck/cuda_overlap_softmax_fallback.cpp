// overlap-products at level 2 (passes/OverlapProducts.cpp) where the next head may not run
// before the tail: the tail reads %s, which the next iteration's first product would have
// overwritten by then. The loop is rotated as at level 1 (cuda_overlap_products.cpp): it keeps
// all its iterations and the next head runs after the tail, the product issued and waited for
// in place.

#include "every_block.hpp"

NT_APPLICATION void tail_reads_head(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto total = ntl::zeros({q.shape(-2)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    auto p = ntl::exp2(s);
    acc = acc * 0.5 + ntl::dot(p.to(ntl::float16), v[i]);
    total = total + ntl::max(s, 1);
  }
  o = acc + ntl::expand_dims(total, 1);
}

NT_KERNEL(not_ahead, rows, tail_reads_head,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel not_ahead --config stages=2,overlap=2

// The fallback: the loop keeps all its iterations, the head runs after the tail.
// GIR-LABEL: overlap-products and allocate-shared (ntc_not_ahead_program2,
// GIR: for i in range(0, {{[^-]*}}, 1):
// GIR-NEXT: %p = exp2(%s
// GIR-NEXT: dot_issue %acc
// GIR-NEXT: %total <- add(%total
// GIR-NEXT: if i + 1 < {{.*}}:
// GIR-NOT: dot_issue %s
// GIR: dot_wait %acc
// GIR-NOT: pending=1
// GIR: store o

