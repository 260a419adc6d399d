// overlap-products at level 2 (passes/OverlapProducts.cpp): with the configuration knob
// overlap=2 on sm_90a, a pipelined loop whose first product reads a resident A operand and
// whose last accumulates through wgmma issues the next iteration's first product before its
// last one, and runs the statements between them (the middle) while the last is in flight.
// The loop runs all iterations but the last, each issuing the next head's product
// unconditionally (a wait that retires products issued on some paths only makes ptxas
// serialize every wgmma); the last iteration follows the loop as it was.
// cuda_overlap_softmax_fallback.cpp: where the level does not apply.

#include "exp2_products.hpp"

NT_KERNEL(ahead, rows, product_then_exp2,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel ahead --config stages=2,overlap=2

// At D = 64 (program 2): %s and %p (head and middle) are defined before the loop and computed
// for the first iteration in its prologue; the last product's A operand is computed at the end
// of the middle (%ntc_acc_a: the loop carries 16-bit fragments rather than the 32-bit %p).
// Each iteration waits for the next stage, copies k's ring, issues the next %s, then the last
// product; waits for %s alone (one product, the last, stays in flight), computes the next %p
// and operand, and only then waits for the last product, crosses a barrier and copies v's
// ring. The last iteration's product and tail follow the loop.
// GIR-LABEL: overlap-products and allocate-shared (ntc_ahead_program2,
// GIR: %s = full(0) : float32[64, 64] #mma<4x1>
// GIR-NEXT: %p = full(0) : float32[64, 64] #mma<4x1>
// GIR-NEXT: %ntc_acc_a = full(0) : float16[64, 64] #dot_a<#mma<4x1>, k=2>
// GIR-NEXT: if 0 < [[N:.*]]:
// GIR-NEXT: async_wait pending=0 iteration=0
// GIR-NEXT: async_copy if 1 < {{.*}}buffer=0
// GIR-NEXT: async_commit
// GIR-NEXT: async_copy if 1 < {{.*}}buffer=1
// GIR-NEXT: async_commit
// GIR-NEXT: %s <- dot(
// GIR-NEXT: %p <- exp2(%s
// GIR-NEXT: %ntc_acc_a <- convert_layout(cast(%p
// GIR-NEXT: for i in range(0, [[N]] - 1, 1):
// GIR-NEXT: async_wait pending=0 iteration=i + 1
// GIR-NEXT: async_copy if i + 2 < {{.*}}buffer=0
// GIR-NEXT: async_commit
// GIR-NEXT: dot_issue %s <- dot(%q_scaled {{.*}}shared_stage(iteration i + 1 from 0)
// GIR-NEXT: dot_issue %acc <- dot(%ntc_acc_a {{.*}}shared_stage(iteration i from 0){{.*}}, a_dies)
// GIR-NEXT: dot_wait %s pending=1
// GIR-NEXT: %p <- exp2(%s
// GIR-NEXT: %ntc_acc_a <- convert_layout(cast(%p
// GIR-NEXT: dot_wait %acc
// GIR-NEXT: barrier
// GIR-NEXT: async_copy if i + 2 < {{.*}}buffer=1
// GIR-NEXT: async_commit
// GIR-NEXT: if 0 < [[N]]:
// GIR-NEXT: %acc <- dot(%ntc_acc_a {{.*}}shared_stage(iteration [[N]] - 1 from 0)
// GIR-NEXT: store o

// The shared-A product is issued without an in-flight record and waited for with a count.
// CU-LABEL: // ahead with NP2_64=64; 128 threads
// CU: for (Index l_i = 0; l_i < ({{.*}} + (-1)); l_i += 1) {
// CU: ntc::dev::dot_issue(t_s, t_q_scaled, ntc::dev::stage_view<
// CU-NEXT: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc, t_ntc_acc_a, {{.*}}, ntc::dev::dying_operand{});
// CU-NEXT: ntc::dev::dot_wait<1>(t_s);
// CU-NEXT: t_p = ntc::dev::exp2(t_s);
// CU-NEXT: t_ntc_acc_a = ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(ntc::dev::cast_canonical_nan<ntc::dev::float16>(t_p), ntc_smem);
// CU-NEXT: ntc::dev::dot_wait(t_acc, t_ntc_acc_in_flight);
// CU-NEXT: ntc::dev::barrier();
