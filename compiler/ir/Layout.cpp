//===- Layout.cpp - nested tile layouts -----------------------------------===//
#include "ir/Layout.h"

#include <algorithm>
#include <atomic>
#include <set>

namespace ntc {

std::vector<Expr> Level::shape() const {
  std::vector<Expr> s;
  for (const Dim &d : dims)
    s.push_back(d.extent);
  return s;
}

std::string shapeString(const std::vector<Expr> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + shape[i].str();
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

namespace {

/// True when the extent can be shown to differ from 1.
bool provablyNotOne(const Expr &e) {
  Interval r = e.range();
  return (r.lo && *r.lo >= 2) || (r.hi && *r.hi <= 0);
}

std::string dimList(const std::vector<int64_t> &dims) {
  std::string s = "{";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "}";
}

} // namespace

Expr Layout::newIndex(const Expr &extent) {
  static std::atomic<int64_t> counter{0};
  Interval range{0, std::nullopt};
  if (auto hi = extent.range().hi)
    range.hi = *hi - 1;
  return Expr::symbol("%" + std::to_string(counter++), range);
}

Layout Layout::source(const std::string &name, const std::vector<Expr> &shape) {
  Layout l;
  l.sourceName_ = name;
  l.sourceShape_ = shape;
  Level level;
  for (const Expr &extent : shape) {
    Dim d{newIndex(extent), extent, ""};
    level.dims.push_back(d);
    l.coords_.push_back(d.index);
  }
  l.addBounds(level.dims);
  l.levels_.push_back(level);
  return l;
}

Layout Layout::jagged(size_t dim, const Expr &start, const Expr &length) const {
  if (levels_.size() != 1 || dim >= levels_[0].dims.size())
    throw LayoutError("jagged: only a fresh source tensor can have a jagged dimension");
  Layout l = *this;
  const Expr &index = levels_[0].dims[dim].index;
  l.coords_[dim] = index + start;
  for (IndexBound &b : l.bounds_)
    if (b.value == index)
      b.extent = length;
  return l;
}

void Layout::replaceIndices(const std::map<std::string, Expr> &subst) {
  for (Expr &c : coords_)
    c = c.substitute(subst);
  for (IndexBound &b : bounds_)
    b.value = b.value.substitute(subst);
}

std::string ExtentCheck::requirement() const {
  if (hi && *hi == lo)
    return "must be " + std::to_string(lo);
  std::string s = "must be at least " + std::to_string(lo);
  return hi ? s + " and at most " + std::to_string(*hi) : s;
}

void Layout::require(const Expr &value, int64_t lo, std::optional<int64_t> hi,
                     const std::string &what) {
  Interval r = value.range();
  bool holds = r.lo && *r.lo >= lo && (!hi || (r.hi && *r.hi <= *hi));
  if (holds)
    return;
  ExtentCheck check{value, lo, hi, what};
  if ((r.hi && *r.hi < lo) || (hi && r.lo && *r.lo > *hi))
    throw LayoutError(what + " is " + value.str() + "; it " + check.requirement());
  for (const ExtentCheck &c : checks_)
    if (c.value == value && c.lo == lo && c.hi == hi)
      return;
  checks_.push_back(std::move(check));
}

void Layout::addBounds(const std::vector<Dim> &dims) {
  for (const Dim &d : dims)
    bounds_.push_back({d.index, d.extent});
}

int64_t Layout::normalizeDim(int64_t d, size_t rank, const char *op) const {
  int64_t r = static_cast<int64_t>(rank);
  int64_t n = d < 0 ? d + r : d;
  if (n < 0 || n >= r)
    throw LayoutError(std::string(op) + ": dimension " + std::to_string(d) +
                      " is out of range for a level of rank " + std::to_string(rank) +
                      " (expected " + std::to_string(-r) + " to " + std::to_string(r - 1) + ")");
  return n;
}

Expr Layout::shape(int64_t d) const {
  return levels_[focus_].dims[normalizeDim(d, ndim(), "shape")].extent;
}

Layout Layout::dtype() const {
  if (focus_ + 1 >= levels_.size())
    throw LayoutError("dtype(): level " + std::to_string(focus_) +
                      " is the innermost level; it has no inner level (tile the tensor first)");
  Layout l = *this;
  l.focus_ = focus_ + 1;
  return l;
}

Layout Layout::withInner(const Layout &inner) const {
  bool derived = inner.sourceName_ == sourceName_ && inner.focus_ == focus_ + 1 &&
                 inner.levels_.size() > focus_;
  for (size_t i = 0; derived && i <= focus_; ++i) {
    const auto &a = levels_[i].dims, &b = inner.levels_[i].dims;
    derived = a.size() == b.size();
    for (size_t j = 0; derived && j < a.size(); ++j)
      derived = a[j].index == b[j].index && a[j].extent == b[j].extent;
  }
  if (!derived)
    throw LayoutError("the tensor assigned to dtype() must be derived from this tensor's dtype()");
  Layout l = inner;
  l.focus_ = focus_;
  return l;
}

/// The index of `d` as it enters coordinates: 0 when the dimension has the constant extent 1.
static Expr valueOf(const Dim &d) {
  return d.extent.isConst() && d.extent.constValue() == 1 ? Expr(0) : d.index;
}

Layout Layout::tile(const std::vector<Expr> &tileShape, const std::vector<Expr> &strides,
                    const std::vector<Expr> &dilation, bool floorMode) const {
  const Level &level = levels_[focus_];
  size_t rank = level.dims.size();
  auto checkCount = [&](const std::vector<Expr> &v, const char *what) {
    if (!v.empty() && v.size() != rank)
      throw LayoutError(std::string("tile: ") + what + " has " + std::to_string(v.size()) +
                        " entries but the tensor has rank " + std::to_string(rank));
  };
  if (tileShape.size() != rank)
    throw LayoutError("tile: tile shape has " + std::to_string(tileShape.size()) +
                      " entries but the tensor has rank " + std::to_string(rank));
  checkCount(strides, "strides");
  checkCount(dilation, "dilation");

  Layout l = *this;
  Level outer, inner;
  std::map<std::string, Expr> subst;
  for (size_t d = 0; d < rank; ++d) {
    const Dim &dim = level.dims[d];
    Expr t = tileShape[d];
    if (t.isConst() && t.constValue() == -1)
      t = dim.extent;
    else if (t.isConst() && t.constValue() <= 0)
      throw LayoutError("tile: tile size " + t.str() + " of dimension " + std::to_string(d) +
                        " must be positive (or -1 for the whole extent)");
    Expr s = strides.empty() ? t : strides[d];
    if (s.isConst() && s.constValue() == -1)
      s = t;
    if (s.isConst() && s.constValue() <= 0)
      throw LayoutError("tile: stride " + s.str() + " of dimension " + std::to_string(d) +
                        " must be positive (or -1 for the tile size)");
    Expr dil = dilation.empty() ? Expr(1) : dilation[d];
    if (dil.isConst() && dil.constValue() <= 0)
      throw LayoutError("tile: dilation " + dil.str() + " of dimension " + std::to_string(d) +
                        " must be positive");
    const std::string where = "tile(" + std::to_string(d) + "): the ";
    if (!(tileShape[d].isConst() && tileShape[d].constValue() == -1))
      l.require(t, 1, std::nullopt, where + "tile size");
    if (!strides.empty() && !(strides[d].isConst() && strides[d].constValue() == -1))
      l.require(s, 1, std::nullopt, where + "stride");
    l.require(dil, 1, std::nullopt, where + "dilation");
    Expr span = dim.extent - dil * (t - 1) - 1;
    Expr count = (floorMode ? floorDiv(span, s) : ceilDiv(span, s)) + 1;
    Dim o{newIndex(count), count, dim.axis};
    Dim i{newIndex(t), t, dim.axis};
    // An index over a single position is always 0: leaving it out keeps coordinates and
    // bounds small when tiles of size 1 are stacked (a long chain stays linear).
    subst[dim.index.symbolName()] = valueOf(o) * s + valueOf(i) * dil;
    outer.dims.push_back(o);
    inner.dims.push_back(i);
  }
  l.replaceIndices(subst);
  l.addBounds(outer.dims);
  l.addBounds(inner.dims);
  l.levels_[focus_] = outer;
  l.levels_.insert(l.levels_.begin() + focus_ + 1, inner);
  return l;
}

Layout Layout::expand(const std::vector<Expr> &shape) const {
  const Level &level = levels_[focus_];
  if (shape.size() != level.dims.size())
    throw LayoutError("expand: shape has " + std::to_string(shape.size()) +
                      " entries but the tensor has rank " + std::to_string(level.dims.size()));
  Layout l = *this;
  std::map<std::string, Expr> subst;
  Level result;
  std::vector<Dim> fresh;
  for (size_t d = 0; d < shape.size(); ++d) {
    const Dim &dim = level.dims[d];
    if ((shape[d].isConst() && shape[d].constValue() == -1) || shape[d] == dim.extent) {
      result.dims.push_back(dim); // -1 or the dimension's own extent keep it
      continue;
    }
    if (provablyNotOne(dim.extent) && shape[d] != dim.extent)
      throw LayoutError("expand: cannot expand dimension " + std::to_string(d) + " from " +
                        dim.extent.str() + " to " + shape[d].str() +
                        "; only size-1 dimensions can be expanded (use -1 to keep a dimension)");
    if (shape[d].isConst() && shape[d].constValue() < 0)
      throw LayoutError("expand: extent " + shape[d].str() + " of dimension " + std::to_string(d) +
                        " is negative (only -1, to keep a dimension)");
    l.require(dim.extent, 1, 1,
              "expand(" + std::to_string(d) + "): the expanded dimension's extent");
    l.require(shape[d], 0, std::nullopt, "expand(" + std::to_string(d) + "): the new extent");
    Dim e{newIndex(shape[d]), shape[d], dim.axis};
    subst[dim.index.symbolName()] = Expr(0);
    result.dims.push_back(e);
    fresh.push_back(e);
  }
  l.replaceIndices(subst);
  l.addBounds(fresh);
  l.levels_[focus_] = result;
  return l;
}

Layout Layout::squeeze(const std::vector<int64_t> &dims) const {
  const Level &level = levels_[focus_];
  std::set<int64_t> drop;
  Layout l = *this;
  for (int64_t d : dims) {
    int64_t n = normalizeDim(d, level.dims.size(), "squeeze");
    if (provablyNotOne(level.dims[n].extent))
      throw LayoutError("squeeze: cannot squeeze dimension " + std::to_string(d) +
                        ": its size is " + level.dims[n].extent.str() + ", not 1");
    if (!drop.insert(n).second)
      throw LayoutError("squeeze: dimension " + std::to_string(d) + " is given twice");
    l.require(level.dims[n].extent, 1, 1,
              "squeeze(" + std::to_string(d) + "): the squeezed dimension's extent");
  }
  std::map<std::string, Expr> subst;
  Level result;
  for (size_t d = 0; d < level.dims.size(); ++d) {
    if (drop.count(d))
      subst[level.dims[d].index.symbolName()] = Expr(0);
    else
      result.dims.push_back(level.dims[d]);
  }
  l.replaceIndices(subst);
  l.levels_[focus_] = result;
  return l;
}

Layout Layout::unsqueeze(int64_t dim) const {
  const Level &level = levels_[focus_];
  int64_t n = normalizeDim(dim, level.dims.size() + 1, "unsqueeze");
  Layout l = *this;
  Dim one{newIndex(Expr(1)), Expr(1), ""};
  l.addBounds({one});
  l.levels_[focus_].dims.insert(l.levels_[focus_].dims.begin() + n, one);
  return l;
}

Layout Layout::permute(const std::vector<int64_t> &dims) const {
  const Level &level = levels_[focus_];
  if (dims.size() != level.dims.size())
    throw LayoutError("permute: " + dimList(dims) + " has " + std::to_string(dims.size()) +
                      " entries but the tensor has rank " + std::to_string(level.dims.size()));
  std::vector<bool> seen(dims.size());
  Level result;
  for (int64_t d : dims) {
    int64_t n = normalizeDim(d, level.dims.size(), "permute");
    if (seen[n])
      throw LayoutError("permute: " + dimList(dims) + " is not a permutation (dimension " +
                        std::to_string(n) + " appears twice)");
    seen[n] = true;
    result.dims.push_back(level.dims[n]);
  }
  Layout l = *this;
  l.levels_[focus_] = result;
  return l;
}

Layout Layout::flatten(std::optional<int64_t> start, std::optional<int64_t> end) const {
  const Level &level = levels_[focus_];
  int64_t rank = static_cast<int64_t>(level.dims.size());
  int64_t s = start.value_or(0), e = end.value_or(rank);
  if (s < 0)
    s += rank;
  if (e < 0)
    e += rank;
  if (s < 0 || e > rank || s >= e)
    throw LayoutError("flatten: the range [" + std::to_string(start.value_or(0)) + ", " +
                      std::to_string(end.value_or(rank)) +
                      ") selects no dimensions of a level of rank " + std::to_string(rank) +
                      " (the end is exclusive)");
  Expr extent(1);
  for (int64_t d = s; d < e; ++d)
    extent = extent * level.dims[d].extent;
  Dim merged{newIndex(extent), extent, ""};
  std::map<std::string, Expr> subst;
  // An empty merged dimension has no index to take apart: its strides (products of the inner
  // extents, which may overflow although the whole product is 0) are never needed.
  const bool empty = extent.isConst() && extent.constValue() == 0;
  Expr stride(1);
  for (int64_t d = e - 1; d >= s; --d) {
    Expr q = empty ? Expr(0) : floorDiv(merged.index, stride);
    subst[level.dims[d].index.symbolName()] = d == s || empty ? q : mod(q, level.dims[d].extent);
    if (!empty && d > s)
      stride = stride * level.dims[d].extent;
  }
  Layout l = *this;
  l.replaceIndices(subst);
  l.addBounds({merged});
  Level result;
  result.dims.assign(level.dims.begin(), level.dims.begin() + s);
  result.dims.push_back(merged);
  result.dims.insert(result.dims.end(), level.dims.begin() + e, level.dims.end());
  l.levels_[focus_] = result;
  return l;
}

Layout Layout::ravel() const {
  Layout l = *this;
  Level merged;
  for (size_t i = focus_; i < levels_.size(); ++i)
    merged.dims.insert(merged.dims.end(), levels_[i].dims.begin(), levels_[i].dims.end());
  l.levels_.resize(focus_);
  l.levels_.push_back(merged);
  return l;
}

Layout Layout::pad(const std::vector<std::pair<Expr, Expr>> &padding) const {
  const Level &level = levels_[focus_];
  if (padding.size() != level.dims.size())
    throw LayoutError("pad: " + std::to_string(padding.size()) +
                      " (left, right) pairs given but the tensor has rank " +
                      std::to_string(level.dims.size()) + "; give one pair per dimension");
  Layout l = *this;
  std::map<std::string, Expr> subst;
  Level result;
  for (size_t d = 0; d < padding.size(); ++d) {
    const Dim &dim = level.dims[d];
    Expr extent = dim.extent + padding[d].first + padding[d].second;
    Dim p{newIndex(extent), extent, dim.axis};
    subst[dim.index.symbolName()] = p.index - padding[d].first;
    result.dims.push_back(p);
  }
  l.replaceIndices(subst);
  l.addBounds(result.dims);
  l.levels_[focus_] = result;
  return l;
}

Layout Layout::slice(int64_t dim, OptExpr start, OptExpr stop, OptExpr step) const {
  const Level &level = levels_[focus_];
  int64_t d = normalizeDim(dim, level.dims.size(), "slice");
  const Dim &old = level.dims[d];
  Expr size = old.extent;
  Expr st = step.value_or(Expr(1));
  if (!st.isConst() || st.constValue() == 0)
    throw LayoutError("slice: step " + st.str() + " must be a non-zero compile-time constant");
  int64_t k = st.constValue();
  auto resolve = [&](OptExpr v, Expr fallback) -> Expr {
    if (!v)
      return fallback;
    if (v->isConst() && v->constValue() < 0)
      return *v + size;
    return *v;
  };
  Expr b = resolve(start, k > 0 ? Expr(0) : size - 1);
  Expr e = resolve(stop, k > 0 ? size : Expr(-1));
  // Clamp to the valid range as NumPy does when everything is known. A constant extent can be
  // negative (a floor-mode tile count, a cropping pad): it has no elements, like 0.
  auto sz = size.asConst();
  if (sz)
    sz = std::max<int64_t>(*sz, 0);
  if (sz && b.isConst())
    b = Expr(k > 0 ? std::clamp<int64_t>(b.constValue(), 0, *sz)
                   : std::clamp<int64_t>(b.constValue(), -1, *sz - 1));
  if (sz && e.isConst())
    e = Expr(k > 0 ? std::clamp<int64_t>(e.constValue(), 0, *sz)
                   : std::clamp<int64_t>(e.constValue(), -1, *sz - 1));
  // A run-time stop (`slice(d, 0, y.shape(d))`) is clamped to the extent at run time, as NumPy
  // clamps: a stop past the end selects what there is (and the grid's ties then check the
  // sizes), instead of positions past the end whose loads are all masked.
  if (k > 0 && !e.isConst() && stop)
    e = min(e, size);
  Expr extent = floorDiv(e - b + st - (k > 0 ? 1 : -1), st);
  if (extent.isConst() && extent.constValue() < 0)
    extent = Expr(0);
  Dim s{newIndex(extent), extent, old.axis};
  Layout l = *this;
  l.replaceIndices({{old.index.symbolName(), b + s.index * st}});
  l.addBounds({s});
  l.levels_[focus_].dims[d] = s;
  return l;
}

Layout Layout::axes(const std::vector<std::string> &names) const {
  const Level &level = levels_[focus_];
  if (names.size() != level.dims.size())
    throw LayoutError("axes: " + std::to_string(names.size()) +
                      " names given but the tensor has rank " + std::to_string(level.dims.size()));
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        throw LayoutError("axes: axis name '" + names[i] + "' is used twice");
  Layout l = *this;
  for (size_t i = 0; i < names.size(); ++i)
    l.levels_[focus_].dims[i].axis = names[i];
  return l;
}

Layout Layout::renameAxes(const std::map<std::string, std::string> &names) const {
  Layout l = *this;
  for (Level &level : l.levels_)
    for (Dim &d : level.dims) {
      auto it = names.find(d.axis);
      if (it != names.end())
        d.axis = it->second;
    }
  return l;
}

Layout Layout::substitute(const std::map<std::string, Expr> &values) const {
  Layout l = *this;
  for (Expr &e : l.sourceShape_)
    e = e.substitute(values);
  for (Level &level : l.levels_)
    for (Dim &d : level.dims)
      d.extent = d.extent.substitute(values);
  for (Expr &c : l.coords_)
    c = c.substitute(values);
  for (IndexBound &b : l.bounds_) {
    b.value = b.value.substitute(values);
    b.extent = b.extent.substitute(values);
  }
  std::vector<ExtentCheck> checks = std::move(l.checks_);
  l.checks_.clear();
  for (const ExtentCheck &c : checks)
    l.require(c.value.substitute(values), c.lo, c.hi, c.what);
  return l;
}

std::string Layout::str() const {
  std::string s;
  for (size_t i = 0; i < levels_.size(); ++i)
    s += (i ? " -> " : "") + shapeString(levels_[i].shape());
  return s;
}

std::vector<int64_t> Layout::eval(const std::map<std::string, int64_t> &values,
                                  std::vector<int64_t> &arrayShape) const {
  std::map<std::string, Expr> bound;
  for (const auto &[name, v] : values)
    bound[name] = Expr(v);
  Layout c = substitute(bound);

  auto concrete = [&](const Expr &e, const std::string &what) {
    auto v = e.asConst();
    if (!v) {
      std::vector<std::string> names;
      e.collectSymbols(names);
      throw LayoutError("cannot evaluate " + what + " '" + e.str() + "': no value for '" +
                        (names.empty() ? "?" : names[0]) + "'");
    }
    return *v;
  };
  // Row-major strides of the source (checked: the stride of a dimension is the product of the
  // sizes inside it; none is taken past the outermost).
  std::vector<int64_t> sourceStrides(c.sourceShape_.size());
  int64_t stride = 1;
  for (size_t d = c.sourceShape_.size(); d-- > 0;) {
    sourceStrides[d] = stride;
    const int64_t size = concrete(c.sourceShape_[d], "the size of '" + sourceName_ + "'");
    if (d > 0)
      stride = checkedMul(stride, size);
  }
  std::vector<const Dim *> dims;
  arrayShape.clear();
  for (const Level &level : c.levels_)
    for (const Dim &d : level.dims) {
      dims.push_back(&d);
      arrayShape.push_back(std::max<int64_t>(0, concrete(d.extent, "the extent")));
    }
  constexpr int64_t kMaxElements = int64_t(1) << 26;
  // An empty dimension empties the array, however large the others are.
  const bool empty = std::find(arrayShape.begin(), arrayShape.end(), 0) != arrayShape.end();
  int64_t total = empty ? 0 : 1;
  for (int64_t n : arrayShape) {
    if (!empty && total > kMaxElements / n)
      throw LayoutError("the index array of '" + sourceName_ + "' would have more than " +
                        std::to_string(kMaxElements) + " elements");
    total *= n;
  }
  std::vector<int64_t> result;
  result.reserve(total);
  std::vector<int64_t> pos(dims.size(), 0);
  std::map<std::string, int64_t> env;
  for (int64_t flat = 0; flat < total; ++flat) {
    for (size_t i = 0; i < dims.size(); ++i)
      env[dims[i]->index.symbolName()] = pos[i];
    // The mask is a conjunction: one false bound masks the position even when another cannot
    // be evaluated (the unravelling of a flattened empty dimension divides by its size 0).
    bool inside = true, unknown = false;
    for (const IndexBound &b : c.bounds_) {
      auto v = b.value.evaluate(env);
      auto n = b.extent.evaluate(env);
      if (!v || !n) {
        unknown = true;
      } else if (*v < 0 || *v >= *n) {
        inside = false;
        break;
      }
    }
    if (inside && unknown)
      throw LayoutError("cannot evaluate the mask of '" + sourceName_ + "'");
    int64_t linear = -1;
    if (inside) {
      linear = 0;
      for (size_t d = 0; d < c.coords_.size(); ++d) {
        auto coord = c.coords_[d].evaluate(env);
        if (!coord)
          throw LayoutError("cannot evaluate the coordinates of '" + sourceName_ + "'");
        linear += *coord * sourceStrides[d];
      }
    }
    result.push_back(linear);
    for (size_t i = dims.size(); i-- > 0;) {
      if (++pos[i] < arrayShape[i])
        break;
      pos[i] = 0;
    }
  }
  return result;
}

namespace {
void renderJson(const std::vector<int64_t> &values, const std::vector<int64_t> &shape, size_t dim,
                size_t &offset, std::string &out) {
  if (dim == shape.size()) {
    out += std::to_string(values[offset++]);
    return;
  }
  out += "[";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i)
      out += ", ";
    renderJson(values, shape, dim + 1, offset, out);
  }
  out += "]";
}
} // namespace

std::string jsonNestedList(const std::vector<int64_t> &values, const std::vector<int64_t> &shape) {
  std::string out;
  size_t offset = 0;
  renderJson(values, shape, 0, offset, out);
  return out;
}

} // namespace ntc
