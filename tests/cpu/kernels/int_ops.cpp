// int_ops: integer arithmetic with integer literals (test-only kernels of tests/cpu).
//   add_one_i32: output = input + 1 on int32 vectors; must stay int32 (Triton: int32 + 1 -> int32).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 64);

NT_ARRANGEMENT auto unary_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_APPLICATION void add_one_application(nt::Tile input, nt::Tile output) { output = input + 1; }

NT_KERNEL(add_one_i32, unary_arrangement, add_one_application, nt::Tensor(1, nt::int32),
          nt::Tensor(1, nt::int32));
