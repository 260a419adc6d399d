//===- Shapes.h - the calls to tune for (--shapes files, --shape lines) ---===//
//
// One call per line: `matmul lhs=4096x4096 rhs=4096x4096 output=4096x4096 dtype=float16`:
// the kernel, `name=AxBxC` for each tensor parameter (a contiguous row-major tensor; `()` for
// rank 0), `name=value` for each scalar, and an optional `dtype=` that the tensors' data types
// must match. `#` starts a comment; blank lines are skipped.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_SHAPES_H
#define NTC_TUNE_SHAPES_H

#include <ntc/runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ntc::tune {

/// One line as written: syntax checked, names not yet.
struct ShapeLine {
  std::string origin; ///< "shapes.txt:3" or "--shape 2", for messages
  std::string text;   ///< the line without its comment
  std::string kernel; ///< the kernel it calls
  std::vector<std::pair<std::string, std::string>> values; ///< name=value, in order
  std::string dtype;                                       ///< dtype=, or ""
};

/// Parses one line (not blank, no comment); throws Error::at(origin, ...) on bad syntax.
ShapeLine parseShapeLine(const std::string &text, const std::string &origin);
/// Parses a whole file's text; `fileName` names the origins (`fileName:line`).
std::vector<ShapeLine> parseShapeFile(const std::string &text, const std::string &fileName);

/// The value of a scalar parameter, ready to pass to the generic call.
struct ScalarValue {
  std::string text;            ///< as written
  double value = 0;            ///< its value (integers exactly up to 2^53)
  int64_t integer = 0;         ///< its value, for integer scalars
  unsigned char bytes[8] = {}; ///< the C value the generic call reads (float, double, intN_t, bool)
};

/// A shape line checked against the kernel it calls.
struct ShapeCall {
  ShapeLine line;                          ///< where it comes from
  std::vector<std::vector<int64_t>> sizes; ///< per parameter: a tensor's sizes (empty for scalars)
  std::vector<ScalarValue> scalars;        ///< per parameter: a scalar's value (unused for tensors)
};

/// Checks `line` against the kernel's parameters: every tensor and scalar given once with the
/// kernel's rank, no unknown name, no jagged parameter, the dtype= that matches the tensors.
/// Throws Error::at(line.origin, ...).
ShapeCall resolveShape(const ShapeLine &line, const ntc_kernel_info_t &info);

/// Sizes as "4096x4096" ("()" for rank 0).
std::string formatSizes(const std::vector<int64_t> &sizes);

} // namespace ntc::tune

#endif // NTC_TUNE_SHAPES_H
