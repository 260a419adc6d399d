// A decision in an arrangement that depends on run-time sizes: arrangements run at compile time.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto in_if(nt::Tensor x) {
  if (x.shape(0) > 4) // expected-error {{cannot decide 'x_size_0' against '4' at compile time; the sizes are only known at run time}}
    return nt::arrange(x.tile({4}));
  return nt::arrange(x.tile({1}));
}

NT_ARRANGEMENT auto in_conditional(nt::Tensor x) {
  return nt::arrange(x.tile({x.shape(0) == 4 ? 4 : 2})); // expected-error {{cannot decide 'x_size_0' against '4' at compile time; the sizes are only known at run time}}
}

NT_ARRANGEMENT auto two_sizes(nt::Tensor x, nt::Tensor y) {
  if (x.shape(0) < y.shape(0)) // expected-error {{cannot decide 'x_size_0' against 'y_size_0' at compile time; the sizes are only known at run time}}
    return nt::arrange(x, y);
  return nt::arrange(y, x);
}

// Sizes that are provably ordered can be compared: a tile of the whole extent has one tile.
NT_ARRANGEMENT auto decidable(nt::Tensor x) {
  auto t = x.tile({-1});
  if (t.shape(0) == 1 && x.ndim() == 1)
    return nt::arrange(t);
  return nt::arrange(x);
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }
NT_APPLICATION void app2(nt::Tile x, nt::Tile y) { x = y; }

NT_KERNEL(in_if, in_if, app, nt::Tensor(1, nt::float32));
NT_KERNEL(in_conditional, in_conditional, app, nt::Tensor(1, nt::float32));
NT_KERNEL(two_sizes, two_sizes, app2, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(decidable, decidable, app, nt::Tensor(1, nt::float32));
