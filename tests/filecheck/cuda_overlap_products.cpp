// overlap-products (passes/OverlapProducts.cpp): with the configuration knob overlap=1 on
// sm_90a, a pipelined loop whose last product accumulates into a local through wgmma is
// rotated by its head (the statements up to its first product). The first iteration's head
// runs before the loop; each iteration issues the last product (dot_issue), then the next
// iteration's wait, copies of the first product's ring and head, and only then waits for the
// product (dot_wait), crosses a barrier and copies the next stage of the product's own ring.

#include "exp2_products.hpp"

NT_KERNEL(overlapped, rows, product_then_exp2,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel overlapped --config stages=2,overlap=1

// At D = 64 (program 2): the head's %s is defined before the loop and assigned in the
// prologue and in the next iteration's head; the product of k's ring (buffer 0) keeps its
// copies at the top, v's (buffer 1) waits for the product.
// GIR-LABEL: overlap-products and allocate-shared (ntc_overlapped_program2,
// GIR: %s = full(0) : float32[64, 64] #mma<4x1>
// GIR-NEXT: if 0 < {{.*}}:
// GIR-NEXT: async_wait pending=0
// GIR-NEXT: async_copy if 1 < {{.*}}buffer=0
// GIR-NEXT: async_commit
// GIR-NEXT: async_copy if 1 < {{.*}}buffer=1
// GIR-NEXT: async_commit
// GIR-NEXT: %s <- dot(
// GIR-NEXT: for i in range(0,
// GIR-NEXT: %p = exp2(%s
// GIR-NEXT: dot_issue %acc <- dot(convert_layout(cast(%p
// GIR-NEXT: if i + 1 < {{.*}}:
// GIR-NEXT: async_wait pending=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}buffer=0
// GIR-NEXT: async_commit
// GIR-NEXT: %s <- dot(
// GIR-NEXT: dot_wait %acc
// GIR-NEXT: barrier
// GIR-NEXT: async_copy if i + 2 < {{.*}}buffer=1
// GIR-NEXT: async_commit
// GIR-NEXT: store o

// CU-LABEL: // overlapped with NP2_64=64; 128 threads
// CU: auto t_s = ntc::dev::full<float, ntc::dev::Shape<64, 64>, ntc::dev::Mma<4, 1>>(
// CU: for (Index l_i = 0;
// CU: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc, ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(
// CU: t_s = ntc::dev::dot<float, ntc::dev::Mma<4, 1>>(t_q_scaled,
// CU: ntc::dev::dot_wait(t_acc, t_ntc_acc_in_flight);
// CU-NEXT: ntc::dev::barrier();
