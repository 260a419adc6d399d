//===- PinPaddedExtents.cpp - run-time extents that meet constant ones ----===//
//
// A tile extent that is a run-time size is compiled for powers of two and masked (a padded
// extent). When the application broadcasts such a tile with a tile of a constant extent c
// (a filter `w.tile({-1})` against windows of 3), the two can only agree when the run-time
// extent is c: the padded extent is pinned to c, compiled for c alone, and the wrapper checks
// that every run-time extent it stands for is c.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <stdexcept>

namespace ntc::passes {

kir::Function pinPaddedExtents(const kir::Function &f) {
  kir::Function pinned = f;
  auto pin = [&](const Expr &extent, int64_t value) {
    for (kir::PaddedExtent &p : pinned.padded) {
      if (p.symbol != extent.symbolName())
        continue;
      if (p.pinned && *p.pinned != value)
        throw std::runtime_error("the run-time extent " + p.actuals.front().str() +
                                 " is broadcast with tiles of extents " +
                                 std::to_string(*p.pinned) + " and " + std::to_string(value));
      if (value > p.upperBound)
        throw std::runtime_error("the run-time extent " + p.actuals.front().str() +
                                 " is broadcast with a tile of extent " + std::to_string(value) +
                                 ", above its upper bound " + std::to_string(p.upperBound));
      p.pinned = value;
    }
  };
  kir::forEachValue(f.body, [&](const kir::Value &v) {
    // Only elementwise operations broadcast their operands to their result's shape (a dot's or
    // a transpose's operands line up with the result differently).
    using kir::ValueKind;
    if (v->kind != ValueKind::Unary && v->kind != ValueKind::Binary &&
        v->kind != ValueKind::Where && v->kind != ValueKind::Cast &&
        v->kind != ValueKind::BroadcastTo)
      return;
    const std::vector<Expr> &result = v->type.shape;
    for (const kir::Value &o : v->operands) {
      const std::vector<Expr> &shape = o->type.shape;
      for (size_t i = 0; i < shape.size() && i < result.size(); ++i) {
        const Expr &from = shape[shape.size() - 1 - i], &to = result[result.size() - 1 - i];
        if (kir::isPaddedExtent(from) && to.isConst() && to.constValue() > 1)
          pin(from, to.constValue());
      }
    }
  });
  return pinned;
}

} // namespace ntc::passes
