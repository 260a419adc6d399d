// Assigning to t.dtype() a tensor that is not derived from t.dtype().
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto other_tensor(nt::Tensor x, nt::Tensor y) {
  auto t = x.tile({4});
  t.dtype() = y.tile({4}).dtype(); // expected-error {{the tensor assigned to dtype() must be derived from this tensor's dtype()}}
  return nt::arrange(t, y);
}

// Same source, but another tiling: its outer level is not t's.
NT_ARRANGEMENT auto other_tiling(nt::Tensor x, nt::Tensor y) {
  auto t = x.tile({4});
  t.dtype() = x.tile({2}).dtype(); // expected-error {{the tensor assigned to dtype() must be derived from this tensor's dtype()}}
  return nt::arrange(t, y);
}

NT_ARRANGEMENT auto itself(nt::Tensor x, nt::Tensor y) {
  auto t = x.tile({4});
  t.dtype() = t; // expected-error {{the tensor assigned to dtype() must be derived from this tensor's dtype()}}
  return nt::arrange(t, y);
}

// t's outer level was permuted after u = t.dtype() was taken, so u no longer hangs below t.
NT_ARRANGEMENT auto stale(nt::Tensor x, nt::Tensor y) {
  auto t = x.tile({2, 2});
  auto u = t.dtype();
  t = t.permute({1, 0});
  t.dtype() = u.permute({1, 0}); // expected-error {{the tensor assigned to dtype() must be derived from this tensor's dtype()}}
  return nt::arrange(t, y);
}

// FIXME(ntc): x has no inner level at all; the message should say so (as for x.dtype() read:
// "dtype(): level 0 is the innermost level; ...").
NT_ARRANGEMENT auto source_level(nt::Tensor x, nt::Tensor y) {
  x.dtype() = x; // expected-error {{the tensor assigned to dtype() must be derived from this tensor's dtype()}}
  return nt::arrange(x, y);
}

NT_APPLICATION void app(nt::Tile x, nt::Tile y) { x = y; }

NT_KERNEL(other_tensor, other_tensor, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(other_tiling, other_tiling, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(itself, itself, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(stale, stale, app, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(source_level, source_level, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
