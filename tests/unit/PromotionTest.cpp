// The compiler's type promotion (kir::promote) and the CPU tile library's (ntc::cpu::promote_t)
// give the same result for every pair of element types: both read ntc/common/promotion.hpp.
#include "ir/KernelIR.h"

#include <ntc/cpu/types.hpp>

#include <catch2/catch.hpp>

#include <tuple>

using namespace ntc;

namespace {

template <class T> DType dtypeOf();
template <> DType dtypeOf<bool>() { return DType::Bool; }
template <> DType dtypeOf<int8_t>() { return DType::Int8; }
template <> DType dtypeOf<int16_t>() { return DType::Int16; }
template <> DType dtypeOf<int32_t>() { return DType::Int32; }
template <> DType dtypeOf<int64_t>() { return DType::Int64; }
template <> DType dtypeOf<uint8_t>() { return DType::UInt8; }
template <> DType dtypeOf<uint16_t>() { return DType::UInt16; }
template <> DType dtypeOf<uint32_t>() { return DType::UInt32; }
template <> DType dtypeOf<uint64_t>() { return DType::UInt64; }
template <> DType dtypeOf<cpu::float8_e4m3>() { return DType::Float8E4M3; }
template <> DType dtypeOf<cpu::float8_e5m2>() { return DType::Float8E5M2; }
template <> DType dtypeOf<cpu::float16>() { return DType::Float16; }
template <> DType dtypeOf<cpu::bfloat16>() { return DType::BFloat16; }
template <> DType dtypeOf<float>() { return DType::Float32; }
template <> DType dtypeOf<double>() { return DType::Float64; }

using Elements =
    std::tuple<bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
               cpu::float8_e4m3, cpu::float8_e5m2, cpu::float16, cpu::bfloat16, float, double>;

/// The compiler's promotion of two strongly typed tiles.
DType compilerPromote(DType a, DType b) {
  return kir::promote(kir::makeLocal("a", {a, {}}), kir::makeLocal("b", {b, {}}));
}

template <class A, size_t... J> void checkRow(std::index_sequence<J...>) {
  (
      [] {
        using B = std::tuple_element_t<J, Elements>;
        INFO(dtypeName(dtypeOf<A>()) << " with " << dtypeName(dtypeOf<B>()));
        CHECK(compilerPromote(dtypeOf<A>(), dtypeOf<B>()) == dtypeOf<cpu::promote_t<A, B>>());
      }(),
      ...);
}

template <size_t... I> void checkAll(std::index_sequence<I...> rows) {
  (checkRow<std::tuple_element_t<I, Elements>>(rows), ...);
}

} // namespace

TEST_CASE("one promotion table: compiler and CPU library agree on every pair", "[promotion]") {
  checkAll(std::make_index_sequence<std::tuple_size_v<Elements>>());
  // The case that used to differ: the two FP8 formats meet in float32.
  CHECK(compilerPromote(DType::Float8E4M3, DType::Float8E5M2) == DType::Float32);
  CHECK(compilerPromote(DType::Float16, DType::BFloat16) == DType::Float32);
  CHECK(compilerPromote(DType::Int32, DType::UInt32) == DType::UInt32);
}
