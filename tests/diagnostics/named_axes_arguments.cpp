// axes(...) needs one distinct name per dimension, given as string literals.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto too_few(nt::Tensor x) {
  return nt::arrange(x.axes("m").tile({4, 4})); // expected-error {{axes: 1 names given but the tensor has rank 2}}
}

NT_ARRANGEMENT auto repeated(nt::Tensor x) {
  return nt::arrange(x.axes("m", "m").tile({4, 4})); // expected-error {{axes: axis name 'm' is used twice}}
}

constexpr int kNotAName = 3;

NT_ARRANGEMENT auto not_a_string(nt::Tensor x) {
  return nt::arrange(x.axes("m", kNotAName).tile({4, 4})); // expected-error {{axis names must be string literals}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(too_few, too_few, app, nt::Tensor(2, nt::float32));
NT_KERNEL(repeated, repeated, app, nt::Tensor(2, nt::float32));
NT_KERNEL(not_a_string, not_a_string, app, nt::Tensor(2, nt::float32));
