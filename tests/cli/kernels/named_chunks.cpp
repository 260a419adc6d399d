// Named axes on tensors with an inner level written with `y[k] = ...`, directly and through a
// helper's `nt::Tile &` parameter: y is the written tensor, so its axis i is the program axis.
// z has no i: it is broadcast, every program reads the same (4,) tile of z.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto chunks(nt::Tensor x, nt::Tensor z, nt::Tensor y) {
  return nt::arrange(x.axes("i").tile({4}).tile({2}), z.axes("j").tile({4}),
                     y.axes("i").tile({4}).tile({2}));
}

NT_APPLICATION void subscript_store(nt::Tile x, nt::Tile z, nt::Tile y) {
  for (int k = 0; k < x.shape(0); ++k)
    y[k] = x[k] + z[0];
}

void put(nt::Tile &target, nt::Tile value) { target = value; }

NT_APPLICATION void helper_store(nt::Tile x, nt::Tile z, nt::Tile y) {
  for (int k = 0; k < x.shape(0); ++k)
    put(y[k], x[k] + z[0]);
}

NT_KERNEL(subscript_store, chunks, subscript_store, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(helper_store, chunks, helper_store, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
