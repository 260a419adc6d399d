//===- Dtype.cpp - DLPack data types: names, sizes, conversions -----------===//
#include "Dtype.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ntc::tune {

namespace {

/// One named type.
struct NamedType {
  const char *name;
  DLDataType dtype;
};

constexpr NamedType kTypes[] = {
    {"float16", {kDLFloat, 16, 1}},
    {"bfloat16", {kDLBfloat, 16, 1}},
    {"float32", {kDLFloat, 32, 1}},
    {"float64", {kDLFloat, 64, 1}},
    {"int8", {kDLInt, 8, 1}},
    {"int16", {kDLInt, 16, 1}},
    {"int32", {kDLInt, 32, 1}},
    {"int64", {kDLInt, 64, 1}},
    {"uint8", {kDLUInt, 8, 1}},
    {"uint16", {kDLUInt, 16, 1}},
    {"uint32", {kDLUInt, 32, 1}},
    {"uint64", {kDLUInt, 64, 1}},
    {"bool", {NTC_DL_BOOL, 8, 1}},
    {"float8_e4m3", {NTC_DL_FLOAT8_E4M3FN, 8, 1}},
    {"float8_e5m2", {NTC_DL_FLOAT8_E5M2, 8, 1}},
};

/// A small binary floating-point format: exponent and mantissa widths; `finiteOnly` for the
/// "fn" formats (no infinity, NaN only with every exponent and mantissa bit set).
struct MiniFloat {
  int expBits;
  int mantBits;
  bool finiteOnly;
};

constexpr MiniFloat kHalf{5, 10, false};
constexpr MiniFloat kBfloat16{8, 7, false};
constexpr MiniFloat kE4m3{4, 3, true};
constexpr MiniFloat kE5m2{5, 2, false};

double decodeMini(const MiniFloat &f, uint32_t bits) {
  uint32_t mantMask = (1u << f.mantBits) - 1;
  uint32_t expMask = (1u << f.expBits) - 1;
  bool negative = (bits >> (f.expBits + f.mantBits)) & 1;
  uint32_t exp = (bits >> f.mantBits) & expMask;
  uint32_t mant = bits & mantMask;
  int bias = (1 << (f.expBits - 1)) - 1;
  double value;
  if (f.finiteOnly && exp == expMask && mant == mantMask)
    value = std::nan("");
  else if (!f.finiteOnly && exp == expMask)
    value = mant ? std::nan("") : INFINITY;
  else if (exp == 0)
    value = std::ldexp(static_cast<double>(mant), 1 - bias - f.mantBits);
  else
    value = std::ldexp(static_cast<double>(mant | (1u << f.mantBits)),
                       static_cast<int>(exp) - bias - f.mantBits);
  return negative ? -value : value;
}

uint32_t encodeMini(const MiniFloat &f, double value) {
  uint32_t signBit = 1u << (f.expBits + f.mantBits);
  uint32_t expMask = (1u << f.expBits) - 1;
  uint32_t mantMask = (1u << f.mantBits) - 1;
  uint32_t nan = f.finiteOnly ? (expMask << f.mantBits) | mantMask
                              : (expMask << f.mantBits) | (1u << (f.mantBits - 1));
  if (std::isnan(value))
    return nan;
  uint32_t sign = std::signbit(value) ? signBit : 0;
  double a = std::fabs(value);
  int bias = (1 << (f.expBits - 1)) - 1;
  int minExp = 1 - bias;
  // Largest finite: every exponent bit set but one pattern (fn) or the top exponent excluded.
  uint32_t maxBiased = f.finiteOnly ? expMask : expMask - 1;
  uint32_t maxMant = f.finiteOnly ? mantMask - 1 : mantMask;
  double maxFinite = decodeMini(f, (maxBiased << f.mantBits) | maxMant);
  uint32_t overflow = f.finiteOnly ? (maxBiased << f.mantBits) | maxMant : expMask << f.mantBits;
  if (std::isinf(a))
    return sign | overflow;
  int e = 0;
  std::frexp(a, &e);
  int exp = std::max(e - 1, minExp);
  double quantum = std::ldexp(1.0, exp - f.mantBits);
  double rounded = std::nearbyint(a / quantum) * quantum; // round half to even
  if (rounded > maxFinite) {
    // Past the largest finite value by at least half a quantum: overflow.
    return sign | overflow;
  }
  if (rounded == 0)
    return sign;
  std::frexp(rounded, &e);
  exp = e - 1;
  if (exp < minExp) {
    uint32_t mant = static_cast<uint32_t>(std::ldexp(rounded, -(minExp - f.mantBits)));
    return sign | mant;
  }
  uint32_t biased = static_cast<uint32_t>(exp + bias);
  uint32_t mant = static_cast<uint32_t>(std::ldexp(rounded, -(exp - f.mantBits))) & mantMask;
  return sign | (biased << f.mantBits) | mant;
}

const MiniFloat *miniFloat(DLDataType dtype) {
  if (dtype.lanes != 1)
    return nullptr;
  if (dtype.code == kDLFloat && dtype.bits == 16)
    return &kHalf;
  if (dtype.code == kDLBfloat && dtype.bits == 16)
    return &kBfloat16;
  if (dtype.code == NTC_DL_FLOAT8_E4M3FN && dtype.bits == 8)
    return &kE4m3;
  if (dtype.code == NTC_DL_FLOAT8_E5M2 && dtype.bits == 8)
    return &kE5m2;
  return nullptr;
}

template <class T> T load(const void *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T> void store(void *p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

std::string dtypeName(DLDataType dtype) {
  for (const NamedType &t : kTypes)
    if (sameDtype(t.dtype, dtype))
      return t.name;
  return "dtype(code=" + std::to_string(dtype.code) + ", bits=" + std::to_string(dtype.bits) +
         ", lanes=" + std::to_string(dtype.lanes) + ")";
}

bool dtypeFromName(const std::string &name, DLDataType &dtype) {
  for (const NamedType &t : kTypes)
    if (name == t.name) {
      dtype = t.dtype;
      return true;
    }
  return false;
}

bool sameDtype(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

NumberKind numberKind(DLDataType dtype) {
  if (dtype.lanes != 1)
    return NumberKind::Unknown;
  if (miniFloat(dtype) || (dtype.code == kDLFloat && (dtype.bits == 32 || dtype.bits == 64)))
    return NumberKind::Float;
  bool intBits = dtype.bits == 8 || dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  if (dtype.code == kDLInt && intBits)
    return NumberKind::SignedInt;
  if (dtype.code == kDLUInt && intBits)
    return NumberKind::UnsignedInt;
  if (dtype.code == NTC_DL_BOOL && dtype.bits == 8)
    return NumberKind::Bool;
  return NumberKind::Unknown;
}

int64_t elementBytes(DLDataType dtype) { return (int64_t(dtype.bits) * dtype.lanes + 7) / 8; }

double loadAsDouble(DLDataType dtype, const void *p) {
  if (const MiniFloat *f = miniFloat(dtype))
    return decodeMini(*f, dtype.bits == 8 ? load<uint8_t>(p) : load<uint16_t>(p));
  switch (numberKind(dtype)) {
  case NumberKind::Float:
    return dtype.bits == 32 ? load<float>(p) : load<double>(p);
  case NumberKind::SignedInt:
    switch (dtype.bits) {
    case 8:
      return load<int8_t>(p);
    case 16:
      return load<int16_t>(p);
    case 32:
      return load<int32_t>(p);
    default:
      return static_cast<double>(load<int64_t>(p));
    }
  case NumberKind::UnsignedInt:
    switch (dtype.bits) {
    case 8:
      return load<uint8_t>(p);
    case 16:
      return load<uint16_t>(p);
    case 32:
      return load<uint32_t>(p);
    default:
      return static_cast<double>(load<uint64_t>(p));
    }
  case NumberKind::Bool:
    return load<uint8_t>(p) ? 1 : 0;
  case NumberKind::Unknown:
    break;
  }
  return 0;
}

void storeFromDouble(DLDataType dtype, double value, void *p) {
  if (const MiniFloat *f = miniFloat(dtype)) {
    uint32_t bits = encodeMini(*f, value);
    if (dtype.bits == 8)
      store<uint8_t>(p, static_cast<uint8_t>(bits));
    else
      store<uint16_t>(p, static_cast<uint16_t>(bits));
    return;
  }
  switch (numberKind(dtype)) {
  case NumberKind::Float:
    if (dtype.bits == 32)
      store<float>(p, static_cast<float>(value));
    else
      store<double>(p, value);
    return;
  case NumberKind::SignedInt:
    switch (dtype.bits) {
    case 8:
      return store<int8_t>(p, static_cast<int8_t>(value));
    case 16:
      return store<int16_t>(p, static_cast<int16_t>(value));
    case 32:
      return store<int32_t>(p, static_cast<int32_t>(value));
    default:
      return store<int64_t>(p, static_cast<int64_t>(value));
    }
  case NumberKind::UnsignedInt:
    switch (dtype.bits) {
    case 8:
      return store<uint8_t>(p, static_cast<uint8_t>(value));
    case 16:
      return store<uint16_t>(p, static_cast<uint16_t>(value));
    case 32:
      return store<uint32_t>(p, static_cast<uint32_t>(value));
    default:
      return store<uint64_t>(p, static_cast<uint64_t>(value));
    }
  case NumberKind::Bool:
    return store<uint8_t>(p, value != 0 ? 1 : 0);
  case NumberKind::Unknown:
    break;
  }
}

float halfToFloat(uint16_t bits) { return static_cast<float>(decodeMini(kHalf, bits)); }

uint16_t floatToHalf(float value) { return static_cast<uint16_t>(encodeMini(kHalf, value)); }

float bfloat16ToFloat(uint16_t bits) { return static_cast<float>(decodeMini(kBfloat16, bits)); }

uint16_t floatToBfloat16(float value) {
  return static_cast<uint16_t>(encodeMini(kBfloat16, value));
}

} // namespace ntc::tune
