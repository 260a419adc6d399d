//===- Shapes.cpp - the calls to tune for ---------------------------------===//
#include "Shapes.h"

#include "Dtype.h"
#include "Util.h"

#include <cstring>
#include <set>

namespace ntc::tune {

namespace {

bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

/// Parses "4096x4096" or "()"; false when `text` is not a list of sizes.
bool parseSizes(const std::string &text, std::vector<int64_t> &sizes, std::string &why) {
  sizes.clear();
  if (text == "()")
    return true;
  for (const std::string &piece : split(text, 'x')) {
    int64_t n = 0;
    if (!parseInt(piece, n)) {
      why = "'" + text + "' is not a list of sizes like 64x128";
      return false;
    }
    if (n <= 0) {
      why = "sizes must be positive, not " + piece;
      return false;
    }
    sizes.push_back(n);
  }
  return true;
}

std::string paramNames(const ntc_kernel_info_t &info) {
  std::vector<std::string> names;
  for (int32_t i = 0; i < info.num_params; ++i)
    names.push_back(info.params[i].name);
  return join(names, ", ");
}

/// Fills `v.bytes` with the C value of a scalar of type `dtype`; false with `why` when the text
/// is not such a value.
bool scalarValue(const std::string &text, DLDataType dtype, ScalarValue &v, std::string &why) {
  v.text = text;
  NumberKind kind = numberKind(dtype);
  if (kind == NumberKind::Float) {
    if (!parseDouble(text, v.value)) {
      why = "'" + text + "' is not a number";
      return false;
    }
    if (dtype.bits == 64) {
      std::memcpy(v.bytes, &v.value, sizeof(double));
    } else {
      float f = static_cast<float>(v.value);
      std::memcpy(v.bytes, &f, sizeof f);
    }
    return true;
  }
  if (kind == NumberKind::Bool) {
    if (text == "true" || text == "1")
      v.integer = 1;
    else if (text == "false" || text == "0")
      v.integer = 0;
    else {
      why = "'" + text + "' is not true, false, 1 or 0";
      return false;
    }
    v.value = static_cast<double>(v.integer);
    v.bytes[0] = static_cast<unsigned char>(v.integer);
    return true;
  }
  if (kind == NumberKind::SignedInt || kind == NumberKind::UnsignedInt) {
    if (!parseInt(text, v.integer)) {
      why = "'" + text + "' is not an integer";
      return false;
    }
    if (kind == NumberKind::UnsignedInt && v.integer < 0) {
      why = "'" + text + "' is negative, the parameter is " + dtypeName(dtype);
      return false;
    }
    if (dtype.bits < 64) {
      int64_t lo = kind == NumberKind::SignedInt ? -(int64_t(1) << (dtype.bits - 1)) : 0;
      int64_t hi = kind == NumberKind::SignedInt ? (int64_t(1) << (dtype.bits - 1)) - 1
                                                 : (int64_t(1) << dtype.bits) - 1;
      if (v.integer < lo || v.integer > hi) {
        why = "'" + text + "' does not fit in " + dtypeName(dtype);
        return false;
      }
    }
    v.value = static_cast<double>(v.integer);
    // Little-endian: the low bytes of the int64 are the narrower integer.
    std::memcpy(v.bytes, &v.integer, static_cast<size_t>(elementBytes(dtype)));
    return true;
  }
  why = "scalars of type " + dtypeName(dtype) + " are not supported";
  return false;
}

} // namespace

ShapeLine parseShapeLine(const std::string &text, const std::string &origin) {
  ShapeLine line;
  line.origin = origin;
  line.text = trim(text);
  std::vector<std::string> words = splitBlanks(line.text);
  if (words.empty())
    throw Error::at(origin, "empty shape line");
  line.kernel = words[0];
  if (!isIdentifier(line.kernel))
    throw Error::at(origin, "expected a kernel name first, not '" + line.kernel + "'");
  std::set<std::string> seen;
  for (size_t i = 1; i < words.size(); ++i) {
    size_t eq = words[i].find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == words[i].size())
      throw Error::at(origin, "expected name=value, not '" + words[i] + "'");
    std::string name = words[i].substr(0, eq);
    std::string value = words[i].substr(eq + 1);
    if (!isIdentifier(name))
      throw Error::at(origin, "'" + name + "' is not a parameter name");
    if (!seen.insert(name).second)
      throw Error::at(origin, "'" + name + "' is given twice");
    if (name == "dtype") {
      DLDataType dtype;
      if (!dtypeFromName(value, dtype))
        throw Error::at(origin, "unknown dtype '" + value +
                                    "' (float16, bfloat16, float32, float64, int8 ... uint64, "
                                    "bool, float8_e4m3, float8_e5m2)");
      line.dtype = value;
      continue;
    }
    line.values.emplace_back(name, value);
  }
  return line;
}

std::vector<ShapeLine> parseShapeFile(const std::string &text, const std::string &fileName) {
  std::vector<ShapeLine> lines;
  std::vector<std::string> rows = split(text, '\n');
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string row = rows[i];
    size_t hash = row.find('#');
    if (hash != std::string::npos)
      row.resize(hash);
    if (trim(row).empty())
      continue;
    lines.push_back(parseShapeLine(row, fileName + ":" + std::to_string(i + 1)));
  }
  return lines;
}

ShapeCall resolveShape(const ShapeLine &line, const ntc_kernel_info_t &info) {
  ShapeCall call;
  call.line = line;
  auto n = static_cast<size_t>(info.num_params);
  call.sizes.resize(n);
  call.scalars.resize(n);
  std::vector<bool> given(n, false);
  for (const auto &[name, value] : line.values) {
    size_t index = n;
    for (size_t i = 0; i < n; ++i)
      if (name == info.params[i].name)
        index = i;
    if (index == n)
      throw Error::at(line.origin, "kernel " + line.kernel + " has no parameter '" + name +
                                       "' (parameters: " + paramNames(info) + ")");
    const ntc_param_info_t &param = info.params[index];
    given[index] = true;
    std::string why;
    switch (param.kind) {
    case NTC_PARAM_TENSOR:
      if (!parseSizes(value, call.sizes[index], why))
        throw Error::at(line.origin, name + ": " + why);
      if (static_cast<int32_t>(call.sizes[index].size()) != param.ndim)
        throw Error::at(line.origin, name + " has rank " + std::to_string(param.ndim) +
                                         " in kernel " + line.kernel + ", '" + value + "' has " +
                                         std::to_string(call.sizes[index].size()) + " sizes");
      break;
    case NTC_PARAM_SCALAR:
      if (!scalarValue(value, param.dtype, call.scalars[index], why))
        throw Error::at(line.origin, name + ": " + why);
      break;
    default:
      throw Error::at(line.origin, "kernel " + line.kernel + " has jagged parameter '" + name +
                                       "': ntc-tune does not tune kernels with jagged tensors");
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const ntc_param_info_t &param = info.params[i];
    if (param.kind == NTC_PARAM_JAGGED || param.kind == NTC_PARAM_OFFSETS)
      throw Error::at(line.origin, "kernel " + line.kernel + " has jagged parameter '" +
                                       param.name +
                                       "': ntc-tune does not tune kernels with jagged tensors");
    if (!given[i])
      throw Error::at(line.origin,
                      std::string(param.kind == NTC_PARAM_TENSOR ? "tensor" : "scalar") + " '" +
                          param.name + "' of kernel " + line.kernel + " is missing" +
                          (param.kind == NTC_PARAM_TENSOR ? " (name=AxB...)" : " (name=value)"));
  }
  if (!line.dtype.empty()) {
    // dtype= names the type of the floating-point tensors (of every tensor when none is).
    bool anyFloat = false;
    for (size_t i = 0; i < n; ++i)
      anyFloat |= info.params[i].kind == NTC_PARAM_TENSOR &&
                  numberKind(info.params[i].dtype) == NumberKind::Float;
    for (size_t i = 0; i < n; ++i) {
      const ntc_param_info_t &param = info.params[i];
      if (param.kind != NTC_PARAM_TENSOR ||
          (anyFloat && numberKind(param.dtype) != NumberKind::Float))
        continue;
      if (dtypeName(param.dtype) != line.dtype)
        throw Error::at(line.origin, "dtype=" + line.dtype + " but " + param.name + " of kernel " +
                                         line.kernel + " is " + dtypeName(param.dtype));
    }
  }
  return call;
}

std::string formatSizes(const std::vector<int64_t> &sizes) {
  if (sizes.empty())
    return "()";
  std::vector<std::string> pieces;
  for (int64_t s : sizes)
    pieces.push_back(std::to_string(s));
  return join(pieces, "x");
}

} // namespace ntc::tune
