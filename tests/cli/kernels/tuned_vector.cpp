// A vector tiled by a tuned block size (powers of two in [2, 8]); --define BLOCK_SIZE=V picks one.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 2, 8);

NT_ARRANGEMENT auto tuned_arrangement(nt::Tensor x) { return nt::arrange(x.tile({BLOCK_SIZE})); }

NT_APPLICATION void tuned_application(nt::Tile x) { x = x + 1; }

NT_KERNEL(tuned_vector, tuned_arrangement, tuned_application, nt::Tensor(1, nt::float32));
