// tuned_scale: `output = input * 3` on a float32 vector whose tile size is a tuned
// meta-parameter (64 to 1024 elements per program). The consumer builds it with a tuning table
// (add_nt_kernel TUNING_TABLE) that gives small and large vectors different tile sizes.

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 64, 1024);

NT_ARRANGEMENT auto tuned_scale_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_APPLICATION void tuned_scale_application(nt::Tile input, nt::Tile output) {
  output = input * 3;
}

NT_KERNEL(tuned_scale, tuned_scale_arrangement, tuned_scale_application,
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
