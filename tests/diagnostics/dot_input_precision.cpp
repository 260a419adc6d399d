// dot's input precision is NineToothed's "ieee", "tf32" or "tf32x3", written as a string
// literal.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({16, 16}), b.tile({16, 16}), c.tile({16, 16}));
}

NT_APPLICATION void unknown(nt::Tile a, nt::Tile b, nt::Tile c) {
  c = ntl::dot(a, b, "fp16"); // expected-error {{unknown input precision 'fp16' for dot: use "ieee", "tf32" or "tf32x3"}}
}

NT_APPLICATION void not_literal(nt::Tile a, nt::Tile b, nt::Tile c) {
  c = ntl::dot(a, b, sizeof(float) == 4 ? "tf32" : "ieee"); // expected-error {{the input precision of dot must be a string literal: "ieee", "tf32" or "tf32x3"}}
}

NT_APPLICATION void accepted(nt::Tile a, nt::Tile b, nt::Tile c) {
  c = ntl::dot(a, b, "ieee") + ntl::dot(a, b, "tf32") + ntl::dot(a, b, "tf32x3");
}

NT_KERNEL(unknown, arrangement, unknown, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(not_literal, arrangement, not_literal, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(accepted, arrangement, accepted, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
