// Jagged tensors (Tensor::jagged_dim): dimension 0 is the batch and cannot be jagged; a tensor
// has one jagged dimension; each program reads one batch entry (the batch tiled by 1); and the
// generated function's `<name>_offsets` parameter takes a name no other parameter may have.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto copy_rows(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, 16, 16}), y.tile({1, 16, 16}));
}
NT_ARRANGEMENT auto two_per_program(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({2, 16, 16}), y.tile({2, 16, 16}));
}
NT_ARRANGEMENT auto whole_batch(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({-1, 16, 16}), y.tile({-1, 16, 16}));
}
NT_ARRANGEMENT auto three(nt::Tensor x, nt::Tensor x_offsets, nt::Tensor y) { // #offsets
  return nt::arrange(x.tile({1, 16, 16}), x_offsets.tile({1, 16, 16}), y.tile({1, 16, 16}));
}
NT_APPLICATION void copy(nt::Tile x, nt::Tile y) { y = x; }
NT_APPLICATION void copy3(nt::Tile x, nt::Tile x_offsets, nt::Tile y) { y = x + x_offsets; }

NT_KERNEL(batch_jagged, copy_rows, copy, nt::Tensor(3, nt::float32).jagged_dim(0), nt::Tensor(3, nt::float32)); // expected-error {{dimension 0 of a jagged tensor is its batch; jagged_dim must be 1 or more}}
NT_KERNEL(two_jagged, copy_rows, copy, nt::Tensor(3, nt::float32).jagged_dim(1).jagged_dim(2), nt::Tensor(3, nt::float32)); // expected-error {{a tensor has at most one jagged dimension (already 1)}}
NT_KERNEL(out_of_range, copy_rows, copy, nt::Tensor(3, nt::float32).jagged_dim(3), nt::Tensor(3, nt::float32)); // expected-error {{dimension 3 is out of range for a tensor of rank 3}}
NT_KERNEL(pairs, two_per_program, copy, nt::Tensor(3, nt::float32).jagged_dim(1), nt::Tensor(3, nt::float32)); // expected-error {{jagged tensor 'x': each program must read one batch entry, but its batch coordinate (dimension 0) varies within a program; tile dimension 0 by 1 (e.g. x.tile({1, ...}))}}
NT_KERNEL(whole, whole_batch, copy, nt::Tensor(3, nt::float32), nt::Tensor(3, nt::float32).jagged_dim(2)); // expected-error {{jagged tensor 'y': each program must read one batch entry}}
// expected-error@#offsets {{parameter name 'x_offsets' is reserved (the generated function takes the offsets of jagged tensor 'x' under this name)}}
NT_KERNEL(offsets_name, three, copy3, nt::Tensor(3, nt::float32).jagged_dim(1), nt::Tensor(3, nt::float32), nt::Tensor(3, nt::float32));
NT_KERNEL(fine, copy_rows, copy, nt::Tensor(3, nt::float32).jagged_dim(2), nt::Tensor(3, nt::float32).jagged_dim(1));
