// where / maximum / expand_dims / comparisons / offsets, as the attention kernel's masking uses
// them: broadcasting a column against a row gives a 2-d mask.
#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({16, 32}), y.tile({16, 32}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) {
  auto lower = ntl::expand_dims(x.offsets(0), 1) >= ntl::expand_dims(x.offsets(1), 0);
  auto masked = ntl::where(lower, x, -std::numeric_limits<double>::infinity());
  y = ntl::maximum(masked, ntl::expand_dims(ntl::max(x, 1), 1) * 0.5);
}

NT_KERNEL(lower_triangle, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// CHECK-LABEL: kernel lower_triangle(
// CHECK-NEXT:    %lower = ge(expand_dims(offsets x[] dim 0 : int64[16], 1) : int64[16, 1], expand_dims(offsets x[] dim 1 : int64[32], 0) : int64[1, 32]) : bool[16, 32]
// CHECK-NEXT:    %masked = where(%lower : bool[16, 32], load x[] : float32[16, 32], -inf : float32[]) : float32[16, 32]
// CHECK-NEXT:    store y[] <- maximum(%masked : float32[16, 32], mul(expand_dims(max(load x[] : float32[16, 32], axis=1) : float32[16], 1) : float32[16, 1], 0.5 : float32[]) : float32[16, 1]) : float32[16, 32]
