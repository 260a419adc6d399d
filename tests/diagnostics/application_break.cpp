// 'break', 'continue' and 'goto' in an application: loops always run over a whole dimension.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({4});
  auto y_arranged = y.tile({4}).tile({-1}).expand({x_arranged.shape(0)});
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void with_break(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < y.shape(0); ++k) {
    x = x + y[k];
    break; // expected-error {{'break' is not supported in an application function; loops always run over a whole tile dimension}}
  }
}

NT_APPLICATION void with_continue(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < y.shape(0); ++k) {
    if (k == 0)
      continue; // expected-error {{'continue' is not supported in an application function; loops always run over a whole tile dimension}}
    x = x + y[k];
  }
}

NT_APPLICATION void with_goto(nt::Tile x, nt::Tile y) {
  x = y[0];
  goto done; // expected-error {{'goto' is not supported in an application function}}
done:
  return;
}

NT_KERNEL(with_break, arrangement, with_break, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(with_continue, arrangement, with_continue, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(with_goto, arrangement, with_goto, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
