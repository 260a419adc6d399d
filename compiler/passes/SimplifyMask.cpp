//===- SimplifyMask.cpp - drop mask terms that always hold ----------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

void simplifyMask(Access &access, const GridInfo &grid, const kir::Function &f, int param) {
  std::vector<MaskTerm> kept;
  for (MaskTerm t : access.mask) {
    Interval r = t.value.range();
    if (r.lo && *r.lo >= 0)
      t.checkLower = false;
    if (provablyLess(t.value, t.extent))
      t.checkUpper = false;
    // A program coordinate is inside its own grid dimension by construction.
    if (t.value.kind() == ExprKind::Symbol)
      for (size_t d = 0; d < grid.extents.size(); ++d)
        if (t.value.symbolName() == programCoordinate(d) && t.extent == grid.extents[d])
          t.checkUpper = false;
    // A constant term that holds is dropped; one that fails masks everything (kept).
    if (t.checkLower || t.checkUpper)
      kept.push_back(t);
  }
  access.mask = std::move(kept);
}

} // namespace ntc::passes
