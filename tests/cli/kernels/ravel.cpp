// ravel() merges all levels into one: (4, 6) tiled (2, 3) is (2, 2) -> (2, 3); raveled, one
// level (2, 2, 2, 3) with the same index array.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto raveled(nt::Tensor x) { return nt::arrange(x.tile({2, 3}).ravel()); }

// Tiling the raveled level (2, 2, 2, 3) by (2, 1, 1, 1) nests again: (1, 2, 2, 3) -> (2, 1, 1, 1).
NT_ARRANGEMENT auto raveled_tiled(nt::Tensor x) {
  return nt::arrange(x.tile({2, 3}).ravel().tile({2, 1, 1, 1}));
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(raveled, raveled, application, nt::Tensor(2, nt::float32));
NT_KERNEL(raveled_tiled, raveled_tiled, application, nt::Tensor(2, nt::float32));
