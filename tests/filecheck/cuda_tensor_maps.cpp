// use-tensor-maps (passes/UseTensorMaps.cpp): with the configuration knob tma=1 on sm_90a, the
// pipelined copies that TMA makes exactly (a box of the tensor into a swizzled stage, zeros
// where masked) go by cp.async.bulk.tensor on a tma_ring of the loop, in a third program,
// `_tma`, which the dispatcher launches when it can encode every tensor map. A tensor read as
// something else than zero where masked keeps its cp.async copies, and the loop's waits then
// wait for both. The float32 result stored into the float16 output is converted in registers
// and stored by TMA too (a third map).

#include "two_products.hpp"

NT_KERNEL(mapped, rows, two_products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel mapped --config stages=3,tma=1

// At D = 64 (program 2): k's and v's copies take one tensor map each, a box of 64 rows by one
// 128-byte column block; the ring has a barrier per stage after the program's shared memory,
// expecting both copies; the loop's wait is the barrier's and no cp.async group is left. Only
// wgmma reads the stages (both products' B operands), so the wait needs no proxy fence
// (wait<false>); tests/filecheck/cuda_tma_generic_reads.cpp has the other case.
// GIR-LABEL: IR after use-tensor-maps (ntc_mapped_program2_tma
// GIR: # tensor map 0: k, box [64, 64], swizzle 128
// GIR-NEXT: # tensor map 1: v, box [64, 64], swizzle 128
// GIR-NEXT: # tensor map 2: o, box [64, 64], swizzle 128
// GIR-NEXT: # tma ring of group 0: 3 stages, 2 arrivals, barriers at {{[0-9]+}}, read by wgmma alone
// GIR-NOT: cp.async copies too
// GIR: async_copy if 0 < {{.*}}load k[0]{{.*}} tma map=0
// GIR: async_copy if 0 < {{.*}}load v[0]{{.*}} tma map=1
// GIR: for i in range(0,
// GIR-NEXT: async_wait pending=1 iteration=i group=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}load k[i + 2]{{.*}} tma map=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}load v[i + 2]{{.*}} tma map=1

// CU-LABEL: struct ntc_mapped_program2_tma_maps {
// CU-NEXT: ntc::dev::tensor_map m0; // k, box 64x64, swizzle 128
// CU-NEXT: ntc::dev::tensor_map m1; // v, box 64x64, swizzle 128
// CU-NEXT: ntc::dev::tensor_map m2; // o, box 64x64, swizzle 128
// CU: ntc_mapped_program2_tma(const ntc_mapped_args ntc_args, const __grid_constant__ ntc_mapped_program2_tma_maps ntc_maps) {
// CU: ntc::dev::tma_ring<3, 2> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 3));
// CU-NEXT: ntc::dev::barrier();
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>(((l_i + 2)) % 3), ntc_maps.m0, ntc_smem, {{.*}}, {static_cast<int>(0), static_cast<int>(((64 * l_i) + 128))}, {{.*}});
// The dispatcher: the TMA twin first, with 32-bit indices, on a device that runs sm_90a code,
// when the maps encode.
// CU: if (!ntc_index64 && ntc_NP2_64 == 64) {
// CU: ntc_mapped_program2_tma_maps ntc_maps;
// CU-NEXT: if (ntc::rt::tma_device(k->device.device_id) &&
// CU: ntc::rt::encode_tma(k, {64, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m0.bytes) &&
// CU-NEXT: ntc::rt::encode_tma(v, {64, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m1.bytes) &&
// CU-NEXT: ntc::rt::encode_tma(o, {64, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m2.bytes)) {
// CU: ntc_mapped_program2_tma<int32_t><<<
// CU: ntc_mapped_program2_vec<int32_t><<<
// CU-LABEL: ntc_status_t mapped(
