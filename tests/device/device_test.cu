// GPU test of the device tile library (ntc/device/*.cuh): every op runs in a kernel on random
// inputs and is compared with the CPU tile library (ntc/cpu/*.hpp) computing the same thing on
// the host. Exact (bitwise) where the library promises it, within ulps or a relative tolerance
// where the math functions or the summation order differ. Prints
// "device tests: N passed, M failed"; exits 0 when all pass, 1 on failures, 77 when there is no
// usable GPU. Built with --extended-lambda (the tests write kernels as __device__ lambdas).
#include <ntc/cpu/cpu.hpp>
#include <ntc/device/device.cuh>
#include <ntc/rt/tensor_map_driver.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace cpu = ntc::cpu;
namespace dev = ntc::dev;
using dev::Shape;
using dev::Smem;

// --- host/device type pairs ---------------------------------------------------------------------

template <class D> struct host_of { using type = D; };
template <> struct host_of<__half> { using type = cpu::float16; };
template <> struct host_of<__nv_bfloat16> { using type = cpu::bfloat16; };
template <> struct host_of<__nv_fp8_e4m3> { using type = cpu::float8_e4m3; };
template <> struct host_of<__nv_fp8_e5m2> { using type = cpu::float8_e5m2; };
/// The ntc::cpu element type with the same bits as device type D.
template <class D> using host_t = typename host_of<D>::type;

/// Storage of host values in transfer vectors (std::vector<bool> is packed).
template <class H> using raw_t = std::conditional_t<std::is_same_v<H, bool>, unsigned char, H>;
template <class H> using hvec = std::vector<raw_t<H>>;

template <class H> H from_raw(raw_t<H> r) {
  if constexpr (std::is_same_v<H, bool>)
    return r != 0;
  else
    return r;
}

/// A cpu::Tile of `shape` from transferred values.
template <class H> cpu::Tile<H> host_tile(cpu::Shape shape, const hvec<H> &values) {
  cpu::Tile<H> t{std::move(shape), {}};
  t.data.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    t.data[i] = from_raw<H>(values[i]);
  return t;
}

template <class S> cpu::Shape shape_of() {
  cpu::Shape s;
  for (int d = 0; d < S::rank; ++d)
    s.push_back(S::dim(d));
  return s;
}

// --- CUDA plumbing
// --------------------------------------------------------------------------------

#define CUDA_CHECK(expr)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (expr);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr,                           \
                   cudaGetErrorString(err_));                                                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

/// A device array of D with host transfers in the matching ntc::cpu type.
template <class D> struct DevBuf {
  using H = host_t<D>;
  static_assert(sizeof(raw_t<H>) == sizeof(D), "host and device types differ in size");
  D *ptr = nullptr;
  std::size_t n = 0;
  explicit DevBuf(std::size_t count, int fill_byte = 0x5a) : n(count) {
    CUDA_CHECK(cudaMalloc(&ptr, (n ? n : 1) * sizeof(D)));
    CUDA_CHECK(cudaMemset(ptr, fill_byte, (n ? n : 1) * sizeof(D)));
  }
  explicit DevBuf(const hvec<H> &values) : DevBuf(values.size()) {
    CUDA_CHECK(cudaMemcpy(ptr, values.data(), n * sizeof(D), cudaMemcpyHostToDevice));
  }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  ~DevBuf() { cudaFree(ptr); }
  hvec<H> get() const {
    hvec<H> values(n);
    CUDA_CHECK(cudaMemcpy(values.data(), ptr, n * sizeof(D), cudaMemcpyDeviceToHost));
    return values;
  }
};

template <class F> __global__ void run_kernel(F f) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  f(Smem{smem_buffer});
}

/// Runs f(Smem) on `blocks` blocks of Th threads with `smem` bytes of dynamic shared memory.
template <int Th, class F> void launch(F f, std::size_t smem = 0, int blocks = 1) {
  if (smem > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(run_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(smem)));
  run_kernel<<<blocks, Th, smem>>>(f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

/// Row-major offsets of a dense tile, plus `base`.
template <class S> struct RowMajor {
  long long base = 0;
  __device__ long long operator()(const int *index) const { return base + S::ravel(index); }
};

// --- comparison
// -----------------------------------------------------------------------------------

static int g_passed = 0, g_failed = 0;

enum class Cmp {
  bits,   ///< identical bits
  nan_eq, ///< identical bits, or both NaN
  ulps,   ///< within `ulps` units in the last place (both NaN also matches)
  rel     ///< |got − want| ≤ atol + rtol·|want| (both NaN, or equal infinities, also match)
};
struct Tol {
  Cmp kind = Cmp::nan_eq;
  double ulps = 0, rtol = 0, atol = 0;
};
static Tol exact() { return {}; }
static Tol bits() { return {Cmp::bits}; }
static Tol ulps(double n) { return {Cmp::ulps, n}; }
static Tol rel(double rtol, double atol = 0) { return {Cmp::rel, 0, rtol, atol}; }

template <class H> double as_double(H x) {
  if constexpr (cpu::is_floating_v<H>)
    return double(cpu::widen(x));
  else
    return double(x);
}

template <class H> uint64_t bits_of(H x) {
  uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(H));
  return b;
}

/// Position of x on the number line in units of its type's ulp.
template <class H> int64_t ordered(H x) {
  const uint64_t b = bits_of(x);
  const uint64_t sign = uint64_t(1) << (8 * sizeof(H) - 1);
  const int64_t mag = int64_t(b & (sign - 1));
  return (b & sign) ? -mag : mag;
}

template <class H> bool matches(H got, H want, const Tol &tol) {
  if constexpr (!cpu::is_floating_v<H>) {
    return got == want;
  } else {
    const double g = as_double(got), w = as_double(want);
    const bool gn = std::isnan(g), wn = std::isnan(w);
    switch (tol.kind) {
    case Cmp::bits:
      return bits_of(got) == bits_of(want);
    case Cmp::nan_eq:
      return (gn && wn) || bits_of(got) == bits_of(want);
    case Cmp::ulps:
      if (gn || wn)
        return gn && wn;
      return double(std::llabs(ordered(got) - ordered(want))) <= tol.ulps;
    case Cmp::rel:
      if (gn || wn)
        return gn && wn;
      if (std::isinf(g) || std::isinf(w))
        return g == w;
      return std::fabs(g - w) <= tol.atol + tol.rtol * std::fabs(w);
    }
    return false;
  }
}

template <class H> std::string show(H x) {
  char buf[96];
  if constexpr (cpu::is_floating_v<H>)
    std::snprintf(buf, sizeof buf, "%.9g (0x%llx)", as_double(x), (unsigned long long)bits_of(x));
  else if constexpr (std::is_signed_v<H>)
    std::snprintf(buf, sizeof buf, "%lld", (long long)x);
  else
    std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
  return buf;
}

/// Compares device results with the CPU's, counting one test.
template <class H>
void check(const std::string &name, const hvec<H> &got, const cpu::Tile<H> &want, Tol tol = exact(),
           const hvec<H> *inputs = nullptr) {
  std::size_t bad = 0;
  if (got.size() != want.data.size()) {
    std::printf("FAIL %s: %zu values, expected %zu\n", name.c_str(), got.size(), want.data.size());
    ++g_failed;
    return;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const H g = from_raw<H>(got[i]), w = want.data[i];
    if (!matches(g, w, tol)) {
      if (bad < 4)
        std::printf("  %s[%zu]: got %s, expected %s%s%s\n", name.c_str(), i, show(g).c_str(),
                    show(w).c_str(), inputs ? " input " : "",
                    inputs ? show(from_raw<H>((*inputs)[i])).c_str() : "");
      ++bad;
    }
  }
  if (bad) {
    std::printf("FAIL %s: %zu of %zu differ\n", name.c_str(), bad, got.size());
    ++g_failed;
  } else {
    ++g_passed;
  }
}

/// Expects a condition (one test).
static void expect(const std::string &name, bool ok) {
  if (ok)
    ++g_passed;
  else {
    std::printf("FAIL %s\n", name.c_str());
    ++g_failed;
  }
}

// --- inputs
// ---------------------------------------------------------------------------------------

static std::mt19937_64 g_rng(20261129);

/// n values of H: uniform in [lo, hi] (integers: integral values), with a fraction `special`
/// replaced by NaN/±inf/±0 for floating types.
template <class H> hvec<H> random_values(std::size_t n, double lo, double hi, double special = 0) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::uniform_real_distribution<double> p(0, 1);
  hvec<H> v(n);
  for (auto &x : v) {
    double d = u(g_rng);
    if constexpr (!cpu::is_floating_v<H>)
      d = std::floor(d);
    H h = cpu::convert<H>(d);
    if constexpr (cpu::is_floating_v<H>) {
      if (p(g_rng) < special) {
        const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
        h = cpu::convert<H>(specials[g_rng() % 5]);
      }
    }
    x = raw_t<H>(h);
  }
  return v;
}

/// n values drawn from a small set (to make ties), possibly with NaNs.
template <class H> hvec<H> tie_values(std::size_t n, bool nans) {
  const double pool[] = {-2.0, -1.0, -0.0, 0.0, 1.0, 3.0, 3.0, 2.0};
  hvec<H> v(n);
  for (auto &x : v) {
    double d = pool[g_rng() % 8];
    if (nans && g_rng() % 97 == 0)
      d = NAN;
    if constexpr (std::is_unsigned_v<H>)
      d = std::fabs(d);
    x = raw_t<H>(cpu::convert<H>(d));
  }
  return v;
}

// =================================================================================================
// Conversions
// =================================================================================================

/// Interesting values of a type: its edge cases and random bit patterns.
template <class H> hvec<H> conversion_inputs(std::size_t n) {
  std::vector<double> edges = {0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               0.5,
                               -0.5,
                               1.5,
                               -1.5,
                               2.5,
                               -2.5,
                               127.5,
                               128.0,
                               -128.5,
                               255.5,
                               256.0,
                               32767.5,
                               -32768.5,
                               65504.0,
                               65519.99,
                               65520.0,
                               448.0,
                               464.0,
                               480.0,
                               57344.0,
                               61440.0,
                               1e10,
                               -1e10,
                               2147483647.0,
                               2147483648.0,
                               -2147483649.0,
                               4294967295.0,
                               4294967296.0,
                               9.2233720368547758e18,
                               -9.2233720368547758e18,
                               1.8446744073709552e19,
                               1e30,
                               -1e30,
                               1e-5,
                               6e-8,
                               3e-8,
                               1e-40,
                               5e-324,
                               16777217.0,
                               9007199254740993.0,
                               NAN,
                               -NAN,
                               INFINITY,
                               -INFINITY};
  hvec<H> v;
  for (double d : edges)
    v.push_back(raw_t<H>(cpu::convert<H>(d)));
  std::uniform_int_distribution<uint64_t> bitsd;
  std::uniform_real_distribution<double> mag(-12, 12);
  while (v.size() < n) {
    H h{};
    if (g_rng() % 2) { // random bits
      const uint64_t b = bitsd(g_rng);
      std::memcpy(&h, &b, sizeof(H));
      if constexpr (std::is_same_v<H, bool>)
        h = (b & 1) != 0;
    } else { // random magnitude
      const double d = std::pow(10.0, mag(g_rng)) * (g_rng() % 2 ? 1 : -1);
      h = cpu::convert<H>(d);
    }
    v.push_back(raw_t<H>(h));
  }
  v.resize(n);
  return v;
}

template <class From, class To> void conversion_pair(const char *from, const char *to) {
  using HF = host_t<From>;
  using HT = host_t<To>;
  constexpr int n = 2048, Th = 256, blocks = 2;
  const hvec<HF> in = conversion_inputs<HF>(n * blocks);
  DevBuf<From> din(in);
  DevBuf<To> dout(in.size()), dstore(in.size());
  From *pi = din.ptr;
  To *po = dout.ptr, *ps = dstore.ptr;
  launch<Th>(
      [=] __device__(Smem) {
        const RowMajor<Shape<n>> at{blockIdx.x * (long long)n};
        const auto t = dev::load<From, Shape<n>, Th>(pi, 0, at);
        dev::store(po, dev::cast<To>(t), at); // cast
        dev::store(ps, t, at);                // store converts
      },
      0, blocks);
  const auto want = cpu::cast<HT>(host_tile<HF>({n * blocks}, in));
  // NaN payloads through float/double hardware conversions are not specified.
  const bool payload = cpu::is_small_float_v<HT> || !cpu::is_floating_v<HF>;
  check<HT>(std::string("convert ") + from + " -> " + to, dout.get(), want,
            payload ? bits() : exact());
  check<HT>(std::string("store ") + from + " -> " + to, dstore.get(), want,
            payload ? bits() : exact());
}

template <class From> void conversions_from(const char *from) {
  conversion_pair<From, float>(from, "float");
  conversion_pair<From, double>(from, "double");
  conversion_pair<From, __half>(from, "float16");
  conversion_pair<From, __nv_bfloat16>(from, "bfloat16");
  conversion_pair<From, __nv_fp8_e4m3>(from, "e4m3");
  conversion_pair<From, __nv_fp8_e5m2>(from, "e5m2");
  conversion_pair<From, bool>(from, "bool");
  conversion_pair<From, int8_t>(from, "int8");
  conversion_pair<From, uint8_t>(from, "uint8");
  conversion_pair<From, int16_t>(from, "int16");
  conversion_pair<From, uint16_t>(from, "uint16");
  conversion_pair<From, int32_t>(from, "int32");
  conversion_pair<From, uint32_t>(from, "uint32");
  conversion_pair<From, int64_t>(from, "int64");
  conversion_pair<From, uint64_t>(from, "uint64");
}

/// Every bit pattern of a small float type, widened to float, and float values at, between and
/// next to the midpoints of consecutive small floats, narrowed (round-to-nearest-even ties).
template <class D> void small_float_exhaustive(const char *name) {
  using H = host_t<D>;
  constexpr int bitsn = int(8 * sizeof(D));
  constexpr int count = 1 << bitsn;
  hvec<H> all(count);
  for (int b = 0; b < count; ++b)
    std::memcpy(&all[b], &b, sizeof(D));
  constexpr int n = 1024, Th = 128;
  const int blocks = count >= n ? count / n : 1;
  {
    hvec<H> in = all;
    in.resize(std::size_t(blocks) * n, all[0]);
    DevBuf<D> din(in);
    DevBuf<float> dout(in.size());
    D *pi = din.ptr;
    float *po = dout.ptr;
    launch<Th>(
        [=] __device__(Smem) {
          const RowMajor<Shape<n>> at{blockIdx.x * (long long)n};
          dev::store(po, dev::cast<float>(dev::load<D, Shape<n>, Th>(pi, 0, at)), at);
        },
        0, blocks);
    check<float>(std::string("widen all ") + name, dout.get(),
                 cpu::cast<float>(host_tile<H>({(int64_t)in.size()}, in)), bits());
  }
  {
    std::vector<float> in;
    for (int b = 0; b + 1 < count; ++b) {
      const float x = cpu::widen(from_raw<H>(all[b])), y = cpu::widen(from_raw<H>(all[b + 1]));
      if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y))
        continue;
      const float mid = float((double(x) + double(y)) / 2);
      in.push_back(x);
      in.push_back(mid);
      in.push_back(std::nextafter(mid, INFINITY));
      in.push_back(std::nextafter(mid, -INFINITY));
    }
    in.push_back(NAN);
    in.push_back(-NAN);
    in.push_back(INFINITY);
    in.push_back(-INFINITY);
    in.push_back(1e30f);
    in.push_back(-1e30f);
    const int nb = int((in.size() + n - 1) / n);
    in.resize(std::size_t(nb) * n, 0.0f);
    DevBuf<float> din(in);
    DevBuf<D> dout(in.size());
    float *pi = din.ptr;
    D *po = dout.ptr;
    launch<Th>(
        [=] __device__(Smem) {
          const RowMajor<Shape<n>> at{blockIdx.x * (long long)n};
          dev::store(po, dev::load<float, Shape<n>, Th>(pi, 0, at), at);
        },
        0, nb);
    check<H>(std::string("narrow ties float -> ") + name, dout.get(),
             cpu::cast<H>(host_tile<float>({(int64_t)in.size()}, in)), bits());
  }
}

/// For NaNs of every sign and many payloads (and some numbers), the bits of exp2's result (the
/// special-function unit's) narrowed to float16 and bfloat16 as cast<> narrows them (payload
/// kept, detail::narrow_float) and as cast_canonical_nan does (the packed conversion) of a
/// 2 × 64 Mma tile: mark-canonical-nans relies on the two being equal. Counts the differences.
__global__ void canonical_nan_kernel(const float *in, int n, int *differences) {
  using Tile = dev::LTile<float, Shape<16, 8>, dev::Mma<1, 1>>;
  for (int base = 0; base < n; base += 128) {
    Tile t;
#pragma unroll
    for (int s = 0; s < Tile::Slots; ++s)
      t.v[s] = dev::detail::exp2_ftz(in[(base + int(threadIdx.x) * Tile::Slots + s) % n]);
    const auto half = dev::cast_canonical_nan<dev::float16>(t);
    const auto brain = dev::cast_canonical_nan<dev::bfloat16>(t);
#pragma unroll
    for (int s = 0; s < Tile::Slots; ++s) {
      if (dev::detail::bit_cast<uint16_t>(half.v[s]) !=
          dev::detail::bit_cast<uint16_t>(dev::detail::narrow_float<dev::float16>(t.v[s])))
        atomicAdd(differences, 1);
      if (dev::detail::bit_cast<uint16_t>(brain.v[s]) !=
          dev::detail::bit_cast<uint16_t>(dev::detail::narrow_float<dev::bfloat16>(t.v[s])))
        atomicAdd(differences, 1);
    }
  }
}

static void canonical_nans() {
  hvec<float> in;
  for (uint32_t payload : {1u, 2u, 0x1234u, 0x3fffffu, 0x400000u, 0x400001u, 0x7fffffu})
    for (uint32_t sign : {0u, 0x80000000u}) {
      const uint32_t bits = sign | 0x7f800000u | payload;
      float x;
      std::memcpy(&x, &bits, sizeof x);
      in.push_back(x);
    }
  for (float x : {0.0f, -1.5f, 3.25f, 126.0f, 200.0f, -200.0f})
    in.push_back(x);
  DevBuf<float> d_in(in);
  DevBuf<int> differences(1, 0);
  canonical_nan_kernel<<<1, 32>>>(d_in.ptr, int(in.size()), differences.ptr);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  expect("exp2's NaNs narrow alike with and without the NaN-payload test",
         differences.get()[0] == 0);
}

static void test_conversions() {
  conversions_from<float>("float");
  conversions_from<double>("double");
  conversions_from<__half>("float16");
  conversions_from<__nv_bfloat16>("bfloat16");
  conversions_from<__nv_fp8_e4m3>("e4m3");
  conversions_from<__nv_fp8_e5m2>("e5m2");
  conversions_from<bool>("bool");
  conversions_from<int8_t>("int8");
  conversions_from<uint8_t>("uint8");
  conversions_from<int16_t>("int16");
  conversions_from<int32_t>("int32");
  conversions_from<uint32_t>("uint32");
  conversions_from<int64_t>("int64");
  conversions_from<uint64_t>("uint64");
  small_float_exhaustive<__half>("float16");
  small_float_exhaustive<__nv_bfloat16>("bfloat16");
  small_float_exhaustive<__nv_fp8_e4m3>("e4m3");
  small_float_exhaustive<__nv_fp8_e5m2>("e5m2");
  canonical_nans();
}

// =================================================================================================
// Elementwise arithmetic
// =================================================================================================

template <class A, class B, class S, int Th>
void arithmetic(const char *name, double lo, double hi, double special) {
  using HA = host_t<A>;
  using HB = host_t<B>;
  using TA = dev::Tile<A, S, Th>;
  using TB = dev::Tile<B, S, Th>;
  using R = dev::binary_result_t<TA, TB>;
  using HR = host_t<R>;
  static_assert(std::is_same_v<HR, cpu::binary_result_t<cpu::Tile<HA>, cpu::Tile<HB>>>,
                "promotion differs between the libraries");
  constexpr int N = S::numel;
  constexpr bool integral = std::is_integral_v<R>;
  const hvec<HA> a = random_values<HA>(N, lo, hi, special);
  hvec<HB> b = random_values<HB>(N, lo, hi, special);
  if constexpr (cpu::is_integer_v<HB>)
    for (int i = 0; i < N; i += 7)
      b[i] = 0; // division by zero
  DevBuf<A> da(a);
  DevBuf<B> db(b);
  DevBuf<R> out(8 * N);
  DevBuf<bool> cmp(6 * N);
  A *pa = da.ptr;
  B *pb = db.ptr;
  R *po = out.ptr;
  bool *pc = cmp.ptr;
  launch<Th>([=] __device__(Smem) {
    const auto x = dev::load<A, S, Th>(pa, 0, RowMajor<S>{});
    const auto y = dev::load<B, S, Th>(pb, 0, RowMajor<S>{});
    dev::store(po, x + y, RowMajor<S>{0 * N});
    dev::store(po, x - y, RowMajor<S>{1 * N});
    dev::store(po, x * y, RowMajor<S>{2 * N});
    if constexpr (!std::is_same_v<R, bool>) {
      dev::store(po, x / y, RowMajor<S>{3 * N});
      dev::store(po, x % y, RowMajor<S>{4 * N});
    }
    if constexpr (std::is_integral_v<R>) {
      dev::store(po, x & y, RowMajor<S>{5 * N});
      dev::store(po, x | y, RowMajor<S>{6 * N});
      dev::store(po, x ^ y, RowMajor<S>{7 * N});
    }
    dev::store(pc, x == y, RowMajor<S>{0 * N});
    dev::store(pc, x != y, RowMajor<S>{1 * N});
    dev::store(pc, x < y, RowMajor<S>{2 * N});
    dev::store(pc, x <= y, RowMajor<S>{3 * N});
    dev::store(pc, x > y, RowMajor<S>{4 * N});
    dev::store(pc, x >= y, RowMajor<S>{5 * N});
  });
  const auto x = host_tile<HA>(shape_of<S>(), a);
  const auto y = host_tile<HB>(shape_of<S>(), b);
  const hvec<HR> o = out.get();
  const hvec<bool> c = cmp.get();
  auto part = [&](const auto &v, int k) {
    return std::remove_cv_t<std::remove_reference_t<decltype(v)>>(v.begin() + k * N,
                                                                  v.begin() + (k + 1) * N);
  };
  const std::string n = name;
  check<HR>(n + " +", part(o, 0), x + y);
  check<HR>(n + " -", part(o, 1), x - y);
  check<HR>(n + " *", part(o, 2), x * y);
  if constexpr (!std::is_same_v<HR, bool>) {
    // Float division is Triton's div.full.f32 (within 2 ulp); smaller floats divide in float
    // and round, so a quotient near a rounding boundary may land one ulp away.
    Tol quotient = exact();
    if constexpr (std::is_same_v<HR, float>)
      quotient = ulps(2);
    else if constexpr (cpu::is_floating_v<HR> && sizeof(HR) <= 2)
      quotient = ulps(1);
    check<HR>(n + " /", part(o, 3), x / y, quotient);
    check<HR>(n + " %", part(o, 4), x % y);
  }
  if constexpr (integral) {
    check<HR>(n + " &", part(o, 5), x & y);
    check<HR>(n + " |", part(o, 6), x | y);
    check<HR>(n + " ^", part(o, 7), x ^ y);
  }
  check<bool>(n + " ==", part(c, 0), x == y);
  check<bool>(n + " !=", part(c, 1), x != y);
  check<bool>(n + " <", part(c, 2), x < y);
  check<bool>(n + " <=", part(c, 3), x <= y);
  check<bool>(n + " >", part(c, 4), x > y);
  check<bool>(n + " >=", part(c, 5), x >= y);
}

/// Tile ∘ element (element on either side), unary ops, compound assignment.
template <class T, class S, int Th> void scalar_and_unary(const char *name, double lo, double hi) {
  using H = host_t<T>;
  constexpr int N = S::numel;
  const hvec<H> a = random_values<H>(N, lo, hi, 0.02);
  DevBuf<T> da(a);
  using R1 = dev::binary_result_t<dev::Tile<T, S, Th>, double>;
  using R2 = dev::binary_result_t<int, dev::Tile<T, S, Th>>;
  using R3 = dev::binary_result_t<dev::Tile<T, S, Th>, __half>;
  static_assert(std::is_same_v<host_t<R1>, cpu::binary_result_t<cpu::Tile<H>, double>>);
  static_assert(std::is_same_v<host_t<R2>, cpu::binary_result_t<int, cpu::Tile<H>>>);
  static_assert(std::is_same_v<host_t<R3>, cpu::binary_result_t<cpu::Tile<H>, cpu::float16>>);
  DevBuf<R1> o1(2 * N);
  DevBuf<R2> o2(2 * N);
  DevBuf<R3> o3(N);
  DevBuf<T> ou(2 * N);
  DevBuf<bool> on(N);
  T *pa = da.ptr, *pu = ou.ptr;
  R1 *p1 = o1.ptr;
  R2 *p2 = o2.ptr;
  R3 *p3 = o3.ptr;
  bool *pn = on.ptr;
  launch<Th>([=] __device__(Smem) {
    const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
    dev::store(p1, x + 2.5, RowMajor<S>{0});
    dev::store(p1, 0.75 * x, RowMajor<S>{N});
    dev::store(p2, 3 - x, RowMajor<S>{0});
    dev::store(p2, x * 2, RowMajor<S>{N});
    dev::store(p3, x + __float2half(1.5f), RowMajor<S>{0});
    dev::store(pu, -x, RowMajor<S>{0});
    auto y = x;
    y += 1;
    y *= x;
    dev::store(pu, y, RowMajor<S>{N});
    dev::store(pn, !x, RowMajor<S>{0});
  });
  const auto x = host_tile<H>(shape_of<S>(), a);
  const std::string n = name;
  auto part = [&](const auto &v, int k) {
    return std::remove_cv_t<std::remove_reference_t<decltype(v)>>(v.begin() + k * N,
                                                                  v.begin() + (k + 1) * N);
  };
  const auto v1 = o1.get();
  const auto v2 = o2.get();
  const auto vu = ou.get();
  check<host_t<R1>>(n + " tile + 2.5", part(v1, 0), x + 2.5);
  check<host_t<R1>>(n + " 0.75 * tile", part(v1, 1), 0.75 * x);
  check<host_t<R2>>(n + " 3 - tile", part(v2, 0), 3 - x);
  check<host_t<R2>>(n + " tile * 2", part(v2, 1), x * 2);
  check<host_t<R3>>(n + " tile + half", o3.get(), x + cpu::float16(1.5f));
  check<H>(n + " -tile", part(vu, 0), -x);
  auto y = x;
  y += 1;
  y *= x;
  check<H>(n + " compound", part(vu, 1), y);
  check<bool>(n + " !tile", on.get(), !x);
}

/// Float division over the whole range against the CPU's IEEE quotient: quotients near the
/// largest and smallest normal floats, subnormal quotients, divisors beyond 2^126, and the
/// special values (zeros of both signs, infinities, NaN).
static void float_division_range() {
  constexpr int N = 128;
  const float inf = std::numeric_limits<float>::infinity();
  const float pairs[][2] = {{3e38f, 0.7f},  {1e38f, 3e38f}, {1.0f, 3e38f},  {7.0f, 2e-38f},
                            {1e-38f, 3.0f}, {1e-38f, 1e5f}, {2e-45f, 0.5f}, {5e-40f, 7e-40f},
                            {1.0f, 1e-40f}, {-2.5f, 0.0f},  {0.0f, -0.0f},  {-0.0f, 4.0f},
                            {inf, 2.0f},    {inf, -inf},    {3.0f, -inf},   {std::nanf(""), 1.0f},
                            {1.0f, 3.0f},   {-10.0f, 7.0f}};
  constexpr int P = sizeof(pairs) / sizeof(pairs[0]);
  hvec<float> a = random_values<float>(N, -1e30, 1e30, 0),
              b = random_values<float>(N, -1e30, 1e30, 0);
  for (int i = 0; i < P; ++i)
    a[i] = pairs[i][0], b[i] = pairs[i][1];
  DevBuf<float> da(a), db(b), out(N);
  float *pa = da.ptr, *pb = db.ptr, *po = out.ptr;
  launch<128>([=] __device__(Smem) {
    const auto x = dev::load<float, Shape<N>, 128>(pa, 0, RowMajor<Shape<N>>{});
    const auto y = dev::load<float, Shape<N>, 128>(pb, 0, RowMajor<Shape<N>>{});
    dev::store(po, x / y, RowMajor<Shape<N>>{0});
  });
  check<float>("float / over the whole range", out.get(),
               host_tile<float>({N}, a) / host_tile<float>({N}, b), ulps(2));
}

static void test_arithmetic() {
  float_division_range();
  arithmetic<float, float, Shape<16, 64>, 128>("float", -100, 100, 0.02);
  arithmetic<double, double, Shape<300>, 128>("double", -100, 100, 0.02);
  arithmetic<__half, __half, Shape<8, 64>, 256>("float16", -100, 100, 0.02);
  arithmetic<__nv_bfloat16, __nv_bfloat16, Shape<500>, 128>("bfloat16", -100, 100, 0.02);
  arithmetic<__nv_fp8_e4m3, __nv_fp8_e4m3, Shape<256>, 128>("e4m3", -100, 100, 0.02);
  arithmetic<__half, float, Shape<512>, 128>("float16∘float", -100, 100, 0.02);
  arithmetic<__half, __nv_bfloat16, Shape<512>, 128>("float16∘bfloat16", -100, 100, 0.02);
  arithmetic<int32_t, int32_t, Shape<4, 256>, 256>("int32", -3e9, 3e9, 0);
  arithmetic<int32_t, int32_t, Shape<1000>, 128>("int32 small", -20, 20, 0);
  arithmetic<int8_t, int8_t, Shape<512>, 128>("int8", -128, 127, 0);
  arithmetic<int8_t, uint8_t, Shape<512>, 128>("int8∘uint8", 0, 255, 0);
  arithmetic<uint32_t, int32_t, Shape<512>, 128>("uint32∘int32", -1e9, 1e9, 0);
  arithmetic<int64_t, int64_t, Shape<512>, 128>("int64", -1e18, 1e18, 0);
  arithmetic<int32_t, float, Shape<512>, 128>("int32∘float", -1000, 1000, 0);
  arithmetic<bool, int32_t, Shape<512>, 128>("bool∘int32", -3, 3, 0);
  arithmetic<bool, bool, Shape<77>, 128>("bool", 0, 2, 0);
  scalar_and_unary<float, Shape<64, 8>, 128>("float", -10, 10);
  scalar_and_unary<__half, Shape<3, 5>, 128>("float16", -10, 10);
  scalar_and_unary<__nv_bfloat16, Shape<1024>, 256>("bfloat16", -10, 10);
  scalar_and_unary<int32_t, Shape<512>, 128>("int32", -1000, 1000);
  scalar_and_unary<int8_t, Shape<512>, 128>("int8", -128, 127);
  scalar_and_unary<uint8_t, Shape<512>, 128>("uint8", 0, 255);
}

// =================================================================================================
// Math functions, where, maximum/minimum, clamp, map/zip
// =================================================================================================

template <class T, class S, int Th> void math(const char *name, double fulps) {
  using H = host_t<T>;
  constexpr int N = S::numel;
  const hvec<H> a = random_values<H>(N, -6, 6, 0.02);
  const hvec<H> p = random_values<H>(N, 0, 50, 0.02);
  const hvec<H> b = random_values<H>(N, -6, 6, 0.02);
  DevBuf<T> da(a), dp(p), db(b);
  constexpr int K = 23;
  DevBuf<T> out(K * N);
  T *pa = da.ptr, *pp = dp.ptr, *pb = db.ptr, *po = out.ptr;
  launch<Th>([=] __device__(Smem) {
    const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
    const auto q = dev::load<T, S, Th>(pp, 0, RowMajor<S>{});
    const auto y = dev::load<T, S, Th>(pb, 0, RowMajor<S>{});
    int k = 0;
    auto put = [&](const auto &t) { dev::store(po, t, RowMajor<S>{(k++) * N}); };
    put(dev::exp(x));
    put(dev::exp2(x));
    put(dev::log(q));
    put(dev::log2(q));
    put(dev::log1p(q));
    put(dev::sqrt(q));
    put(dev::rsqrt(q));
    put(dev::sin(x));
    put(dev::cos(x));
    put(dev::tanh(x));
    put(dev::sigmoid(x));
    put(dev::erf(x));
    put(dev::floor(x));
    put(dev::ceil(x));
    put(dev::abs(x));
    put(dev::pow(q, y));
    put(dev::maximum(x, y));
    put(dev::minimum(x, y));
    put(dev::clamp(x, -1.0, 2));
    put(dev::where(x < y, x, y));
    put(dev::where(x > 0.0, x, 0.0));
    put(dev::map(x, [](T v) { return dev::convert<T>(dev::widen(v) * 2.0f); }));
    put(dev::zip(x, y, [](T u, T v) { return dev::convert<T>(dev::widen(u) - dev::widen(v)); }));
  });
  const auto x = host_tile<H>(shape_of<S>(), a);
  const auto q = host_tile<H>(shape_of<S>(), p);
  const auto y = host_tile<H>(shape_of<S>(), b);
  const auto o = out.get();
  int k = 0;
  const std::string n = name;
  auto next = [&]() {
    hvec<H> v(o.begin() + k * N, o.begin() + (k + 1) * N);
    ++k;
    return v;
  };
  const Tol f = ulps(fulps);
  check<H>(n + " exp", next(), cpu::exp(x), f);
  check<H>(n + " exp2", next(), cpu::exp2(x), f);
  check<H>(n + " log", next(), cpu::log(q), f);
  check<H>(n + " log2", next(), cpu::log2(q), f);
  check<H>(n + " log1p", next(), cpu::log1p(q), f);
  check<H>(n + " sqrt", next(), cpu::sqrt(q));
  check<H>(n + " rsqrt", next(), cpu::rsqrt(q));
  check<H>(n + " sin", next(), cpu::sin(x), f);
  check<H>(n + " cos", next(), cpu::cos(x), f);
  check<H>(n + " tanh", next(), cpu::tanh(x), f);
  check<H>(n + " sigmoid", next(), cpu::sigmoid(x), f);
  check<H>(n + " erf", next(), cpu::erf(x), f);
  check<H>(n + " floor", next(), cpu::floor(x));
  check<H>(n + " ceil", next(), cpu::ceil(x));
  check<H>(n + " abs", next(), cpu::abs(x));
  check<H>(n + " pow", next(), cpu::cast<H>(cpu::pow(q, y)), ulps(fulps + 2));
  check<H>(n + " maximum", next(), cpu::maximum(x, y));
  check<H>(n + " minimum", next(), cpu::minimum(x, y));
  check<H>(n + " clamp", next(), cpu::clamp(x, -1.0, 2));
  check<H>(n + " where", next(), cpu::where(x < y, x, y));
  check<H>(n + " where scalar", next(), cpu::cast<H>(cpu::where(x > 0.0, x, 0.0)));
  check<H>(n + " map", next(),
           cpu::map(x, [](H v) { return cpu::convert<H>(cpu::widen(v) * 2.0f); }));
  check<H>(n + " zip", next(),
           cpu::zip(x, y, [](H u, H v) { return cpu::convert<H>(cpu::widen(u) - cpu::widen(v)); }));
}

template <class T, class S, int Th> void integer_math(const char *name) {
  using H = host_t<T>;
  constexpr int N = S::numel;
  const hvec<H> a = random_values<H>(N, -1e9, 1e9);
  const hvec<H> b = random_values<H>(N, -1e9, 1e9);
  DevBuf<T> da(a), db(b);
  DevBuf<T> out(6 * N);
  T *pa = da.ptr, *pb = db.ptr, *po = out.ptr;
  launch<Th>([=] __device__(Smem) {
    const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
    const auto y = dev::load<T, S, Th>(pb, 0, RowMajor<S>{});
    dev::store(po, dev::abs(x), RowMajor<S>{0});
    dev::store(po, dev::maximum(x, y), RowMajor<S>{N});
    dev::store(po, dev::minimum(x, y), RowMajor<S>{2 * N});
    dev::store(po, ~x, RowMajor<S>{3 * N});
    dev::store(po, dev::where(x > y, x, y), RowMajor<S>{4 * N});
    dev::store(po, dev::floor(x) + dev::ceil(y), RowMajor<S>{5 * N});
  });
  const auto x = host_tile<H>(shape_of<S>(), a);
  const auto y = host_tile<H>(shape_of<S>(), b);
  const auto o = out.get();
  auto part = [&](int k) { return hvec<H>(o.begin() + k * N, o.begin() + (k + 1) * N); };
  const std::string n = name;
  check<H>(n + " abs", part(0), cpu::abs(x));
  check<H>(n + " maximum", part(1), cpu::maximum(x, y));
  check<H>(n + " minimum", part(2), cpu::minimum(x, y));
  check<H>(n + " ~", part(3), ~x);
  check<H>(n + " where", part(4), cpu::where(x > y, x, y));
  check<H>(n + " floor+ceil", part(5), cpu::floor(x) + cpu::ceil(y));
}

static void test_math() {
  math<float, Shape<32, 32>, 128>("float", 4);
  math<double, Shape<256>, 256>("double", 4);
  math<__half, Shape<4, 100>, 128>("float16", 1);
  math<__nv_bfloat16, Shape<1024>, 256>("bfloat16", 1);
  integer_math<int32_t, Shape<512>, 128>("int32");
  integer_math<int64_t, Shape<64>, 128>("int64");
}

// =================================================================================================
// Creation, shape operations, broadcasting
// =================================================================================================

template <int Th> void creation() {
  constexpr int N = 200;
  DevBuf<float> of(3 * N);
  DevBuf<int32_t> oi(2 * N);
  DevBuf<__half> oh(N);
  DevBuf<double> os(4);
  float *pf = of.ptr;
  int32_t *pi = oi.ptr;
  __half *ph = oh.ptr;
  double *ps = os.ptr;
  launch<Th>([=] __device__(Smem) {
    using S = Shape<N>;
    dev::store(pf, dev::full<float, S, Th>(2.5), RowMajor<S>{0});
    dev::store(pf, dev::zeros<float, S, Th>(), RowMajor<S>{N});
    dev::store(pf, dev::cast<float>(dev::arange<S, Th>(-7)) * 0.5f, RowMajor<S>{2 * N});
    dev::store(pi, dev::arange<S, Th>(3), RowMajor<S>{0});
    dev::store(pi, dev::reshape<S>(dev::generate<int32_t, Shape<10, 20>, Th>([](const int *i) {
                 return i[0] * 100 + i[1];
               })),
               RowMajor<S>{N});
    dev::store(ph, dev::full<__half, S, Th>(1.0 / 3.0), RowMajor<S>{0});
    const auto s = dev::scalar<double, Th>(4.25);
    const auto t = dev::expand_dims<0>(dev::expand_dims<-1>(s)); // Shape<1, 1>
    static_assert(std::is_same_v<typename decltype(t)::shape, Shape<1, 1>>);
    dev::store(ps, s, [](const int *) -> long long { return 0; });
    dev::store(ps, t * 2, [](const int *i) -> long long { return 1 + i[0] + i[1]; });
    ps[2 + threadIdx.x % 2] = s.item(); // every thread holds the replicated value
  });
  const std::string n = "creation Th=" + std::to_string(Th);
  const auto f = of.get();
  const auto i = oi.get();
  check<float>(n + " full", std::vector<float>(f.begin(), f.begin() + N),
               cpu::full<float>({N}, 2.5));
  check<float>(n + " zeros", std::vector<float>(f.begin() + N, f.begin() + 2 * N),
               cpu::zeros<float>({N}));
  check<float>(n + " arange float", std::vector<float>(f.begin() + 2 * N, f.end()),
               cpu::cast<float>(cpu::arange(-7, -7 + N)) * 0.5f);
  check<int32_t>(n + " arange", std::vector<int32_t>(i.begin(), i.begin() + N),
                 cpu::arange(3, 3 + N));
  check<int32_t>(n + " generate", std::vector<int32_t>(i.begin() + N, i.end()),
                 cpu::reshape(cpu::generate<int32_t>(
                                  {10, 20}, [](const int64_t *x) { return x[0] * 100 + x[1]; }),
                              {N}));
  check<cpu::float16>(n + " full float16", oh.get(), cpu::full<cpu::float16>({N}, 1.0 / 3.0),
                      bits());
  check<double>(n + " scalar/expand_dims/item", os.get(),
                cpu::Tile<double>{{4}, {4.25, 8.5, 4.25, 4.25}});
}

template <class T, class S, class S2, int Th> void broadcast(const char *name) {
  using H = host_t<T>;
  const hvec<H> a = random_values<H>(S::numel, -50, 50);
  const hvec<H> b = random_values<H>(S2::numel, -50, 50);
  DevBuf<T> da(a), db(b);
  DevBuf<T> out(2 * S2::numel);
  T *pa = da.ptr, *pb = db.ptr, *po = out.ptr;
  constexpr std::size_t bytes = dev::broadcast_smem_bytes<T, S, S2>();
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
        const auto y = dev::load<T, S2, Th>(pb, 0, RowMajor<S2>{});
        const auto z = dev::broadcast_to<S2>(x, smem);
        dev::store(po, z, RowMajor<S2>{0});
        dev::store(po, dev::cast<T>(z + y), RowMajor<S2>{S2::numel}); // reuse the buffer
      },
      bytes);
  const auto x = host_tile<H>(shape_of<S>(), a);
  const auto y = host_tile<H>(shape_of<S2>(), b);
  const auto o = out.get();
  const std::string n = std::string("broadcast_to ") + name;
  check<H>(n, hvec<H>(o.begin(), o.begin() + S2::numel), cpu::broadcast_to(x, shape_of<S2>()));
  check<H>(n + " + tile", hvec<H>(o.begin() + S2::numel, o.end()),
           cpu::cast<H>(cpu::broadcast_to(x, shape_of<S2>()) + y));
}

/// Free broadcasting in binary ops: replicated tiles and leading-1 shapes.
template <int Th> void implicit_broadcast() {
  const hvec<float> a = random_values<float>(64, -5, 5);
  DevBuf<float> da(a);
  DevBuf<float> out(3 * 64);
  float *pa = da.ptr, *po = out.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<float, Shape<64>, Th>(pa, 0, RowMajor<Shape<64>>{});
        const auto m = dev::max(x, smem);                 // rank 0, replicated
        const auto r = dev::reshape<Shape<1, 64>>(x) - m; // (1, 64) ∘ ()
        dev::store(po, r, RowMajor<Shape<1, 64>>{0});
        dev::store(po, x + dev::reshape<Shape<1, 64>>(x),
                   RowMajor<Shape<1, 64>>{64}); // (64) ∘ (1, 64)
        dev::store(po, dev::where(x > m, m, x), RowMajor<Shape<64>>{128});
      },
      dev::reduce_smem_bytes<float, Shape<64>, Th>());
  const auto x = host_tile<float>({64}, a);
  const auto o = out.get();
  const auto m = cpu::max(x);
  check<float>("implicit broadcast Th=" + std::to_string(Th) + " (1,64)-()",
               std::vector<float>(o.begin(), o.begin() + 64), cpu::reshape(x, {1, 64}) - m);
  check<float>("implicit broadcast (64)+(1,64)",
               std::vector<float>(o.begin() + 64, o.begin() + 128), x + cpu::reshape(x, {1, 64}));
  check<float>("implicit broadcast where", std::vector<float>(o.begin() + 128, o.end()),
               cpu::where(x > m, m, x));
}

template <class T, int R, int C, int Th> void transpose(const char *name) {
  using H = host_t<T>;
  using S = Shape<R, C>;
  const hvec<H> a = random_values<H>(S::numel, -100, 100);
  DevBuf<T> da(a);
  DevBuf<T> out(S::numel);
  T *pa = da.ptr, *po = out.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
        dev::store(po, dev::trans(x, smem), RowMajor<Shape<C, R>>{});
      },
      dev::trans_smem_bytes<T, S>());
  check<H>(std::string("trans ") + name, out.get(), cpu::trans(host_tile<H>(shape_of<S>(), a)));
}

template <int Th> void permutation() {
  using S = Shape<2, 3, 4>;
  const hvec<int32_t> a = random_values<int32_t>(24, -100, 100);
  DevBuf<int32_t> da(a);
  DevBuf<int32_t> out(24);
  int32_t *pa = da.ptr, *po = out.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<int32_t, S, Th>(pa, 0, RowMajor<S>{});
        const auto y = dev::permute<2, 0, 1>(x, smem);
        dev::store(po, y, RowMajor<Shape<4, 2, 3>>{});
      },
      dev::permute_smem_bytes<int32_t, S>());
  check<int32_t>("permute<2,0,1>", out.get(),
                 cpu::permute(host_tile<int32_t>({2, 3, 4}, a), {2, 0, 1}));
}

static void test_shapes() {
  creation<128>();
  creation<256>();
  broadcast<float, Shape<1, 64>, Shape<16, 64>, 128>("(1,64)->(16,64)");
  broadcast<float, Shape<16, 1>, Shape<16, 64>, 128>("(16,1)->(16,64)");
  broadcast<__half, Shape<64>, Shape<8, 64>, 256>("(64)->(8,64)");
  broadcast<int32_t, Shape<2, 1, 5>, Shape<2, 3, 5>, 128>("(2,1,5)->(2,3,5)");
  broadcast<double, Shape<>, Shape<4, 8>, 128>("()->(4,8)");
  broadcast<int8_t, Shape<8>, Shape<1, 8>, 128>("(8)->(1,8)");
  implicit_broadcast<128>();
  implicit_broadcast<256>();
  transpose<float, 32, 64, 128>("float 32x64");
  transpose<__half, 64, 32, 256>("float16 64x32");
  transpose<int8_t, 16, 128, 128>("int8 16x128");
  transpose<double, 3, 5, 128>("double 3x5");
  permutation<128>();
}

// =================================================================================================
// Reductions
// =================================================================================================

/// Full reductions of a tile of shape S over Th threads, in the blocked layout (L = void) or
/// in layout L (Chunked) against the CPU library.
template <class T, class S, int Th, class L = void>
void reduce_all(const char *name, const hvec<host_t<T>> &a, Tol sum_tol) {
  using H = host_t<T>;
  using R = dev::sum_t<T>;
  using HR = host_t<R>;
  static_assert(std::is_same_v<HR, cpu::sum_t<H>>);
  DevBuf<T> da(a);
  DevBuf<R> osum(2 * Th);
  DevBuf<T> oext(2 * Th);
  DevBuf<int32_t> oarg(2 * Th);
  T *pa = da.ptr, *pm = oext.ptr;
  R *ps = osum.ptr;
  int32_t *pg = oarg.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const T *in = pa; // captured before the constexpr-if below (extended lambda rule)
        const auto x = [in] {
          if constexpr (std::is_void_v<L>)
            return dev::load<T, S, Th>(in, 0, RowMajor<S>{});
          else
            return dev::load<T, S, L>(in, 0, RowMajor<S>{});
        }();
        // Every thread writes its copy of the replicated results: they must all agree.
        const int t = threadIdx.x;
        ps[t] = dev::sum(x, smem).item();
        pm[t] = dev::max(x, smem).item();
        pm[Th + t] = dev::min(x, smem).item();
        pg[t] = dev::argmax(x, smem).item();
        pg[Th + t] = dev::argmin(x, smem).item();
      },
      dev::reduce_smem_bytes<T, S, Th>());
  const auto x = host_tile<H>(shape_of<S>(), a);
  const std::string n =
      std::string(name) + (std::is_void_v<L> ? "" : " chunked") + " Th=" + std::to_string(Th);
  const auto vs = osum.get();
  const auto vm = oext.get();
  const auto vg = oarg.get();
  check<HR>(n + " sum", hvec<HR>(vs.begin(), vs.begin() + Th), cpu::broadcast_to(cpu::sum(x), {Th}),
            sum_tol);
  // Bits, signs of zeros included; any NaN for a NaN (float's max/min give the canonical one).
  check<H>(n + " max", hvec<H>(vm.begin(), vm.begin() + Th), cpu::broadcast_to(cpu::max(x), {Th}),
           exact());
  check<H>(n + " min", hvec<H>(vm.begin() + Th, vm.end()), cpu::broadcast_to(cpu::min(x), {Th}),
           exact());
  check<int32_t>(n + " argmax", hvec<int32_t>(vg.begin(), vg.begin() + Th),
                 cpu::broadcast_to(cpu::argmax(x), {Th}));
  check<int32_t>(n + " argmin", hvec<int32_t>(vg.begin() + Th, vg.end()),
                 cpu::broadcast_to(cpu::argmin(x), {Th}));
  // All threads must hold identical sums (bitwise), whatever the tolerance against the CPU.
  bool same = true;
  for (int i = 1; i < Th; ++i)
    same = same && std::memcmp(&vs[i], &vs[0], sizeof(R)) == 0;
  expect(n + " sum replicated", same);
}

template <class T, class S, int Axis, int Th>
void reduce_axis(const char *name, const hvec<host_t<T>> &a, Tol sum_tol) {
  using H = host_t<T>;
  using R = dev::sum_t<T>;
  using HR = host_t<R>;
  using S2 = dev::remove_axis_t<S, Axis>;
  constexpr int M = S2::numel;
  DevBuf<T> da(a);
  DevBuf<R> osum(M);
  DevBuf<T> oext(2 * M);
  DevBuf<int32_t> oarg(2 * M);
  T *pa = da.ptr, *pm = oext.ptr;
  R *ps = osum.ptr;
  int32_t *pg = oarg.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<T, S, Th>(pa, 0, RowMajor<S>{});
        dev::store(ps, dev::sum<Axis>(x, smem), RowMajor<S2>{0});
        dev::store(pm, dev::max<Axis>(x, smem), RowMajor<S2>{0});
        dev::store(pm, dev::min<Axis>(x, smem), RowMajor<S2>{M});
        dev::store(pg, dev::argmax<Axis>(x, smem), RowMajor<S2>{0});
        dev::store(pg, dev::argmin<Axis>(x, smem), RowMajor<S2>{M});
      },
      dev::reduce_smem_bytes<T, S, Th, Axis>());
  const auto x = host_tile<H>(shape_of<S>(), a);
  const std::string n =
      std::string(name) + " axis " + std::to_string(Axis) + " Th=" + std::to_string(Th);
  const auto vm = oext.get();
  const auto vg = oarg.get();
  check<HR>(n + " sum", osum.get(), cpu::sum(x, Axis), sum_tol);
  check<H>(n + " max", hvec<H>(vm.begin(), vm.begin() + M), cpu::max(x, Axis), exact());
  check<H>(n + " min", hvec<H>(vm.begin() + M, vm.end()), cpu::min(x, Axis), exact());
  check<int32_t>(n + " argmax", hvec<int32_t>(vg.begin(), vg.begin() + M), cpu::argmax(x, Axis));
  check<int32_t>(n + " argmin", hvec<int32_t>(vg.begin() + M, vg.end()), cpu::argmin(x, Axis));
}

template <class T, class S, int Th> void reduce_all_axes(const char *name, Tol sum_tol, bool nans) {
  using H = host_t<T>;
  const hvec<H> v = random_values<H>(S::numel, -100, 100);
  const hvec<H> ties = tie_values<H>(S::numel, nans);
  reduce_all<T, S, Th>(name, v, sum_tol);
  reduce_all<T, S, Th>((std::string(name) + " ties").c_str(), ties, sum_tol);
  reduce_axis<T, S, 0, Th>(name, v, sum_tol);
  reduce_axis<T, S, -1, Th>((std::string(name) + " ties").c_str(), ties, sum_tol);
  if constexpr (S::rank >= 2) {
    reduce_axis<T, S, 1, Th>(name, v, sum_tol);
    reduce_axis<T, S, 0, Th>((std::string(name) + " ties").c_str(), ties, sum_tol);
  }
}

/// A Chunked<Th, V> tile: masked load, x − max(x) stored back, and its full reductions.
template <class T, class S, int Th, int V> void chunked_tile(const char *name, Tol sum_tol) {
  using H = host_t<T>;
  using L = dev::Chunked<Th, V>;
  const hvec<H> v = random_values<H>(S::numel, -100, 100);
  reduce_all<T, S, Th, L>(name, v, sum_tol);
  reduce_all<T, S, Th, L>((std::string(name) + " ties").c_str(), tie_values<H>(S::numel, true),
                          sum_tol);
  // Elements past `valid` (row-major) are masked: they load as −inf, and are not stored.
  constexpr int valid = S::numel - S::numel / 5;
  DevBuf<T> da(v);
  DevBuf<T> out(S::numel);
  T *pa = da.ptr, *po = out.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        auto offset = [](const int *index) -> long long {
          const int e = S::ravel(index);
          return e < valid ? e : dev::masked;
        };
        const auto x = dev::load<T, S, L>(pa, -INFINITY, offset);
        dev::store(po, x - dev::max(x, smem), offset);
      },
      dev::reduce_smem_bytes<T, S, Th>());
  const auto got = out.get();
  hvec<H> head(v.begin(), v.begin() + valid);
  const auto x = host_tile<H>({valid}, head);
  const auto want = cpu::cast<H>(x - cpu::max(x));
  check<H>(std::string(name) + " chunked masked x - max Th=" + std::to_string(Th),
           hvec<H>(got.begin(), got.begin() + valid), want, exact());
}

/// The consumers of a block with a producer warpgroup meet at barriers of their own
/// (Smem::sync with sync_threads): 256 threads reduce a 64×64 tile across their warps (shared
/// memory and barriers) while a third warpgroup waits at named barrier 2 until they are done,
/// as a producer keeps copying. Block barriers of all 384 threads would never complete.
static void consumer_barriers() {
  using S = Shape<64, 64>;
  using S2 = dev::remove_axis_t<S, 0>;
  constexpr int Th = 256;
  const hvec<float> v = random_values<float>(S::numel, -100, 100);
  DevBuf<float> da(v), osum(S2::numel), omax(S2::numel);
  float *pa = da.ptr, *ps = osum.ptr, *pm = omax.ptr;
  launch<Th + 128>(
      [=] __device__(Smem smem) {
        if (threadIdx.x >= Th) { // the other warpgroup: busy until the consumers are done
          asm volatile("bar.sync 2, %0;" ::"n"(Th + 128) : "memory");
          return;
        }
        const Smem consumers{smem.ptr, Th};
        const auto x = dev::load<float, S, Th>(pa, 0, RowMajor<S>{});
        dev::store(ps, dev::sum<0>(x, consumers), RowMajor<S2>{0});
        dev::store(pm, dev::max<0>(x, consumers), RowMajor<S2>{0});
        asm volatile("bar.arrive 2, %0;" ::"n"(Th + 128) : "memory");
      },
      dev::reduce_smem_bytes<float, S, Th, 0>());
  const auto x = host_tile<float>(shape_of<S>(), v);
  check<float>("consumer barriers: sum axis 0", osum.get(), cpu::sum(x, 0), rel(1e-4, 0.05));
  check<float>("consumer barriers: max axis 0", omax.get(), cpu::max(x, 0), exact());
}

static void test_reductions() {
  consumer_barriers();
  chunked_tile<float, Shape<1, 1024>, 256, 1>("float (1,1024)", rel(1e-4, 0.05));
  chunked_tile<float, Shape<1, 1024>, 128, 4>("float (1,1024) V=4", rel(1e-4, 0.05));
  chunked_tile<float, Shape<4, 64>, 32, 1>("float (4,64)", rel(1e-4, 0.05));
  chunked_tile<__half, Shape<8, 128>, 128, 1>("float16 (8,128)", ulps(1));
  const Tol fsum = rel(1e-4, 0.05), hsum = ulps(1);
  reduce_all_axes<float, Shape<4, 64>, 128>("float (4,64)", fsum, true);
  reduce_all_axes<float, Shape<64, 4>, 256>("float (64,4)", fsum, true);
  reduce_all_axes<float, Shape<64, 64>, 128>("float (64,64)", fsum, true);
  reduce_all_axes<float, Shape<1, 1000>, 256>("float (1,1000)", fsum, true);
  reduce_all_axes<float, Shape<300, 2>, 128>("float (300,2)", fsum, true);
  reduce_all_axes<float, Shape<3, 5>, 128>("float (3,5)", fsum, true);
  reduce_all_axes<float, Shape<2, 3, 40>, 128>("float (2,3,40)", fsum, true);
  reduce_all_axes<float, Shape<1, 16>, 128>("float (1,16)", fsum, true);
  reduce_all_axes<float, Shape<1>, 128>("float (1)", fsum, true);
  reduce_all_axes<__half, Shape<8, 128>, 128>("float16 (8,128)", hsum, true);
  reduce_all_axes<__nv_bfloat16, Shape<16, 16>, 256>("bfloat16 (16,16)", hsum, true);
  reduce_all_axes<double, Shape<32, 8>, 128>("double (32,8)", rel(1e-12, 1e-12), true);
  reduce_all_axes<int8_t, Shape<16, 64>, 128>("int8 (16,64)", exact(), false);
  reduce_all_axes<uint8_t, Shape<512>, 256>("uint8 (512)", exact(), false);
  reduce_all_axes<int32_t, Shape<128, 8>, 128>("int32 (128,8)", exact(), false);
  reduce_all_axes<int64_t, Shape<7, 9>, 128>("int64 (7,9)", exact(), false);
  reduce_all_axes<bool, Shape<32, 32>, 128>("bool (32,32)", exact(), false);
}

// =================================================================================================
// dot
// =================================================================================================

template <class TA, class TB, class Acc, class SA, class SB, int Th>
void dot_test(const char *name, double lo, double hi, Tol tol) {
  using HA = host_t<TA>;
  using HB = host_t<TB>;
  using HAcc = host_t<Acc>;
  using D = dev::detail::dot_dims<SA, SB>;
  using SC = typename D::result;
  const hvec<HA> a = random_values<HA>(SA::numel, lo, hi);
  const hvec<HB> b = random_values<HB>(SB::numel, lo, hi);
  const hvec<HAcc> c = random_values<HAcc>(SC::numel, lo, hi);
  DevBuf<TA> da(a);
  DevBuf<TB> db(b);
  DevBuf<Acc> dc(c);
  DevBuf<Acc> out(2 * SC::numel);
  TA *pa = da.ptr;
  TB *pb = db.ptr;
  Acc *pc = dc.ptr, *po = out.ptr;
  constexpr std::size_t bytes = dev::dot_smem_bytes<TA, TB, D::M, D::K, D::N, D::batch>();
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<TA, SA, Th>(pa, 0, RowMajor<SA>{});
        const auto y = dev::load<TB, SB, Th>(pb, 0, RowMajor<SB>{});
        const auto z = dev::load<Acc, SC, Th>(pc, 0, RowMajor<SC>{});
        dev::store(po, dev::dot<Acc>(x, y, smem), RowMajor<SC>{0});
        dev::store(po, dev::dot(x, y, z, smem), RowMajor<SC>{SC::numel});
      },
      bytes);
  const auto x = host_tile<HA>(shape_of<SA>(), a);
  const auto y = host_tile<HB>(shape_of<SB>(), b);
  const auto z = host_tile<HAcc>(shape_of<SC>(), c);
  const auto o = out.get();
  const std::string n = std::string("dot ") + name + " Th=" + std::to_string(Th);
  check<HAcc>(n, hvec<HAcc>(o.begin(), o.begin() + SC::numel), cpu::dot<HAcc>(x, y), tol);
  check<HAcc>(n + " +acc", hvec<HAcc>(o.begin() + SC::numel, o.end()), cpu::dot(x, y, z), tol);
}

/// Counts into *mismatches, over buffers at every 1 KiB of the block's `bytes` of shared memory,
/// the slices kk of operand tiles of `Rows` rows whose descriptor (wgmma_operand_descriptor:
/// the buffer's descriptor plus the slice's offset) differs from the one computed from the
/// slice's own address. A device pass without wgmma (sm_80, NTC_DEV_NO_WGMMA) has no
/// descriptors: it reports -1.
template <int RowBytes, bool KMajor, int Rows>
__global__ void operand_descriptor_kernel(int *mismatches, int bytes) {
#if defined(NTC_DEV_HAS_WGMMA)
  extern __shared__ __align__(1024) unsigned char block[];
  constexpr int slices = 16;
  constexpr int span = KMajor ? (slices * 32 / RowBytes) * Rows * RowBytes : 16 * slices * RowBytes;
  for (int at = static_cast<int>(threadIdx.x) * 1024; at + span <= bytes; at += 32 * 1024)
    for (int kk = 0; kk < slices; ++kk) {
      const int offset = KMajor ? (32 * kk / RowBytes) * Rows * RowBytes + (32 * kk) % RowBytes
                                : 16 * kk * RowBytes;
      const uint64_t moved =
          KMajor ? dev::detail::wgmma_descriptor<RowBytes>(block + at + offset, 16, 8 * RowBytes)
                 : dev::detail::wgmma_descriptor<RowBytes>(block + at + offset, Rows * RowBytes,
                                                           8 * RowBytes);
      if (dev::detail::wgmma_operand_descriptor<RowBytes, KMajor>(block + at, Rows, kk) != moved)
        atomicAdd(mismatches, 1);
    }
#else
  (void)bytes;
  if (threadIdx.x == 0)
    *mismatches = -1;
#endif
}

/// operand_descriptor_kernel over all the shared memory a block may have.
template <int RowBytes, bool KMajor, int Rows> static void operand_descriptor_test() {
  int bytes = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  auto kernel = operand_descriptor_kernel<RowBytes, KMajor, Rows>;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  DevBuf<int> mismatches(1, 0);
  kernel<<<1, 32, bytes>>>(mismatches.ptr, bytes);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const int found = mismatches.get()[0];
  if (found >= 0)
    expect("wgmma operand descriptor, rows of " + std::to_string(RowBytes) + " bytes, " +
               (KMajor ? "K-major, " : "MN-major, ") + std::to_string(Rows) + " rows",
           found == 0);
}

/// The descriptors of wgmma operand slices.
static void test_operand_descriptors() {
  operand_descriptor_test<128, true, 64>();
  operand_descriptor_test<128, true, 256>();
  operand_descriptor_test<64, true, 128>();
  operand_descriptor_test<32, true, 64>();
  operand_descriptor_test<128, false, 64>();
  operand_descriptor_test<64, false, 128>();
  operand_descriptor_test<32, false, 256>();
}

static void test_dot() {
  const Tol f = rel(1e-5, 1e-4);
  dot_test<float, float, float, Shape<64, 32>, Shape<32, 64>, 128>("float 64x32x64", -1, 1, f);
  dot_test<float, float, float, Shape<16, 64>, Shape<64, 16>, 256>("float 16x64x16", -1, 1, f);
  dot_test<__half, __half, float, Shape<64, 32>, Shape<32, 64>, 128>("float16 64x32x64", -1, 1, f);
  dot_test<__half, __half, float, Shape<32, 64>, Shape<64, 128>, 256>("float16 32x64x128", -1, 1,
                                                                      f);
  dot_test<__nv_bfloat16, __nv_bfloat16, float, Shape<64, 16>, Shape<16, 32>, 128>(
      "bfloat16 64x16x32", -1, 1, f);
  dot_test<__half, float, float, Shape<16, 16>, Shape<16, 16>, 128>("float16*float 16x16x16", -1, 1,
                                                                    f);
  dot_test<__half, __half, float, Shape<16, 16>, Shape<16, 8>, 128>("float16 16x16x8", -1, 1, f);
  dot_test<__half, __half, float, Shape<48, 64>, Shape<64, 24>, 256>("float16 48x64x24", -1, 1, f);
  dot_test<__nv_bfloat16, __nv_bfloat16, float, Shape<128, 32>, Shape<32, 64>, 128>(
      "bfloat16 128x32x64", -1, 1, f);
  dot_test<__half, __half, float, Shape<8, 16>, Shape<16, 8>, 128>("float16 8x16x8 (SIMT)", -1, 1,
                                                                   f);
  dot_test<float, float, float, Shape<3, 5>, Shape<5, 7>, 128>("float 3x5x7", -1, 1, f);
  dot_test<float, float, float, Shape<1, 64>, Shape<64, 1>, 128>("float 1x64x1", -1, 1, f);
  dot_test<float, float, float, Shape<4, 8>, Shape<8, 4>, 256>("float 4x8x4", -1, 1, f);
  dot_test<float, float, float, Shape<2, 16, 8>, Shape<2, 8, 24>, 128>("float batched 2x16x8x24",
                                                                       -1, 1, f);
  // SIMT products of blocked accumulators with four-column chunks (dot_simt's register-blocked
  // path): attention's float32 scores (128×64 over 256 threads, eight rows 16 apart per thread)
  // and its PV product (128×128, sixteen rows 8 apart), and two-column chunks (24×32 over 128
  // threads: three rows 8 apart).
  dot_test<float, float, float, Shape<128, 128>, Shape<128, 64>, 256>("float 128x128x64", -1, 1, f);
  dot_test<float, float, float, Shape<128, 64>, Shape<64, 128>, 256>("float 128x64x128", -1, 1, f);
  dot_test<float, float, float, Shape<24, 16>, Shape<16, 32>, 128>("float 24x16x32", -1, 1, f);
  dot_test<int8_t, int8_t, int32_t, Shape<32, 64>, Shape<64, 32>, 128>("int8 32x64x32", -128, 127,
                                                                       exact());
  dot_test<int32_t, int32_t, int32_t, Shape<16, 16>, Shape<16, 16>, 128>("int32 wrap", -3e9, 3e9,
                                                                         exact());
  dot_test<double, double, double, Shape<8, 8>, Shape<8, 8>, 128>("double 8x8x8", -1, 1,
                                                                  rel(1e-14, 1e-14));
}

// =================================================================================================
// layout-typed tiles (layouts.cuh): conversions, reductions, broadcasts and tensor-core products
// =================================================================================================

template <int WM, int WN, int M, int N> void layout_test(const char *name) {
  constexpr int Th = 32 * WM * WN;
  using S = Shape<M, N>;
  using P = dev::Mma<WM, WN>;
  const hvec<float> a = random_values<float>(S::numel, -10, 10);
  DevBuf<float> da(a);
  DevBuf<float> out(6 * S::numel + 3 * M + N);
  const float *pa = da.ptr;
  float *po = out.ptr;
  constexpr std::size_t bytes = dev::convert_smem_bytes<float, S>() + 4096;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x = dev::load<float, S, Th>(pa, 0, RowMajor<S>{});
        const auto m = dev::convert_layout<P>(x, smem);
        dev::store(po, m, RowMajor<S>{0});
        dev::store(po, dev::convert_layout<dev::Blocked<Th>>(m, smem), RowMajor<S>{S::numel});
        dev::store(po, dev::load<float, S, P>(pa, 0, RowMajor<S>{}), RowMajor<S>{2 * S::numel});
        const auto row_max = dev::max<1>(m, smem);
        dev::store(po, row_max, RowMajor<Shape<M>>{3 * S::numel});
        dev::store(po, dev::sum<1>(m, smem), RowMajor<Shape<M>>{3 * S::numel + M});
        dev::store(po, dev::max<0>(m, smem), RowMajor<Shape<N>>{3 * S::numel + 2 * M});
        const auto centered = m - dev::broadcast_to<S>(dev::expand_dims<1>(row_max), smem);
        dev::store(po, centered, RowMajor<S>{3 * S::numel + 2 * M + N});
        // A Slice tile converted to blocked and back, and the transpose through shared memory.
        const auto rows = dev::convert_layout<dev::Blocked<Th>>(row_max, smem);
        dev::store(po, dev::convert_layout<dev::Slice<P, 1>>(rows, smem),
                   RowMajor<Shape<M>>{4 * S::numel + 2 * M + N});
        dev::store(po, dev::convert_layout<dev::Blocked<Th>, true>(m, smem),
                   [](const int *i) { return 4 * S::numel + 3 * M + N + i[1] * N + i[0]; });
      },
      bytes);
  const auto x = host_tile<float>(shape_of<S>(), a);
  const auto o = out.get();
  auto part = [&](std::size_t at, std::size_t n) {
    return hvec<float>(o.begin() + at, o.begin() + at + n);
  };
  const std::string n = std::string("layout ") + name;
  check<float>(n + " blocked->mma", part(0, S::numel), x);
  check<float>(n + " mma->blocked", part(S::numel, S::numel), x);
  check<float>(n + " load in mma", part(2 * S::numel, S::numel), x);
  check<float>(n + " max axis 1", part(3 * S::numel, M), cpu::max(x, 1));
  check<float>(n + " sum axis 1", part(3 * S::numel + M, M), cpu::sum(x, 1), rel(1e-5, 1e-4));
  check<float>(n + " max axis 0", part(3 * S::numel + 2 * M, N), cpu::max(x, 0));
  check<float>(n + " x - max broadcast", part(3 * S::numel + 2 * M + N, S::numel),
               x - cpu::broadcast_to(cpu::expand_dims(cpu::max(x, 1), 1), cpu::Shape{M, N}));
  check<float>(n + " slice->blocked->slice", part(4 * S::numel + 2 * M + N, M), cpu::max(x, 1));
  check<float>(n + " transposing conversion", part(4 * S::numel + 3 * M + N, S::numel), x);
}

/// maximum_instruction / minimum_instruction (the knob minmax=1): IEEE 754-2019 maximum and
/// minimum, bit for bit: a NaN operand (either side, any payload) gives the canonical NaN
/// 0x7fffffff, +0 is above −0 in either order, infinities order as numbers; float16 operands
/// widen, compare and narrow back (the canonical NaN narrows to 0x7fff).
void min_max_instruction_test() {
  const float nan_payload = __builtin_bit_cast(float, 0x7fc01234u);
  const hvec<float> a = {1.0f, 2.0f, NAN, 3.0f, 0.0f, -0.0f, -INFINITY, nan_payload, -5.0f, 0.0f};
  const hvec<float> b = {2.0f, 1.0f, 4.0f, NAN, -0.0f, 0.0f, 7.0f, -1.0f, -INFINITY, 0.0f};
  constexpr int N = 10;
  using S = Shape<N>;
  DevBuf<float> da(a), db(b), out(2 * N);
  DevBuf<__half> halves(2 * N);
  const float *pa = da.ptr, *pb = db.ptr;
  float *po = out.ptr;
  __half *ph = halves.ptr;
  launch<32>([=] __device__(Smem) {
    const auto x = dev::load<float, S, 32>(pa, 0, RowMajor<S>{});
    const auto y = dev::load<float, S, 32>(pb, 0, RowMajor<S>{});
    dev::store(po, dev::maximum_instruction(x, y), RowMajor<S>{0});
    dev::store(po, dev::minimum_instruction(x, y), RowMajor<S>{N});
    const auto hx = dev::cast<dev::float16>(x), hy = dev::cast<dev::float16>(y);
    dev::store(ph, dev::maximum_instruction(hx, hy), RowMajor<S>{0});
    dev::store(ph, dev::minimum_instruction(hx, hy), RowMajor<S>{N});
  });
  const float qnan = __builtin_bit_cast(float, 0x7fffffffu);
  const hvec<float> max_want = {2.0f, 2.0f, qnan, qnan, 0.0f, 0.0f, 7.0f, qnan, -5.0f, 0.0f};
  const hvec<float> min_want = {1.0f,  1.0f,      qnan, qnan,      -0.0f,
                                -0.0f, -INFINITY, qnan, -INFINITY, 0.0f};
  const auto o = out.get();
  check<float>("maximum_instruction float", hvec<float>(o.begin(), o.begin() + N),
               host_tile<float>({N}, max_want), bits());
  check<float>("minimum_instruction float", hvec<float>(o.begin() + N, o.end()),
               host_tile<float>({N}, min_want), bits());
  const auto h = halves.get();
  using H = host_t<__half>;
  check<H>("maximum_instruction float16", hvec<H>(h.begin(), h.begin() + N),
           cpu::cast<H>(host_tile<float>({N}, max_want)), bits());
  check<H>("minimum_instruction float16", hvec<H>(h.begin() + N, h.end()),
           cpu::cast<H>(host_tile<float>({N}, min_want)), bits());
}

/// convert_halves' NaN test (a max.NaN tree over the pair words): a NaN in any one half of N
/// halves (N/2 words, not a power of two for N = 6) sends the whole tile element by element,
/// which keeps its payload; without one, the packed conversion. Both directions, bit for bit
/// against ntc::cpu's casts.
template <class From, class To, int N> void convert_halves_test(const char *name) {
  using HF = host_t<From>;
  using HT = host_t<To>;
  const uint16_t payload = std::is_same_v<From, __half> ? 0x7e15 : 0x7fc5; // quiet, payload 0x15
  hvec<HF> in;
  for (int nan = -1; nan < N; ++nan) // -1: no NaN; else a NaN with a payload at half `nan`
    for (int s = 0; s < N; ++s) {
      HF h = raw_t<HF>(cpu::convert<HF>(0.3 * s - 1.0));
      if (s == nan)
        std::memcpy(&h, &payload, sizeof(h));
      in.push_back(h);
    }
  const int count = static_cast<int>(in.size());
  DevBuf<From> din(in);
  DevBuf<To> dout(count);
  const From *pi = din.ptr;
  To *po = dout.ptr;
  launch<32>([=] __device__(Smem) {
    const int t = int(threadIdx.x);
    if (t > N)
      return;
    From half[N];
    To other[N];
    for (int s = 0; s < N; ++s)
      half[s] = pi[t * N + s];
    dev::detail::convert_halves(half, other);
    for (int s = 0; s < N; ++s)
      po[t * N + s] = other[s];
  });
  check<HT>(std::string("convert_halves ") + name, dout.get(),
            cpu::cast<HT>(host_tile<HF>({count}, in)), bits());
}

/// Lane shares (LanePartial, defer-lane-sums): an online sum over the columns (Axis 1, Mma<W, 1>)
/// or rows (Axis 0, Mma<1, W>) of three tiles carried as shares, `l = l * s + sum(x_i)` from
/// shares of a start value, then added up, against the same with whole sums; the whole values
/// converted to shares and back are unchanged.
template <int WM, int WN, int M, int N, int Axis> void lane_shares_test(const char *name) {
  constexpr int Th = 32 * WM * WN;
  constexpr int E = Axis == 1 ? M : N;
  using S = Shape<M, N>;
  using P = dev::Mma<WM, WN>;
  using Whole = dev::Slice<P, Axis>;
  const hvec<float> a = random_values<float>(3 * S::numel, -4, 4);
  const hvec<float> scale = random_values<float>(E, 0.25, 2);
  DevBuf<float> da(a), ds(scale);
  DevBuf<float> out(3 * E);
  const float *pa = da.ptr, *ps = ds.ptr;
  float *po = out.ptr;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto s = dev::load<float, Shape<E>, Whole>(ps, 0.0f, RowMajor<Shape<E>>{});
        auto shares = dev::convert_layout<dev::LanePartial<Whole>>(s, smem);
        auto whole = s;
        for (int i = 0; i < 3; ++i) {
          const auto x = dev::load<float, S, P>(pa, 0.0f, RowMajor<S>{i * S::numel});
          shares = shares * s + dev::sum_lane_partial<Axis>(x);
          whole = whole * s + dev::sum<Axis>(x, smem);
        }
        dev::store(po, dev::convert_layout<Whole>(shares, smem), RowMajor<Shape<E>>{0});
        dev::store(po, whole, RowMajor<Shape<E>>{E});
        const auto back =
            dev::convert_layout<Whole>(dev::convert_layout<dev::LanePartial<Whole>>(s, smem), smem);
        dev::store(po, back, RowMajor<Shape<E>>{2 * E});
      },
      4096);
  const auto o = out.get();
  auto part = [&](int k) { return hvec<float>(o.begin() + k * E, o.begin() + (k + 1) * E); };
  const std::string n = std::string("lane shares ") + name;
  check<float>(n + " carried sum", part(0), host_tile<float>({E}, part(1)), rel(1e-5, 1e-4));
  check<float>(n + " to shares and back", part(2), host_tile<float>({E}, scale), bits());
}

/// mul_unless_one (skip-unit-factors): an Mma tile times its rows' factors, broadcast; the
/// factors are one except in rows 16 to 31 (one warp's, 0.5). The warp that holds those rows
/// multiplies: a NaN there becomes the canonical NaN; the others keep their elements as they
/// are: a NaN with a payload in row 3 keeps it. Bit for bit.
template <int WM, int M, int N> void mul_unless_one_test(const char *name) {
  using S = Shape<M, N>;
  using P = dev::Mma<WM, 1>;
  hvec<float> x = random_values<float>(S::numel, -4, 4);
  hvec<float> factor(M, 1.0f);
  for (int r = 16; r < 32; ++r)
    factor[r] = 0.5f;
  const float payload = __builtin_bit_cast(float, 0x7fc01234u);
  x[3 * N + 5] = payload;
  x[20 * N + 7] = payload;
  hvec<float> want(S::numel);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      want[r * N + c] = x[r * N + c] * factor[r];
  want[3 * N + 5] = payload;
  want[20 * N + 7] = __builtin_bit_cast(float, 0x7fffffffu);
  DevBuf<float> dx(x), df(factor), out(S::numel);
  const float *px = dx.ptr, *pf = df.ptr;
  float *po = out.ptr;
  launch<32 * WM>(
      [=] __device__(Smem smem) {
        const auto t = dev::load<float, S, P>(px, 0.0f, RowMajor<S>{});
        const auto f = dev::load<float, Shape<M>, dev::Slice<P, 1>>(pf, 0.0f, RowMajor<Shape<M>>{});
        dev::store(po, dev::mul_unless_one(t, dev::broadcast_to<S>(dev::expand_dims<1>(f), smem)),
                   RowMajor<S>{0});
      },
      0);
  check<float>(std::string("mul_unless_one ") + name, out.get(),
               host_tile<float>(shape_of<S>(), want), bits());
}

/// cast of an Mma-layout tile of From (float: the operand of a second product, as attention's
/// p; float16/bfloat16: an epilogue's conversion before a TMA store) to float16/bfloat16:
/// threads without NaNs take the packed conversion, the others narrow_float; both must match
/// ntc::cpu bit for bit, NaN payloads included.
template <class To, int WM, int WN, int M, int N, class From = float>
void layout_cast_test(const char *name) {
  constexpr int Th = 32 * WM * WN;
  using S = Shape<M, N>;
  using H = host_t<To>;
  using HF = host_t<From>;
  const hvec<HF> in = conversion_inputs<HF>(S::numel);
  DevBuf<From> din(in);
  DevBuf<To> dout(S::numel);
  const From *pi = din.ptr;
  To *po = dout.ptr;
  launch<Th>(
      [=] __device__(Smem) {
        const auto x = dev::load<From, S, dev::Mma<WM, WN>>(pi, From(0.0f), RowMajor<S>{});
        dev::store(po, dev::cast<To>(x), RowMajor<S>{0});
      },
      0);
  check<H>(std::string("layout cast ") + name, dout.get(),
           cpu::cast<H>(host_tile<HF>(shape_of<S>(), in)), bits());
}

/// A·B with A in the DotA layout and B in shared memory (plain and transposed), and an
/// accumulator tile converted to A operand (registers when WN = 1).
template <class T, int WM, int WN, int M, int K, int N> void layout_dot_test(const char *name) {
  constexpr int Th = 32 * WM * WN;
  using H = host_t<T>;
  using SA = Shape<M, K>;
  using SB = Shape<K, N>;
  using SBt = Shape<N, K>;
  using SC = Shape<M, N>;
  using P = dev::Mma<WM, WN>;
  const hvec<H> a = random_values<H>(SA::numel, -1, 1);
  const hvec<H> b = random_values<H>(SB::numel, -1, 1);
  hvec<H> bt(SB::numel);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      bt[j * K + k] = b[k * N + j];
  DevBuf<T> da(a), db(b), dbt(bt);
  DevBuf<float> out(2 * SC::numel);
  DevBuf<T> back(SA::numel);
  const T *pa = da.ptr, *pb = db.ptr, *pbt = dbt.ptr;
  float *po = out.ptr;
  T *pk = back.ptr;
  constexpr std::size_t scratch = dev::convert_smem_bytes<T, SA>() + 64;
  constexpr std::size_t bytes = scratch + dev::shared_tile_bytes<T, SB>();
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x =
            dev::convert_layout<dev::DotA<P>>(dev::load<T, SA, Th>(pa, 0, RowMajor<SA>{}), smem);
        const auto y = dev::to_shared<scratch>(dev::load<T, SB, Th>(pb, 0, RowMajor<SB>{}), smem);
        dev::store(po, dev::dot<float>(x, y), RowMajor<SC>{0});
        const auto yt =
            dev::to_shared<scratch, true>(dev::load<T, SBt, Th>(pbt, 0, RowMajor<SBt>{}), smem);
        dev::store(po, dev::dot<float>(x, yt), RowMajor<SC>{SC::numel});
        const auto as_mma = dev::load<T, SA, P>(pa, 0, RowMajor<SA>{});
        dev::store(pk, dev::convert_layout<dev::DotA<P>>(as_mma, smem), RowMajor<SA>{});
      },
      bytes);
  const auto x = host_tile<H>(shape_of<SA>(), a);
  const auto y = host_tile<H>(shape_of<SB>(), b);
  const auto o = out.get();
  const std::string n = std::string("layout dot ") + name;
  const auto want = cpu::dot<float>(x, y);
  check<float>(n, hvec<float>(o.begin(), o.begin() + SC::numel), want, rel(1e-3, 1e-3));
  check<float>(n + " (B transposed in shared memory)", hvec<float>(o.begin() + SC::numel, o.end()),
               want, rel(1e-3, 1e-3));
  check<H>(n + " mma->dot_a", back.get(), x);
}

/// dot with B copied by async_copy into a Swizzled<RowBytes> shared buffer, as rows of k (the
/// tile) and as rows of n (its transpose), and the accumulating dot: on sm_90a through wgmma
/// when one warp holds each 16-row slab and N is one instruction wide (WM a multiple of 4),
/// otherwise through ldmatrix; against the CPU. Both products again with an A operand that dies
/// at the product (a float tile cast to T, dying_operand: its registers go to wgmma as they are),
/// and with A resident in a swizzled shared buffer (to_shared; wgmma reads both operands through
/// descriptors, or ldmatrix fills A's fragments). Last, the accumulating product started by
/// dot_issue and completed by dot_wait (living and dying A), the second while another product
/// runs between the two (overlap-products' rotated loop); and a product from the resident A
/// issued ahead of an accumulating one, completed by dot_wait<1> while the second stays in
/// flight (overlap-products at level 2). Last, the products with the warpgroups taking turns
/// (ntc::dev::turn, take-turns), over three rounds with no barrier between them, a product each
/// turn and two products left in flight in one turn.
template <class T, int WM, int M, int K, int N, int RowBytes>
void swizzled_dot_test(const char *name) {
  constexpr int Th = 32 * WM;
  using H = host_t<T>;
  using L = dev::Swizzled<RowBytes>;
  using P = dev::Mma<WM, 1>;
  using SA = Shape<M, K>;
  using SB = Shape<K, N>;
  using SBt = Shape<N, K>;
  using SC = Shape<M, N>;
  const hvec<H> a = random_values<H>(SA::numel, -1, 1);
  const hvec<H> b = random_values<H>(SB::numel, -1, 1);
  const hvec<float> c = random_values<float>(SC::numel, -1, 1);
  hvec<H> bt(SB::numel);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      bt[j * K + k] = b[k * N + j];
  hvec<float> a_float(SA::numel);
  for (int i = 0; i < SA::numel; ++i)
    a_float[i] = float(a[i]); // exact: the cast back to T gives a again
  DevBuf<T> da(a), db(b), dbt(bt);
  DevBuf<float> daf(a_float), dc(c), out(16 * SC::numel);
  const T *pa = da.ptr, *pb = db.ptr, *pbt = dbt.ptr;
  const float *paf = daf.ptr, *pc = dc.ptr;
  float *po = out.ptr;
  constexpr std::size_t rows_k = (dev::convert_smem_bytes<T, SA>() + 1023) / 1024 * 1024;
  constexpr std::size_t rows_n =
      rows_k + (dev::SharedTile<T, SB, false, L>::bytes + 1023) / 1024 * 1024;
  // A resident in shared memory (keep-operands-resident), swizzled by its own row width.
  constexpr int RA = K * 2 % 128 == 0 ? 128 : K * 2 % 64 == 0 ? 64 : 32;
  using LA = dev::Swizzled<RA>;
  constexpr std::size_t resident =
      (rows_n + dev::SharedTile<T, SB, true, L>::bytes + 1023) / 1024 * 1024;
  constexpr std::size_t bytes = resident + dev::SharedTile<T, SA, false, LA>::bytes;
  launch<Th>(
      [=] __device__(Smem smem) {
        const auto x =
            dev::convert_layout<dev::DotA<P>>(dev::load<T, SA, Th>(pa, 0, RowMajor<SA>{}), smem);
        auto offset = [](int cols) {
          return [cols](const int *i) -> long long { return (long long)i[0] * cols + i[1]; };
        };
        dev::async_copy<T, SB, Th, L>(smem, rows_k, pb, T(0.0f), dev::chunk_width<8>{}, offset(N),
                                      offset(N));
        dev::async_copy<T, SBt, Th, L>(smem, rows_n, pbt, T(0.0f), dev::chunk_width<8>{}, offset(K),
                                       offset(K));
        dev::async_commit();
        dev::async_wait<0>();
        const auto y = dev::stage_view<T, SB, false, L>(smem, rows_k);
        const auto yt = dev::stage_view<T, SB, true, L>(smem, rows_n);
        dev::store(po, dev::dot<float>(x, y), RowMajor<SC>{0});
        dev::store(po, dev::dot<float>(x, yt), RowMajor<SC>{SC::numel});
        const auto acc = dev::load<float, SC, P>(pc, 0, RowMajor<SC>{});
        dev::store(po, dev::dot<float>(x, yt, acc), RowMajor<SC>{2 * SC::numel});
        const auto x_float = dev::load<float, SA, P>(paf, 0, RowMajor<SA>{});
        dev::store(po,
                   dev::dot<float>(dev::convert_layout<dev::DotA<P>>(dev::cast<T>(x_float), smem),
                                   y, smem, dev::dying_operand{}),
                   RowMajor<SC>{3 * SC::numel});
        dev::store(po,
                   dev::dot<float>(dev::convert_layout<dev::DotA<P>>(dev::cast<T>(x_float), smem),
                                   yt, acc, smem, dev::dying_operand{}),
                   RowMajor<SC>{4 * SC::numel});
        const auto xs =
            dev::to_shared<resident, false, LA>(dev::load<T, SA, Th>(pa, 0, RowMajor<SA>{}), smem);
        dev::store(po, dev::dot<float, P>(xs, yt, smem), RowMajor<SC>{5 * SC::numel});
        dev::store(po, dev::dot<float, P>(xs, y, acc, smem), RowMajor<SC>{6 * SC::numel});
        auto issued = acc;
        auto in_flight = dev::dot_issue(issued, x, yt, acc, smem);
        dev::dot_wait(issued, in_flight);
        dev::store(po, issued, RowMajor<SC>{7 * SC::numel});
        auto overlapped = acc;
        auto dying_in_flight = dev::dot_issue(
            overlapped, dev::convert_layout<dev::DotA<P>>(dev::cast<T>(x_float), smem), y, acc,
            smem, dev::dying_operand{});
        const auto between = dev::dot<float>(x, yt);
        dev::dot_wait(overlapped, dying_in_flight);
        dev::store(po, overlapped, RowMajor<SC>{8 * SC::numel});
        dev::store(po, between, RowMajor<SC>{9 * SC::numel});
        dev::LTile<float, SC, P> ahead;
        dev::dot_issue(ahead, xs, yt, smem);
        auto behind = acc;
        auto behind_in_flight = dev::dot_issue(behind, x, y, acc, smem);
        dev::dot_wait<1>(ahead);
        dev::store(po, ahead, RowMajor<SC>{10 * SC::numel});
        dev::dot_wait(behind, behind_in_flight);
        dev::store(po, behind, RowMajor<SC>{11 * SC::numel});
        // The warpgroups taking turns (take-turns): each product issued by one warpgroup after
        // the other, three rounds with no barrier of the block between them (the turns go
        // round), the first turns given at the start and the last taken back at the end.
        constexpr int warpgroups = WM / 4;
        dev::turns_begin<2, warpgroups>();
        dev::turns_begin<4, warpgroups>();
        dev::LTile<float, SC, P> turned;
        auto turned_acc = acc;
        for (int round = 0; round < 3; ++round) {
          turned = dev::dot<float, P>(xs, yt, smem, dev::living_operand{}, dev::turn<2>{});
          turned_acc =
              dev::dot<float>(dev::convert_layout<dev::DotA<P>>(dev::cast<T>(x_float), smem), y,
                              turned_acc, smem, dev::dying_operand{}, dev::turn<4>{});
        }
        dev::turns_end<2, warpgroups>();
        dev::turns_end<4, warpgroups>();
        dev::store(po, turned, RowMajor<SC>{12 * SC::numel});
        dev::store(po, turned_acc, RowMajor<SC>{13 * SC::numel});
        // One turn over two products left in flight (overlap-products at level 2 with
        // take-turns): the first opens it, the second closes it; three rounds.
        dev::turns_begin<6, warpgroups>();
        dev::LTile<float, SC, P> issued_in_turn;
        auto accumulated_in_turn = acc;
        for (int round = 0; round < 3; ++round) {
          dev::dot_issue(issued_in_turn, xs, yt, smem, dev::living_operand{},
                         dev::turn<6, true, false>{});
          auto in_flight = dev::dot_issue(
              accumulated_in_turn, dev::convert_layout<dev::DotA<P>>(dev::cast<T>(x_float), smem),
              y, accumulated_in_turn, smem, dev::dying_operand{}, dev::turn<6, false, true>{});
          dev::dot_wait<1>(issued_in_turn);
          dev::dot_wait(accumulated_in_turn, in_flight);
        }
        dev::turns_end<6, warpgroups>();
        dev::store(po, issued_in_turn, RowMajor<SC>{14 * SC::numel});
        dev::store(po, accumulated_in_turn, RowMajor<SC>{15 * SC::numel});
      },
      bytes);
  const auto x = host_tile<H>(shape_of<SA>(), a);
  const auto y = host_tile<H>(shape_of<SB>(), b);
  const auto o = out.get();
  const std::string n = std::string("swizzled dot ") + name;
  const auto want = cpu::dot<float>(x, y);
  check<float>(n + " (B rows k)", hvec<float>(o.begin(), o.begin() + SC::numel), want,
               rel(1e-3, 1e-3));
  check<float>(n + " (B rows n)", hvec<float>(o.begin() + SC::numel, o.begin() + 2 * SC::numel),
               want, rel(1e-3, 1e-3));
  const auto with_acc = cpu::dot(x, y, host_tile<float>(shape_of<SC>(), c));
  check<float>(n + " (accumulating)",
               hvec<float>(o.begin() + 2 * SC::numel, o.begin() + 3 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (dying A)", hvec<float>(o.begin() + 3 * SC::numel, o.begin() + 4 * SC::numel),
               want, rel(1e-3, 1e-3));
  check<float>(n + " (dying A, accumulating)",
               hvec<float>(o.begin() + 4 * SC::numel, o.begin() + 5 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (resident A)",
               hvec<float>(o.begin() + 5 * SC::numel, o.begin() + 6 * SC::numel), want,
               rel(1e-3, 1e-3));
  check<float>(n + " (resident A, accumulating)",
               hvec<float>(o.begin() + 6 * SC::numel, o.begin() + 7 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (dot_issue, dot_wait)",
               hvec<float>(o.begin() + 7 * SC::numel, o.begin() + 8 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (dot_issue, dying A, a product in between)",
               hvec<float>(o.begin() + 8 * SC::numel, o.begin() + 9 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (the product in between)",
               hvec<float>(o.begin() + 9 * SC::numel, o.begin() + 10 * SC::numel), want,
               rel(1e-3, 1e-3));
  check<float>(n + " (resident A issued ahead, dot_wait<1>)",
               hvec<float>(o.begin() + 10 * SC::numel, o.begin() + 11 * SC::numel), want,
               rel(1e-3, 1e-3));
  check<float>(n + " (the accumulating product issued behind it)",
               hvec<float>(o.begin() + 11 * SC::numel, o.begin() + 12 * SC::numel), with_acc,
               rel(1e-3, 1e-3));
  check<float>(n + " (resident A, warpgroups in turn)",
               hvec<float>(o.begin() + 12 * SC::numel, o.begin() + 13 * SC::numel), want,
               rel(1e-3, 1e-3));
  const auto thrice =
      cpu::dot(x, y, cpu::dot(x, y, cpu::dot(x, y, host_tile<float>(shape_of<SC>(), c))));
  check<float>(n + " (dying A, accumulating three times, warpgroups in turn)",
               hvec<float>(o.begin() + 13 * SC::numel, o.begin() + 14 * SC::numel), thrice,
               rel(1e-3, 1e-3));
  check<float>(n + " (resident A issued, one turn over two products)",
               hvec<float>(o.begin() + 14 * SC::numel, o.begin() + 15 * SC::numel), want,
               rel(1e-3, 1e-3));
  check<float>(n + " (dying A issued, accumulating three times, one turn over two products)",
               hvec<float>(o.begin() + 15 * SC::numel, o.end()), thrice, rel(1e-3, 1e-3));
}

static void test_layouts() {
  layout_test<8, 1, 128, 64>("mma 8x1 (128,64)");
  layout_test<4, 2, 64, 64>("mma 4x2 (64,64)");
  layout_test<2, 2, 32, 48>("mma 2x2 (32,48)");
  layout_test<1, 4, 16, 128>("mma 1x4 (16,128)");
  min_max_instruction_test();
  convert_halves_test<__half, __nv_bfloat16, 6>("float16 -> bfloat16, 3 words");
  convert_halves_test<__half, __nv_bfloat16, 8>("float16 -> bfloat16, 4 words");
  convert_halves_test<__nv_bfloat16, __half, 6>("bfloat16 -> float16, 3 words");
  lane_shares_test<8, 1, 128, 64, 1>("mma 8x1 (128,64) rows");
  mul_unless_one_test<4, 64, 64>("mma 4x1 (64,64)");
  mul_unless_one_test<8, 128, 128>("mma 8x1 (128,128)");
  lane_shares_test<4, 1, 64, 128, 1>("mma 4x1 (64,128) rows");
  lane_shares_test<1, 4, 16, 128, 0>("mma 1x4 (16,128) columns");
  layout_dot_test<__half, 8, 1, 128, 64, 64>("float16 8x1 128x64x64");
  layout_dot_test<__half, 4, 2, 64, 32, 128>("float16 4x2 64x32x128");
  layout_dot_test<__nv_bfloat16, 2, 2, 32, 16, 16>("bfloat16 2x2 32x16x16");
  swizzled_dot_test<__half, 4, 64, 64, 64, 128>("float16 4x1 64x64x64, 128-byte rows");
  swizzled_dot_test<__half, 8, 128, 128, 128, 128>("float16 8x1 128x128x128, 128-byte rows");
  swizzled_dot_test<__half, 8, 128, 64, 256, 128>("float16 8x1 128x64x256, 128-byte rows");
  swizzled_dot_test<__nv_bfloat16, 4, 64, 32, 32, 64>("bfloat16 4x1 64x32x32, 64-byte rows");
  swizzled_dot_test<__half, 4, 64, 16, 16, 32>("float16 4x1 64x16x16, 32-byte rows");
  swizzled_dot_test<__half, 2, 32, 64, 64, 128>("float16 2x1 32x64x64 (ldmatrix)");
  layout_cast_test<__half, 4, 1, 64, 64>("float -> float16 mma 4x1 (64,64)");
  layout_cast_test<__nv_bfloat16, 2, 2, 32, 48>("float -> bfloat16 mma 2x2 (32,48)");
  layout_cast_test<__nv_bfloat16, 4, 1, 64, 64, __half>("float16 -> bfloat16 mma 4x1 (64,64)");
  layout_cast_test<__half, 2, 2, 32, 48, __nv_bfloat16>("bfloat16 -> float16 mma 2x2 (32,48)");
}

// =================================================================================================
// load/store with masks and fill values
// =================================================================================================

template <int Th> void masked_memory() {
  // A (24, 40) window of a (24, 50) matrix read with its rows reversed (a negative row stride:
  // negative offsets from the base pointer), through a larger (32, 64) tile: masked tail,
  // plus a masked diagonal pattern inside the window.
  constexpr int R = 24, C = 40, ld = 50;
  using S = Shape<32, 64>;
  const hvec<float> a = random_values<float>(R * ld, -10, 10);
  DevBuf<float> da(a);
  DevBuf<__half> out(R * ld, 0x7b); // sentinel bits 0x7b7b
  DevBuf<float> loaded(S::numel);
  const float *pa = da.ptr + (R - 1) * ld;
  float *pl = loaded.ptr;
  __half *po = out.ptr + (R - 1) * ld;
  launch<Th>([=] __device__(Smem) {
    auto offset = [](const int *i) -> long long {
      if (!(i[0] < R && i[1] < C) || (i[0] + i[1]) % 5 == 0)
        return dev::masked;
      return -(long long)i[0] * ld + i[1];
    };
    const auto t = dev::load<float, S, Th>(pa, -INFINITY, offset);
    dev::store(pl, t, RowMajor<S>{});
    dev::store(po, t * 2.0f, offset); // float → float16, masked
  });
  // Host reference.
  auto offset = [](const int64_t *i) -> int64_t {
    if (!(i[0] < R && i[1] < C) || (i[0] + i[1]) % 5 == 0)
      return cpu::masked;
    return -i[0] * ld + i[1];
  };
  const auto t = cpu::load<float>(a.data() + (R - 1) * ld, {32, 64}, -INFINITY, offset);
  check<float>("load masked, negative stride Th=" + std::to_string(Th), loaded.get(), t, bits());
  hvec<cpu::float16> expected(R * ld, cpu::float16::from_bits(0x7b7b));
  cpu::store(expected.data() + (R - 1) * ld, t * 2.0f, offset);
  check<cpu::float16>("store masked float->float16 Th=" + std::to_string(Th), out.get(),
                      cpu::Tile<cpu::float16>{{R * ld}, expected}, bits());
}

/// load_vec/store_vec against load/store: an (R, C) window of a matrix with leading dimension
/// ld (a multiple of 4, so rows start 16-byte aligned) through a larger tile, masked tail.
template <class T, class S, int Th> void vector_memory(const char *name) {
  constexpr int R = S::dim(0) - 3, C = S::dim(1) - 5, ld = S::dim(1) + 8;
  constexpr int V = dev::Tile<T, S, Th>::V;
  using H = host_t<T>;
  static_assert(dev::Tile<T, S, Th>::V > 1, "vector_memory: the tile must have chunks");
  const hvec<H> a = random_values<H>(R * ld, -10, 10);
  DevBuf<T> da(a);
  DevBuf<T> plain(S::numel), vec(S::numel), out(R * ld), out_vec(R * ld);
  const T *pa = da.ptr;
  T *pp = plain.ptr, *pv = vec.ptr, *po = out.ptr, *pw = out_vec.ptr;
  launch<Th>([=] __device__(Smem) {
    auto offset = [](const int *i) -> long long {
      if (!(i[0] < R && i[1] < C))
        return dev::masked;
      return (long long)i[0] * ld + i[1];
    };
    auto chunk = [](const int *i) -> long long {
      if (!(i[0] < R && i[1] + V - 1 < C))
        return dev::masked;
      return (long long)i[0] * ld + i[1];
    };
    const auto t = dev::load<T, S, Th>(pa, -1, offset);
    const auto u = dev::load_vec<T, S, Th>(pa, -1, offset, chunk);
    dev::store(pp, t, RowMajor<S>{});
    dev::store_vec(pv, u, RowMajor<S>{}, RowMajor<S>{});
    dev::store(po, t, offset);
    dev::store_vec(pw, u, offset, chunk);
  });
  const std::string n = std::string("load_vec/store_vec ") + name;
  check<H>(n + " (tile)", vec.get(), host_tile<H>(shape_of<S>(), plain.get()), bits());
  check<H>(n + " (window)", out_vec.get(), host_tile<H>({R * ld}, out.get()), bits());
}

/// store_vec of an Mma<WM, WN> tile (chunks of layout::mma_store_chunk: 8 for 16-bit outputs
/// whose warps cover whole groups of four fragments, exchanged across each quad; 2 otherwise)
/// against store element by element: an (R, C) window of a matrix with leading dimension ld
/// whose outputs hold other values beforehand (those outside the window must keep them).
template <class T, class S, int WM, int WN> void mma_store_vec(const char *name) {
  constexpr int R = S::dim(0) - 3, C = S::dim(1) - 5, ld = S::dim(1) + 8;
  constexpr int V = dev::layout::mma_store_chunk(S::dim(1), WN, int(sizeof(T)));
  using H = host_t<T>;
  const hvec<float> a = random_values<float>(R * ld, -10, 10);
  const hvec<H> before = random_values<H>(R * ld, -10, 10);
  DevBuf<float> da(a);
  DevBuf<T> out(before), out_vec(before);
  const float *pa = da.ptr;
  T *po = out.ptr, *pw = out_vec.ptr;
  launch<32 * WM * WN>([=] __device__(Smem) {
    auto offset = [](const int *i) -> long long {
      return i[0] < R && i[1] < C ? (long long)i[0] * ld + i[1] : dev::masked;
    };
    auto chunk = [](const int *i) -> long long {
      return i[0] < R && i[1] + V - 1 < C ? (long long)i[0] * ld + i[1] : dev::masked;
    };
    const auto t = dev::load<float, S, dev::Mma<WM, WN>>(pa, -1.0f, offset);
    dev::store(po, t, offset);
    dev::store_vec(pw, t, offset, chunk);
  });
  check<H>(std::string("store_vec of Mma ") + name + " (chunks of " + std::to_string(V) + ")",
           out_vec.get(), host_tile<H>({R * ld}, out.get()), bits());
}

/// load_vec of an Mma<WM, WN> tile (fragment rows of layout::mma_store_chunk elements, quads
/// exchanging column pairs for chunks of 8) and of a Slice of its columns (pairs) against load
/// element by element: an (R, C) window of a matrix with leading dimension ld, masked beyond
/// it (`other` there), so that the chunks that straddle the bounds go element by element. The
/// tiles are compared slot by slot in every thread (stored as they are held).
template <class T, class S, int WM, int WN> void mma_load_vec(const char *name) {
  constexpr int R = S::dim(0) - 3, C = S::dim(1) - 5, ld = S::dim(1) + 8;
  constexpr int V = dev::layout::mma_store_chunk(S::dim(1), WN, int(sizeof(T)));
  constexpr int Th = 32 * WM * WN;
  using M = dev::Mma<WM, WN>;
  using Row = dev::Shape<S::dim(1)>;
  using Columns = dev::Slice<M, 0>;
  constexpr int Slots = dev::LTile<T, S, M>::Slots, RowSlots = dev::LTile<T, Row, Columns>::Slots;
  using H = host_t<T>;
  const hvec<H> a = random_values<H>(R * ld, -10, 10);
  DevBuf<T> da(a);
  DevBuf<T> plain(Th * Slots), vec(Th * Slots), row_plain(Th * RowSlots), row_vec(Th * RowSlots);
  const T *pa = da.ptr;
  T *pp = plain.ptr, *pv = vec.ptr, *rp = row_plain.ptr, *rv = row_vec.ptr;
  launch<Th>([=] __device__(Smem) {
    auto offset = [](const int *i) -> long long {
      return i[0] < R && i[1] < C ? (long long)i[0] * ld + i[1] : dev::masked;
    };
    auto chunk = [](const int *i) -> long long {
      return i[0] < R && i[1] + V - 1 < C ? (long long)i[0] * ld + i[1] : dev::masked;
    };
    // Row R - 1 of the window, as a bias row is read.
    auto row_offset = [](const int *i) -> long long {
      return i[0] < C ? (long long)(R - 1) * ld + i[0] : dev::masked;
    };
    auto row_chunk = [](const int *i) -> long long {
      return i[0] + 1 < C ? (long long)(R - 1) * ld + i[0] : dev::masked;
    };
    const auto t = dev::load<T, S, M>(pa, -1, offset);
    const auto u = dev::load_vec<T, S, M>(pa, -1, offset, chunk);
    const auto r = dev::load<T, Row, Columns>(pa, -1, row_offset);
    const auto w = dev::load_vec<T, Row, Columns>(pa, -1, row_offset, row_chunk);
    const int me = int(threadIdx.x);
    for (int s = 0; s < Slots; ++s) {
      pp[me * Slots + s] = t.v[s];
      pv[me * Slots + s] = u.v[s];
    }
    for (int s = 0; s < RowSlots; ++s) {
      rp[me * RowSlots + s] = r.v[s];
      rv[me * RowSlots + s] = w.v[s];
    }
  });
  check<H>(std::string("load_vec of Mma ") + name + " (chunks of " + std::to_string(V) + ")",
           vec.get(), host_tile<H>({Th * Slots}, plain.get()), bits());
  check<H>(std::string("load_vec of its column Slice ") + name + " (pairs)", row_vec.get(),
           host_tile<H>({Th * RowSlots}, row_plain.get()), bits());
}

/// dot_loop against the CPU: a (M×K)·(K×N) product walked in BK steps by one BM×BN block
/// whose tiles overhang every edge (masked), from row-major matrices with aligned rows (Vec)
/// or read element by element. AccZero: the accumulator starts at zero and dot_loop is told so.
/// Affine: the operands also pass their affine forms; the block then covers M and N exactly,
/// so that every step but the partial last one copies full tiles from one offset. L: the
/// accumulator's layout, void for a blocked Tile, else an Mma<WM, WN> LTile, which is then
/// stored by store_vec in column pairs up to an odd column bound (the pair that straddles it
/// element by element; the columns beyond keep their old values).
template <class T, int BM, int BK, int BN, int Th, int Stages, bool Vec, bool AccZero = false,
          bool Affine = false, class L = void>
void dot_loop_test(const char *name) {
  constexpr int M = Affine ? BM : BM - 5, N = Affine ? BN : BN - 8;
  constexpr int K = 5 * BK + 8; // a partial last step
  using H = host_t<T>;
  const hvec<H> a = random_values<H>(M * K, -1, 1), b = random_values<H>(K * N, -1, 1);
  const hvec<float> c = AccZero ? hvec<float>(BM * BN, 0.0f) : random_values<float>(BM * BN, -1, 1);
  DevBuf<T> da(a), db(b);
  DevBuf<float> dc(c);
  const T *pa = da.ptr, *pb = db.ptr;
  float *pc = dc.ptr;
  constexpr std::size_t bytes = dev::dot_loop_smem_bytes<T, BM, BK, BN, Th, Stages>();
  constexpr int NS = BN - 3; // the store's column bound (L not void)
  launch<Th>(
      [=] __device__(Smem smem) {
        float *const acc_memory = pc; // captured outside the constexpr-ifs below
        auto acc = [&] {
          if constexpr (std::is_void_v<L>)
            return dev::load<float, Shape<BM, BN>, Th>(acc_memory, 0, RowMajor<Shape<BM, BN>>{});
          else
            return dev::load<float, Shape<BM, BN>, L>(acc_memory, 0, RowMajor<Shape<BM, BN>>{});
        }();
        auto a_offset = [](int k, const int *i) -> long long {
          const int row = i[0], col = k * BK + i[1];
          return row < M && col < K ? (long long)row * K + col : dev::masked;
        };
        auto b_offset = [](int k, const int *i) -> long long {
          const int row = k * BK + i[0], col = i[1];
          return row < K && col < N ? (long long)row * N + col : dev::masked;
        };
        auto a_chunk = [](int k, const int *i) -> long long {
          const int row = i[0], col = k * BK + i[1];
          return row < M && col + 7 < K ? (long long)row * K + col : dev::masked;
        };
        auto b_chunk = [](int k, const int *i) -> long long {
          const int row = k * BK + i[0], col = i[1];
          return row < K && col + 7 < N ? (long long)row * N + col : dev::masked;
        };
        auto affine = [](auto full, auto origin, long long stride0, long long stride1) {
          if constexpr (Affine)
            return dev::affine_tile{full, origin, stride0, stride1};
          else
            return dev::no_affine{};
        };
        auto a_affine = affine([](int k) { return BM - 1 < M && k * BK + BK - 1 < K; },
                               [](int k) -> long long { return k * BK; }, K, 1);
        auto b_affine = affine([](int k) { return k * BK + BK - 1 < K && BN - 1 < N; },
                               [](int k) -> long long { return (long long)k * BK * N; }, N, 1);
        dev::dot_loop<Stages, Vec, Vec, AccZero, T, BM, BK, BN, Th>(
            acc, 0, (K + BK - 1) / BK, pa, T(0.0f), a_offset, a_chunk, a_affine, pb, T(0.0f),
            b_offset, b_chunk, b_affine, smem);
        if constexpr (std::is_void_v<L>) {
          dev::store(acc_memory, acc, RowMajor<Shape<BM, BN>>{});
        } else {
          auto offset = [](const int *i) -> long long {
            return i[1] < NS ? (long long)i[0] * BN + i[1] : dev::masked;
          };
          auto pair = [](const int *i) -> long long {
            return i[1] + 1 < NS ? (long long)i[0] * BN + i[1] : dev::masked;
          };
          dev::store_vec(acc_memory, acc, offset, pair);
        }
      },
      bytes);
  // Host reference: c + A·B over the window (zero outside it).
  std::vector<H> pa_host(BM * K), pb_host(K * BN);
  for (int i = 0; i < BM; ++i)
    for (int k = 0; k < K; ++k)
      pa_host[i * K + k] = i < M ? from_raw<H>(a[i * K + k]) : H(0.0f);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < BN; ++j)
      pb_host[k * BN + j] = j < N ? from_raw<H>(b[k * N + j]) : H(0.0f);
  const auto x = cpu::Tile<H>{{BM, K}, pa_host};
  const auto y = cpu::Tile<H>{{K, BN}, pb_host};
  const auto z = host_tile<float>({BM, BN}, c);
  cpu::Tile<float> want = cpu::dot(x, y, z);
  if constexpr (!std::is_void_v<L>)
    for (int i = 0; i < BM; ++i)
      for (int j = NS; j < BN; ++j)
        want.data[i * BN + j] = c[i * BN + j];
  check<float>(std::string("dot_loop ") + name, dc.get(), want, rel(1e-4, 1e-3));
}

/// async_copy with the affine form of its window against the masked copy: the R×C window at
/// (r0, c0) of a row-major float16 matrix lands in shared memory the same way (the fill value
/// outside the matrix), whether the window is inside the matrix (one offset for the whole
/// tile) or overhangs its edge (the masked path).
template <int R, int C, int Th> void async_copy_affine(const char *name, int r0, int c0) {
  constexpr int rows = 100, cols = 136; // rows of 272 bytes: 16-byte aligned
  using H = cpu::float16;
  const hvec<H> a = random_values<H>(rows * cols, -1, 1);
  DevBuf<__half> da(a), out(R * C), ref(R * C);
  const __half *pa = da.ptr;
  __half *po = out.ptr, *pr = ref.ptr;
  using Stage = dev::SharedTile<__half, Shape<R, C>, false>;
  launch<Th>(
      [=] __device__(Smem smem) {
        auto offset = [=](const int *i) -> long long {
          const int r = r0 + i[0], c = c0 + i[1];
          return r < rows && c < cols ? (long long)r * cols + c : dev::masked;
        };
        auto chunk = [=](const int *i) -> long long {
          const int r = r0 + i[0], c = c0 + i[1];
          return r < rows && c + 7 < cols ? (long long)r * cols + c : dev::masked;
        };
        auto affine = dev::affine_tile{[=] { return r0 + R - 1 < rows && c0 + C - 1 < cols; },
                                       [=]() -> long long { return (long long)r0 * cols + c0; },
                                       (long long)cols, 1LL};
        const __half fill = __float2half(-2.0f);
        dev::async_copy<__half, Shape<R, C>, Th>(smem, 0, pa, fill, dev::chunk_width<8>{}, offset,
                                                 chunk, affine);
        dev::async_copy<__half, Shape<R, C>, Th>(smem, Stage::bytes, pa, fill,
                                                 dev::chunk_width<8>{}, offset, chunk);
        dev::async_commit();
        dev::async_wait<0>();
        const auto with = dev::stage_view<__half, Shape<R, C>, false>(smem, 0);
        const auto without = dev::stage_view<__half, Shape<R, C>, false>(smem, Stage::bytes);
        for (int e = int(threadIdx.x); e < R * C; e += Th) {
          po[e] = *with.at(e / C, e % C);
          pr[e] = *without.at(e / C, e % C);
        }
      },
      2 * Stage::bytes);
  hvec<H> want(R * C);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const int r = r0 + i, c = c0 + j;
      want[i * C + j] = r < rows && c < cols ? a[r * cols + c] : raw_t<H>(H(-2.0f));
    }
  const std::string n = std::string("async_copy affine ") + name;
  check<H>(n, out.get(), host_tile<H>({R, C}, want), bits());
  check<H>(n + " (masked copy)", ref.get(), host_tile<H>({R, C}, want), bits());
}

static void test_memory() {
  masked_memory<128>();
  masked_memory<256>();
  vector_memory<float, Shape<32, 64>, 128>("float 32x64");
  vector_memory<__half, Shape<16, 128>, 128>("float16 16x128");
  vector_memory<double, Shape<8, 64>, 32>("double 8x64");
  dot_loop_test<__half, 128, 64, 128, 256, 3, true>("float16 128x64x128 3 stages, vector");
  dot_loop_test<__half, 128, 64, 128, 256, 3, false>("float16 128x64x128 3 stages, elements");
  dot_loop_test<__nv_bfloat16, 64, 32, 64, 128, 2, true>("bfloat16 64x32x64 2 stages, vector");
  dot_loop_test<__half, 64, 16, 32, 256, 4, true>("float16 64x16x32 4 stages, vector");
  dot_loop_test<__half, 128, 32, 256, 256, 4, true, true>("float16 128x32x256 zero start, vector");
  dot_loop_test<__half, 128, 32, 256, 256, 6, true, true>("float16 128x32x256 6 stages, vector");
  dot_loop_test<__half, 128, 32, 256, 256, 4, false, true>(
      "float16 128x32x256 zero start, elements");
  dot_loop_test<__half, 128, 32, 256, 256, 6, true, true, true>(
      "float16 128x32x256 6 stages, affine operands");
  dot_loop_test<__nv_bfloat16, 128, 64, 128, 256, 3, true, false, true>(
      "bfloat16 128x64x128 3 stages, affine operands");
  dot_loop_test<__half, 64, 16, 64, 128, 3, true, false, true>(
      "float16 64x16x64 (one k16 slice per stage), affine operands");
  // Rows of 3 and 6 16-byte units cannot be swizzled: the generic path.
  // Shapes of dot_loop's wgmma path on sm_90a (a warpgroup per 64 rows): one and two
  // warpgroups, A rows of 32, 64 and 128 bytes, N of 64 to 256, the shortest ring (3 stages).
  dot_loop_test<__half, 64, 64, 64, 128, 4, true, false, true>("float16 64x64x64 wgmma, affine");
  dot_loop_test<__half, 64, 16, 128, 128, 3, true>("float16 64x16x128 wgmma, vector");
  dot_loop_test<__nv_bfloat16, 128, 64, 256, 256, 4, true, true, true>(
      "bfloat16 128x64x256 wgmma, zero start, affine");
  dot_loop_test<__half, 128, 32, 256, 256, 3, false>("float16 128x32x256 wgmma, elements");
  dot_loop_test<__half, 64, 48, 64, 128, 3, true>("float16 64x48x64, vector");
  dot_loop_test<__half, 64, 32, 96, 128, 3, true>("float16 64x32x96, vector");
  dot_loop_test<__half, 64, 32, 64, 128, 2, true, true, true>(
      "float16 64x32x64 2 stages, affine operands");
  // Accumulators in layout Mma: the warp grid of the wgmma loop (sm_90a: in place; sm_80 and
  // NTC_DEV_NO_WGMMA: exchanged), of the mma.sync loop (in place everywhere but on sm_90a's
  // wgmma shapes) and another one (always exchanged).
  dot_loop_test<__half, 128, 32, 256, 256, 6, true, true, true, dev::Mma<8, 1>>(
      "float16 128x32x256 into Mma<8, 1>, zero start, affine");
  dot_loop_test<__nv_bfloat16, 128, 64, 64, 256, 4, true, false, false, dev::Mma<8, 1>>(
      "bfloat16 128x64x64 into Mma<8, 1>, vector");
  dot_loop_test<__half, 128, 64, 128, 256, 2, false, false, false, dev::Mma<4, 2>>(
      "float16 128x64x128 2 stages into Mma<4, 2>, elements");
  dot_loop_test<__half, 128, 32, 256, 256, 6, true, false, false, dev::Mma<2, 4>>(
      "float16 128x32x256 into Mma<2, 4>, vector");
  mma_store_vec<__half, Shape<128, 256>, 8, 1>("float16 128x256 on 8x1 warps");
  mma_store_vec<__nv_bfloat16, Shape<64, 128>, 2, 2>("bfloat16 64x128 on 2x2 warps");
  mma_store_vec<__half, Shape<64, 64>, 1, 4>("float16 64x64 on 1x4 warps (pairs)");
  mma_store_vec<float, Shape<64, 128>, 4, 1>("float32 64x128 on 4x1 warps (pairs)");
  mma_load_vec<__half, Shape<128, 256>, 8, 1>("float16 128x256 on 8x1 warps");
  mma_load_vec<__nv_bfloat16, Shape<64, 128>, 2, 2>("bfloat16 64x128 on 2x2 warps");
  mma_load_vec<__half, Shape<64, 64>, 1, 4>("float16 64x64 on 1x4 warps (pairs)");
  mma_load_vec<float, Shape<64, 128>, 4, 1>("float32 64x128 on 4x1 warps (pairs)");
  async_copy_affine<64, 64, 256>("64x64 inside", 8, 64);
  async_copy_affine<64, 64, 256>("64x64 over the last rows", 48, 64);
  async_copy_affine<32, 128, 128>("32x128 over the last columns", 16, 64);
}

// =================================================================================================
// Random numbers
// =================================================================================================

template <class O, int Th>
void random_test(const char *name, long long seed, double lo, double hi) {
  using S = Shape<32, 32>;
  const hvec<O> offs = random_values<O>(S::numel, lo, hi);
  DevBuf<O> doff(offs);
  DevBuf<float> ou(S::numel), on(S::numel);
  using R = std::conditional_t<(sizeof(O) > 4), int64_t, int32_t>;
  DevBuf<R> oi(S::numel);
  O *po = doff.ptr;
  float *pu = ou.ptr, *pn = on.ptr;
  R *pi = oi.ptr;
  launch<Th>([=] __device__(Smem) {
    const auto o = dev::load<O, S, Th>(po, 0, RowMajor<S>{});
    dev::store(pu, dev::rand(seed, o), RowMajor<S>{});
    dev::store(pn, dev::randn(seed, o), RowMajor<S>{});
    dev::store(pi, dev::randint(seed, o), RowMajor<S>{});
  });
  const auto o = host_tile<O>({32, 32}, offs);
  const std::string n = std::string("rand ") + name;
  check<float>(n, ou.get(), cpu::rand(seed, o), bits());
  check<R>(n + " randint", oi.get(), cpu::randint(seed, o));
  check<float>(n + " randn", on.get(), cpu::randn(seed, o), rel(1e-5, 1e-5));
}

static void test_random() {
  random_test<int32_t, 128>("int32 offsets", 42, -2e9, 2e9);
  random_test<int32_t, 256>("int32 offsets, negative seed", -123456789012345LL, -2e9, 2e9);
  random_test<uint32_t, 128>("uint32 offsets", 7, 0, 4e9);
  random_test<int64_t, 128>("int64 offsets", 0x123456789abcdefLL, -9e18, 9e18);
}

// =================================================================================================

// --- TMA copies (tma.cuh)
// ---------------------------------------------------------------------------

/// 1 when the compiled device pass issues TMA copies (NTC_DEV_HAS_TMA), else 0.
__global__ void tma_compiled(int *out) {
#if defined(NTC_DEV_HAS_TMA)
  *out = 1;
#else
  *out = 0;
#endif
}

/// A compact float16 DLTensor on the GPU over `data` (shape not copied).
static DLTensor half_tensor(__half *data, int ndim, int64_t *shape) {
  DLTensor tensor{};
  tensor.data = data;
  tensor.device = {kDLCUDA, 0};
  tensor.ndim = ndim;
  tensor.dtype = {kDLFloat, 16, 1};
  tensor.shape = shape;
  return tensor;
}

/// Rows and columns of the tiles tma_ring_kernel copies: two 128-byte column blocks of halves.
constexpr int kTmaRows = 64, kTmaCols = 128, kTmaIterations = 3, kTmaEntries = 2;

/// Copies tile j of rows j·64 − 16 … (batch 1, columns 0 … 127) of x, by TMA through a ring of
/// two stages, for j < 3, twice over (the ring's phases carry over from the first loop to the
/// second); iteration 2 of the second loop with in_bounds false. Each tile is read back from
/// its stage in the Swizzled<128> layout into out[entry][j].
__global__ void tma_ring_kernel(const __grid_constant__ dev::tensor_map map, __half *out) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  constexpr int stage_bytes = kTmaRows * kTmaCols * 2;
  dev::tma_ring<2, 1> ring(smem, 2 * stage_bytes);
  using Map = dev::detail::shared_map<__half, kTmaRows, kTmaCols, dev::Swizzled<128>>;
  for (int entry = 0; entry < kTmaEntries; ++entry) {
    auto copy = [&](int j) {
      const int coords[3] = {0, j * kTmaRows - 16, 1};
      ring.copy<__half, kTmaRows, kTmaCols, 128, 1, 3>(j % 2, map, smem, (j % 2) * stage_bytes,
                                                       coords, !(entry == 1 && j == 2));
    };
    copy(0);
    for (int j = 0; j < kTmaIterations; ++j) {
      ring.wait(j % 2);
      __syncthreads();
      if (j + 1 < kTmaIterations)
        copy(j + 1);
      const __half *stage = smem.as<__half>((j % 2) * stage_bytes);
      for (int e = int(threadIdx.x); e < kTmaRows * kTmaCols; e += int(blockDim.x)) {
        const int r = e / kTmaCols, c = e % kTmaCols;
        out[(entry * kTmaIterations + j) * kTmaRows * kTmaCols + e] = stage[Map::offset(r, c)];
      }
    }
    __syncthreads();
  }
}

/// The loop of tma_release_kernel and tma_multicast_kernel: `copy(j)` (thread 0) fills the
/// stage of tile j one step ahead, thread 0 acquiring the stage (every releasing warp has read
/// it) before refilling it; every thread waits for tile j, reads it back from its stage in the
/// Swizzled<128> layout into out[entry][j] and releases the stage. Over `n` tiles, twice (every
/// release acquired once, so the phases carry over).
template <class Ring, class Copy>
__device__ void released_ring_loop(Ring &ring, const Smem smem, __half *out, int n, Copy copy) {
  constexpr int stage_bytes = kTmaRows * kTmaCols * 2;
  using Map = dev::detail::shared_map<__half, kTmaRows, kTmaCols, dev::Swizzled<128>>;
  for (int entry = 0; entry < kTmaEntries; ++entry) {
    if (threadIdx.x == 0)
      copy(0);
    for (int j = 0; j < n; ++j) {
      if (threadIdx.x == 0 && j + 1 < n) {
        if (j >= 1)
          ring.acquire((j + 1) % 2); // step j − 1's stage, read by every releasing warp
        copy(j + 1);
      }
      ring.wait(j % 2);
      const __half *stage = smem.as<__half>((j % 2) * stage_bytes);
      for (int e = int(threadIdx.x); e < kTmaRows * kTmaCols; e += int(blockDim.x)) {
        const int r = e / kTmaCols, c = e % kTmaCols;
        out[(entry * n + j) * kTmaRows * kTmaCols + e] = stage[Map::offset(r, c)];
      }
      ring.release(j % 2);
    }
    if (threadIdx.x == 0) // the last releases (in a cluster, the other CTA's too)
      for (int j = n > 2 ? n - 2 : 0; j < n; ++j)
        ring.acquire(j % 2);
  }
}

/// As tma_ring_kernel, with a ring whose 4 warps release each stage once they have read it and
/// whose thread 0 acquires a stage before refilling it (no barrier of the block in the loop),
/// the copies one step ahead, over `n` iterations, twice (every release acquired once, so the
/// phases carry over). Tile j is rows j·64 − 16 … of batch 1, read into out[entry][j].
__global__ void tma_release_kernel(const __grid_constant__ dev::tensor_map map, __half *out,
                                   int n) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  constexpr int stage_bytes = kTmaRows * kTmaCols * 2;
  dev::tma_ring<2, 1, 4> ring(smem, 2 * stage_bytes);
  released_ring_loop(ring, smem, out, n, [&](int j) {
    const int coords[3] = {0, j * kTmaRows - 16, 1};
    ring.copy<__half, kTmaRows, kTmaCols, 128, 1, 3>(j % 2, map, smem, (j % 2) * stage_bytes,
                                                     coords, true);
  });
}

/// As tma_release_kernel, with a ring refilled by its last releaser (tma_ring's LastRefills,
/// release-stages' loops): thread 0 copies the first two tiles; each iteration every warp reads
/// its tile back and releases the stage, and the thread release_last() names refills it with
/// tile j + 2, one warp lingering in iteration 1 so that another warp reaches the release
/// last. Over `n` tiles, twice (the counters and phases carry over; a barrier between the
/// loops, as release-stages releases only loops that run once).
__global__ void tma_refill_kernel(const __grid_constant__ dev::tensor_map map, __half *out, int n) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  constexpr int stage_bytes = kTmaRows * kTmaCols * 2;
  dev::tma_ring<2, 1, 4, 1, 0, true> ring(smem, 2 * stage_bytes);
  using Map = dev::detail::shared_map<__half, kTmaRows, kTmaCols, dev::Swizzled<128>>;
  auto tile = [&](int j, bool refill) {
    const int coords[3] = {0, j * kTmaRows - 16, 1};
    if (refill)
      ring.refill<__half, kTmaRows, kTmaCols, 128, 1, 3>(j % 2, map, smem, (j % 2) * stage_bytes,
                                                         coords, true);
    else
      ring.copy<__half, kTmaRows, kTmaCols, 128, 1, 3>(j % 2, map, smem, (j % 2) * stage_bytes,
                                                       coords, true);
  };
  for (int entry = 0; entry < kTmaEntries; ++entry) {
    for (int j = 0; j < 2 && j < n; ++j)
      tile(j, false);
    for (int j = 0; j < n; ++j) {
      ring.wait<false>(j % 2);
      if (j == 1 && threadIdx.x / 32 == 2)
        __nanosleep(20000);
      const __half *stage = smem.as<__half>((j % 2) * stage_bytes);
      for (int e = int(threadIdx.x); e < kTmaRows * kTmaCols; e += int(blockDim.x)) {
        const int r = e / kTmaCols, c = e % kTmaCols;
        out[(entry * n + j) * kTmaRows * kTmaCols + e] = stage[Map::offset(r, c)];
      }
      if (ring.release_last(j % 2) && j + 2 < n)
        tile(j + 2, true);
    }
    __syncthreads(); // the next loop's first copies overwrite stages the last iterations read
  }
}

/// As tma_release_kernel, in a cluster of two CTAs whose rings share every tile (a 2-D map of
/// batch 1): each CTA multicasts one of the tile's two column blocks into both rings
/// (copy_multicast), every warp of both releases each stage on both rings (8 releasers), and
/// each CTA reads the whole tile back into out[cta][entry][j].
__global__ void NTC_DEV_CLUSTER_DIMS(2, 1, 1)
    tma_multicast_kernel(const __grid_constant__ dev::tensor_map map, __half *out, int n) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  constexpr int stage_bytes = kTmaRows * kTmaCols * 2;
  dev::tma_ring<2, 1, 8, 2> ring(smem, 2 * stage_bytes);
  out += std::size_t(blockIdx.x) * kTmaEntries * n * kTmaRows * kTmaCols;
  released_ring_loop(ring, smem, out, n, [&](int j) {
    const int coords[2] = {0, j * kTmaRows - 16};
    ring.copy_multicast<__half, kTmaRows, kTmaCols, 128, 1, 2>(j % 2, map, smem,
                                                               (j % 2) * stage_bytes, coords, true);
  });
}

/// The steps of program p of tma_persistent_kernel (one to four), and the tile of its step j
/// (rows t·64 − 16 … of batch 1, t = (p + j) % 3).
__host__ __device__ constexpr int persistent_steps(int p) { return 1 + p % 4; }
__host__ __device__ constexpr int persistent_tile(int p, int j) { return (p + j) % 3; }

/// A persistent block with a producer warp, as specialize-producer's persistent programs run:
/// programs blockIdx.x, blockIdx.x + gridDim.x, … of persistent_steps(p) steps each through a
/// ring of three stages whose stages count from 0 again in every program. The producer (thread
/// 128) fills a program's first three stages behind acquire_filled (the block's last program
/// may still read them) and refills stage j % 3 with step j + 3 once it has acquired step j's;
/// the four consumer warps wait for step 0 before the loop and for step j + 1 in it (the
/// rotated loops of overlap=2), copy each tile back into out (tiles in program order), release
/// step j in the loop and the stage they still hold after it (release_held).
__global__ void tma_persistent_kernel(const __grid_constant__ dev::tensor_map map, __half *out,
                                      int programs) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  constexpr int stages = 3, stage_bytes = kTmaRows * kTmaCols * 2;
  dev::tma_ring<stages, 1, 4, 1, 128> ring(smem, stages * stage_bytes);
  using Map = dev::detail::shared_map<__half, kTmaRows, kTmaCols, dev::Swizzled<128>>;
  if (threadIdx.x >= 128) {
    if (threadIdx.x != 128)
      return;
    for (int p = int(blockIdx.x); p < programs; p += int(gridDim.x)) {
      const int n = persistent_steps(p);
      auto copy = [&](int j) {
        const int coords[3] = {0, persistent_tile(p, j) * kTmaRows - 16, 1};
        ring.copy<__half, kTmaRows, kTmaCols, 128, 1, 3>(j % stages, map, smem,
                                                         (j % stages) * stage_bytes, coords, true);
      };
      for (int j = 0; j < stages; ++j) {
        ring.acquire_filled(j);
        if (j < n)
          copy(j);
      }
      for (int j = 0; j + 1 < n; ++j) {
        ring.acquire_filled(j % stages);
        if (j + stages < n)
          copy(j + stages);
      }
    }
    return;
  }
  for (int p = int(blockIdx.x); p < programs; p += int(gridDim.x)) {
    int first = 0; // the program's first tile in out
    for (int q = 0; q < p; ++q)
      first += persistent_steps(q);
    const int n = persistent_steps(p);
    auto read = [&](int j) {
      ring.wait(j % stages);
      const __half *stage = smem.as<__half>((j % stages) * stage_bytes);
      for (int e = int(threadIdx.x); e < kTmaRows * kTmaCols; e += 128) {
        const int r = e / kTmaCols, c = e % kTmaCols;
        out[std::size_t(first + j) * kTmaRows * kTmaCols + e] = stage[Map::offset(r, c)];
      }
    };
    read(0);
    for (int j = 0; j + 1 < n; ++j) {
      read(j + 1);
      ring.release(j % stages);
    }
    ring.release_held();
  }
}

/// Stores a 64 × 128 tile whose element (r, c) is r · 128 + c by TMA at rows 50 … 113 and
/// columns 0 … 127 of a 100 × 80 tensor (the copy engine writes rows 50 … 99, columns 0 … 79),
/// from a blocked tile or from an Mma tile, and once more with in_bounds false at row 0
/// (nothing written).
__global__ void tma_store_kernel(const __grid_constant__ dev::tensor_map map, int use_mma) {
  extern __shared__ __align__(1024) unsigned char smem_buffer[];
  const Smem smem{smem_buffer};
  auto value = [](const int *i) -> float { return float(i[0] * 128 + i[1]); };
  const int rows[2] = {0, 50}, none[2] = {0, 0};
  if (use_mma) {
    const auto t = dev::generate<__half, Shape<64, 128>, dev::Mma<4, 1>>(value);
    dev::tma_store<0, 128, 1, 2>(t, map, smem, rows, true);
    dev::tma_store<0, 128, 1, 2>(t, map, smem, none, false);
  } else {
    const auto t = dev::generate<__half, Shape<64, 128>, 128>(value);
    dev::tma_store<0, 128, 1, 2>(t, map, smem, rows, true);
    dev::tma_store<0, 128, 1, 2>(t, map, smem, none, false);
  }
}

/// tma_store: the staged tile lands where it belongs, clipped to the tensor, and in_bounds
/// false writes nothing (the rest of the tensor keeps its fill). sm_90 passes only.
static void tma_store_test() {
  constexpr int rows = 100, cols = 80;
  int64_t shape[2] = {rows, cols};
  for (int use_mma = 0; use_mma < 2; ++use_mma) {
    DevBuf<__half> output(std::size_t(rows) * cols); // every byte 0x5a
    const hvec<cpu::float16> fill = output.get();
    DLTensor tensor = half_tensor(output.ptr, 2, shape);
    dev::tensor_map map{};
    expect("tma_store: encode_tma encodes a 2-D float16 map",
           ntc::rt::encode_tma(&tensor, {64, 64}, ntc::rt::tma_swizzle::span128, map.bytes));
    tma_store_kernel<<<1, 128, 64 * 128 * 2>>>(map, use_mma);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    const hvec<cpu::float16> got = output.get();
    int wrong = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::size_t at = std::size_t(r) * cols + c;
        const float want =
            r >= 50 ? float(cpu::float16(float((r - 50) * 128 + c))) : float(fill[at]);
        wrong += float(got[at]) != want;
      }
    expect(std::string("tma_store: ") + (use_mma ? "an Mma" : "a blocked") +
               " tile lands clipped to the tensor, nothing where in_bounds is false",
           wrong == 0);
    if (wrong)
      std::printf("  %d of %d elements differ\n", wrong, rows * cols);
  }
}

/// The elements of `got` (kTmaEntries loops of `iterations` tiles of kTmaRows × kTmaCols, tile j
/// of a loop rows j·64 − 16 … of batch 1 of the batches × rows × cols tensor x) that differ from
/// x, or from zero outside x and in a tile that `moved(entry, j)` says was moved out.
template <class Moved>
static int ring_errors(const hvec<cpu::float16> &got, int iterations, const hvec<cpu::float16> &x,
                       int rows, int cols, Moved moved) {
  int wrong = 0;
  for (int entry = 0; entry < kTmaEntries; ++entry)
    for (int j = 0; j < iterations; ++j)
      for (int r = 0; r < kTmaRows; ++r)
        for (int c = 0; c < kTmaCols; ++c) {
          const int row = j * kTmaRows - 16 + r;
          const bool inside = !moved(entry, j) && row >= 0 && row < rows && c < cols;
          const std::size_t at =
              ((std::size_t(entry) * iterations + j) * kTmaRows + r) * kTmaCols + c;
          const float want = inside ? float(x[(std::size_t(1) * rows + row) * cols + c]) : 0.0f;
          wrong += float(got[at]) != want;
        }
  return wrong;
}

/// TMA through ntc::dev::tma_ring with a map that ntc::rt::encode_tma encoded: rows above the
/// tensor (negative coordinates), columns past its end, a tile moved out by in_bounds, two
/// column blocks per tile and the ring's phases over two loops. sm_90 passes only.
static void test_tma() {
  int compiled = 0, *flag = nullptr;
  CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
  tma_compiled<<<1, 1>>>(flag);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&compiled, flag, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(flag));
  if (!compiled) {
    std::printf("tma: skipped (the device pass has no TMA)\n");
    return;
  }
  constexpr int batches = 2, rows = 100, cols = 80;
  hvec<cpu::float16> x(std::size_t(batches) * rows * cols);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = cpu::float16(float(1 + int(i % 1999)));
  DevBuf<__half> input(x);
  DevBuf<__half> output(std::size_t(kTmaEntries) * kTmaIterations * kTmaRows * kTmaCols);
  int64_t shape[3] = {batches, rows, cols};
  DLTensor tensor = half_tensor(input.ptr, 3, shape);
  dev::tensor_map map{};
  expect("tma: encode_tma encodes a 3-D float16 map",
         ntc::rt::encode_tma(&tensor, {1, kTmaRows, 64}, ntc::rt::tma_swizzle::span128, map.bytes));
  const std::size_t smem = 2 * kTmaRows * kTmaCols * 2 + 16;
  CUDA_CHECK(cudaFuncSetAttribute(tma_ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(smem)));
  tma_ring_kernel<<<1, 128, smem>>>(map, output.ptr);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const hvec<cpu::float16> got = output.get();
  const int wrong = ring_errors(got, kTmaIterations, x, rows, cols,
                                [](int entry, int j) { return entry == 1 && j == 2; });
  expect("tma: tiles land in the Swizzled<128> layout, zeros outside the tensor", wrong == 0);
  if (wrong)
    std::printf("  %d of %zu elements differ\n", wrong, got.size());
  // A ring kernel's n iterations through two stages, twice, against the tiles of x.
  const std::size_t release_smem = 2 * kTmaRows * kTmaCols * 2 + 32;
  auto run_ring = [&](void (*kernel)(dev::tensor_map, __half *, int), int n, const char *what) {
    DevBuf<__half> out(std::size_t(kTmaEntries) * n * kTmaRows * kTmaCols);
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(release_smem)));
    kernel<<<1, 128, release_smem>>>(map, out.ptr, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    const hvec<cpu::float16> got_ring = out.get();
    const int wrong_ring = ring_errors(got_ring, n, x, rows, cols, [](int, int) { return false; });
    expect(what, wrong_ring == 0);
    if (wrong_ring)
      std::printf("  %d of %zu elements differ\n", wrong_ring, got_ring.size());
  };
  // The ring with releases: four iterations.
  constexpr int released_n = 4;
  run_ring(tma_release_kernel, released_n,
           "tma: a ring whose warps release its stages refills each only once read");
  // The ring refilled by its last releaser: five iterations.
  run_ring(
      tma_refill_kernel, 5,
      "tma: a ring refilled by the warp that releases a stage last refills it once all read it");
  // The same in a cluster of two CTAs that multicast the tiles, through a 2-D map of batch 1:
  // both CTAs see every tile whole.
  int64_t plane[2] = {rows, cols};
  DLTensor batch1 = half_tensor(input.ptr + std::size_t(rows) * cols, 2, plane);
  dev::tensor_map map2{};
  expect("tma: encode_tma encodes a 2-D float16 map",
         ntc::rt::encode_tma(&batch1, {kTmaRows, 64}, ntc::rt::tma_swizzle::span128, map2.bytes));
  DevBuf<__half> multicast(std::size_t(2) * kTmaEntries * released_n * kTmaRows * kTmaCols);
  CUDA_CHECK(cudaFuncSetAttribute(tma_multicast_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(release_smem)));
  tma_multicast_kernel<<<2, 128, release_smem>>>(map2, multicast.ptr, released_n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const hvec<cpu::float16> got_multicast = multicast.get();
  int wrong_multicast = 0;
  for (int cta = 0; cta < 2; ++cta) {
    const std::size_t per_cta = std::size_t(kTmaEntries) * released_n * kTmaRows * kTmaCols;
    const hvec<cpu::float16> part(got_multicast.begin() + std::ptrdiff_t(cta * per_cta),
                                  got_multicast.begin() + std::ptrdiff_t((cta + 1) * per_cta));
    wrong_multicast += ring_errors(part, released_n, x, rows, cols, [](int, int) { return false; });
  }
  expect("tma: two CTAs of a cluster multicast each tile whole into both rings",
         wrong_multicast == 0);
  if (wrong_multicast)
    std::printf("  %d of %zu elements differ\n", wrong_multicast, got_multicast.size());
  // A tensor TMA cannot describe (a row of 79 halves: strides not multiples of 16 bytes).
  int64_t odd[3] = {batches, rows, 79};
  tensor.shape = odd;
  expect(
      "tma: encode_tma refuses strides that are not multiples of 16 bytes",
      !ntc::rt::encode_tma(&tensor, {1, kTmaRows, 64}, ntc::rt::tma_swizzle::span128, map.bytes));
  // Persistent blocks with a producer warp: programs of one to four steps through three
  // stages, two blocks of nine programs.
  constexpr int programs = 18;
  int tiles = 0;
  for (int p = 0; p < programs; ++p)
    tiles += persistent_steps(p);
  DevBuf<__half> persistent(std::size_t(tiles) * kTmaRows * kTmaCols);
  const std::size_t persistent_smem = 3 * kTmaRows * kTmaCols * 2 + 48;
  CUDA_CHECK(cudaFuncSetAttribute(
      tma_persistent_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(persistent_smem)));
  tma_persistent_kernel<<<2, 160, persistent_smem>>>(map, persistent.ptr, programs);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const hvec<cpu::float16> got_persistent = persistent.get();
  int wrong_persistent = 0, at = 0;
  for (int p = 0; p < programs; ++p)
    for (int j = 0; j < persistent_steps(p); ++j, ++at)
      for (int r = 0; r < kTmaRows; ++r)
        for (int c = 0; c < kTmaCols; ++c) {
          const int row = persistent_tile(p, j) * kTmaRows - 16 + r;
          const bool inside = row >= 0 && row < rows && c < cols;
          const float want = inside ? float(x[(std::size_t(1) * rows + row) * cols + c]) : 0.0f;
          wrong_persistent +=
              float(got_persistent[(std::size_t(at) * kTmaRows + r) * kTmaCols + c]) != want;
        }
  expect("tma: a persistent producer's programs restart the ring's stages (acquire_filled, "
         "release_held)",
         wrong_persistent == 0);
  if (wrong_persistent)
    std::printf("  %d of %zu elements differ\n", wrong_persistent, got_persistent.size());
  tma_store_test();
}

int main() {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("device tests: skipped (no usable GPU: %s)\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "no devices");
    return 77;
  }
  test_conversions();
  test_arithmetic();
  test_math();
  test_shapes();
  test_reductions();
  test_dot();
  test_operand_descriptors();
  test_layouts();
  test_memory();
  test_random();
  test_tma();
  std::printf("device tests: %d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
