// add_block4: `output = lhs + rhs` with a block of 4 elements, so that a 10-element vector has
// a 2-element tail (test-only kernel of tests/cpu).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 4);

NT_ARRANGEMENT auto add_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.tile({BLOCK_SIZE}), rhs.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_APPLICATION void add_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  output = lhs + rhs;
}

NT_KERNEL(add_block4, add_arrangement, add_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
