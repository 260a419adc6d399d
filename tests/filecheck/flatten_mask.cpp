// simplify-mask on a flattened tensor: the coordinates unravelled from the flat index
// (floor(i / (s1·s2)), (i / s2) mod s1, i mod s2) need no bounds of their own: quotients of a
// non-negative index and remainders are never negative, a remainder is below its divisor, and
// floor(i / (s1·s2)) < s0 follows from the flat bound i < s0·s1·s2, which stays.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.flatten().tile({256}), y.flatten().tile({256}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = x + 1; }

NT_KERNEL(plus_one_3d, arrangement, application, nt::Tensor(3, nt::float32),
          nt::Tensor(3, nt::float32));

// CPP:      if (!((lane0 + (256 * pid0)) < (1 * ntc_x_size_0 * ntc_x_size_1 * ntc_x_size_2)))
// CPP-NEXT:   return ntc::cpu::masked;
// CPP-NEXT: return static_cast<long long>(ntc::rt::floor_div<Index>((lane0 + (256 * pid0)), (1 * ntc_x_size_1 * ntc_x_size_2)) * ntc_x_stride_0
