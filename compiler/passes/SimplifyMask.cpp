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
    // A term that always holds is dropped; one that fails masks everything (kept). A term
    // identical to an earlier one (a tile's bound and its source's bound) is dropped too.
    bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const MaskTerm &k) {
      return k.value == t.value && k.extent == t.extent && k.checkLower == t.checkLower &&
             k.checkUpper == t.checkUpper;
    });
    if ((t.checkLower || t.checkUpper) && !duplicate)
      kept.push_back(t);
  }
  access.mask = std::move(kept);
}

} // namespace ntc::passes
