// rotary_embedding: rotary position embedding (RoPE) of x (B, S, H, D) with cos and sin tables
// (S, D/2), D even: each pair (x0, x1) of a head's row at position s, with frequency index i,
// becomes (x0·cos[s, i] − x1·sin[s, i], x0·sin[s, i] + x1·cos[s, i]) (ntops'
// rotary_position_embedding, out of place). The two conventions pair the elements differently:
//
//   rotary_interleaved_*: pairs (x[2i], x[2i + 1])       (GPT-J; torch: view(..., D/2, 2))
//   rotary_half_split_*:  pairs (x[i], x[i + D/2])       (GPT-NeoX / Llama's rotate_half)
//
// In PyTorch (cos, sin broadcast as cos[None, :, None, :]):
//   x0, x1 = x[..., 0::2], x[..., 1::2]       (interleaved; the halves for half-split)
//   out = stack((x0*cos - x1*sin, x0*sin + x1*cos), -1).flatten(-2)   (cat(..., -1) for half-split)
//
// One program per (b, s, h) row: the row is arranged as a middle level of 2 tiles of D/2
// elements, the first and the second members of its pairs (for interleaved, tiles of every
// other element: dilation 2), and the tables' row s is broadcast over b and h. The arithmetic
// is float32; the tables have the input's element type; D ≤ 256.

#include <ntc/dsl.hpp>

// x, output: (B, S, H, 1) -> (2,) -> (D/2,); the two pair members, interleaved or in halves.
static nt::Tensor arrange_pairs(nt::Tensor x, bool interleaved) {
  auto half = x.shape(3) / 2;
  auto halves = interleaved ? x.tile({1, 1, 1, half}, {-1, -1, -1, 1}, {1, 1, 1, 2})
                            : x.tile({1, 1, 1, half}); // (B, S, H, 2) -> (1, 1, 1, D/2)
  auto arranged = halves.tile({1, 1, 1, -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1, 2});
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze({0, 1, 2});
  return arranged;
}

// table (S, D/2): (B, S, H, 1) -> (D/2,), row s for every b and h.
static nt::Tensor arrange_table(nt::Tensor table, nt::Tensor x) {
  auto rows = table.tile({1, x.shape(3) / 2})
                  .unsqueeze(0)
                  .unsqueeze(2)
                  .expand({x.shape(0), -1, x.shape(2), -1});
  rows.dtype() = rows.dtype().squeeze(0);
  return rows;
}

NT_ARRANGEMENT auto rotary_interleaved_arrangement(nt::Tensor input, nt::Tensor cos, nt::Tensor sin,
                                                   nt::Tensor output) {
  return nt::arrange(arrange_pairs(input, true), arrange_table(cos, input),
                     arrange_table(sin, input), arrange_pairs(output, true));
}

NT_ARRANGEMENT auto rotary_half_split_arrangement(nt::Tensor input, nt::Tensor cos, nt::Tensor sin,
                                                  nt::Tensor output) {
  return nt::arrange(arrange_pairs(input, false), arrange_table(cos, input),
                     arrange_table(sin, input), arrange_pairs(output, false));
}

NT_APPLICATION void rotary_application(nt::Tile input, nt::Tile cos, nt::Tile sin,
                                       nt::Tile output) {
  auto cos_row = cos.to(ntl::float32);
  auto sin_row = sin.to(ntl::float32);
  auto first = input[0].to(ntl::float32);
  auto second = input[1].to(ntl::float32);
  output[0] = first * cos_row - second * sin_row;
  output[1] = first * sin_row + second * cos_row;
}

#define ROTARY_TENSOR(dtype) nt::Tensor(4, dtype).upper_bound(3, 256)
#define ROTARY_TABLE(dtype) nt::Tensor(2, dtype).upper_bound(1, 128)

NT_KERNEL(rotary_interleaved_f32, rotary_interleaved_arrangement, rotary_application,
          ROTARY_TENSOR(nt::float32), ROTARY_TABLE(nt::float32), ROTARY_TABLE(nt::float32),
          ROTARY_TENSOR(nt::float32));

NT_KERNEL(rotary_interleaved_f16, rotary_interleaved_arrangement, rotary_application,
          ROTARY_TENSOR(nt::float16), ROTARY_TABLE(nt::float16), ROTARY_TABLE(nt::float16),
          ROTARY_TENSOR(nt::float16));

NT_KERNEL(rotary_half_split_f32, rotary_half_split_arrangement, rotary_application,
          ROTARY_TENSOR(nt::float32), ROTARY_TABLE(nt::float32), ROTARY_TABLE(nt::float32),
          ROTARY_TENSOR(nt::float32));

NT_KERNEL(rotary_half_split_f16, rotary_half_split_arrangement, rotary_application,
          ROTARY_TENSOR(nt::float16), ROTARY_TABLE(nt::float16), ROTARY_TABLE(nt::float16),
          ROTARY_TENSOR(nt::float16));
