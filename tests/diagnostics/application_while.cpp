// 'while' and 'do' loops in an application (also in a helper or a lambda it calls).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x) { return nt::arrange(x.tile({4})); }

NT_APPLICATION void with_while(nt::Tile x) {
  int i = 0;
  while (i < 2) { // expected-error {{'while' loops are not supported in an application function; use a 'for' loop over a tile dimension}}
    x = x + 1;
    ++i;
  }
}

NT_APPLICATION void with_do(nt::Tile x) {
  int i = 0;
  do { // expected-error {{'while' loops are not supported in an application function; use a 'for' loop over a tile dimension}}
    x = x + 1;
  } while (++i < 2);
}

inline nt::Tile spin(nt::Tile t) {
  while (t.shape(0) > 8) { // expected-error {{'while' loops are not supported in an application function; use a 'for' loop over a tile dimension}}
  }
  return t;
}

NT_APPLICATION void in_helper(nt::Tile x) { x = spin(x); }

NT_APPLICATION void in_lambda(nt::Tile x) {
  auto twice = [](nt::Tile t) {
    int n = 0;
    while (n < 2) // expected-error {{'while' loops are not supported in an application function; use a 'for' loop over a tile dimension}}
      ++n;
    return t + t;
  };
  x = twice(x);
}

NT_KERNEL(with_while, arrangement, with_while, nt::Tensor(1, nt::float32));
NT_KERNEL(with_do, arrangement, with_do, nt::Tensor(1, nt::float32));
NT_KERNEL(in_helper, arrangement, in_helper, nt::Tensor(1, nt::float32));
NT_KERNEL(in_lambda, arrangement, in_lambda, nt::Tensor(1, nt::float32));
