// The outermost levels (the launch grid) of all arranged tensors must agree, up to size-1
// dimensions: (n, 1) and (n,) launch the same programs, (n,) and (1,) or (2, n) do not.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto rank_differs(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({4}), y.tile({4, 4}));
}
NT_ARRANGEMENT auto constants_differ(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({-1}).expand({8}), y.tile({-1}).expand({4}));
}
NT_ARRANGEMENT auto agrees(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, -1}), y.tile({1}));
}

NT_APPLICATION void app(nt::Tile x, nt::Tile y) { y = ntl::sum(x); } // expected-note 2 {{the application's parameters are the arranged tensors in this order}}

NT_KERNEL(rank_differs, rank_differs, app, nt::Tensor(1, nt::float32), nt::Tensor(2, nt::float32)); // expected-error {{arranged tensors disagree on the outermost level (the launch grid): 'x' has shape (⌈x_size_0/4⌉,) but 'y' has shape (⌈y_size_0/4⌉, ⌈y_size_1/4⌉)}}
NT_KERNEL(constants_differ, constants_differ, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32)); // expected-error {{arranged tensors disagree on the outermost level (the launch grid): 'x' has shape (8,) but 'y' has shape (4,)}}
NT_KERNEL(agrees, agrees, app, nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32));
