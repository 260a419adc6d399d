//===- NamedAxes.h - lower named-axis arrangements ------------------------===//
//
// lower-named-axes: NineToothed's named-layout rule. A tensor is *named* when every dimension
// of its outermost level carries an axis name (`x.axes("m", "k").tile({BM, BK})`). The axes
// of the named tensors the application writes are the program axes G, in the writers' order.
// Every other named tensor is rewritten into the classic arrangement with Layout's own
// operations:
//
//   * an axis in G it has is indexed by the program (kept in level 0),
//   * an axis in G it lacks is broadcast (unsqueeze + expand to the writer's extent),
//   * an axis it has that is not in G becomes an iterated level inserted between level 0
//     and the tile (tile({1 | -1, ...}) + squeeze), several in the tensor's own order,
//
// and level 0 is permuted to G's order. Finally a program axis tiled by the constant 1 is
// dropped from the tile (the classic bmm's `tile({1, BM, BK})` + `dtype().squeeze(0)`), unless
// that would leave the tile without dimensions. So `lhs.axes("m", "k").tile({BM, BK})` written
// beside `output.axes("m", "n").tile({BM, BN})` becomes exactly
// `lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output.shape(1)})` + `dtype().squeeze(0)`.
// Kernels without named tensors are left unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

#include <string>
#include <utility>
#include <vector>

namespace ntc::passes {

/// A named-axis problem provable at compile time. `param` is the arranged parameter the
/// error is about (-1: the kernel as a whole); each note names another arranged parameter.
struct NamedAxesError {
  std::string message;
  int param = -1;
  std::vector<std::pair<int, std::string>> notes;
};

/// Lower the named tensors of `spec` in place. `written[i]` tells whether the application
/// assigns to arranged parameter i (missing entries count as not written). Returns the
/// problems found; when it returns any, `spec` is left unchanged.
std::vector<NamedAxesError> lowerNamedAxes(KernelSpec &spec, const std::vector<bool> &written);

/// The axis names of level 0 of `layout` when every dimension has one (a named tensor);
/// empty otherwise (also for a level without dimensions).
std::vector<std::string> namedAxes(const Layout &layout);

} // namespace ntc::passes
