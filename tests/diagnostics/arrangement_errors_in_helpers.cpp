// Errors deep inside helper functions do not leak into later kernels: four kernels whose
// arrangement fails 16 calls deep, then one that calls a helper correctly. The evaluator's call
// depth used to stay raised after each error, so the fifth kernel failed with "call depth
// exceeds 64". Its helper is a lambda stored in a local variable (a closure that captures its
// own frame, which the evaluator must release).
#include <ntc/dsl.hpp>

inline nt::Tensor deep(nt::Tensor t, int n) {
  return n == 0 ? t.tile({0}) : deep(t, n - 1); // expected-error 4 {{tile: tile size 0 of dimension 0 must be positive (or -1 for the whole extent)}}
}
inline nt::Tensor good_tile(nt::Tensor t) { return t.tile({4}); }

NT_ARRANGEMENT auto bad(nt::Tensor x) { return nt::arrange(deep(x, 15)); }
NT_ARRANGEMENT auto good(nt::Tensor x) {
  auto tile = [&](nt::Tensor t) { return good_tile(t); };
  return nt::arrange(tile(x));
}
NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(bad_1, bad, app, nt::Tensor(1, nt::float32));
NT_KERNEL(bad_2, bad, app, nt::Tensor(1, nt::float32));
NT_KERNEL(bad_3, bad, app, nt::Tensor(1, nt::float32));
NT_KERNEL(bad_4, bad, app, nt::Tensor(1, nt::float32));
NT_KERNEL(good_after_errors, good, app, nt::Tensor(1, nt::float32));
