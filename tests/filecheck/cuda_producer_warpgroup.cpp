// specialize-producer (passes/SpecializeProducer.cpp, knobs release=1,producer=1): the copies of
// the released ring move to a producer warpgroup after the program's 256 threads. Its first
// thread issues the prologue's copies, then acquires each stage once every consumer warp has
// released it and issues the refill that the last releaser issued before; the consumers wait,
// multiply and release (no refill), and meet at their own barriers (Smem with 256 threads).

#include "query_blocks.hpp"
#include "two_products.hpp"

NT_KERNEL(produced, query_blocks, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float32).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel produced --config stages=2,tma=1,release=1,producer=1

// clang-format off
// GIR-LABEL: IR after specialize-producer (ntc_produced_program2_tma)
// GIR: # tma ring of group 0: 2 stages, 2 arrivals, barriers at {{[0-9]+}}, released by 8 warps, read by wgmma alone
// GIR-NEXT: # a producer warpgroup: 256 consumer threads (232 registers), a producer of 128 (40 registers), whose first thread runs:
// GIR-NEXT: async_copy if 0 < ⌈k_size_0/64⌉: {{.*}} iteration 0 from 0) {{.*}} tma map=0
// GIR-NEXT: async_copy if 0 < ⌈k_size_0/64⌉: {{.*}} iteration 0 from 0) {{.*}} tma map=1
// GIR-NEXT: async_copy if 1 < ⌈k_size_0/64⌉: {{.*}} iteration 1 from 0) {{.*}} tma map=0
// GIR-NEXT: async_copy if 1 < ⌈k_size_0/64⌉: {{.*}} iteration 1 from 0) {{.*}} tma map=1
// GIR-NEXT: for i in range(0, ⌈k_size_0/64⌉, 1):
// GIR-NEXT: stage_acquire iteration=i group=0, then refilling:
// GIR-NEXT: async_copy if i + 2 < ⌈k_size_0/64⌉: {{.*}} iteration i + 2 from 0) {{.*}} tma map=0
// GIR-NEXT: async_copy if i + 2 < ⌈k_size_0/64⌉: {{.*}} iteration i + 2 from 0) {{.*}} tma map=1
// GIR-NEXT: # and the consumers:
// GIR-NOT: async_copy
// GIR: for i in range(0, ⌈k_size_0/64⌉, 1):
// GIR-NEXT: async_wait pending=0 iteration=i group=0
// GIR: stage_release iteration=i group=0, the producer refilling
// GIR-NOT: async_copy
// GIR: store o[]

// CU-LABEL: __global__ void __launch_bounds__(384, 1) ntc_produced_program2_tma(
// CU-NEXT: extern __shared__
// CU-NEXT: const ntc::dev::Smem ntc_smem{ntc_smem_buffer, 256};
// CU-NEXT: ntc::dev::tma_ring<2, 2, 8, 1, 256> ntc_ring0{ntc_smem,
// CU: if (threadIdx.x >= 256) {
// CU-NEXT: ntc::dev::set_max_registers<40, false>();
// CU-NEXT: if (threadIdx.x == 256) {
// CU: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>((0) % 2), ntc_maps.m0,
// CU: for (Index l_i = 0; l_i < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64); l_i += 1) {
// CU-NEXT: ntc_ring0.acquire_filled(static_cast<int>((l_i) % 2));
// CU-NEXT: if ((l_i + 2) < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64))
// CU-NEXT: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>(((l_i + 2)) % 2), ntc_maps.m0,
// CU: return;
// CU: ntc::dev::set_max_registers<232, true>();
// CU-NOT: ntc_ring0.copy
// CU: for (Index l_i = 0; l_i < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64); l_i += 1) {
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 2));
// CU-NOT: ntc::dev::barrier();
// CU: ntc_ring0.release(static_cast<int>((l_i) % 2));
// CU-NOT: release_last
// CU: ntc_produced_program2_tma<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(384),
// clang-format on
