// An integer literal keeps an integer tile integral (Triton: int32 tensor + 1 -> int32); a float
// literal promotes it to float32.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({64}), y.tile({64}));
}

NT_APPLICATION void plus_one(nt::Tile x, nt::Tile y) { y = x + 1; }

NT_KERNEL(int_plus_one, arrangement, plus_one, nt::Tensor(1, nt::int32), nt::Tensor(1, nt::int32));

NT_APPLICATION void plus_half(nt::Tile x, nt::Tile y) { y = x + 0.5; }

NT_KERNEL(int_plus_half, arrangement, plus_half, nt::Tensor(1, nt::int32),
          nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel int_plus_one(
// CHECK-NEXT:    store y[] <- add(load x[] : int32[64], 1 : int{{32|64}}[]) : int32[64]
// CHECK-LABEL: kernel int_plus_half(
// CHECK-NEXT:    store y[] <- add(load x[] : int32[64], 0.5 : float32[]) : float32[64]
