//===- DType.cpp - element types ------------------------------------------===//
#include "ir/DType.h"

#include <algorithm>

namespace ntc {

namespace {
struct DTypeInfo {
  DType type;
  const char *name;
  int bits;
};
constexpr DTypeInfo kTypes[] = {
    {DType::Float16, "float16", 16},
    {DType::BFloat16, "bfloat16", 16},
    {DType::Float32, "float32", 32},
    {DType::Float64, "float64", 64},
    {DType::Int8, "int8", 8},
    {DType::Int16, "int16", 16},
    {DType::Int32, "int32", 32},
    {DType::Int64, "int64", 64},
    {DType::UInt8, "uint8", 8},
    {DType::UInt16, "uint16", 16},
    {DType::UInt32, "uint32", 32},
    {DType::UInt64, "uint64", 64},
    {DType::Bool, "bool", 8},
    {DType::Float8E4M3, "float8_e4m3", 8},
    {DType::Float8E5M2, "float8_e5m2", 8},
};
} // namespace

const char *dtypeName(DType t) { return kTypes[static_cast<int>(t)].name; }

std::optional<DType> dtypeFromName(const std::string &name) {
  std::string n = name == "bool_" ? "bool" : name;
  for (const DTypeInfo &i : kTypes)
    if (n == i.name)
      return i.type;
  return std::nullopt;
}

int dtypeBits(DType t) { return kTypes[static_cast<int>(t)].bits; }
int dtypeBytes(DType t) { return std::max(1, dtypeBits(t) / 8); }

bool isFloat(DType t) {
  switch (t) {
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float32:
  case DType::Float64:
  case DType::Float8E4M3:
  case DType::Float8E5M2:
    return true;
  default:
    return false;
  }
}

bool isInteger(DType t) { return !isFloat(t) && t != DType::Bool; }

bool isUnsigned(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

} // namespace ntc
