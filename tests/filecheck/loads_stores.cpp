// Loads and stores: a parameter read in an expression is a load of the program's tile, an
// assignment to a parameter is a store; the header shows each arranged parameter level by level.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 256);

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y, nt::Tensor z) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}), z.tile({BLOCK}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y, nt::Tile z) { z = x * y - x; }

NT_KERNEL(fma_like, arrangement, application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel fma_like(x: (⌈x_size_0/256⌉,) -> (256,), y: (⌈y_size_0/256⌉,) -> (256,), z: (⌈z_size_0/256⌉,) -> (256,)):
// CHECK-NEXT:    store z[] <- sub(mul(load x[] : float32[256], load y[] : float32[256]) : float32[256], load x[] : float32[256]) : float32[256]
// CHECK-NOT:     store
