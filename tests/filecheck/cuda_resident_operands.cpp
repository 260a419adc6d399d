// keep-operands-resident (passes/KeepOperandsResident.cpp): on sm_90a a loop-invariant A operand
// of tensor-core products in a loop (attention's scaled queries) is converted once into a
// swizzled shared buffer of its own, a one-stage buffer that allocate-shared places apart from
// the scratch region, and the products read it there (ntc::dev::dot<float, result layout>,
// wgmma with both operands behind descriptors). An operand that something else reads too keeps
// its registers, and so does one whose only product is outside any loop. choose-min-blocks
// counts no registers for the resident operand.

#include "every_block.hpp"

NT_APPLICATION void invariant(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    acc = acc + ntl::dot(s.to(ntl::float16), v[i]);
  }
  o = acc;
}

NT_APPLICATION void read_twice(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    acc = acc + ntl::dot(s.to(ntl::float16), v[i]);
  }
  o = acc + q_scaled.to(ntl::float32);
}

NT_APPLICATION void no_loop(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  o = ntl::dot(ntl::dot(q_scaled, ntl::trans(k[0])).to(ntl::float16), v[0]);
}

#define NTC_TEST_PARAMS                                                                            \
  nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),                                  \
      nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),                              \
      nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),                              \
      nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64)
NT_KERNEL(resident, rows, invariant, NTC_TEST_PARAMS);
NT_KERNEL(twice, rows, read_twice, NTC_TEST_PARAMS);
NT_KERNEL(once, rows, no_loop, NTC_TEST_PARAMS);

// NTC-ARGS: --cuda-arch 90a

// At D = 64: the conversion writes buffer 2 (the rings of k and v are buffers 0 and 1),
// 128-byte swizzled, at the first kilobyte (the scratch region below it has shrunk to the
// reductions' 72 bytes); the first product reads it in the loop.
// GIR-LABEL: keep-operands-resident, overlap-products and allocate-shared (ntc_resident_program2, 128 threads, scratch 72 bytes, total 41984 bytes)
// GIR: %q_scaled = convert_layout(mul(load q[] : float16[64, 64], 2 : int32[]) : float16[64, 64]) : float16[64, 64] #shared<offset=1024, swizzle=128B, buffer=2, stages=1x8192B>
// GIR: %s = dot(%q_scaled : float16[64, 64] #shared<offset=1024, swizzle=128B, buffer=2, stages=1x8192B>, shared_stage(iteration i from 0) : float16[64, 64] #shared<offset=9216, swizzle=128B, transposed, buffer=0, stages=2x8192B>) : float32[64, 64] #mma<4x1>
// Read again after the loop: registers, as before.
// GIR-LABEL: keep-operands-resident, overlap-products and allocate-shared (ntc_twice_program2,
// GIR: %q_scaled = convert_layout(mul(load q[] : float16[64, 64], 2 : int32[]) : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>
// GIR-NOT: buffer=2
// GIR-LABEL: keep-operands-resident, overlap-products and allocate-shared (ntc_once_program2,
// GIR: %q_scaled = convert_layout(mul(load q[] : float16[64, 64], 2 : int32[]) : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>

// CU-LABEL: // resident with NP2_64=64;
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(128, sizeof(Index) == 4 ? 4 : 1) ntc_resident_program2(
// CU: auto t_q_scaled = ntc::dev::to_shared<1024, false, ntc::dev::Swizzled<128>>(
// CU: auto t_s = ntc::dev::dot<float, ntc::dev::Mma<4, 1>>(t_q_scaled, ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<64, 64>, true, ntc::dev::Swizzled<128>>(ntc_smem, {{.*}}), ntc_smem);
// CU-LABEL: // twice with NP2_64=64;
// CU-NOT: to_shared
// CU: auto t_q_scaled = ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(
