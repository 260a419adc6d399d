// x.offsets() with no dimension: the element offset of every element of a tile in its source,
// Σ_d offsets(d) · stride(d) (NineToothed's; dropout draws its random numbers from it).
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BM", 16);
constexpr nt::Symbol BN = nt::block_size("BN", 32);

NT_ARRANGEMENT auto offsets_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({BM, BN}), output.tile({BM, BN}));
}

NT_APPLICATION void offsets_application(nt::Tile input, nt::Tile output) {
  output = input.offsets();
}

NT_APPLICATION void dropout2d_application(nt::Tile input, nt::Tile p, nt::Tile seed,
                                          nt::Tile output) {
  output = ntl::where(ntl::rand(seed, input.offsets()) > p, input / (1 - p), 0);
}

NT_ARRANGEMENT auto dropout2d_arrangement(nt::Tensor input, nt::Tensor p, nt::Tensor seed,
                                          nt::Tensor output) {
  return nt::arrange(input.tile({BM, BN}), p, seed, output.tile({BM, BN}));
}

NT_KERNEL(element_offsets, offsets_arrangement, offsets_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::int64));
NT_KERNEL(dropout2d, dropout2d_arrangement, dropout2d_application, nt::Tensor(2, nt::float32),
          nt::Scalar(nt::float32), nt::Scalar(nt::int64), nt::Tensor(2, nt::float32));
