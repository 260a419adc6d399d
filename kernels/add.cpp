// add: elementwise `output = lhs + rhs` of two vectors, one program per BLOCK_SIZE elements
// (NineToothed's tests/test_add.py).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 1024);

NT_ARRANGEMENT auto add_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.tile({BLOCK_SIZE}), rhs.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_APPLICATION void add_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  output = lhs + rhs;
}

NT_KERNEL(add_f32, add_arrangement, add_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

NT_KERNEL(add_f16, add_arrangement, add_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16));
