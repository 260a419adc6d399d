// all_names.cpp: uses every name that ntc/dsl.hpp declares at least once, in arrangements and
// applications, so that compiling it with the host compilers checks the whole DSL surface
// (overload resolution, implicit conversions, the annotate attributes). It is not a meaningful
// kernel and is never given to ntc.

#include <ntc/dsl.hpp>

#include <limits>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32);

// nt::block_size and nt::Symbol are usable in constant expressions.
static_assert(BM.lower_bound() == 64 && BM.upper_bound() == 128);
static_assert(BN.lower_bound() == 32 && BN.upper_bound() == 32 && BN.name() != nullptr);
static_assert(nt::Symbol(5).name() == nullptr && nt::Symbol(5).lower_bound() == 5);

//===- Every tensor op, symbol operator and parameter kind ---------------------------------===//

NT_ARRANGEMENT auto ops_arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c, nt::Tensor d,
                                    nt::Tensor scale, nt::Tensor flag, nt::Tensor out) {
  // tile with every argument; Symbol arithmetic.
  auto a_arranged = a.tile({BM, -1}, {BM / 2, -1}, {1, 1}, true).tile({1, -1});
  a_arranged.dtype() = a_arranged.dtype().squeeze(0);
  a_arranged.dtype().dtype() = a_arranged.dtype().dtype().flatten();

  // expand, squeeze (one and several dims), unsqueeze, permute, flatten(start, end), ravel.
  auto b_arranged = b.unsqueeze(0).expand({4, -1, -1}).permute({1, 0, 2}).flatten(0, 2);
  b_arranged = b_arranged.tile({BN * 2 + 1, (BN - 1) % 3, -BN}).ravel().squeeze({0});

  // pad, slice (none, integers, symbols), shape(d), shape(), ndim(), const dtype().
  auto c_arranged = c.pad({{1, 2}, {0, BM}}).slice(0, 1, nt::none, 2).slice(1, nt::none, BN);
  const nt::Tensor &c_const = c_arranged.tile({BM, BN});
  nt::Shape c_shape = c_const.shape();
  bool same = c_const.dtype().ndim() == c_shape.size() && c_shape[0] == c_arranged.shape(0);
  bool ordered = BM < BN || BM <= BN || BM > BN || BM >= BN || BM != BN;
  if (same && ordered)
    c_arranged = c_arranged.slice(-1, -1);

  // named axes.
  auto d_arranged = d.axes("m", "n").tile({BM, BN});

  // parameter options.
  auto out_arranged = out.other(0).upper_bound(0, 4096).constexpr_dim(1).tile({BM, BN});

  return nt::arrange(a_arranged, b_arranged, c_arranged, d_arranged, scale, flag, out_arranged);
}

//===- Every Tile member and operator, every ntl function ----------------------------------===//

// A helper application with an out parameter.
NT_APPLICATION void helper_application(nt::Tile x, nt::Tile &result) {
  result = ntl::exp(x) + ntl::exp2(x) + ntl::log(x) + ntl::log2(x) + ntl::log1p(x) + ntl::sqrt(x) +
           ntl::rsqrt(x) + ntl::abs(x) + ntl::sin(x) + ntl::cos(x) + ntl::tanh(x) +
           ntl::sigmoid(x) + ntl::erf(x) + ntl::floor(x) + ntl::ceil(x) + ntl::pow(x, 2) +
           ntl::maximum(x, 0) + ntl::minimum(0, x) + ntl::clamp(x, -1, 1.5);
}

NT_APPLICATION void ops_application(nt::Tile a, nt::Tile b, nt::Tile c, nt::Tile d, nt::Tile scale,
                                    nt::Tile flag, nt::Tile out) {
  // Creation; Shape from braces and from shape().
  auto acc = ntl::zeros({a.shape(0), BN}, ntl::float32);
  auto ones = ntl::full(out.shape(), 1, ntl::float32);
  auto idx = ntl::arange(0, 16);

  // Loops over inner levels, subscripts (both forms), dot, trans.
  for (int k = 0; k < a.shape(0); ++k)
    acc += ntl::dot(a[k], ntl::trans(d));
  const nt::Tile &a_const = a;
  acc -= a_const[0] * 2;
  acc *= scale;
  acc /= 1 + scale;
  b[0] = ntl::cast(b[1], b.dtype());

  // Arithmetic, comparisons, logical operators with broadcasting and implicit conversions.
  auto sum = acc + ones - acc * ones / (ones % 2) + (-acc);
  auto mask = (acc == ones) | (acc != ones) | (acc < 0) | (acc <= 1) | (acc > ones) |
              ((acc >= 1) & !(acc < ones));
  nt::Tile extent = c.shape(1);
  auto in_bounds =
      (c.offsets(-2) < c.source().shape(-2)) & (c.offsets(-1) * c.source().stride(-1) < extent);
  sum = ntl::where(mask & in_bounds, sum, -std::numeric_limits<double>::infinity());

  // Reductions, with and without an axis.
  auto reduced = ntl::sum(sum) + ntl::sum(sum, 1) + ntl::max(sum) + ntl::max(sum, 0) +
                 ntl::min(sum) + ntl::min(sum, -1) + ntl::argmax(sum) + ntl::argmax(sum, 1);

  // Shape ops on tiles, random numbers, calls to another application.
  auto grid = ntl::broadcast_to(ntl::expand_dims(idx, 0), {BM, 16});
  auto noise = ntl::rand(scale, grid);
  nt::Tile helped = 0;
  helper_application(noise, helped);

  if (flag)
    out = (sum + reduced + helped).to(out.dtype());
  else
    out = ntl::zeros(out.shape(), ntl::float16);
}

NT_KERNEL(all_ops, ops_arrangement, ops_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16),
          nt::Scalar(nt::float32), nt::Constexpr("flag", {0, 1}), nt::Tensor(2, nt::float16));

//===- Every data type ---------------------------------------------------------------------===//

NT_ARRANGEMENT auto dtypes_arrangement(nt::Tensor f16, nt::Tensor bf16, nt::Tensor f32,
                                       nt::Tensor f64, nt::Tensor i8, nt::Tensor i16,
                                       nt::Tensor i32, nt::Tensor i64, nt::Tensor u8,
                                       nt::Tensor u16, nt::Tensor u32, nt::Tensor u64, nt::Tensor b,
                                       nt::Tensor f8e4m3, nt::Tensor f8e5m2, nt::Tensor out) {
  return nt::arrange(f16, bf16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, b, f8e4m3, f8e5m2,
                     out.tile({1}));
}

NT_APPLICATION void dtypes_application(nt::Tile f16, nt::Tile bf16, nt::Tile f32, nt::Tile f64,
                                       nt::Tile i8, nt::Tile i16, nt::Tile i32, nt::Tile i64,
                                       nt::Tile u8, nt::Tile u16, nt::Tile u32, nt::Tile u64,
                                       nt::Tile b, nt::Tile f8e4m3, nt::Tile f8e5m2, nt::Tile out) {
  ntl::DType wide = ntl::float64;
  out = f16.to(ntl::float16) + bf16.to(ntl::bfloat16) + f32.to(ntl::float32) + f64.to(wide) +
        i8.to(ntl::int8) + i16.to(ntl::int16) + i32.to(ntl::int32) + i64.to(ntl::int64) +
        u8.to(ntl::uint8) + u16.to(ntl::uint16) + u32.to(ntl::uint32) + u64.to(ntl::uint64) +
        b.to(ntl::bool_) + f8e4m3.to(ntl::float8_e4m3) + f8e5m2.to(ntl::float8_e5m2);
}

NT_KERNEL(all_dtypes, dtypes_arrangement, dtypes_application, nt::Scalar(nt::float16),
          nt::Scalar(nt::bfloat16), nt::Scalar(nt::float32), nt::Scalar(nt::float64),
          nt::Scalar(nt::int8), nt::Scalar(nt::int16), nt::Scalar(nt::int32), nt::Scalar(nt::int64),
          nt::Scalar(nt::uint8), nt::Scalar(nt::uint16), nt::Scalar(nt::uint32),
          nt::Scalar(nt::uint64), nt::Scalar(nt::bool_), nt::Scalar(nt::float8_e4m3),
          nt::Scalar(nt::float8_e5m2), nt::Tensor(1, nt::DType::float32));

//===- A kernel function called by another kernel ------------------------------------------===//

NT_ARRANGEMENT auto scale_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({16}), output.tile({16}));
}

NT_APPLICATION void scale_application(nt::Tile input, nt::Tile &output) { output = 2 * input; }

inline constexpr auto scale = nt::kernel_function(scale_arrangement, scale_application);

NT_ARRANGEMENT auto composed_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x, y.tile({16}));
}

NT_APPLICATION void composed_application(nt::Tile x, nt::Tile y) { y = scale(x) + 1; }

NT_KERNEL(composed, composed_arrangement, composed_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
