// Compile-only register check of the device library's SIMT product (dot_simt): float32 tiles
// of attention's shapes at head dimension 128 (scores 128×64 = Q 128×128 · Kᵀ 128×64, then the
// 128×128 output += P 128×64 · V 64×128) over 256 threads, as generated float32 attention calls
// them. check_simt_dot_registers.cmake compiles it for sm_90a with `-Xptxas -v` and requires no
// spill stores and at most MAX_REGISTERS registers per kernel. Before the register-blocked path
// (thirty-fifth session) every output kept two indices in registers: 248 and 255 registers
// here (202 and 178 with it), and generated float32 attention spilled 0.4-4.9 KiB per thread.
#include <ntc/device/device.cuh>

namespace dev = ntc::dev;
using dev::Shape;
using dev::Smem;

namespace {

/// Row-major offsets of a dense tile of shape S.
template <class S> struct Dense {
  __device__ long long operator()(const int *index) const { return S::ravel(index); }
};

constexpr int kThreads = 256;
using Q = Shape<128, 128>;
using Kt = Shape<128, 64>;
using P = Shape<128, 64>;
using V = Shape<64, 128>;

} // namespace

/// scores = q·kᵀ for tiles read from global memory.
__global__ void __launch_bounds__(kThreads)
    simt_scores(const float *q, const float *kt, float *scores) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  const auto tq = dev::load<float, Q, kThreads>(q, 0.0f, Dense<Q>{});
  const auto tk = dev::load<float, Kt, kThreads>(kt, 0.0f, Dense<Kt>{});
  dev::store(scores, dev::dot<float>(tq, tk, smem), Dense<P>{});
}

/// o = 1 + p·v for tiles read from global memory.
__global__ void __launch_bounds__(kThreads) simt_output(const float *p, const float *v, float *o) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  const auto tp = dev::load<float, P, kThreads>(p, 0.0f, Dense<P>{});
  const auto tv = dev::load<float, V, kThreads>(v, 0.0f, Dense<V>{});
  const auto acc = dev::full<float, Q, kThreads>(1.0f);
  dev::store(o, dev::dot(tp, tv, acc, smem), Dense<Q>{});
}
