// Calls are inlined. A `nt::Tile &` parameter of the callee is an out parameter: assigning to it
// rebinds the caller's local (NineToothed's `mm.application(a, b, acc)`), and its new type is the
// assigned value's (float16 here).
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 32);

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}));
}

NT_APPLICATION inline void square_into(nt::Tile x, nt::Tile &out) {
  auto squared = x * x;
  out = squared.to(ntl::float16);
}

static nt::Tile twice(nt::Tile t) { return t + t; }

NT_APPLICATION void application(nt::Tile x, nt::Tile y) {
  auto result = ntl::zeros(x.shape(), ntl::float32);
  square_into(x, result);
  y = twice(result);
}

NT_KERNEL(helper, arrangement, application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel helper(
// CHECK-NEXT:    %result = full(0) : float32[32]
// CHECK-NEXT:    %squared = mul(load x[] : float32[32], load x[] : float32[32]) : float32[32]
// CHECK-NEXT:    %result_1 = cast(%squared : float32[32]) : float16[32]
// CHECK-NEXT:    %t = %result_1 : float16[32]
// CHECK-NEXT:    store y[] <- add(%t : float16[32], %t : float16[32]) : float16[32]
// CHECK-NOT:     call
