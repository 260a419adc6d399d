// specialize-producer with persistent=1 (passes/SpecializeProducer.cpp): the producer warpgroup
// and the consumers each loop over the block's programs in a grid of one block per SM. The
// producer acquires a stage before each of a program's first fills (the block's last program
// may still read it), the consumers release the stages they still hold after their last read of
// the ring and meet at their own barrier before the next program.

#include "query_blocks.hpp"
#include "two_products.hpp"

NT_KERNEL(persisting, query_blocks, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float32).constexpr_dim(1).upper_bound(1, 64));

// clang-format off
// NTC-ARGS: --cuda-arch 90a --kernel persisting --config stages=2,tma=1,release=1,producer=1,persistent=1

// GIR-LABEL: IR after specialize-producer (ntc_persisting_program2_tma)
// GIR: # persistent, each side looping over the block's programs; a producer warpgroup: 256 consumer threads (232 registers), a producer of 128 (40 registers), whose first thread runs:
// GIR-NEXT: stage_acquire iteration=0 group=0, then refilling:
// GIR-NEXT: async_copy if 0 < ⌈k_size_0/64⌉: {{.*}} iteration 0 from 0) {{.*}} tma map=0
// GIR-NEXT: async_copy if 0 < ⌈k_size_0/64⌉: {{.*}} iteration 0 from 0) {{.*}} tma map=1
// GIR-NEXT: stage_acquire iteration=1 group=0, then refilling:
// GIR-NEXT: async_copy if 1 < ⌈k_size_0/64⌉: {{.*}} iteration 1 from 0) {{.*}} tma map=0
// GIR-NEXT: async_copy if 1 < ⌈k_size_0/64⌉: {{.*}} iteration 1 from 0) {{.*}} tma map=1
// GIR-NEXT: for i in range(0, ⌈k_size_0/64⌉, 1):
// GIR-NEXT: stage_acquire iteration=i group=0, then refilling:
// GIR: # and the consumers:
// GIR: for i in range(0, ⌈k_size_0/64⌉, 1):
// GIR: stage_release iteration=i group=0, the producer refilling
// GIR: stage_release_held group=0
// GIR: store o[]
// GIR-NEXT: barrier
// GIR-NOT: barrier

// CU-LABEL: __global__ void __launch_bounds__(384, 1) ntc_persisting_program2_tma(
// CU: const int64_t ntc_programs =
// CU: if (threadIdx.x >= 256) {
// CU-NEXT: ntc::dev::set_max_registers<40, false>();
// CU-NEXT: if (threadIdx.x == 256) {
// CU-NEXT: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU: ntc_ring0.acquire_filled(static_cast<int>((0) % 2));
// CU-NEXT: if (0 < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64))
// CU-NEXT: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>((0) % 2), ntc_maps.m0,
// CU: ntc_ring0.acquire_filled(static_cast<int>((1) % 2));
// CU: for (Index l_i = 0; l_i < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64); l_i += 1) {
// CU-NEXT: ntc_ring0.acquire_filled(static_cast<int>((l_i) % 2));
// CU: return;
// CU: ntc::dev::set_max_registers<232, true>();
// CU-NEXT: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU-NOT: ntc_ring0.copy
// CU: ntc_ring0.release(static_cast<int>((l_i) % 2));
// CU: ntc_ring0.release_held();
// CU: ntc::dev::store_vec(ntc_args.o,
// CU: ntc_smem.sync();
// CU-NEXT: }
// CU-NEXT: }
// CU: ntc_persisting_program2_tma<int32_t><<<dim3(static_cast<unsigned>(std::min<int64_t>(ntc_grid, ntc::rt::persistent_blocks(
// clang-format on
