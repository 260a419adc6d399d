// dtype() of the innermost level (there is no next level in), and returning an inner level.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto untiled(nt::Tensor x) {
  return nt::arrange(x.tile({x.dtype().shape(0)})); // expected-error {{dtype(): level 0 is the innermost level; it has no inner level (tile the tensor first)}}
}

NT_ARRANGEMENT auto two_deep(nt::Tensor x) {
  auto t = x.tile({4});
  return nt::arrange(t.dtype().dtype()); // expected-error {{dtype(): level 1 is the innermost level; it has no inner level (tile the tensor first)}}
}

NT_ARRANGEMENT auto assign_two_deep(nt::Tensor x) {
  auto t = x.tile({4}).tile({2});
  t.dtype().dtype() = t.dtype().dtype().dtype().unsqueeze(0); // expected-error {{dtype(): level 2 is the innermost level; it has no inner level (tile the tensor first)}}
  return nt::arrange(t);
}

// FIXME(ntc): the error points at the arrangement's first line; it should point at the
// offending argument of nt::arrange.
NT_ARRANGEMENT auto returns_inner( // expected-error {{arrangement 'returns_inner' returns an inner level (dtype()) as parameter 0; return the whole tensor}}
    nt::Tensor x) {
  auto t = x.tile({4});
  return nt::arrange(t.dtype());
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(untiled, untiled, app, nt::Tensor(1, nt::float32));
NT_KERNEL(two_deep, two_deep, app, nt::Tensor(1, nt::float32));
NT_KERNEL(assign_two_deep, assign_two_deep, app, nt::Tensor(1, nt::float32));
NT_KERNEL(returns_inner, returns_inner, app, nt::Tensor(1, nt::float32));
