// Compile-only test of the device tile library: kernels that instantiate every public function
// of ntc/device/*.cuh with several element types and shapes, for 128 and 256 threads, written
// the way generated code calls the library (plain __global__ functions, lambdas inside device
// code, one __shared__ buffer sized with the *_smem_bytes helpers). CTest compiles it with
// nvcc for sm_80 and sm_90a and fails on any warning. (Conversions do not depend on the block
// size, so that kernel is instantiated for 128 threads only: it is the slowest to compile.)
#include <ntc/device/device.cuh>

#include <cstdint>

namespace dev = ntc::dev;
using dev::Shape;
using dev::Smem;
using dev::Tile;

namespace {

/// Row-major offsets of a dense tile of shape S, masked outside `limit` elements.
template <class S> struct Dense {
  long long limit;
  __device__ long long operator()(const int *index) const {
    const long long e = S::ravel(index);
    return e < limit ? e : dev::masked;
  }
};

template <class To, class From, class S, int Th>
__device__ void convert_to(void *out, const Tile<From, S, Th> &t) {
  dev::store(static_cast<To *>(out), dev::cast<To>(t), Dense<S>{S::numel});
  dev::store(static_cast<To *>(out), t, Dense<S>{S::numel}); // store converts
}

/// cast<To> from T to every element type.
template <class T, class S, int Th>
__device__ void conversions(void *out, const Tile<T, S, Th> &t) {
  convert_to<float>(out, t);
  convert_to<double>(out, t);
  convert_to<dev::float16>(out, t);
  convert_to<dev::bfloat16>(out, t);
  convert_to<dev::float8_e4m3>(out, t);
  convert_to<dev::float8_e5m2>(out, t);
  convert_to<bool>(out, t);
  convert_to<int8_t>(out, t);
  convert_to<uint8_t>(out, t);
  convert_to<int16_t>(out, t);
  convert_to<uint16_t>(out, t);
  convert_to<int32_t>(out, t);
  convert_to<uint32_t>(out, t);
  convert_to<int64_t>(out, t);
  convert_to<uint64_t>(out, t);
}

/// Arithmetic, comparisons, tile∘element, unary ops and compound assignment on T.
template <class T, class S, int Th> __device__ void arithmetic(T *out, bool *flags, const T *in) {
  const auto a = dev::load<T, S, Th>(in, 0, Dense<S>{S::numel});
  const auto b = dev::load<T, S, Th>(in + S::numel, 1.0, Dense<S>{S::numel - 3});
  const Dense<S> at{S::numel};
  dev::store(out, a + b, at);
  dev::store(out, a - b, at);
  dev::store(out, a * b, at);
  dev::store(out, a + 2.5, at);
  dev::store(out, 3 - a, at);
  dev::store(out, a * 2.0f, at);
  dev::store(out, -a, at);
  dev::store(flags, a == b, at);
  dev::store(flags, a != b, at);
  dev::store(flags, a < b, at);
  dev::store(flags, a <= 1, at);
  dev::store(flags, a > b, at);
  dev::store(flags, 0 >= a, at);
  dev::store(flags, !a, at);
  auto c = a;
  c += b;
  c -= 1;
  c *= a;
  if constexpr (!std::is_same_v<T, bool>) {
    dev::store(out, a / b, at);
    dev::store(out, a % b, at);
    dev::store(out, a / 3, at);
    c /= b;
    c %= 7;
  }
  if constexpr (std::is_integral_v<T>) {
    dev::store(out, a & b, at);
    dev::store(out, a | b, at);
    dev::store(out, a ^ b, at);
    dev::store(out, a & 1, at);
    c &= b;
    c |= 3;
    c ^= a;
    if constexpr (!std::is_same_v<T, bool>)
      dev::store(out, ~a, at);
  }
  dev::store(out, c, at);
  dev::store(out, +a, at);
}

/// Math functions on a floating T.
template <class T, class S, int Th> __device__ void math(T *out, const T *in) {
  const auto x = dev::load<T, S, Th>(in, 0, Dense<S>{S::numel});
  const auto y = dev::load<T, S, Th>(in + S::numel, 0, Dense<S>{S::numel});
  const Dense<S> at{S::numel};
  // Every function of the operation table (ntc/common/operations.inc), on tiles.
#define NTC_ALL_OPS_CALL_1(name) dev::store(out, dev::name(x), at);
#define NTC_ALL_OPS_CALL_2(name) dev::store(out, dev::name(x, y), at);
#define NTC_FUNCTION(name, arity, rule) NTC_ALL_OPS_CALL_##arity(name)
#include <ntc/common/operations.inc>
#undef NTC_ALL_OPS_CALL_1
#undef NTC_ALL_OPS_CALL_2
  dev::store(out, dev::pow(x, 2.0), at);
  dev::store(out, dev::minimum(x, 0.0), at);
  dev::store(out, dev::clamp(x, -1, 1.0), at);
  dev::store(out, dev::where(x < y, x, y), at);
  dev::store(out, dev::where(x < 0.0, 0.0, x), at);
  dev::store(out, dev::map(x, [](T v) { return dev::exp(v); }), at);
  dev::store(out, dev::zip(x, y, [](T u, T v) { return dev::widen(u) * dev::widen(v); }), at);
  dev::store(out, x.template to<float>(), at);
  out[0] = dev::exp(T(dev::convert<T>(1.5f))); // element versions
  out[1] = dev::maximum(x, y).v[0];
}

/// Integer-only functions.
template <class T, class S, int Th> __device__ void integer_math(T *out, const T *in) {
  const auto x = dev::load<T, S, Th>(in, 0, Dense<S>{S::numel});
  const Dense<S> at{S::numel};
  dev::store(out, dev::abs(x), at);
  dev::store(out, dev::floor(x) + dev::ceil(x), at);
  dev::store(out, dev::maximum(x, 3), at);
  dev::store(out, dev::pow(x, 2), at);
}

/// Creation, shape operations, broadcasting, reductions, dot, random numbers.
template <class T, int Th>
__device__ void shapes_and_reductions(T *out, int32_t *index_out, float *fout, const T *in,
                                      Smem smem) {
  using S = Shape<16, 32>;
  const auto x = dev::load<T, S, Th>(in, 0, Dense<S>{S::numel});
  const auto row = dev::load<T, Shape<1, 32>, Th>(in, 0, Dense<Shape<1, 32>>{32});
  const auto col = dev::load<T, Shape<16, 1>, Th>(in, 0, Dense<Shape<16, 1>>{16});
  const auto scalar = dev::scalar<T, Th>(dev::convert<T>(2));
  const Dense<S> at{S::numel};
  // Creation.
  dev::store(out, dev::full<T, S, Th>(1.25), at);
  dev::store(out, dev::zeros<T, S, Th>(), at);
  dev::store(index_out, dev::arange<Shape<64>, Th>(5), Dense<Shape<64>>{64});
  dev::store(index_out,
             dev::generate<int32_t, S, Th>([](const int *i) { return i[0] * 32 + i[1]; }), at);
  // Shape operations and broadcasting.
  const auto xb = dev::broadcast_to<S>(row, smem) + dev::broadcast_to<S>(col, smem);
  dev::store(out, xb, at);
  dev::store(out, x - dev::broadcast_to<S>(scalar), at);
  dev::store(out, x * scalar, at);
  dev::store(out, dev::reshape<Shape<512>>(x), Dense<Shape<512>>{512});
  dev::store(out, dev::expand_dims<0>(x), Dense<Shape<1, 16, 32>>{512});
  dev::store(out, dev::expand_dims<-1>(dev::sum<1>(x, smem)), Dense<Shape<16, 1>>{16});
  dev::store(out, dev::trans(x, smem), Dense<Shape<32, 16>>{512});
  dev::store(out, dev::permute<1, 0>(x, smem), Dense<Shape<32, 16>>{512});
  dev::store(out, dev::permute<2, 0, 1>(dev::reshape<Shape<2, 8, 32>>(x), smem),
             Dense<Shape<32, 2, 8>>{512});
  // Reductions over all elements and over each axis.
  out[0] = dev::convert<T>(dev::sum(x, smem).item());
  out[1] = dev::max(x, smem).item();
  out[2] = dev::min(x, smem).item();
  index_out[0] = dev::argmax(x, smem).item();
  index_out[1] = dev::argmin(x, smem).item();
  dev::store(out, dev::sum<0>(x, smem), Dense<Shape<32>>{32});
  dev::store(out, dev::max<1>(x, smem), Dense<Shape<16>>{16});
  dev::store(out, dev::min<-1>(x, smem), Dense<Shape<16>>{16});
  dev::store(index_out, dev::argmax<0>(x, smem), Dense<Shape<32>>{32});
  dev::store(index_out, dev::argmin<1>(x, smem), Dense<Shape<16>>{16});
  dev::store(
      out, dev::max<1>(dev::load<T, Shape<1, 1024>, Th>(in, 0, Dense<Shape<1, 1024>>{1000}), smem),
      Dense<Shape<1>>{1});
  // dot (2-D, batched, with an accumulator).
  const auto a = dev::load<T, Shape<32, 16>, Th>(in, 0, Dense<Shape<32, 16>>{512});
  const auto b = dev::load<T, Shape<16, 32>, Th>(in, 0, Dense<Shape<16, 32>>{512});
  if constexpr (!std::is_same_v<T, bool>) {
    const auto c = dev::dot(a, b, smem);
    dev::store(out, c, Dense<Shape<32, 32>>{1024});
    dev::store(out, dev::dot<float>(a, b, smem), Dense<Shape<32, 32>>{1024});
    dev::store(out, dev::dot(a, b, c, smem), Dense<Shape<32, 32>>{1024});
    const auto ab = dev::reshape<Shape<2, 16, 16>>(a);
    const auto bb = dev::reshape<Shape<2, 16, 16>>(b);
    dev::store(out, dev::dot(ab, bb, smem), Dense<Shape<2, 16, 16>>{512});
  }
  // Random numbers.
  const auto offsets = dev::arange<Shape<256>, Th>(0);
  dev::store(fout, dev::rand(1234, offsets), Dense<Shape<256>>{256});
  dev::store(fout, dev::randn(1234ll, offsets), Dense<Shape<256>>{256});
  dev::store(index_out, dev::randint(7u, offsets), Dense<Shape<256>>{256});
  dev::store(fout, dev::rand(-5, dev::cast<int64_t>(offsets)), Dense<Shape<256>>{256});
}

/// The largest scratch any op of shapes_and_reductions needs.
template <class T, int Th> NTC_DEV_HD constexpr std::size_t shapes_smem_bytes() {
  using S = Shape<16, 32>;
  return dev::smem_max(
      dev::broadcast_smem_bytes<T, Shape<1, 32>>(), dev::broadcast_smem_bytes<T, Shape<16, 1>, S>(),
      dev::trans_smem_bytes<T, S>(), dev::permute_smem_bytes<T, S>(),
      dev::reduce_smem_bytes<T, S, Th>(), dev::reduce_smem_bytes<T, S, Th, 0>(),
      dev::reduce_smem_bytes<T, S, Th, 1>(), dev::reduce_smem_bytes<T, Shape<1, 1024>, Th, 1>(),
      dev::dot_smem_bytes<T, 32, 16, 32>(), dev::dot_smem_bytes<T, T, 16, 16, 16, 2>());
}

} // namespace

template <int Th>
__global__ void __launch_bounds__(Th) conversion_kernel(void *out, const void *in) {
  using S = Shape<4, 64>;
  conversions(out, dev::load<float, S, Th>(static_cast<const float *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<double, S, Th>(static_cast<const double *>(in), 0, Dense<S>{200}));
  conversions(
      out, dev::load<dev::float16, S, Th>(static_cast<const dev::float16 *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<dev::bfloat16, S, Th>(static_cast<const dev::bfloat16 *>(in), 0,
                                                   Dense<S>{200}));
  conversions(out, dev::load<dev::float8_e4m3, S, Th>(static_cast<const dev::float8_e4m3 *>(in), 0,
                                                      Dense<S>{200}));
  conversions(out, dev::load<dev::float8_e5m2, S, Th>(static_cast<const dev::float8_e5m2 *>(in), 0,
                                                      Dense<S>{200}));
  conversions(out, dev::load<bool, S, Th>(static_cast<const bool *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<int8_t, S, Th>(static_cast<const int8_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<uint8_t, S, Th>(static_cast<const uint8_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<int16_t, S, Th>(static_cast<const int16_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<uint16_t, S, Th>(static_cast<const uint16_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<int32_t, S, Th>(static_cast<const int32_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<uint32_t, S, Th>(static_cast<const uint32_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<int64_t, S, Th>(static_cast<const int64_t *>(in), 0, Dense<S>{200}));
  conversions(out, dev::load<uint64_t, S, Th>(static_cast<const uint64_t *>(in), 0, Dense<S>{200}));
}

template <int Th>
__global__ void __launch_bounds__(Th) arithmetic_kernel(void *out, bool *flags, const void *in) {
  arithmetic<float, Shape<8, 64>, Th>(static_cast<float *>(out), flags,
                                      static_cast<const float *>(in));
  arithmetic<double, Shape<3, 5>, Th>(static_cast<double *>(out), flags,
                                      static_cast<const double *>(in));
  arithmetic<dev::float16, Shape<1024>, Th>(static_cast<dev::float16 *>(out), flags,
                                            static_cast<const dev::float16 *>(in));
  arithmetic<dev::bfloat16, Shape<2, 2, 32>, Th>(static_cast<dev::bfloat16 *>(out), flags,
                                                 static_cast<const dev::bfloat16 *>(in));
  arithmetic<dev::float8_e4m3, Shape<64>, Th>(static_cast<dev::float8_e4m3 *>(out), flags,
                                              static_cast<const dev::float8_e4m3 *>(in));
  arithmetic<int8_t, Shape<16, 16>, Th>(static_cast<int8_t *>(out), flags,
                                        static_cast<const int8_t *>(in));
  arithmetic<uint16_t, Shape<16, 16>, Th>(static_cast<uint16_t *>(out), flags,
                                          static_cast<const uint16_t *>(in));
  arithmetic<int32_t, Shape<512>, Th>(static_cast<int32_t *>(out), flags,
                                      static_cast<const int32_t *>(in));
  arithmetic<uint64_t, Shape<7>, Th>(static_cast<uint64_t *>(out), flags,
                                     static_cast<const uint64_t *>(in));
  arithmetic<bool, Shape<32>, Th>(static_cast<bool *>(out), flags, static_cast<const bool *>(in));
  // Mixed operand types and free broadcasting (replicated and leading-1 shapes).
  const auto h = dev::load<dev::float16, Shape<1, 128>, Th>(static_cast<const dev::float16 *>(in),
                                                            0, Dense<Shape<1, 128>>{128});
  const auto f =
      dev::load<float, Shape<128>, Th>(static_cast<const float *>(in), 0, Dense<Shape<128>>{128});
  const auto i =
      dev::load<int32_t, Shape<>, Th>(static_cast<const int32_t *>(in), 0, Dense<Shape<>>{1});
  dev::store(static_cast<float *>(out), h + f * i, Dense<Shape<1, 128>>{128});
  dev::store(static_cast<float *>(out), dev::where(h > f, i, 0.5f), Dense<Shape<1, 128>>{128});
  dev::store(static_cast<float *>(out), dev::where(i > 0, h, f), Dense<Shape<1, 128>>{128});
}

template <int Th> __global__ void __launch_bounds__(Th) math_kernel(void *out, const void *in) {
  math<float, Shape<32, 32>, Th>(static_cast<float *>(out), static_cast<const float *>(in));
  math<double, Shape<100>, Th>(static_cast<double *>(out), static_cast<const double *>(in));
  math<dev::float16, Shape<8, 64>, Th>(static_cast<dev::float16 *>(out),
                                       static_cast<const dev::float16 *>(in));
  math<dev::bfloat16, Shape<256>, Th>(static_cast<dev::bfloat16 *>(out),
                                      static_cast<const dev::bfloat16 *>(in));
  integer_math<int32_t, Shape<256>, Th>(static_cast<int32_t *>(out),
                                        static_cast<const int32_t *>(in));
  integer_math<uint8_t, Shape<256>, Th>(static_cast<uint8_t *>(out),
                                        static_cast<const uint8_t *>(in));
  integer_math<int64_t, Shape<4, 4>, Th>(static_cast<int64_t *>(out),
                                         static_cast<const int64_t *>(in));
}

template <class T, int Th>
__global__ void __launch_bounds__(Th)
    shapes_kernel(T *out, int32_t *index_out, float *fout, const T *in) {
  __shared__ alignas(16) unsigned char buffer[shapes_smem_bytes<T, Th>()];
  shapes_and_reductions<T, Th>(out, index_out, fout, in, Smem{buffer});
}

/// A GEMM main loop as the code generator emits it: accumulate dot over K tiles, store float16.
template <int Th>
__global__ void __launch_bounds__(Th)
    matmul_kernel(const dev::float16 *lhs, const dev::float16 *rhs, dev::float16 *output, int M,
                  int N, int K) {
  constexpr int BM = 64, BN = 64, BK = 32;
  __shared__ alignas(16) unsigned char buffer[dev::dot_smem_bytes<dev::float16, BM, BK, BN>()];
  const Smem smem{buffer};
  const int pm = int(blockIdx.x) / ((N + BN - 1) / BN), pn = int(blockIdx.x) % ((N + BN - 1) / BN);
  auto acc = dev::full<float, Shape<BM, BN>, Th>(0.0);
  for (int k = 0; k < (K + BK - 1) / BK; ++k) {
    const auto a =
        dev::load<dev::float16, Shape<BM, BK>, Th>(lhs, 0.0, [&](const int *i) -> long long {
          const int r = pm * BM + i[0], c = k * BK + i[1];
          return r < M && c < K ? static_cast<long long>(r) * K + c : dev::masked;
        });
    const auto b =
        dev::load<dev::float16, Shape<BK, BN>, Th>(rhs, 0.0, [&](const int *i) -> long long {
          const int r = k * BK + i[0], c = pn * BN + i[1];
          return r < K && c < N ? static_cast<long long>(r) * N + c : dev::masked;
        });
    acc = acc + dev::dot<float>(a, b, smem);
  }
  dev::store(output, dev::cast<dev::float16>(acc), [&](const int *i) -> long long {
    const int r = pm * BM + i[0], c = pn * BN + i[1];
    return r < M && c < N ? static_cast<long long>(r) * N + c : dev::masked;
  });
}

/// A row softmax as the code generator emits it (one program per row, masked lanes read −inf).
template <int Th, int W>
__global__ void __launch_bounds__(Th)
    softmax_kernel(const float *input, float *output, int rows, int cols) {
  __shared__ alignas(16) unsigned char buffer[dev::reduce_smem_bytes<float, Shape<1, W>, Th>()];
  const Smem smem{buffer};
  const int row = int(blockIdx.x);
  auto offset = [&](const int *i) -> long long {
    return row + i[0] < rows && i[1] < cols ? static_cast<long long>(row + i[0]) * cols + i[1]
                                            : ntc::dev::masked;
  };
  const auto x = dev::load<float, Shape<1, W>, Th>(input, -__builtin_huge_val(), offset);
  const auto numerator = dev::exp(x - dev::cast<float>(dev::max(x, smem)));
  dev::store(output, numerator / dev::cast<float>(dev::sum(numerator, smem)), offset);
}

/// The GEMM as the code generator emits it for a main loop (dot_loop, pipelined).
template <int Th, bool Vec>
__global__ void __launch_bounds__(Th)
    pipelined_matmul_kernel(const dev::float16 *lhs, const dev::float16 *rhs, dev::float16 *output,
                            int M, int N, int K) {
  constexpr int BM = 128, BN = 128, BK = 64;
  extern __shared__ __align__(16) unsigned char dynamic[];
  const Smem smem{dynamic};
  const int pm = int(blockIdx.x) / ((N + BN - 1) / BN), pn = int(blockIdx.x) % ((N + BN - 1) / BN);
  auto acc = dev::full<float, Shape<BM, BN>, Th>(0.0);
  dev::dot_loop<3, Vec, Vec, true, dev::float16, BM, BK, BN, Th>(
      acc, 0, (K + BK - 1) / BK, lhs, dev::convert<dev::float16>(0.0),
      [&](const int k, const int *i) -> long long {
        const int r = pm * BM + i[0], c = k * BK + i[1];
        return r < M && c < K ? static_cast<long long>(r) * K + c : dev::masked;
      },
      [&](const int k, const int *i) -> long long {
        const int r = pm * BM + i[0], c = k * BK + i[1];
        return r < M && c + 7 < K ? static_cast<long long>(r) * K + c : dev::masked;
      },
      dev::affine_tile{
          [&](const int k) { return pm * BM + BM - 1 < M && k * BK + BK - 1 < K; },
          [&](const int k) -> long long { return static_cast<long long>(pm * BM) * K + k * BK; },
          static_cast<long long>(K), 1LL},
      rhs, dev::convert<dev::float16>(0.0),
      [&](const int k, const int *i) -> long long {
        const int r = k * BK + i[0], c = pn * BN + i[1];
        return r < K && c < N ? static_cast<long long>(r) * N + c : dev::masked;
      },
      dev::no_chunk{}, dev::no_affine{}, smem);
  auto offset = [&](const int *i) -> long long {
    const int r = pm * BM + i[0], c = pn * BN + i[1];
    return r < M && c < N ? static_cast<long long>(r) * N + c : dev::masked;
  };
  dev::store_vec(output, dev::cast<dev::float16>(acc), offset, dev::no_chunk{});
}

/// The GEMM of a `_tma` program (use-tensor-maps): both operands of the main loop by TMA on a
/// ring of four stages, the offsets kept for the paths that copy otherwise. With Cluster 2 (the
/// knob cluster=2), in clusters of two CTAs that multicast B's tiles.
template <int Th, int Cluster = 1>
__global__ void __launch_bounds__(Th) NTC_DEV_CLUSTER_DIMS(Cluster, 1, 1)
    tma_matmul_kernel(const __grid_constant__ dev::tensor_map a_map,
                      const __grid_constant__ dev::tensor_map b_map, const dev::float16 *lhs,
                      const dev::float16 *rhs, float *output, int M, int N, int K) {
  constexpr int BM = 16 * (Th / 32), BN = 128, BK = 64, Stages = 4;
  extern __shared__ __align__(1024) unsigned char tma_matmul_buffer[];
  const Smem smem{tma_matmul_buffer};
  dev::tma_ring<Stages, 2, Cluster * Th / 32, Cluster> ring(
      smem, dev::dot_loop_smem_bytes<dev::float16, BM, BK, BN, Th, Stages>());
  const int pm = int(blockIdx.x) / ((N + BN - 1) / BN), pn = int(blockIdx.x) % ((N + BN - 1) / BN);
  auto acc = dev::full<float, Shape<BM, BN>, dev::Mma<Th / 32, 1>>(0.0);
  auto a_offset = [&](const int k, const int *i) -> long long {
    const int r = pm * BM + i[0], c = k * BK + i[1];
    return r < M && c < K ? static_cast<long long>(r) * K + c : dev::masked;
  };
  auto b_offset = [&](const int k, const int *i) -> long long {
    const int r = k * BK + i[0], c = pn * BN + i[1];
    return r < K && c < N ? static_cast<long long>(r) * N + c : dev::masked;
  };
  dev::dot_loop<Stages, true, true, true, dev::float16, BM, BK, BN, Th>(
      acc, 0, (K + BK - 1) / BK, lhs, dev::convert<dev::float16>(0.0), a_offset, dev::no_chunk{},
      dev::make_tma_operand<2, 1>(ring, a_map,
                                  [&](const int k, int(&c)[2]) -> bool {
                                    c[0] = k * BK;
                                    c[1] = pm * BM;
                                    return true;
                                  }),
      rhs, dev::convert<dev::float16>(0.0), b_offset, dev::no_chunk{},
      dev::make_tma_operand<2, 1, (Cluster > 1)>(ring, b_map,
                                                 [&](const int k, int(&c)[2]) -> bool {
                                                   c[0] = pn * BN;
                                                   c[1] = k * BK;
                                                   return true;
                                                 }),
      smem);
  dev::store(output, acc, [&](const int *i) -> long long {
    const int r = pm * BM + i[0], c = pn * BN + i[1];
    return r < M && c < N ? static_cast<long long>(r) * N + c : dev::masked;
  });
}

/// The GEMM of a persistent, warp-specialized `_tma` program (specialize-warps): Th consumer
/// threads and a producer warpgroup after them, each block looping over the tiles blockIdx.x,
/// blockIdx.x + gridDim.x, ...; the producer's first thread copies every tile's operands into the
/// ring (dot_loop_produce), the consumers multiply (dot_loop_consume) and store each tile by TMA
/// from a staging region of its own, synchronizing among themselves. Cluster 2: the blocks of a
/// cluster hold tiles that share B, which each producer multicasts half of, and each producer
/// drains the other block's releases before exiting.
template <int Th, int Cluster>
__global__ void __launch_bounds__(Th + dev::producer_threads, 1) NTC_DEV_CLUSTER_DIMS(Cluster, 1, 1)
    persistent_matmul_kernel(const __grid_constant__ dev::tensor_map a_map,
                             const __grid_constant__ dev::tensor_map b_map,
                             const __grid_constant__ dev::tensor_map out_map, int M, int N, int K) {
  constexpr int BM = 16 * (Th / 32), BN = 128, BK = 64, Stages = 3;
  constexpr std::size_t ring_bytes =
      dev::dot_loop_smem_bytes<dev::float16, BM, BK, BN, Th, Stages>();
  constexpr std::size_t staging = (ring_bytes + 16 * Stages + 1023) / 1024 * 1024;
  extern __shared__ __align__(1024) unsigned char persistent_buffer[];
  const Smem smem{persistent_buffer};
  dev::tma_ring<Stages, 2, Th / 32 * Cluster, Cluster, Th> ring(smem, ring_bytes);
  // Tiles column after column: consecutive tiles (a cluster's) read the same B.
  const int tiles_m = (M + BM - 1) / BM, tiles = tiles_m * ((N + BN - 1) / BN);
  const int steps = (K + BK - 1) / BK;
  if (int(threadIdx.x) >= Th) {
    dev::set_max_registers<40, false>();
    if (int(threadIdx.x) == Th) {
      unsigned filled = 0;
      for (int t = int(blockIdx.x); t < tiles; t += int(gridDim.x)) {
        const int pm = t % tiles_m, pn = t / tiles_m;
        dev::dot_loop_produce<Stages, dev::float16, BM, BK, BN>(
            0, steps,
            dev::make_tma_operand<2, 1>(ring, a_map,
                                        [&](const int k, int(&c)[2]) -> bool {
                                          c[0] = k * BK;
                                          c[1] = pm * BM;
                                          return true;
                                        }),
            dev::make_tma_operand<2, 1, (Cluster > 1)>(ring, b_map,
                                                       [&](const int k, int(&c)[2]) -> bool {
                                                         c[0] = pn * BN;
                                                         c[1] = k * BK;
                                                         return true;
                                                       }),
            smem, filled);
      }
      dev::dot_loop_drain<Stages>(ring, filled);
    }
    return;
  }
  dev::set_max_registers<232, true>();
  unsigned consumed = 0;
  for (int t = int(blockIdx.x); t < tiles; t += int(gridDim.x)) {
    const int pm = t % tiles_m, pn = t / tiles_m;
    auto acc = dev::full<float, Shape<BM, BN>, dev::Mma<Th / 32, 1>>(0.0);
    dev::dot_loop_consume<Stages, true, dev::float16, BM, BK, BN, Th>(acc, 0, steps, ring, smem,
                                                                      consumed);
    const int at[2] = {pn * BN, pm * BM};
    dev::tma_store<staging, 128, 1, 2, Th, true>(dev::cast<dev::float16>(acc), out_map, smem, at,
                                                 true);
  }
  dev::tma_store_drain();
}

/// The row softmax with vector accesses (the dispatcher's aligned variant).
template <int Th, int W>
__global__ void __launch_bounds__(Th)
    softmax_vec_kernel(const float *input, float *output, int rows, int cols) {
  __shared__ alignas(16) unsigned char buffer[dev::reduce_smem_bytes<float, Shape<1, W>, Th>()];
  const Smem smem{buffer};
  const int row = int(blockIdx.x);
  auto offset = [&](const int *i) -> long long {
    return row + i[0] < rows && i[1] < cols ? static_cast<long long>(row + i[0]) * cols + i[1]
                                            : ntc::dev::masked;
  };
  constexpr int V = dev::Tile<float, Shape<1, W>, Th>::V;
  auto chunk = [&](const int *i) -> long long {
    return row + i[0] < rows && i[1] + V - 1 < cols
               ? static_cast<long long>(row + i[0]) * cols + i[1]
               : ntc::dev::masked;
  };
  const auto x = dev::load_vec<float, Shape<1, W>, Th>(input, -__builtin_huge_val(), offset, chunk);
  const auto numerator = dev::exp(x - dev::cast<float>(dev::max(x, smem)));
  dev::store_vec(output, numerator / dev::cast<float>(dev::sum(numerator, smem)), offset, chunk);
}

/// A pipelined loop whose copies go by TMA (tma.cuh), as the `_tma` programs of use-tensor-maps
/// issue them: a ring of three stages, two copies (of two tensor maps) per stage, one of 5-D.
template <int Th>
__global__ void __launch_bounds__(Th)
    tma_ring_kernel(const __grid_constant__ dev::tensor_map k,
                    const __grid_constant__ dev::tensor_map v, float *out, int n) {
  extern __shared__ __align__(1024) unsigned char tma_buffer[];
  const Smem smem{tma_buffer};
  dev::tma_ring<3, 2> ring(smem, 6 * 8192);
  auto copy = [&](int j) {
    const int rows[2] = {0, j * 64};
    const int deep[5] = {0, j * 64, 1, 2, 3};
    ring.copy<dev::float16, 64, 64, 128, 1, 2>(j % 3, k, smem, (j % 3) * 8192, rows, j < n);
    ring.copy<dev::float16, 64, 64, 64, 1, 5>(j % 3, v, smem, (3 + j % 3) * 8192, deep, true);
  };
  for (int j = 0; j < 2 && j < n; ++j)
    copy(j);
  float total = 0;
  for (int i = 0; i < n; ++i) {
    ring.wait(i % 3);
    dev::barrier();
    if (i + 2 < n)
      copy(i + 2);
    total += float(smem.as<dev::float16>((i % 3) * 8192)[threadIdx.x]);
  }
  out[threadIdx.x] = total;
  // The store of a tile through a map (tma_store), staged at the start of shared memory.
  const int at[2] = {0, n};
  dev::tma_store<0, 128, 1, 2>(
      dev::full<dev::float16, Shape<64, 64>, Th>(dev::convert<dev::float16>(total)), k, smem, at,
      n > 0);
}

template __global__ void conversion_kernel<128>(void *, const void *);
template __global__ void tma_ring_kernel<128>(const __grid_constant__ dev::tensor_map,
                                              const __grid_constant__ dev::tensor_map, float *,
                                              int);
template __global__ void arithmetic_kernel<128>(void *, bool *, const void *);
template __global__ void arithmetic_kernel<256>(void *, bool *, const void *);
template __global__ void math_kernel<256>(void *, const void *);
template __global__ void shapes_kernel<float, 128>(float *, int32_t *, float *, const float *);
template __global__ void shapes_kernel<float, 256>(float *, int32_t *, float *, const float *);
template __global__ void shapes_kernel<dev::float16, 128>(dev::float16 *, int32_t *, float *,
                                                          const dev::float16 *);
template __global__ void shapes_kernel<dev::bfloat16, 256>(dev::bfloat16 *, int32_t *, float *,
                                                           const dev::bfloat16 *);
template __global__ void shapes_kernel<int8_t, 128>(int8_t *, int32_t *, float *, const int8_t *);
template __global__ void shapes_kernel<int64_t, 256>(int64_t *, int32_t *, float *,
                                                     const int64_t *);
template __global__ void shapes_kernel<bool, 128>(bool *, int32_t *, float *, const bool *);
template __global__ void shapes_kernel<double, 128>(double *, int32_t *, float *, const double *);
template __global__ void matmul_kernel<128>(const dev::float16 *, const dev::float16 *,
                                            dev::float16 *, int, int, int);
template __global__ void matmul_kernel<256>(const dev::float16 *, const dev::float16 *,
                                            dev::float16 *, int, int, int);
template __global__ void softmax_kernel<128, 1024>(const float *, float *, int, int);
template __global__ void softmax_kernel<256, 16384>(const float *, float *, int, int);
template __global__ void pipelined_matmul_kernel<256, true>(const dev::float16 *,
                                                            const dev::float16 *, dev::float16 *,
                                                            int, int, int);
template __global__ void pipelined_matmul_kernel<128, false>(const dev::float16 *,
                                                             const dev::float16 *, dev::float16 *,
                                                             int, int, int);
template __global__ void tma_matmul_kernel<128>(const __grid_constant__ dev::tensor_map,
                                                const __grid_constant__ dev::tensor_map,
                                                const dev::float16 *, const dev::float16 *, float *,
                                                int, int, int);
template __global__ void tma_matmul_kernel<128, 2>(const __grid_constant__ dev::tensor_map,
                                                   const __grid_constant__ dev::tensor_map,
                                                   const dev::float16 *, const dev::float16 *,
                                                   float *, int, int, int);
template __global__ void persistent_matmul_kernel<256, 1>(const __grid_constant__ dev::tensor_map,
                                                          const __grid_constant__ dev::tensor_map,
                                                          const __grid_constant__ dev::tensor_map,
                                                          int, int, int);
template __global__ void persistent_matmul_kernel<256, 2>(const __grid_constant__ dev::tensor_map,
                                                          const __grid_constant__ dev::tensor_map,
                                                          const __grid_constant__ dev::tensor_map,
                                                          int, int, int);
template __global__ void softmax_vec_kernel<256, 4096>(const float *, float *, int, int);

// The device library promotes with the shared table (ntc/common/promotion.hpp), as the compiler
// and the CPU library do (tests/unit/PromotionTest.cpp checks those two on every pair).
static_assert(std::is_same_v<dev::promote_t<dev::float8_e4m3, dev::float8_e5m2>, float>);
static_assert(std::is_same_v<dev::promote_t<dev::float16, dev::bfloat16>, float>);
static_assert(std::is_same_v<dev::promote_t<int32_t, uint32_t>, uint32_t>);
static_assert(std::is_same_v<dev::promote_t<int8_t, dev::float16>, dev::float16>);
static_assert(std::is_same_v<dev::promote_t<bool, uint8_t>, uint8_t>);

// Layout-typed tiles (layouts.cuh): every operation on the tensor-core layouts.
template <class T, int WM, int WN>
__global__ void layouts_kernel(const T *a, const T *b, float *out, T *out_half) {
  extern __shared__ __align__(16) unsigned char buffer[];
  const dev::Smem smem{buffer};
  using P = dev::Mma<WM, WN>;
  using S = dev::Shape<64, 64>;
  auto offset = [](const int *i) -> long long { return i[0] * 64 + i[1]; };
  auto row = [](const int *i) -> long long { return i[0]; };
  const auto x = dev::load<T, S, 32 * WM * WN>(a, 0, offset);
  const auto xa = dev::convert_layout<dev::DotA<P>>(x, smem);
  const auto xb = dev::to_shared<16384>(dev::load<T, S, 32 * WM * WN>(b, 0, offset), smem);
  const auto xt = dev::to_shared<16384, true>(x, smem);
  auto c = dev::dot<float>(xa, xb) + dev::dot<float>(xa, xt);
  c = dev::where(dev::generate<int64_t, S, P>(offset) < 100, c, -c);
  const auto m = dev::maximum(dev::max<1>(c, smem), dev::min<1>(c, smem));
  const auto p = dev::exp2(c - dev::broadcast_to<S>(dev::expand_dims<1>(m), smem));
  dev::store(out, p / dev::broadcast_to<S>(dev::expand_dims<1>(dev::sum<1>(p, smem))), offset);
  dev::store(out, dev::cast<float>(dev::argmax<0>(p, smem)), row);
  if constexpr (WN == 1) { // lane shares of row sums (defer-lane-sums)
    auto shares = dev::convert_layout<dev::LanePartial<dev::Slice<P, 1>>>(m, smem);
    shares = shares * m + dev::sum_lane_partial<1>(p);
    shares = shares / m - dev::sum_lane_partial<1>(c);
    dev::store(out, dev::convert_layout<dev::Slice<P, 1>>(shares, smem), row);
  }
  dev::store(out, dev::cast<float>(dev::argmin<1>(-p, smem)), row);
  dev::store(out, dev::full<float, S, dev::DotB<P>>(1.0f), offset);
  dev::store(out, dev::arange<dev::Shape<64>, dev::Slice<P, 0>>(0), row);
  dev::store(out_half, dev::convert_layout<dev::DotA<P>>(dev::cast<T>(p), smem), offset);
  dev::store(out, dev::convert_layout<dev::Blocked<32 * WM * WN>>(dev::abs(p), smem), offset);
  // A product started and completed apart (wgmma for <float16, 4, 1>: B swizzled).
  auto issued = c;
  auto in_flight =
      dev::dot_issue(issued, xa, dev::stage_view<T, S, true, dev::Swizzled<128>>(smem, 0), c, smem,
                     dev::dying_operand{});
  dev::dot_wait(issued, in_flight);
  dev::barrier();
  dev::store(out, issued, offset);
  // A product from a resident A issued ahead of an accumulating one, completed while the
  // second stays in flight (overlap-products at level 2).
  dev::LTile<float, S, P> ahead;
  dev::dot_issue(ahead, dev::to_shared<32768, false, dev::Swizzled<128>>(x, smem),
                 dev::stage_view<T, S, true, dev::Swizzled<128>>(smem, 0), smem);
  auto behind = c;
  auto behind_in_flight =
      dev::dot_issue(behind, xa, dev::stage_view<T, S, true, dev::Swizzled<128>>(smem, 0), c, smem);
  dev::dot_wait<1>(ahead);
  dev::store(out, ahead, offset);
  dev::dot_wait(behind, behind_in_flight);
  dev::store(out, behind, offset);
}
template __global__ void layouts_kernel<dev::float16, 4, 1>(const dev::float16 *,
                                                            const dev::float16 *, float *,
                                                            dev::float16 *);
template __global__ void layouts_kernel<dev::bfloat16, 2, 2>(const dev::bfloat16 *,
                                                             const dev::bfloat16 *, float *,
                                                             dev::bfloat16 *);
