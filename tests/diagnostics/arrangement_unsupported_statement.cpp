// Statements an arrangement cannot run ('for', 'if', declarations, 'return' and expressions can).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto with_while(nt::Tensor x) {
  auto t = x;
  int i = 0;
  while (i < 1) { // expected-error {{'while' loops are not supported in an arrangement; use 'for' with constant bounds, 'if' and local variables}}
    t = t.tile({4});
    ++i;
  }
  return nt::arrange(t);
}

NT_ARRANGEMENT auto with_switch(nt::Tensor x) {
  switch (x.ndim()) { // expected-error {{'switch' statements are not supported in an arrangement; use 'for' with constant bounds, 'if' and local variables}}
  case 1:
    return nt::arrange(x.tile({4}));
  }
  return nt::arrange(x);
}

NT_ARRANGEMENT auto with_break(nt::Tensor x) {
  auto t = x;
  for (int i = 0; i < 3; ++i) {
    if (i == 1)
      break; // expected-error {{'break' is not supported in an arrangement; use 'for' with constant bounds, 'if' and local variables}}
    t = t.tile({2});
  }
  return nt::arrange(t);
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(with_while, with_while, app, nt::Tensor(1, nt::float32));
NT_KERNEL(with_switch, with_switch, app, nt::Tensor(1, nt::float32));
NT_KERNEL(with_break, with_break, app, nt::Tensor(1, nt::float32));
