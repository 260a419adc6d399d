//===- Layout.h - nested tile layouts (arranged tensors) ------------------===//
//
// An arranged tensor is a list of levels; level 0 is the launch grid, the last level is
// the tile one program computes on. Every dimension of every level owns an index
// variable (a symbol). The layout maps the index variables of all levels to the source
// coordinates (`coords`) and to a list of bounds `0 <= value < extent` whose conjunction
// is the access mask, exactly as NineToothed's derivation DAG does, but composed eagerly
// and immutably: each operation returns a new Layout, so one intermediate can be derived
// any number of times.
//
// Operations act on the *focused* level: a fresh source has focus 0 and `dtype()`
// returns the same layout focused one level deeper, so `t.dtype() = t.dtype().squeeze(0)`
// is `t = t.withInner(t.dtype().squeeze(0))`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/SymExpr.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ntc {

/// A user error in a layout operation (bad rank, bad dimension...). The front end adds
/// the source location.
struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One dimension of a level: its index variable, its extent and an optional axis name.
struct Dim {
  Expr index;
  Expr extent;
  std::string axis;
};

/// One level of an arranged tensor.
struct Level {
  std::vector<Dim> dims;
  /// The extents of the dimensions, in order.
  std::vector<Expr> shape() const;
};

/// The condition 0 <= value < extent; the mask of an access is the conjunction of all.
struct IndexBound {
  Expr value;
  Expr extent;
};

/// An optional integer argument (NumPy's None when absent).
/// A condition on an extent that an arrangement needs but that depends on run-time sizes:
/// `lo <= value` (and `value <= hi` when given). The generated wrapper checks it; `eval`
/// rejects values that break it.
struct ExtentCheck {
  Expr value;
  int64_t lo = 0;
  std::optional<int64_t> hi;
  std::string what; ///< e.g. "squeeze(0): the extent ⌈x_size_0/4⌉"
  /// "must be 1", "must be at least 1"...
  std::string requirement() const;
};

using OptExpr = std::optional<Expr>;

/// An immutable arranged tensor.
class Layout {
public:
  /// A source tensor `name` of the given shape: one level whose indices are the source
  /// coordinates.
  static Layout source(const std::string &name, const std::vector<Expr> &shape);

  /// A fresh source whose dimension `dim` is jagged: its coordinate starts at `start` (the
  /// batch entry's first row) and its bound is `length` (the entry's own length) instead of
  /// the extent, which stays the longest length. Only on a fresh source.
  Layout jagged(size_t dim, const Expr &start, const Expr &length) const;

  /// Name of the source tensor (the arrangement's parameter).
  const std::string &sourceName() const { return sourceName_; }
  /// Extents of the source tensor.
  const std::vector<Expr> &sourceShape() const { return sourceShape_; }
  /// All levels, outermost first (independent of the focus).
  const std::vector<Level> &levels() const { return levels_; }
  /// Source coordinate of each source dimension as a function of the index variables.
  const std::vector<Expr> &coords() const { return coords_; }
  /// Bounds whose conjunction is the mask.
  const std::vector<IndexBound> &bounds() const { return bounds_; }
  /// Conditions on run-time extents that the operations so far need.
  const std::vector<ExtentCheck> &checks() const { return checks_; }
  /// The level that operations apply to.
  size_t focus() const { return focus_; }

  /// Extents of the focused level.
  std::vector<Expr> shape() const { return levels_[focus_].shape(); }
  /// Number of dimensions of the focused level.
  size_t ndim() const { return levels_[focus_].dims.size(); }
  /// Extent of dimension `d` of the focused level (negative counts from the end).
  Expr shape(int64_t d) const;
  /// The same tensor focused on the next level in.
  Layout dtype() const;
  /// Replace the levels below the focus by those of `inner`, which must have been derived
  /// from this->dtype().
  Layout withInner(const Layout &inner) const;

  /// Split each dimension into (number of tiles) x (tile); the tile becomes a new level.
  /// A tile extent of -1 means the whole extent; absent strides default to the tile
  /// shape and absent dilations to 1.
  Layout tile(const std::vector<Expr> &tileShape, const std::vector<Expr> &strides = {},
              const std::vector<Expr> &dilation = {}, bool floorMode = false) const;
  /// Broadcast size-1 dimensions to the given extents (-1 keeps a dimension).
  Layout expand(const std::vector<Expr> &shape) const;
  /// Remove size-1 dimensions.
  Layout squeeze(const std::vector<int64_t> &dims) const;
  /// Insert a size-1 dimension before position `dim`.
  Layout unsqueeze(int64_t dim) const;
  /// Reorder the dimensions: new dimension i is old dimension dims[i].
  Layout permute(const std::vector<int64_t> &dims) const;
  /// Merge dimensions [start, end) into one (row-major); `end` is exclusive.
  Layout flatten(std::optional<int64_t> start = std::nullopt,
                 std::optional<int64_t> end = std::nullopt) const;
  /// Merge the focused level and all levels below it into one level.
  Layout ravel() const;
  /// Grow each dimension by (left, right) masked elements.
  Layout pad(const std::vector<std::pair<Expr, Expr>> &padding) const;
  /// NumPy-style basic slicing of one dimension.
  Layout slice(int64_t dim, OptExpr start, OptExpr stop, OptExpr step) const;
  /// Name the dimensions of the focused level.
  Layout axes(const std::vector<std::string> &names) const;
  /// Rename axes on every level (names absent from `names` stay).
  Layout renameAxes(const std::map<std::string, std::string> &names) const;

  /// Substitute symbols (sizes, meta-parameters) by expressions everywhere.
  Layout substitute(const std::map<std::string, Expr> &values) const;

  /// The levels as "(a, b) -> (c,) -> (d, e)".
  std::string str() const;

  /// NineToothed's eval: with every symbol bound, the index array whose shape is all
  /// levels' extents concatenated, holding the source linear index (row-major) or -1
  /// where masked. Throws LayoutError when a symbol is unbound.
  std::vector<int64_t> eval(const std::map<std::string, int64_t> &values,
                            std::vector<int64_t> &arrayShape) const;

private:
  Layout() = default;
  /// A fresh index variable for a dimension of the given extent.
  static Expr newIndex(const Expr &extent);
  /// Normalise a possibly negative dimension of the focused level.
  int64_t normalizeDim(int64_t d, size_t rank, const char *op) const;
  /// Apply index substitutions to coords and bounds.
  void replaceIndices(const std::map<std::string, Expr> &subst);
  /// Record the bounds of freshly created dimensions.
  void addBounds(const std::vector<Dim> &dims);
  /// Require lo <= value (<= hi): nothing when provable, a LayoutError naming `what` when
  /// provably false, else an ExtentCheck for the wrapper.
  void require(const Expr &value, int64_t lo, std::optional<int64_t> hi, const std::string &what);

  std::string sourceName_;
  std::vector<Expr> sourceShape_;
  std::vector<Level> levels_;
  std::vector<Expr> coords_;
  std::vector<IndexBound> bounds_;
  std::vector<ExtentCheck> checks_;
  size_t focus_ = 0;
};

/// Python tuple spelling of a shape: "()", "(3,)", "(2, 4)".
std::string shapeString(const std::vector<Expr> &shape);

/// Render a flat row-major array of the given shape as a JSON nested list.
std::string jsonNestedList(const std::vector<int64_t> &values, const std::vector<int64_t> &shape);

} // namespace ntc
