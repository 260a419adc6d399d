// scale: `output = input * 2` on a float32 vector, one program per 256 elements (a kernel of
// the consumer project, compiled by the installed ntc through add_nt_kernel).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 256);

NT_ARRANGEMENT auto scale_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_APPLICATION void scale_application(nt::Tile input, nt::Tile output) {
  output = input * 2;
}

NT_KERNEL(scale, scale_arrangement, scale_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
