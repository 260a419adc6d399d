// Tiles line up by axis name: a per-row scale (m,) beside an (m, n) output is (m, 1).
#include <ntc/dsl.hpp>
constexpr nt::Symbol BM = nt::block_size("BM", 16);
constexpr nt::Symbol BN = nt::block_size("BN", 32);
NT_ARRANGEMENT auto arr(nt::Tensor x, nt::Tensor scale, nt::Tensor bias, nt::Tensor y) {
  return nt::arrange(x.axes("m", "n").tile({BM, BN}), scale.axes("m").tile({BM}), bias.axes("n").tile({BN}), y.axes("m", "n").tile({BM, BN}));
}
NT_APPLICATION void app(nt::Tile x, nt::Tile scale, nt::Tile bias, nt::Tile y) { y = x * scale + bias; }
NT_KERNEL(scaled, arr, app, nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(2, nt::float32));
