// Inferred axes on tensors with a level of their own: x and y are cut into tiles of 4 and the
// tiles into chunks of 2, and the application walks the chunks (y[k] = x[k] * 2). The walked
// level is the user's, not an iterated axis: x's only axis is y's, the program axis.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto chunks(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({4}).tile({2}),
                     y.axes(nt::inferred).tile({4}).tile({2}));
}

NT_APPLICATION void doubled(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < x.shape(0); ++k)
    y[k] = x[k] * 2;
}

NT_KERNEL(doubled_chunks, chunks, doubled, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
