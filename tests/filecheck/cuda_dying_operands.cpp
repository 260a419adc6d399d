// mark-dying-operands (passes/MarkDyingOperands.cpp): a tensor-core product whose A operand is
// a conversion from another element type that nothing else reads is marked `a_dies`, and the
// generated call passes ntc::dev::dying_operand (its registers go to wgmma without the copy
// that protects a living operand). A loop-invariant operand (attention's queries), a 16-bit
// operand loaded as it is, and a converted operand that is also stored keep the copy.
// choose-min-blocks (passes/ChooseMinBlocks.cpp) asks ptxas for the programs per SM that shared
// memory allows: four of 128 threads for a loop whose carried and invariant tiles take 50
// registers per thread; none for a program without tensor-core products.

#include "every_block.hpp"

NT_APPLICATION void products(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q, ntl::trans(k[i]));
    acc = acc + ntl::dot(s.to(ntl::float16), v[i]);
  }
  o = acc;
}

NT_APPLICATION void stored_too(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto s = ntl::dot(q, ntl::trans(k[0]));
  auto p = s.to(ntl::float16);
  o = ntl::dot(p, v[0]) + ntl::expand_dims(ntl::sum(p.to(ntl::float32), 1), 1);
}

NT_ARRANGEMENT auto halves(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({64, 64}), y.tile({64, 64}));
}

NT_APPLICATION void twice(nt::Tile x, nt::Tile y) { y = x * 2; }

NT_KERNEL(loop, rows, products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));
NT_KERNEL(kept, rows, stored_too, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));
NT_KERNEL(scale, halves, twice, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

// NTC-ARGS: --cuda-arch 90a

// The loop at D = 64: the queries are loaded for the product (no copy of a living value, but
// not a conversion either: they keep the protecting copy); the converted scores die at theirs.
// GIR-LABEL: mark-dying-operands, {{.*}}(ntc_loop_program2,
// GIR: %s = dot(convert_layout(load q[] : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, shared_stage(iteration i from 0) : float16[64, 64] #shared<{{[^>]*}}>) : float32[64, 64] #mma<4x1>
// GIR-NEXT: %acc <- dot(convert_layout(cast(%s : float32[64, 64] #mma<4x1>) : float16[64, 64] #mma<4x1>) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, shared_stage(iteration i from 0) : float16[64, 64] #shared<{{[^>]*}}>, %acc : float32[64, 64] #mma<4x1>, a_dies) : float32[64, 64] #mma<4x1>
// A converted operand that a sum reads too lives on.
// GIR-LABEL: mark-dying-operands, {{.*}}(ntc_kept_program2,
// GIR-NOT: a_dies
// GIR: store o[] <- add(dot(convert_layout(%p : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, convert_layout(load v[0] : float16[64, 64]) : float16[64, 64] #shared<{{[^>]*}}>) : float32[64, 64] #mma<4x1>, convert_layout(
// GIR-LABEL: mark-dying-operands, {{.*}}(ntc_scale_program0,

// CU-LABEL: // loop with NP2_64=64
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(128, sizeof(Index) == 4 ? 4 : 1) ntc_loop_program2(
// CU: auto t_s = ntc::dev::dot<float>(ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(ntc::dev::load<
// CU-NOT: dying_operand
// CU: t_acc = ntc::dev::dot<float>(ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(ntc::dev::cast<ntc::dev::float16>(t_s), ntc_smem), ntc::dev::stage_view<{{.*}}>(ntc_smem, {{.*}}), t_acc, ntc_smem, ntc::dev::dying_operand{});
// CU-LABEL: // kept with NP2_64=64
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(128, sizeof(Index) == 4 ? 3 : 1) ntc_kept_program2(
// CU-NOT: dying_operand
// CU-LABEL: // scale with no compile-time parameters
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_scale_program0(
