//===- Dtype.h - DLPack data types: names, sizes, conversions -------------===//
#ifndef NTC_TUNE_DTYPE_H
#define NTC_TUNE_DTYPE_H

#include <ntc/runtime.h>

#include <cstdint>
#include <string>

namespace ntc::tune {

/// What kind of number a data type holds.
enum class NumberKind { Float, SignedInt, UnsignedInt, Bool, Unknown };

/// The DSL's name of a one-lane type (float16, bfloat16, float32, float64, int8 … uint64,
/// bool, float8_e4m3, float8_e5m2), or "dtype(code=C, bits=B, lanes=L)".
std::string dtypeName(DLDataType dtype);
/// The type a DSL name stands for; false for an unknown name.
bool dtypeFromName(const std::string &name, DLDataType &dtype);
/// What kind of number `dtype` holds (Unknown for vector or unsupported types).
NumberKind numberKind(DLDataType dtype);
/// Bytes per element.
int64_t elementBytes(DLDataType dtype);
/// True when code, bits and lanes agree.
bool sameDtype(DLDataType a, DLDataType b);

/// The element at `p` as a double (floats of every width, integers, bool).
double loadAsDouble(DLDataType dtype, const void *p);
/// Stores `value` (rounded to nearest even for floats, truncated for integers) at `p`.
void storeFromDouble(DLDataType dtype, double value, void *p);

/// IEEE binary16 bits to float.
float halfToFloat(uint16_t bits);
/// float to IEEE binary16 bits (round to nearest even).
uint16_t floatToHalf(float value);
/// bfloat16 bits to float.
float bfloat16ToFloat(uint16_t bits);
/// float to bfloat16 bits (round to nearest even).
uint16_t floatToBfloat16(float value);

} // namespace ntc::tune

#endif // NTC_TUNE_DTYPE_H
