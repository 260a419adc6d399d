// Negative dimensions count from the end, in every operation.
#include <ntc/dsl.hpp>

// (2, 3) -> permute({-1, -2}) (3, 2) -> unsqueeze(-1) (3, 2, 1) -> flatten(-3, -1) (6, 1)
// -> permute({-1, -2}) (1, 6) -> squeeze(-2) (6,): the transposed elements in a row.
NT_ARRANGEMENT auto negative(nt::Tensor x) {
  return nt::arrange(
      x.permute({-1, -2}).unsqueeze(-1).flatten(-3, -1).permute({-1, -2}).squeeze(-2));
}

// shape(-1) of a 2-d tensor is its last extent: tiles of whole rows.
NT_ARRANGEMENT auto last_extent(nt::Tensor x) { return nt::arrange(x.tile({1, x.shape(-1)})); }

// The inner level's dims counted from the end: tiles (2, 3) transposed to (3, 2).
NT_ARRANGEMENT auto inner_level(nt::Tensor x) {
  auto t = x.tile({2, 3});
  t.dtype() = t.dtype().permute({-1, -2});
  return nt::arrange(t);
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(negative, negative, application, nt::Tensor(2, nt::float32));
NT_KERNEL(last_extent, last_extent, application, nt::Tensor(2, nt::float32));
NT_KERNEL(inner_level, inner_level, application, nt::Tensor(2, nt::float32));
