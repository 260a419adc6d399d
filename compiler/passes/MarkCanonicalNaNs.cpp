//===- MarkCanonicalNaNs.cpp - narrowings that need no NaN-payload test ---===//
//
// The device library narrows float32 tiles to float16/bfloat16 as ntc::cpu does, NaN payloads
// included: a NaN keeps its sign and the top bits of its payload. The packed hardware
// conversion (cvt.rn.f16x2.f32) writes the canonical NaN instead, so a narrowing first tests its
// whole tile for NaN and takes the packed path only without one (detail::narrow_pairs): in
// attention's loop, a comparison per two elements and a branch per six.
//
// The test is needless where the operand can hold no NaN but the GPU's canonical one
// (0x7fffffff, which both conversions narrow to 0x7fff): the special-function unit's results
// (ex2.approx, the device library's exp2) are canonical, and so are values without any NaN
// (constants other than NaN). This pass marks the casts from float32 to a 16-bit float whose
// operand is such a value, a local all of whose definitions are, or a `where` between two of
// them (ValueNode::canonicalNaN); the printer calls ntc::dev::cast_canonical_nan, which
// narrows in packed pairs at once. Anything else (loads, arithmetic, which ptxas may fold into
// its operand as `x * 1` or `x - 0`, reductions, products) keeps the test. GPU only; after
// mark-dying-operands.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <cmath>
#include <map>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// The values assigned to each local of `body` (definitions and assignments, nested bodies
/// included).
void collectDefinitions(const std::vector<Stmt> &body,
                        std::map<std::string, std::vector<Value>> &definitions) {
  forEachStmt(body, [&](const Stmt &s) {
    if ((s->kind == StmtKind::Define || s->kind == StmtKind::Assign) && s->value)
      definitions[s->var].push_back(s->value);
    return true;
  });
}

/// Decides which values hold no NaN but the canonical one.
class CanonicalNaNs {
public:
  explicit CanonicalNaNs(const std::vector<Stmt> &body) { collectDefinitions(body, definitions_); }

  /// True when every NaN `v` can hold is the canonical one.
  bool canonical(const Value &v) {
    switch (v->kind) {
    case ValueKind::Constant:
    case ValueKind::Full:
      return !std::isnan(v->number);
    case ValueKind::Unary:
      return v->op == "exp2" && v->type.dtype == DType::Float32;
    case ValueKind::Where:
      return canonical(v->operands[1]) && canonical(v->operands[2]);
    case ValueKind::ConvertLayout:
    case ValueKind::BroadcastTo:
    case ValueKind::ExpandDims:
      return v->type.dtype == v->operands[0]->type.dtype && canonical(v->operands[0]);
    case ValueKind::Local:
      return canonicalLocal(v->local);
    default:
      return false;
    }
  }

private:
  /// True when every definition of `local` is canonical (a local defined in terms of itself,
  /// as a loop-carried value, counts as canonical in that definition).
  bool canonicalLocal(const std::string &local) {
    if (auto known = decided_.find(local); known != decided_.end())
      return known->second;
    if (!visiting_.insert(local).second)
      return true; // its other definitions decide
    auto it = definitions_.find(local);
    bool all = it != definitions_.end();
    if (all)
      for (const Value &d : it->second)
        all = all && canonical(d);
    visiting_.erase(local);
    if (visiting_.empty())
      decided_[local] = all; // not while an enclosing local's answer is still assumed
    return all;
  }

  std::map<std::string, std::vector<Value>> definitions_;
  std::map<std::string, bool> decided_;
  std::set<std::string> visiting_;
};

/// True for a 16-bit float type.
bool isHalfFloat(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

} // namespace

kir::Function markCanonicalNaNs(const kir::Function &laidOut) {
  CanonicalNaNs nans(laidOut.body);
  Function out = laidOut;
  out.body = markValues(
      laidOut.body,
      [&](const Value &node) {
        return node->kind == ValueKind::Cast && isHalfFloat(node->type.dtype) &&
               node->operands[0]->type.dtype == DType::Float32 && nans.canonical(node->operands[0]);
      },
      [](ValueNode &cast) { cast.canonicalNaN = true; });
  return out;
}

} // namespace ntc::passes
