// Type promotion (Triton's rules): a float literal does not widen a float16 tile; an integer
// tile with a float becomes float32; dot of float16 tiles accumulates in float32; mixing
// float16 and float32 tiles gives float32; .to() converts.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 64);

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}));
}

NT_APPLICATION void scale(nt::Tile x, nt::Tile y) { y = x * 0.5; }

NT_KERNEL(half_times_literal, vector_arrangement, scale, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(int_times_literal, vector_arrangement, scale, nt::Tensor(1, nt::int32),
          nt::Tensor(1, nt::float32));

NT_APPLICATION void mixed(nt::Tile x, nt::Tile y) { y = x.to(ntl::float16) + x; }

NT_KERNEL(half_plus_float, vector_arrangement, mixed, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto square_arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({16, 16}), b.tile({16, 16}), c.tile({16, 16}));
}

NT_APPLICATION void product(nt::Tile a, nt::Tile b, nt::Tile c) { c = ntl::dot(a, b); }

NT_KERNEL(dot_f16, square_arrangement, product, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32));

// CHECK-LABEL: kernel half_times_literal(
// CHECK-NEXT:    store y[] <- mul(load x[] : float16[64], 0.5 : float32[]) : float16[64]

// CHECK-LABEL: kernel int_times_literal(
// CHECK-NEXT:    store y[] <- mul(load x[] : int32[64], 0.5 : float32[]) : float32[64]

// CHECK-LABEL: kernel half_plus_float(
// CHECK-NEXT:    store y[] <- add(cast(load x[] : float32[64]) : float16[64], load x[] : float32[64]) : float32[64]

// CHECK-LABEL: kernel dot_f16(
// CHECK-NEXT:    store c[] <- dot(load a[] : float16[16, 16], load b[] : float16[16, 16]) : float32[16, 16]
