// A subscript provably outside its inner level is a diagnostic (a constant one that a run-time
// extent may not cover is checked by the wrapper instead).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({4});
  auto y_arranged = y.tile({4}).tile({-1}).expand({x_arranged.shape(0)});
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void negative(nt::Tile x, nt::Tile y) {
  x = y[-3]; // expected-error {{index -3 of 'y' is negative}}
}

NT_APPLICATION void negative_sum(nt::Tile x, nt::Tile y) {
  x = y[1 - 2]; // expected-error {{index -1 of 'y' is negative}}
}

NT_KERNEL(negative, arrangement, negative, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(negative_sum, arrangement, negative_sum, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
