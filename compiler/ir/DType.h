//===- DType.h - element types --------------------------------------------===//
#pragma once

#include <optional>
#include <string>

namespace ntc {

/// Element types of tensors and tiles (the DSL's nt::DType enumerators).
enum class DType {
  Float16,
  BFloat16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Bool,
  Float8E4M3,
  Float8E5M2,
};

/// The DSL spelling ("float16", "bool", ...).
const char *dtypeName(DType t);
/// Parse a DSL enumerator name ("float16", "bool_", ...).
std::optional<DType> dtypeFromName(const std::string &name);
/// Size of one element in bits.
int dtypeBits(DType t);
/// Size of one element in bytes as stored in memory (bool: 1).
int dtypeBytes(DType t);
/// True for the floating-point types (including 8- and 16-bit ones).
bool isFloat(DType t);
/// True for signed and unsigned integer types (not bool).
bool isInteger(DType t);
/// True for unsigned integer types.
bool isUnsigned(DType t);

} // namespace ntc
