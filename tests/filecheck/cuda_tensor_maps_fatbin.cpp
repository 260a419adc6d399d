// In a fatbin of sm_80 and sm_90a (add_nt_kernel's default), tma=1 still makes the TMA twin:
// it is compiled for both architectures, and the dispatcher launches it only where the device
// runs the sm_90a code (ntc::rt::tma_device: compute capability 9.0 and NTC_NO_TMA unset),
// before the vector twin, which every device may take.

#include "two_products.hpp"

NT_KERNEL(mapped, rows, two_products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 80,90a --kernel mapped --config stages=3,tma=1

// CU: target cuda, sm_80, sm_90a
// CU: #include <ntc/rt/tensor_map_driver.hpp>
// CU: ntc_mapped_program2_vec(
// CU: ntc_mapped_program2_tma(const ntc_mapped_args ntc_args, const __grid_constant__ ntc_mapped_program2_tma_maps ntc_maps) {
// CU: ntc::dev::tma_ring<3, 2> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: ntc_mapped_program2_tma_maps ntc_maps;
// CU-NEXT: if (ntc::rt::tma_device(k->device.device_id) &&
// CU: ntc::rt::encode_tma(k, {64, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m0.bytes) &&
// CU: ntc_mapped_program2_tma<int32_t><<<
// CU: ntc_mapped_program2_vec<int32_t><<<
// CU-LABEL: ntc_status_t mapped(
