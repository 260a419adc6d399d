// use-tensor-maps (passes/UseTensorMaps.cpp): a ring whose stages a thread reads itself keeps
// the proxy fence of its wait. With 32-row blocks the products are mma.sync, whose B fragments
// each thread loads from the stage (ldmatrix, the generic proxy); the stage's next TMA copy
// (the async proxy) must not overtake those reads, so each thread's wait issues
// fence.proxy.async (wait(), not wait<false>() as where only wgmma reads the stages:
// tests/filecheck/cuda_tensor_maps.cpp).

#include "two_products.hpp"

NT_ARRANGEMENT auto rows32(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({32, -1});
  return nt::arrange(q_tiled, every_block(k, q_tiled), every_block(v, q_tiled), o.tile({32, -1}));
}

NT_KERNEL(narrow, rows32, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --config stages=3,tma=1

// clang-format off
// GIR-LABEL: IR after use-tensor-maps (ntc_narrow_program2_tma
// GIR: # tma ring of group 0: 3 stages, 2 arrivals, barriers at {{[0-9]+$}}
// GIR: %s = dot({{.*}}shared_stage(iteration i from 0){{.*}}) : float32[32, 64] #mma<2x1>

// CU: ntc_narrow_program2_tma(const ntc_narrow_args ntc_args, const __grid_constant__ ntc_narrow_program2_tma_maps ntc_maps) {
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait(static_cast<int>((l_i) % 3));
// CU-NEXT: ntc::dev::barrier();
// CU-NOT: wait<false>
// CU-LABEL: ntc_status_t narrow(
// clang-format on
