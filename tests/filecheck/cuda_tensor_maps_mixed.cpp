// use-tensor-maps (passes/UseTensorMaps.cpp) on a loop whose copies TMA makes only in part:
// k reads 1 where masked, which TMA cannot write, so its copies stay cp.async while v's go by
// TMA. The loop's waits then wait on the ring's barrier and on the cp.async groups.

#include "two_products.hpp"

NT_KERNEL(mixed, rows, two_products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64).other(1.0),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel mixed --config stages=3,tma=1

// GIR-LABEL: IR after use-tensor-maps (ntc_mixed_program2_tma
// GIR: # tensor map 0: v, box [64, 64], swizzle 128
// GIR-NEXT: # tensor map 1: o, box [64, 64], swizzle 128
// GIR-NEXT: # tma ring of group 0: 3 stages, 1 arrivals, barriers at {{[0-9]+}}, cp.async copies too, read by wgmma alone
// GIR: for i in range(0,
// GIR-NEXT: async_wait pending=1 iteration=i group=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}load k[i + 2]{{.*}}stages=3x8192B>{{$}}
// GIR-NEXT: async_copy if i + 2 < {{.*}}load v[i + 2]{{.*}} tma map=0

// CU-LABEL: struct ntc_mixed_program2_tma_maps {
// CU-NEXT: ntc::dev::tensor_map m0; // v, box 64x64, swizzle 128
// CU-NEXT: ntc::dev::tensor_map m1; // o, box 64x64, swizzle 128
// CU-NEXT: };
// CU: ntc::dev::tma_ring<3, 1> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 3));
// CU-NEXT: ntc::dev::async_wait<1>();
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc::dev::async_copy<
// CU: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(
// CU-LABEL: ntc_status_t mixed(
