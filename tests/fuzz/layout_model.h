//===- layout_model.h - a brute-force model of arranged tensors ------------===//
//
// The reference that fuzz_layout compares ntc::Layout with. It keeps no expressions: a layout
// is its levels' (signed) extents, the focused level, and for every operation so far a map
// from an index tuple of the layout after it (all levels' indices concatenated) back to an
// index tuple of the layout before it. Evaluating a position walks the maps back to the
// source; the position is masked (-1) as soon as one tuple on the way leaves its extents
// (0 <= index < extent): NineToothed's mask, the conjunction of every node's bounds
// (docs/dsl.md). ntc's decisions where NineToothed has none
// (docs/decisions.md) are followed:
//   * negative dimensions count from the end; flatten's end is exclusive;
//   * expand and squeeze need an extent of 1, and expand an extent of -1 or at least 0;
//     expanding a constant extent to itself keeps the dimension;
//   * tile sizes other than -1, explicit strides other than -1, and dilations must be >= 1;
//     a stride that comes from the tile size (-1 or absent) must be >= 1 when the extent is a
//     compile-time constant (ntc rejects tile({-1}) of a constant extent 0; with a run-time
//     extent the model leaves the zero stride undefined);
//   * slice bounds are clamped like NumPy when the extent is a compile-time constant, and a
//     negative slice length with compile-time bounds becomes 0;
//   * extents can be negative (pad, floor-mode tiles, slices of run-time extents): they are
//     kept signed, and an array dimension of extent e has max(e, 0) positions.
// "Compile-time constant" is a fact about ntc's expressions (size symbols or constants), which
// the caller passes in.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ntc::fuzz {

enum class OpKind {
  Tile,
  Expand,
  Squeeze,
  Unsqueeze,
  Permute,
  Flatten,
  Ravel,
  Pad,
  Slice,
  Dtype,
  Up
};

/// One layout operation and its arguments.
struct Operation {
  OpKind kind = OpKind::Ravel;
  std::vector<int64_t> a, b, c;   ///< tile: sizes, strides, dilation; expand: shape;
                                  ///< squeeze, permute: dims; pad: left (a) and right (b)
  std::optional<int64_t> x, y, z; ///< flatten: start, end; slice: start, stop, step
  int64_t n = 0;                  ///< unsqueeze, slice: the dimension
  bool flag = false;              ///< tile: floor mode
};

/// Thrown for a case the model does not define (the input is then skipped).
struct ModelUndefined : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
inline int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

class ModelLayout {
public:
  using Tuple = std::vector<int64_t>;
  using Levels = std::vector<std::vector<int64_t>>;

  Levels levels;    ///< signed extents of every level
  size_t focus = 0; ///< the level operations apply to

  static ModelLayout source(const std::vector<int64_t> &sizes) {
    ModelLayout m;
    m.levels = {sizes};
    m.sourceSizes_ = sizes;
    return m;
  }

  /// Applies `op`; false when it is rejected. `constant[d]` says whether ntc's extent of
  /// dimension d of the focused level is a compile-time constant.
  bool apply(const Operation &op, const std::vector<bool> &constant, bool &skip) {
    switch (op.kind) {
    case OpKind::Tile:
      return tile(op, constant);
    case OpKind::Expand:
      return expand(op.a, constant);
    case OpKind::Squeeze:
      return squeeze(op.a);
    case OpKind::Unsqueeze:
      return unsqueeze(op.n);
    case OpKind::Permute:
      return permute(op.a);
    case OpKind::Flatten:
      return flatten(op.x, op.y);
    case OpKind::Ravel: {
      std::vector<int64_t> merged;
      for (size_t i = focus; i < levels.size(); ++i)
        merged.insert(merged.end(), levels[i].begin(), levels[i].end());
      levels.resize(focus);
      levels.push_back(merged);
      return true; // the index tuples do not change
    }
    case OpKind::Pad:
      return pad(op.a, op.b);
    case OpKind::Slice:
      return slice(op.n, op.x, op.y, op.z, constant);
    case OpKind::Dtype:
      if (focus + 1 >= levels.size())
        return false;
      ++focus;
      return true;
    case OpKind::Up:
      if (focus == 0)
        return false;
      --focus;
      return true;
    }
    return false;
  }

  /// Extents of the index array: every level's, clamped at 0.
  std::vector<int64_t> arrayShape() const {
    std::vector<int64_t> s;
    for (const auto &level : levels)
      for (int64_t e : level)
        s.push_back(std::max<int64_t>(e, 0));
    return s;
  }

  /// The index array: source linear index (row-major) or -1 where masked.
  std::vector<int64_t> eval() const {
    std::vector<int64_t> shape = arrayShape();
    // The caller keeps arrays small, but a 0 may follow huge extents.
    int64_t total = std::count(shape.begin(), shape.end(), 0) ? 0 : 1;
    for (int64_t n : shape)
      total *= n;
    std::vector<int64_t> result;
    Tuple pos(shape.size(), 0);
    for (int64_t flat = 0; flat < total; ++flat) {
      result.push_back(sourceIndex(pos));
      for (size_t i = shape.size(); i-- > 0;) {
        if (++pos[i] < shape[i])
          break;
        pos[i] = 0;
      }
    }
    return result;
  }

  std::string str() const {
    std::string s;
    for (size_t i = 0; i < levels.size(); ++i) {
      s += i ? " -> (" : "(";
      for (size_t d = 0; d < levels[i].size(); ++d)
        s += (d ? ", " : "") + std::to_string(levels[i][d]);
      s += levels[i].size() == 1 ? ",)" : ")";
    }
    return s;
  }

private:
  /// One operation: the flat extents before it and the map back.
  struct Step {
    std::vector<int64_t> before;
    std::function<Tuple(const Tuple &)> back;
  };

  std::vector<int64_t> sourceSizes_;
  std::vector<Step> steps_;

  size_t offset() const { // position of the focused level's first index in a tuple
    size_t o = 0;
    for (size_t i = 0; i < focus; ++i)
      o += levels[i].size();
    return o;
  }
  std::vector<int64_t> flat() const {
    std::vector<int64_t> f;
    for (const auto &level : levels)
      f.insert(f.end(), level.begin(), level.end());
    return f;
  }
  /// Records a step whose map rewrites the focused level's indices: `f(indices of the new
  /// focused level) -> indices of the old one`; `newRank` is the new level's rank.
  void record(size_t newRank, std::function<Tuple(const Tuple &)> f) {
    size_t o = offset();
    steps_.push_back({flat(), [o, newRank, f](const Tuple &after) {
                        Tuple mid(after.begin() + o, after.begin() + o + newRank);
                        Tuple old = f(mid);
                        Tuple before(after.begin(), after.begin() + o);
                        before.insert(before.end(), old.begin(), old.end());
                        before.insert(before.end(), after.begin() + o + newRank, after.end());
                        return before;
                      }});
  }

  int64_t sourceIndex(Tuple pos) const {
    for (size_t s = steps_.size(); s-- > 0;) {
      pos = steps_[s].back(pos);
      const auto &extents = steps_[s].before;
      for (size_t i = 0; i < pos.size(); ++i)
        if (pos[i] < 0 || pos[i] >= extents[i])
          return -1;
    }
    int64_t linear = 0;
    for (size_t d = 0; d < sourceSizes_.size(); ++d)
      linear = linear * sourceSizes_[d] + pos[d];
    return linear;
  }

  /// A dimension index counted from the end when negative; false when out of range.
  static bool normalize(int64_t d, size_t rank, int64_t &n) {
    n = d < 0 ? d + int64_t(rank) : d;
    return n >= 0 && n < int64_t(rank);
  }

  bool tile(const Operation &op, const std::vector<bool> &constant) {
    const std::vector<int64_t> &level = levels[focus];
    const size_t r = level.size();
    if (op.a.size() != r || (!op.b.empty() && op.b.size() != r) ||
        (!op.c.empty() && op.c.size() != r))
      return false;
    std::vector<int64_t> outerExt, innerExt, S, D;
    for (size_t d = 0; d < r; ++d) {
      const int64_t n = level[d];
      int64_t t = op.a[d];
      if (t != -1 && t < 1)
        return false;
      if (t == -1)
        t = n;
      int64_t s = op.b.empty() || op.b[d] == -1 ? t : op.b[d];
      if (s < 1) {
        const bool fromTile = op.b.empty() || op.b[d] == -1;
        if (!fromTile || constant[d])
          return false;
        throw ModelUndefined("tile({-1}) of a run-time extent 0: stride 0");
      }
      const int64_t dil = op.c.empty() ? 1 : op.c[d];
      if (dil < 1)
        return false;
      const int64_t span = n - dil * (t - 1) - 1;
      const int64_t count = (op.flag ? floorDiv(span, s) : -floorDiv(-span, s)) + 1;
      outerExt.push_back(count);
      innerExt.push_back(t);
      S.push_back(s);
      D.push_back(dil);
    }
    record(2 * r, [r, S, D](const Tuple &i) {
      Tuple old(r);
      for (size_t d = 0; d < r; ++d)
        old[d] = i[d] * S[d] + i[r + d] * D[d];
      return old;
    });
    levels[focus] = outerExt;
    levels.insert(levels.begin() + focus + 1, innerExt);
    return true;
  }

  bool expand(const std::vector<int64_t> &shape, const std::vector<bool> &constant) {
    std::vector<int64_t> &level = levels[focus];
    if (shape.size() != level.size())
      return false;
    std::vector<int64_t> result = level;
    std::vector<bool> kept(level.size(), true);
    for (size_t d = 0; d < level.size(); ++d) {
      if (shape[d] == -1 || (constant[d] && shape[d] == level[d]))
        continue;
      if (level[d] != 1 || shape[d] < 0)
        return false;
      result[d] = shape[d];
      kept[d] = false;
    }
    record(level.size(), [kept](const Tuple &i) {
      Tuple old(i.size());
      for (size_t d = 0; d < i.size(); ++d)
        old[d] = kept[d] ? i[d] : 0;
      return old;
    });
    levels[focus] = result;
    return true;
  }

  bool squeeze(const std::vector<int64_t> &dims) {
    const std::vector<int64_t> &level = levels[focus];
    std::vector<bool> drop(level.size(), false);
    for (int64_t d : dims) {
      int64_t n;
      if (!normalize(d, level.size(), n) || level[n] != 1 || drop[n])
        return false;
      drop[n] = true;
    }
    std::vector<int64_t> result;
    for (size_t d = 0; d < level.size(); ++d)
      if (!drop[d])
        result.push_back(level[d]);
    record(result.size(), [drop](const Tuple &i) {
      Tuple old;
      size_t next = 0;
      for (bool dropped : drop)
        old.push_back(dropped ? 0 : i[next++]);
      return old;
    });
    levels[focus] = result;
    return true;
  }

  bool unsqueeze(int64_t dim) {
    std::vector<int64_t> &level = levels[focus];
    int64_t n;
    if (!normalize(dim, level.size() + 1, n))
      return false;
    record(level.size() + 1, [n](const Tuple &i) {
      Tuple old = i;
      old.erase(old.begin() + n);
      return old;
    });
    level.insert(level.begin() + n, 1);
    return true;
  }

  bool permute(const std::vector<int64_t> &dims) {
    const std::vector<int64_t> &level = levels[focus];
    if (dims.size() != level.size())
      return false;
    std::vector<int64_t> p;
    std::vector<bool> seen(level.size(), false);
    for (int64_t d : dims) {
      int64_t n;
      if (!normalize(d, level.size(), n) || seen[n])
        return false;
      seen[n] = true;
      p.push_back(n);
    }
    std::vector<int64_t> result;
    for (int64_t n : p)
      result.push_back(level[n]);
    record(level.size(), [p](const Tuple &i) {
      Tuple old(i.size());
      for (size_t k = 0; k < p.size(); ++k)
        old[p[k]] = i[k];
      return old;
    });
    levels[focus] = result;
    return true;
  }

  bool flatten(std::optional<int64_t> start, std::optional<int64_t> end) {
    const std::vector<int64_t> &level = levels[focus];
    const int64_t rank = int64_t(level.size());
    int64_t s = start.value_or(0), e = end.value_or(rank);
    if (s < 0)
      s += rank;
    if (e < 0)
      e += rank;
    if (s < 0 || e > rank || s >= e)
      return false;
    int64_t merged = 1;
    for (int64_t d = s; d < e; ++d)
      if (__builtin_mul_overflow(merged, level[d], &merged))
        return false; // ntc reports ArithmeticOverflow
    std::vector<int64_t> extents(level.begin(), level.end());
    record(size_t(rank - (e - s) + 1), [s, e, extents](const Tuple &i) {
      Tuple old(i.begin(), i.begin() + s);
      Tuple group(size_t(e - s));
      int64_t m = i[s], stride = 1;
      for (int64_t d = e - 1; d >= s; --d) {
        int64_t q = floorDiv(m, stride);
        group[d - s] = d == s ? q : floorMod(q, extents[d]);
        stride *= extents[d];
      }
      old.insert(old.end(), group.begin(), group.end());
      old.insert(old.end(), i.begin() + s + 1, i.end());
      return old;
    });
    std::vector<int64_t> result(level.begin(), level.begin() + s);
    result.push_back(merged);
    result.insert(result.end(), level.begin() + e, level.end());
    levels[focus] = result;
    return true;
  }

  bool pad(const std::vector<int64_t> &left, const std::vector<int64_t> &right) {
    std::vector<int64_t> &level = levels[focus];
    if (left.size() != level.size())
      return false;
    record(level.size(), [left](const Tuple &i) {
      Tuple old(i.size());
      for (size_t d = 0; d < i.size(); ++d)
        old[d] = i[d] - left[d];
      return old;
    });
    for (size_t d = 0; d < level.size(); ++d)
      level[d] += left[d] + right[d];
    return true;
  }

  bool slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
             std::optional<int64_t> step, const std::vector<bool> &constant) {
    std::vector<int64_t> &level = levels[focus];
    int64_t d;
    if (!normalize(dim, level.size(), d))
      return false;
    const int64_t k = step.value_or(1);
    if (k == 0)
      return false;
    const int64_t size = level[d];
    auto resolve = [&](std::optional<int64_t> v, int64_t fallback) {
      return !v ? fallback : *v < 0 ? *v + size : *v;
    };
    int64_t b = resolve(start, k > 0 ? 0 : size - 1);
    int64_t e = resolve(stop, k > 0 ? size : -1);
    // With a run-time extent, a bound involves it when it is a negative index or the default
    // start of a negative step (size - 1) or default stop of a positive one (size).
    const bool bUsesExtent = start ? *start < 0 : k < 0;
    const bool eUsesExtent = stop ? *stop < 0 : k > 0;
    if (constant[d]) {
      const int64_t n = std::max<int64_t>(size, 0);
      b = k > 0 ? std::clamp<int64_t>(b, 0, n) : std::clamp<int64_t>(b, -1, n - 1);
      e = k > 0 ? std::clamp<int64_t>(e, 0, n) : std::clamp<int64_t>(e, -1, n - 1);
    }
    int64_t extent = floorDiv(e - b + k - (k > 0 ? 1 : -1), k);
    // A length that does not depend on the extent is a constant: negative becomes 0.
    if ((constant[d] || bUsesExtent == eUsesExtent) && extent < 0)
      extent = 0;
    record(level.size(), [d, b, k](const Tuple &i) {
      Tuple old = i;
      old[d] = b + i[d] * k;
      return old;
    });
    level[d] = extent;
    return true;
  }
};

} // namespace ntc::fuzz
