// `for` over an inner level: the loop bound is that level's extent (⌈K/BK⌉), `x[k]` loads the
// k-th tile of the inner level.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BM", 32);
constexpr nt::Symbol BK = nt::block_size("BK", 16);

// x: (⌈M/BM⌉,) -> (⌈K/BK⌉,) -> (BM, BK); row sums of x into y.
NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({BM, BK}).tile({1, -1});
  x_arranged.dtype() = x_arranged.dtype().squeeze(0);
  return nt::arrange(x_arranged.squeeze(1), y.tile({BM}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) {
  auto acc = ntl::zeros({BM}, ntl::float32);
  for (int k = 0; k < x.shape(0); ++k)
    acc = acc + ntl::sum(x[k], 1);
  y = acc;
}

NT_KERNEL(row_sum, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel row_sum(
// CHECK-SAME:    x: (⌈x_size_0/32⌉,) -> (⌈x_size_1/16⌉,) -> (32, 16)
// CHECK:         %acc = full(0) : float32[32]
// CHECK-NEXT:    for k in range(0, ⌈x_size_1/16⌉, 1):
// CHECK-NEXT:      %acc <- add(%acc : float32[32], sum(load x[k] : float32[32, 16], axis=1) : float32[32]) : float32[32]
// CHECK-NEXT:    store y[] <- %acc : float32[32]
