// A dimension argument outside the level's rank, for every operation that takes one.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto squeeze(nt::Tensor x) {
  return nt::arrange(x.squeeze(2)); // expected-error {{squeeze: dimension 2 is out of range for a level of rank 2 (expected -2 to 1)}}
}

NT_ARRANGEMENT auto squeeze_negative(nt::Tensor x) {
  return nt::arrange(x.squeeze({0, -3})); // expected-error {{squeeze: dimension -3 is out of range for a level of rank 2 (expected -2 to 1)}}
}

// unsqueeze() accepts one position more than the rank (-3 to 2 here).
// FIXME(ntc): the level has rank 2; both unsqueeze messages should say "a level of rank 2".
NT_ARRANGEMENT auto unsqueeze(nt::Tensor x) {
  return nt::arrange(x.unsqueeze(3)); // expected-error {{unsqueeze: dimension 3 is out of range for a level of rank 3 (expected -3 to 2)}}
}

NT_ARRANGEMENT auto unsqueeze_negative(nt::Tensor x) {
  return nt::arrange(x.unsqueeze(-4)); // expected-error {{unsqueeze: dimension -4 is out of range for a level of rank 3 (expected -3 to 2)}}
}

NT_ARRANGEMENT auto permute(nt::Tensor x) {
  return nt::arrange(x.permute({0, 2})); // expected-error {{permute: dimension 2 is out of range for a level of rank 2 (expected -2 to 1)}}
}

NT_ARRANGEMENT auto shape(nt::Tensor x) {
  return nt::arrange(x.tile({x.shape(5), 1})); // expected-error {{shape: dimension 5 is out of range for a level of rank 2 (expected -2 to 1)}}
}

// The inner level of x.tile({4, 4}) has rank 2 too.
NT_ARRANGEMENT auto shape_of_inner_level(nt::Tensor x) {
  auto t = x.tile({4, 4});
  return nt::arrange(t.tile({t.dtype().shape(-3), 1})); // expected-error {{shape: dimension -3 is out of range for a level of rank 2 (expected -2 to 1)}}
}

NT_ARRANGEMENT auto slice(nt::Tensor x) {
  return nt::arrange(x.slice(2, 1)); // expected-error {{slice: dimension 2 is out of range for a level of rank 2 (expected -2 to 1)}}
}

// FIXME(ntc): the end is out of range; the range is not empty. Should read like the others.
NT_ARRANGEMENT auto flatten(nt::Tensor x) {
  return nt::arrange(x.flatten(0, 3)); // expected-error {{flatten: the range [0, 3) selects no dimensions of a level of rank 2 (the end is exclusive)}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(squeeze, squeeze, app, nt::Tensor(2, nt::float32));
NT_KERNEL(squeeze_negative, squeeze_negative, app, nt::Tensor(2, nt::float32));
NT_KERNEL(unsqueeze, unsqueeze, app, nt::Tensor(2, nt::float32));
NT_KERNEL(unsqueeze_negative, unsqueeze_negative, app, nt::Tensor(2, nt::float32));
NT_KERNEL(permute, permute, app, nt::Tensor(2, nt::float32));
NT_KERNEL(shape, shape, app, nt::Tensor(2, nt::float32));
NT_KERNEL(shape_of_inner_level, shape_of_inner_level, app, nt::Tensor(2, nt::float32));
NT_KERNEL(slice, slice, app, nt::Tensor(2, nt::float32));
NT_KERNEL(flatten, flatten, app, nt::Tensor(2, nt::float32));

// Parameter options name source dimensions, checked the same way.
NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x); }
NT_KERNEL(upper_bound, pass, app, nt::Tensor(2, nt::float32).upper_bound(2, 128)); // expected-error {{dimension 2 is out of range for a tensor of rank 2}}
NT_KERNEL(constexpr_dim, pass, app, nt::Tensor(2, nt::float32).constexpr_dim(-3)); // expected-error {{dimension -3 is out of range for a tensor of rank 2}}
