// Only a parameter declared nt::Constexpr with integer values stands for an integer of an
// arrangement (a tile size, stride, dilation or padding: one variant per value). A run-time
// scalar, a fractional Constexpr, a tensor, or a Constexpr already transformed is a located error.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto by_scalar(nt::Tensor x, nt::Tensor y, nt::Tensor step) {
  return nt::arrange(x.tile({2}, {step}), y, step); // expected-error 2 {{only a parameter declared nt::Constexpr with integer values can be used as an integer in an arrangement}}
}
NT_ARRANGEMENT auto by_tensor(nt::Tensor x, nt::Tensor y, nt::Tensor step) {
  return nt::arrange(x.tile({y}), y, step); // expected-error {{only a parameter declared nt::Constexpr with integer values can be used as an integer in an arrangement}}
}
NT_ARRANGEMENT auto by_unsqueezed(nt::Tensor x, nt::Tensor y, nt::Tensor step) {
  return nt::arrange(x.tile({step.unsqueeze(0)}), y, step); // expected-error {{only a parameter declared nt::Constexpr with integer values can be used as an integer in an arrangement}}
}
NT_APPLICATION void app(nt::Tile x, nt::Tile y, nt::Tile step) { y = 0; }

NT_KERNEL(scalar_step, by_scalar, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Scalar(nt::int64));
NT_KERNEL(fractional_step, by_scalar, app, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Constexpr("step", {0.5, 1}));
NT_KERNEL(tensor_size, by_tensor, app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Constexpr("step", {1, 2}));
NT_KERNEL(unsqueezed_step, by_unsqueezed, app, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Constexpr("step", {1, 2}));
