// permute() with a list that is not a permutation of the dimensions.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto repeated(nt::Tensor x) {
  return nt::arrange(x.permute({0, 0})); // expected-error {{permute: {0, 0} is not a permutation (dimension 0 appears twice)}}
}

// -1 is dimension 1 of a rank-2 level.
NT_ARRANGEMENT auto repeated_negative(nt::Tensor x) {
  return nt::arrange(x.permute({1, -1})); // expected-error {{permute: {1, -1} is not a permutation (dimension 1 appears twice)}}
}

NT_ARRANGEMENT auto too_short(nt::Tensor x) {
  return nt::arrange(x.permute({1})); // expected-error {{permute: {1} has 1 entries but the tensor has rank 2}}
}

NT_ARRANGEMENT auto too_long(nt::Tensor x) {
  return nt::arrange(x.permute({2, 1, 0})); // expected-error {{permute: {2, 1, 0} has 3 entries but the tensor has rank 2}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(repeated, repeated, app, nt::Tensor(2, nt::float32));
NT_KERNEL(repeated_negative, repeated_negative, app, nt::Tensor(2, nt::float32));
NT_KERNEL(too_short, too_short, app, nt::Tensor(2, nt::float32));
NT_KERNEL(too_long, too_long, app, nt::Tensor(2, nt::float32));
