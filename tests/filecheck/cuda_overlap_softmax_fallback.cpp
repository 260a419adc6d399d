// overlap-products at level 2 (passes/OverlapProducts.cpp) where the next head may not run
// before the tail: the tail reads %s, which the next iteration's first product would have
// overwritten by then. The loop is rotated as at level 1 (cuda_overlap_products.cpp): it keeps
// all its iterations and the next head runs after the tail, the product issued and waited for
// in place.

#include "tail_reads_head.hpp"

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
// GIR-NEXT: %acc_in_flight = max(%s
// GIR-NEXT: %total <- add(%total
// GIR-NEXT: if i + 1 < {{.*}}:
// GIR-NOT: dot_issue %s
// GIR: dot_wait %acc
// GIR-NOT: pending=1
// GIR: store o

