// fuse-dot-accumulate (passes/FuseDotAccumulate.cpp): `x + dot(a, b)` and `dot(a, b) + x`
// become the accumulating three-operand dot when the tensor-core product has no other user and
// x has its type and layout; a product used twice, or a float32 product (blocked, no tensor
// cores), keeps its addition. x, a float32 value computed from a float16 load, is converted to
// the product's layout at the load (half the bytes through shared memory), not as float32.

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto whole(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({64, 64}), b.tile({64, 64}), c.tile({64, 64}));
}

NT_APPLICATION void add_after(nt::Tile a, nt::Tile b, nt::Tile c) {
  c = c.to(ntl::float32) * 2 + ntl::dot(a, b);
}

NT_APPLICATION void add_before(nt::Tile a, nt::Tile b, nt::Tile c) {
  c = ntl::dot(a, b) + c.to(ntl::float32);
}

NT_APPLICATION void used_twice(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto product = ntl::dot(a, b);
  c = (product + c.to(ntl::float32)) * product;
}

NT_KERNEL(after, whole, add_after, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(before, whole, add_before, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(twice, whole, used_twice, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(after_f32, whole, add_after, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// GIR-LABEL: allocate-shared (ntc_after_program0,
// GIR-NEXT: kernel after(
// GIR-NEXT: store c[] <- dot(convert_layout(load a[] : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, convert_layout(load b[] : float16[64, 64]) : float16[64, 64] #shared<offset={{[0-9]+}}, pad=16B>, mul(cast(convert_layout(load c[] : float16[64, 64]) : float16[64, 64] #mma<4x1>) : float32[64, 64] #mma<4x1>, 2 : int32[]) : float32[64, 64] #mma<4x1>) : float32[64, 64] #mma<4x1>
// GIR-LABEL: allocate-shared (ntc_before_program0,
// GIR-NEXT: kernel before(
// GIR-NEXT: store c[] <- dot({{.*}} #dot_a<#mma<4x1>, k=2>, {{.*}} #shared<offset={{[0-9]+}}, pad=16B>, cast(convert_layout(load c[] : float16[64, 64]) : float16[64, 64] #mma<4x1>) : float32[64, 64] #mma<4x1>) : float32[64, 64] #mma<4x1>
// GIR-LABEL: allocate-shared (ntc_twice_program0,
// GIR: store c[] <- mul(add(%product : float32[64, 64] #mma<4x1>, cast(convert_layout(load c[]
// GIR-LABEL: allocate-shared (ntc_after_f32_program0,
// GIR-NEXT: kernel after_f32(
// GIR-NEXT: store c[] <- add(mul(

// CU-LABEL: ntc_after_program0(
// CU: ntc::dev::store(ntc_args.c, ntc::dev::dot<float>(ntc::dev::convert_layout<ntc::dev::DotA<ntc::dev::Mma<4, 1>>, false>(
// CU: ntc::dev::to_shared<{{[0-9]+}}, false>(
// CU: (ntc::dev::cast<float>(ntc::dev::convert_layout<ntc::dev::Mma<4, 1>, false>(ntc::dev::load<ntc::dev::float16, ntc::dev::Shape<64, 64>, 128>(ntc_args.c,
