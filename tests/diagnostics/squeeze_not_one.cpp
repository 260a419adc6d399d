// squeeze() of a dimension whose size is provably not 1 (a constant, or a block size whose
// lower bound is at least 2), also inside a helper function called by the arrangement.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);

NT_ARRANGEMENT auto constant(nt::Tensor x) {
  auto t = x.tile({4});
  t.dtype() = t.dtype().squeeze(0); // expected-error {{squeeze: cannot squeeze dimension 0: its size is 4, not 1}}
  return nt::arrange(t);
}

NT_ARRANGEMENT auto block_size(nt::Tensor x) {
  auto t = x.tile({BM, 1});
  // Dimension 1 (size 1) may go; dimension 0 (BLOCK_SIZE_M >= 64) may not.
  t.dtype() = t.dtype().squeeze({1, 0}); // expected-error {{squeeze: cannot squeeze dimension 0: its size is BLOCK_SIZE_M, not 1}}
  return nt::arrange(t);
}

NT_ARRANGEMENT auto negative(nt::Tensor x) {
  auto t = x.tile({1, 8});
  t.dtype() = t.dtype().squeeze(-1); // expected-error {{squeeze: cannot squeeze dimension -1: its size is 8, not 1}}
  return nt::arrange(t);
}

static nt::Tensor helper(nt::Tensor t) {
  auto arranged = t.tile({2, 2});
  arranged.dtype() = arranged.dtype().squeeze({0, 1}); // expected-error {{squeeze: cannot squeeze dimension 0: its size is 2, not 1}}
  return arranged;
}

NT_ARRANGEMENT auto through_helper(nt::Tensor x) { return nt::arrange(helper(x)); }

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(constant, constant, app, nt::Tensor(1, nt::float32));
NT_KERNEL(block_size, block_size, app, nt::Tensor(2, nt::float32));
NT_KERNEL(negative, negative, app, nt::Tensor(2, nt::float32));
NT_KERNEL(through_helper, through_helper, app, nt::Tensor(2, nt::float32));
