// Dropout with the counter-based generator: keep an element where rand(seed, its source
// offset) > p and scale it by 1 / (1 - p) (NineToothed's test_dropout).
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK_SIZE", 256);

NT_ARRANGEMENT auto dropout_arrangement(nt::Tensor input, nt::Tensor p, nt::Tensor seed,
                                        nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK}), p, seed, output.tile({BLOCK}));
}

NT_APPLICATION void dropout_application(nt::Tile input, nt::Tile p, nt::Tile seed,
                                        nt::Tile output) {
  auto keep = ntl::rand(seed, input.offsets(0)) > p;
  output = ntl::where(keep, input / (1 - p), 0);
}

NT_KERNEL(dropout, dropout_arrangement, dropout_application, nt::Tensor(1, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(1, nt::float32));
