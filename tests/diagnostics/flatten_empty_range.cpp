// flatten(start, end) whose range [start, end) (exclusive end, as NineToothed) is empty.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto equal_bounds(nt::Tensor x) {
  return nt::arrange(x.flatten(1, 1)); // expected-error {{flatten: the range [1, 1) selects no dimensions of a level of rank 3 (the end is exclusive)}}
}

NT_ARRANGEMENT auto reversed(nt::Tensor x) {
  return nt::arrange(x.flatten(2, 1)); // expected-error {{flatten: the range [2, 1) selects no dimensions of a level of rank 3 (the end is exclusive)}}
}

NT_ARRANGEMENT auto negative(nt::Tensor x) {
  return nt::arrange(x.flatten(-1, -1)); // expected-error {{flatten: the range [-1, -1) selects no dimensions of a level of rank 3 (the end is exclusive)}}
}

// A rank-0 tensor (a scalar parameter) has nothing to flatten.
NT_ARRANGEMENT auto scalar(nt::Tensor x) {
  return nt::arrange(x.flatten(0, 0)); // expected-error {{flatten: the range [0, 0) selects no dimensions of a level of rank 0 (the end is exclusive)}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(equal_bounds, equal_bounds, app, nt::Tensor(3, nt::float32));
NT_KERNEL(reversed, reversed, app, nt::Tensor(3, nt::float32));
NT_KERNEL(negative, negative, app, nt::Tensor(3, nt::float32));
NT_KERNEL(scalar, scalar, app, nt::Scalar(nt::float32));
