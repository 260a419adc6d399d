// Expressions an arrangement cannot evaluate at compile time.
#include <ntc/dsl.hpp>

#include <algorithm>

int mutable_global = 4;
constexpr int kZero = 0;

NT_ARRANGEMENT auto standard_library(nt::Tensor x) {
  return nt::arrange(x.tile({std::max<long>(x.ndim(), 2)})); // expected-error {{'std::max' cannot be evaluated in an arrangement; only integer constant expressions from the standard library are folded}}
}

NT_ARRANGEMENT auto division_by_zero(nt::Tensor x) {
  return nt::arrange(x.tile({x.shape(0) / kZero})); // expected-error {{division by zero in an arrangement}}
}

inline nt::Tensor forever(nt::Tensor t, int n) { return n < 0 ? t : forever(t, n + 1); } // expected-error {{call depth exceeds 64; is the arrangement recursive?}}

NT_ARRANGEMENT auto recursive(nt::Tensor x) { return nt::arrange(forever(x, 0)); }

NT_ARRANGEMENT auto assigns_global(nt::Tensor x) {
  mutable_global = 8; // expected-error {{cannot assign to 'mutable_global' in an arrangement; only local variables can be assigned}}
  return nt::arrange(x.tile({4}));
}

// FIXME(ntc): the message should name the variable: "'n' is used before it is given a value".
NT_ARRANGEMENT auto uninitialized(nt::Tensor x) {
  int n;
  return nt::arrange(x.tile({n})); // expected-error {{a tile size must be an integer or a symbol, not nothing}}
}

// A mutable global has no compile-time value.
NT_ARRANGEMENT auto reads_global(nt::Tensor x) {
  return nt::arrange(x.tile({mutable_global})); // expected-error {{'mutable_global' has no value known at compile time; declare it constexpr}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(standard_library, standard_library, app, nt::Tensor(1, nt::float32));
NT_KERNEL(division_by_zero, division_by_zero, app, nt::Tensor(1, nt::float32));
NT_KERNEL(recursive, recursive, app, nt::Tensor(1, nt::float32));
NT_KERNEL(assigns_global, assigns_global, app, nt::Tensor(1, nt::float32));
NT_KERNEL(uninitialized, uninitialized, app, nt::Tensor(1, nt::float32));
NT_KERNEL(reads_global, reads_global, app, nt::Tensor(1, nt::float32));
