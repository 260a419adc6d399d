// One axis tiled with two sizes: k is BK in lhs but 32 in rhs. Reported at the kernel, with a
// note at each tensor.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 128);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 32, 64);

NT_ARRANGEMENT auto arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), // #lhs
                     rhs.axes("k", "n").tile({32, BN}), // #rhs
                     output.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = acc;
}

// expected-note@#rhs {{'rhs' tiles 'k' with 32}}
// expected-note@#lhs {{'lhs' tiles 'k' with BLOCK_SIZE_K}}
NT_KERNEL(mismatch, arrangement, application, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16)); // expected-error {{axis 'k' is tiled with 32 in 'rhs' but with BLOCK_SIZE_K in 'lhs'; one axis needs one tile size}}
