// The tile size comes from the Clang arguments after `--` (-DTILE=8).
#include <ntc/dsl.hpp>

#ifndef TILE
#error "compile with -- -DTILE=<n>"
#endif

NT_ARRANGEMENT auto tiled(nt::Tensor x) { return nt::arrange(x.tile({TILE})); }

NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

NT_KERNEL(tiled_by_define, tiled, increment, nt::Tensor(1, nt::float32));
