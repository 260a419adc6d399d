// use-tensor-maps (passes/UseTensorMaps.cpp) needs TMA on every architecture compiled: with
// sm_80 among them, the knob tma=1 adds no program, and the dispatcher encodes no tensor map.

#include <ntc/dsl.hpp>

// (⌈M/64⌉, 1) -> (⌈N/64⌉,) -> (64, D): every row block of q sees all of k and v.
nt::Tensor every_block(nt::Tensor input, nt::Tensor q_tiled) {
  auto tiled = input.tile({64, -1}).tile({-1, -1}).expand({q_tiled.shape(0), -1});
  tiled.dtype() = tiled.dtype().squeeze({1});
  return tiled;
}

NT_ARRANGEMENT auto rows(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({64, -1});
  return nt::arrange(q_tiled, every_block(k, q_tiled), every_block(v, q_tiled), o.tile({64, -1}));
}

NT_APPLICATION void two_products(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q, ntl::trans(k[i]));
    acc = acc * 0.5 + ntl::dot(s.to(ntl::float16), v[i]);
  }
  o = acc;
}

NT_KERNEL(mapped, rows, two_products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 80,90a --kernel mapped --config stages=3,tma=1

// CU-NOT: tensor_map_driver
// CU: ntc_mapped_program2_vec(
// CU-NOT: _tma
// CU-NOT: encode_tma
// CU-LABEL: ntc_status_t mapped(
