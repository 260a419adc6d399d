// The tuner's space on sm_90a lists the knob minmax=1 (select-min-max) for each TMA ring of a
// program that takes an elementwise maximum or minimum of floats, with the barrier and with
// released stages; a program without one is not offered the knob.

#include "every_block.hpp"

NT_APPLICATION void clamped(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i)
    acc = acc + ntl::dot(ntl::maximum(ntl::dot(q, ntl::trans(k[i])), 0.0).to(ntl::float16), v[i]);
  o = acc;
}

NT_APPLICATION void unclamped(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i)
    acc = acc + ntl::dot(ntl::dot(q, ntl::trans(k[i])).to(ntl::float16), v[i]);
  o = acc;
}

NT_KERNEL(with_max, rows, clamped, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));
NT_KERNEL(without_max, rows, unclamped,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a

// LIST-LABEL: # with_max:
// LIST: with_max stages=2,tma=1,minmax=1
// LIST-NEXT: with_max stages=2,tma=1,release=1,minmax=1
// LIST: with_max stages=4,tma=1,release=1,minmax=1
// LIST-LABEL: # without_max:
// LIST-NOT: minmax
