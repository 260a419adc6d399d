//===- CpuDialect.cpp - how the CPU tile library spells things ------------===//
#include "codegen/cpu/CpuDialect.h"

#include "codegen/Codegen.h"
#include "codegen/Names.h"

namespace ntc::codegen {

namespace {
std::string shapeValue(const std::vector<int64_t> &shape) {
  std::string s = "ntc::cpu::Shape{";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "}";
}
} // namespace

std::string CpuDialect::ns() const { return "ntc::cpu"; }
std::string CpuDialect::element(DType t) const { return cppElementType(t); }
std::string CpuDialect::laneIndexType() const { return "int64_t"; }

std::string CpuDialect::creation(const std::string &fn, const std::string &element,
                                 const std::vector<int64_t> &shape,
                                 const kir::LayoutRef &) const {
  if (fn == "scalar")
    return "<" + element + ">(";
  return "<" + element + ">(" + shapeValue(shape) + ", ";
}

std::string CpuDialect::scratch() const { return ""; }
bool CpuDialect::explicitBroadcast() const { return false; }

std::string CpuDialect::withAxis(const std::string &op, const std::string &x, int64_t axis,
                                 bool) const {
  return "ntc::cpu::" + op + "(" + x + ", " + std::to_string(axis) + ")";
}

std::string CpuDialect::broadcastTo(const std::string &x, const std::vector<int64_t> &shape) const {
  return "ntc::cpu::broadcast_to(" + x + ", " + shapeValue(shape) + ")";
}

std::string CpuDialect::prologue(const kir::Function &f, const std::string &name) const {
  return "template <class Index> void " + name + "(const " + argsStructName(f.spec) +
         " &ntc_args, int64_t ntc_program) {\n";
}

std::string CpuDialect::epilogue() const { return "}\n\n"; }

} // namespace ntc::codegen
