// jagged: operators on jagged tensors (NineToothed's `Tensor(jagged_dim=…)`, PyTorch's nested
// tensors with the jagged layout): a batch of sequences of different lengths whose rows are
// stored one after another. A parameter declared `.jagged_dim(1)` is passed as its values
// (total rows × features) and `<name>_offsets` (int64, batch + 1 entries: where each sequence
// starts); in the arrangement its extent 1 is the longest sequence, and rows past the end of a
// program's own sequence are masked (loads read the tensor's `other`, stores skip them).
//
//  * to_padded:        torch.nested.to_padded_tensor(x, 0): (batch, longest, features), zeros
//                      after each sequence;
//  * jagged_sum:       the sum of each sequence, (batch, features) (x.sum(dim=1) of a nested
//                      tensor), accumulated in float32;
//  * jagged_broadcast: a dense (batch, features) tensor repeated along each sequence into a
//                      jagged tensor, y[b, i, :] = x[b, :] (NineToothed's dense-to-jagged
//                      expand).

#include <ntc/dsl.hpp>

constexpr nt::Symbol JAGGED_ROWS = nt::block_size("JAGGED_ROWS", 16);
constexpr nt::Symbol JAGGED_COLS = nt::block_size("JAGGED_COLS", 64);

// One program per (sequence, block of rows, block of features) of both tensors.
NT_ARRANGEMENT auto to_padded_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, JAGGED_ROWS, JAGGED_COLS}),
                     output.tile({1, JAGGED_ROWS, JAGGED_COLS}));
}

NT_APPLICATION void copy_application(nt::Tile input, nt::Tile output) { output = input; }

NT_KERNEL(to_padded_f32, to_padded_arrangement, copy_application,
          nt::Tensor(3, nt::float32).jagged_dim(1), nt::Tensor(3, nt::float32));
NT_KERNEL(to_padded_f16, to_padded_arrangement, copy_application,
          nt::Tensor(3, nt::float16).jagged_dim(1), nt::Tensor(3, nt::float16));

// One program per (sequence, block of features); it walks its sequence in blocks of rows:
//   input:  (batch, ⌈features / COLS⌉) -> (⌈longest / ROWS⌉,) -> (ROWS, COLS)
//   output: (batch, ⌈features / COLS⌉) -> (COLS,)
NT_ARRANGEMENT auto jagged_sum_arrangement(nt::Tensor input, nt::Tensor output) {
  auto rows = input.tile({1, JAGGED_ROWS, JAGGED_COLS}).tile({1, -1, 1});
  rows.dtype() = rows.dtype().squeeze({0, 2});
  rows.dtype().dtype() = rows.dtype().dtype().squeeze(0);
  auto sums = output.tile({1, JAGGED_COLS});
  sums.dtype() = sums.dtype().squeeze(0);
  return nt::arrange(rows.squeeze(1), sums);
}

NT_APPLICATION void jagged_sum_application(nt::Tile input, nt::Tile output) {
  auto sum = ntl::zeros({JAGGED_COLS}, ntl::float32);
  for (int i = 0; i < input.shape(0); ++i)
    sum += ntl::sum(input[i].to(ntl::float32), 0);
  output = sum;
}

NT_KERNEL(jagged_sum_f32, jagged_sum_arrangement, jagged_sum_application,
          nt::Tensor(3, nt::float32).jagged_dim(1), nt::Tensor(2, nt::float32));
NT_KERNEL(jagged_sum_f16, jagged_sum_arrangement, jagged_sum_application,
          nt::Tensor(3, nt::float16).jagged_dim(1), nt::Tensor(2, nt::float16));

// The dense input gets a size-1 sequence dimension, expanded to the longest sequence of the
// output; both are then tiled as in to_padded.
NT_ARRANGEMENT auto jagged_broadcast_arrangement(nt::Tensor input, nt::Tensor output) {
  auto repeated = input.unsqueeze(1).expand({-1, output.shape(1), -1});
  return nt::arrange(repeated.tile({1, JAGGED_ROWS, JAGGED_COLS}),
                     output.tile({1, JAGGED_ROWS, JAGGED_COLS}));
}

NT_KERNEL(jagged_broadcast_f32, jagged_broadcast_arrangement, copy_application,
          nt::Tensor(2, nt::float32), nt::Tensor(3, nt::float32).jagged_dim(1));
NT_KERNEL(jagged_broadcast_f16, jagged_broadcast_arrangement, copy_application,
          nt::Tensor(2, nt::float16), nt::Tensor(3, nt::float16).jagged_dim(1));
