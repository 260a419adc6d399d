//===- SymExpr.cpp - symbolic integer expressions -------------------------===//
#include "support/SymExpr.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>

namespace ntc {

/// Storage of one expression node. Sums keep their constant as the last operand; products
/// keep their coefficient in `value` and their factors (never sums or constants) sorted.
struct ExprNode {
  ExprKind kind = ExprKind::Const;
  int64_t value = 0; // Const value, or the coefficient of a Mul
  std::string name;  // Symbol name
  Interval range;    // Symbol range
  std::vector<Expr> operands;
  std::string key;
};

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw ArithmeticOverflow(std::to_string(a) + " + " + std::to_string(b) +
                             " overflows a 64-bit integer");
  return r;
}

int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw ArithmeticOverflow(std::to_string(a) + " * " + std::to_string(b) +
                             " overflows a 64-bit integer");
  return r;
}

int64_t floorDivInt(int64_t a, int64_t b) {
  if (b == -1)
    return checkedMul(a, -1);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
int64_t ceilDivInt(int64_t a, int64_t b) {
  return checkedMul(floorDivInt(checkedMul(a, -1), b), -1);
}
int64_t floorModInt(int64_t a, int64_t b) {
  if (b == -1)
    return 0;
  return checkedAdd(a, checkedMul(-floorDivInt(a, b), b));
}

/// Private factory for nodes; the only place that creates ExprNode objects.
struct ExprBuilder {
  static Expr make(ExprNode n) { return Expr(std::make_shared<const ExprNode>(std::move(n))); }
};

namespace {

Expr makeConst(int64_t v) {
  ExprNode n;
  n.kind = ExprKind::Const;
  n.value = v;
  n.key = std::to_string(v);
  n.key.insert(n.key.begin(), '#');
  return ExprBuilder::make(std::move(n));
}

Expr makeCompound(ExprKind kind, std::vector<Expr> ops, int64_t coeff = 1) {
  static const char *names[] = {"", "", "+", "*", "fd", "cd", "mod", "min", "max"};
  ExprNode n;
  n.kind = kind;
  n.value = coeff;
  n.key = std::string(names[static_cast<int>(kind)]) + "(";
  if (kind == ExprKind::Mul)
    n.key += std::to_string(coeff) + ";";
  for (size_t i = 0; i < ops.size(); ++i)
    n.key += (i ? "," : "") + ops[i].key();
  n.key += ")";
  n.operands = std::move(ops);
  return ExprBuilder::make(std::move(n));
}

// ---- polynomial normal form ----------------------------------------------------------------

/// A monomial: sorted list of atom factors (symbols and opaque nodes).
struct Monomial {
  std::vector<Expr> atoms;
  std::string key() const {
    std::string k;
    for (const Expr &a : atoms)
      k += a.key() + "*";
    return k;
  }
};

/// Sum of coefficient * monomial, keyed by the monomial's key ("" = the constant).
using Poly = std::map<std::string, std::pair<Monomial, int64_t>>;

void addTerm(Poly &p, const Monomial &m, int64_t c) {
  if (c == 0)
    return;
  auto [it, inserted] = p.try_emplace(m.key(), m, c);
  if (!inserted) {
    it->second.second = checkedAdd(it->second.second, c);
    if (it->second.second == 0)
      p.erase(it);
  }
}

Poly toPoly(const Expr &e) {
  Poly p;
  switch (e.kind()) {
  case ExprKind::Const:
    addTerm(p, {}, e.constValue());
    break;
  case ExprKind::Add:
    for (const Expr &t : e.operands())
      for (auto &[k, mc] : toPoly(t))
        addTerm(p, mc.first, mc.second);
    break;
  case ExprKind::Mul:
    addTerm(p, Monomial{e.operands()}, e.node()->value);
    break;
  default:
    addTerm(p, Monomial{{e}}, 1);
    break;
  }
  return p;
}

Expr monomialExpr(const Monomial &m, int64_t c) {
  if (m.atoms.empty())
    return makeConst(c);
  if (m.atoms.size() == 1 && c == 1)
    return m.atoms[0];
  return makeCompound(ExprKind::Mul, m.atoms, c);
}

Expr fromPoly(const Poly &p) {
  std::vector<Expr> terms;
  int64_t constant = 0;
  for (const auto &[k, mc] : p) {
    if (mc.second == 0)
      continue;
    if (mc.first.atoms.empty())
      constant = mc.second;
    else
      terms.push_back(monomialExpr(mc.first, mc.second));
  }
  if (terms.empty())
    return makeConst(constant);
  if (terms.size() == 1 && constant == 0)
    return terms[0];
  if (constant != 0)
    terms.push_back(makeConst(constant));
  return makeCompound(ExprKind::Add, std::move(terms));
}

Poly mulPoly(const Poly &a, const Poly &b) {
  Poly r;
  for (const auto &[ka, ma] : a)
    for (const auto &[kb, mb] : b) {
      Monomial m;
      m.atoms = ma.first.atoms;
      m.atoms.insert(m.atoms.end(), mb.first.atoms.begin(), mb.first.atoms.end());
      std::sort(m.atoms.begin(), m.atoms.end());
      addTerm(r, m, checkedMul(ma.second, mb.second));
    }
  return r;
}

/// If `m` contains every atom of `d` (as a multiset), the remaining atoms.
std::optional<Monomial> divideMonomial(const Monomial &m, const Monomial &d) {
  std::vector<Expr> rest = m.atoms;
  for (const Expr &a : d.atoms) {
    auto it = std::find(rest.begin(), rest.end(), a);
    if (it == rest.end())
      return std::nullopt;
    rest.erase(it);
  }
  return Monomial{rest};
}

/// Split `num` into quotient*den + remainder where quotient collects the terms that are exact
/// multiples of the single-monomial divisor `den`. Returns false if `den` is not a monomial.
bool splitByMonomial(const Poly &num, const Expr &den, Poly &quotient, Poly &remainder) {
  Poly d = toPoly(den);
  if (d.size() != 1)
    return false;
  const auto &[dm, dc] = d.begin()->second;
  if (dc <= 0)
    return false;
  for (const auto &[k, mc] : num) {
    auto q = divideMonomial(mc.first, dm);
    if (q && mc.second % dc == 0)
      addTerm(quotient, *q, mc.second / dc);
    else
      addTerm(remainder, mc.first, mc.second);
  }
  return true;
}

// Interval bounds that would overflow are dropped (unbounded), never wrapped: a wrapped
// bound would make the simplifier "prove" false facts.

std::optional<int64_t> addBound(std::optional<int64_t> a, std::optional<int64_t> b) {
  int64_t r = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r))
    return std::nullopt;
  return r;
}

std::optional<int64_t> mulBound(std::optional<int64_t> a, std::optional<int64_t> b) {
  int64_t r = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r))
    return std::nullopt;
  return r;
}

Interval mulInterval(const Interval &a, const Interval &b) {
  if (a.lo && a.hi && b.lo && b.hi) {
    std::optional<int64_t> c[] = {mulBound(a.lo, b.lo), mulBound(a.lo, b.hi), mulBound(a.hi, b.lo),
                                  mulBound(a.hi, b.hi)};
    if (std::all_of(c, c + 4, [](const std::optional<int64_t> &v) { return v.has_value(); })) {
      auto less = [](const std::optional<int64_t> &x, const std::optional<int64_t> &y) {
        return *x < *y;
      };
      return {*std::min_element(c, c + 4, less), *std::max_element(c, c + 4, less)};
    }
  }
  if (a.lo && b.lo && *a.lo >= 0 && *b.lo >= 0) {
    Interval r{mulBound(a.lo, b.lo), std::nullopt};
    if (a.hi && b.hi)
      r.hi = mulBound(a.hi, b.hi);
    return r;
  }
  return {};
}

Interval scaleInterval(const Interval &a, int64_t c) {
  Interval r;
  if (c >= 0) {
    r.lo = mulBound(a.lo, c);
    r.hi = mulBound(a.hi, c);
  } else {
    r.lo = mulBound(a.hi, c);
    r.hi = mulBound(a.lo, c);
  }
  return r;
}

bool isZero(const Poly &p) { return p.empty(); }

} // namespace

// ---- Expr basics ----------------------------------------------------------------------------

Expr::Expr() : Expr(makeConst(0)) {}
Expr::Expr(int64_t value) : Expr(makeConst(value)) {}

Expr Expr::symbol(const std::string &name, Interval range) {
  ExprNode n;
  n.kind = ExprKind::Symbol;
  n.name = name;
  n.range = range;
  n.key = name;
  return ExprBuilder::make(std::move(n));
}

ExprKind Expr::kind() const { return node_->kind; }
int64_t Expr::constValue() const {
  assert(isConst());
  return node_->value;
}
std::optional<int64_t> Expr::asConst() const {
  if (isConst())
    return node_->value;
  return std::nullopt;
}
const std::string &Expr::symbolName() const { return node_->name; }
int64_t Expr::coefficient() const { return node_->value; }
const std::vector<Expr> &Expr::operands() const { return node_->operands; }
const std::string &Expr::key() const { return node_->key; }

// ---- arithmetic -------------------------------------------------------------------------------

Expr operator+(const Expr &a, const Expr &b) {
  if (a.isConst() && b.isConst())
    return Expr(checkedAdd(a.constValue(), b.constValue()));
  Poly p = toPoly(a);
  for (auto &[k, mc] : toPoly(b))
    addTerm(p, mc.first, mc.second);
  return fromPoly(p);
}

Expr operator-(const Expr &a) { return Expr(-1) * a; }
Expr operator-(const Expr &a, const Expr &b) { return a + (-b); }

Expr operator*(const Expr &a, const Expr &b) {
  if (a.isConst() && b.isConst())
    return Expr(checkedMul(a.constValue(), b.constValue()));
  return fromPoly(mulPoly(toPoly(a), toPoly(b)));
}

namespace {

enum class Rounding { Floor, Ceil };

Expr divide(const Expr &a, const Expr &b, Rounding rounding) {
  ExprKind kind = rounding == Rounding::Floor ? ExprKind::FloorDiv : ExprKind::CeilDiv;
  if (b.isConst()) {
    int64_t d = b.constValue();
    if (d == 0)
      return makeCompound(kind, {a, b}); // left opaque; evaluation reports the error
    if (d == 1)
      return a;
    if (d < 0)
      return divide(-a, -b, rounding);
    if (a.isConst())
      return Expr(rounding == Rounding::Floor ? floorDivInt(a.constValue(), d)
                                              : ceilDivInt(a.constValue(), d));
    // (x // c1) // c2 == x // (c1*c2) for positive constants; likewise for ceil.
    if (a.kind() == kind && a.operands()[1].isConst() && a.operands()[1].constValue() > 0)
      return divide(a.operands()[0], Expr(checkedMul(a.operands()[1].constValue(), d)), rounding);
  }
  if (a.isConst() && a.constValue() == 0)
    return Expr(0);
  if (a == b)
    return Expr(1);
  Poly quotient, remainder;
  if (splitByMonomial(toPoly(a), b, quotient, remainder) && !isZero(quotient))
    return fromPoly(quotient) + divide(fromPoly(remainder), b, rounding);
  // Remainder known to lie in one step of the divisor.
  Interval r = a.range();
  Interval d = b.range();
  if (r.lo && *r.lo >= 0 && d.lo && *d.lo > 0) {
    if (rounding == Rounding::Floor && provablyLess(a, b))
      return Expr(0);
    if (rounding == Rounding::Ceil && r.hi && *r.hi == 0)
      return Expr(0);
    if (rounding == Rounding::Ceil && *r.lo >= 1 && provablyLessEqual(a, b))
      return Expr(1);
  }
  return makeCompound(kind, {a, b});
}

} // namespace

Expr floorDiv(const Expr &a, const Expr &b) { return divide(a, b, Rounding::Floor); }
Expr ceilDiv(const Expr &a, const Expr &b) { return divide(a, b, Rounding::Ceil); }

Expr mod(const Expr &a, const Expr &b) {
  if (b.isConst()) {
    int64_t d = b.constValue();
    if (d == 0)
      return makeCompound(ExprKind::Mod, {a, b});
    if (d == 1 || d == -1)
      return Expr(0);
    if (a.isConst())
      return Expr(floorModInt(a.constValue(), d));
    if (d > 0) {
      Poly p;
      for (auto &[k, mc] : toPoly(a)) {
        int64_t c = mc.first.atoms.empty() ? floorModInt(mc.second, d) : mc.second;
        if (mc.first.atoms.empty() || c % d != 0)
          addTerm(p, mc.first, c);
      }
      Expr reduced = fromPoly(p);
      if (reduced != a)
        return mod(reduced, b);
    }
  } else {
    Poly quotient, remainder;
    if (splitByMonomial(toPoly(a), b, quotient, remainder) && !isZero(quotient))
      return mod(fromPoly(remainder), b);
  }
  if (a == b || (a.isConst() && a.constValue() == 0))
    return Expr(0);
  Interval r = a.range();
  if (r.lo && *r.lo >= 0 && provablyLess(a, b))
    return a;
  return makeCompound(ExprKind::Mod, {a, b});
}

Expr min(const Expr &a, const Expr &b) {
  if (a.isConst() && b.isConst())
    return Expr(std::min(a.constValue(), b.constValue()));
  if (provablyLessEqual(a, b))
    return a;
  if (provablyLessEqual(b, a))
    return b;
  return a < b ? makeCompound(ExprKind::Min, {a, b}) : makeCompound(ExprKind::Min, {b, a});
}

Expr max(const Expr &a, const Expr &b) {
  if (a.isConst() && b.isConst())
    return Expr(std::max(a.constValue(), b.constValue()));
  if (provablyLessEqual(a, b))
    return b;
  if (provablyLessEqual(b, a))
    return a;
  return a < b ? makeCompound(ExprKind::Max, {a, b}) : makeCompound(ExprKind::Max, {b, a});
}

// ---- ranges -----------------------------------------------------------------------------------

Interval Expr::range() const {
  switch (kind()) {
  case ExprKind::Const:
    return {node_->value, node_->value};
  case ExprKind::Symbol:
    return node_->range;
  case ExprKind::Add: {
    Interval r{0, 0};
    for (const Expr &t : operands()) {
      Interval s = t.range();
      r.lo = addBound(r.lo, s.lo);
      r.hi = addBound(r.hi, s.hi);
    }
    return r;
  }
  case ExprKind::Mul: {
    Interval r{1, 1};
    for (const Expr &f : operands())
      r = mulInterval(r, f.range());
    return scaleInterval(r, node_->value);
  }
  case ExprKind::FloorDiv:
  case ExprKind::CeilDiv: {
    Interval n = operands()[0].range(), d = operands()[1].range();
    if (!(n.lo && *n.lo >= 0 && d.lo && *d.lo > 0))
      return {};
    bool ceil = kind() == ExprKind::CeilDiv;
    Interval r{0, std::nullopt};
    if (d.hi)
      r.lo = ceil ? ceilDivInt(*n.lo, *d.hi) : floorDivInt(*n.lo, *d.hi);
    if (n.hi)
      r.hi = ceil ? ceilDivInt(*n.hi, *d.lo) : floorDivInt(*n.hi, *d.lo);
    return r;
  }
  case ExprKind::Mod: {
    Interval d = operands()[1].range();
    if (d.lo && *d.lo > 0) {
      Interval r{0, std::nullopt};
      if (d.hi)
        r.hi = *d.hi - 1;
      Interval n = operands()[0].range();
      if (n.lo && *n.lo >= 0 && n.hi && (!r.hi || *n.hi < *r.hi))
        r.hi = n.hi;
      return r;
    }
    return {};
  }
  case ExprKind::Min:
  case ExprKind::Max: {
    Interval a = operands()[0].range(), b = operands()[1].range();
    auto pick = [&](std::optional<int64_t> x, std::optional<int64_t> y, bool takeMin,
                    bool requireBoth) -> std::optional<int64_t> {
      if (x && y)
        return takeMin ? std::min(*x, *y) : std::max(*x, *y);
      if (requireBoth)
        return std::nullopt;
      return x ? x : y;
    };
    bool isMin = kind() == ExprKind::Min;
    // min: lo needs both, hi needs either; max: lo needs either, hi needs both.
    return {pick(a.lo, b.lo, isMin, isMin), pick(a.hi, b.hi, isMin, !isMin)};
  }
  }
  return {};
}

namespace {

/// The direction of a sum (or min, max) of terms moving in the given directions.
Monotonicity combine(Monotonicity a, Monotonicity b) {
  if (a == Monotonicity::Constant)
    return b;
  if (b == Monotonicity::Constant || a == b)
    return a;
  return Monotonicity::Unknown;
}

Monotonicity flipped(Monotonicity m) {
  if (m == Monotonicity::Nondecreasing)
    return Monotonicity::Nonincreasing;
  if (m == Monotonicity::Nonincreasing)
    return Monotonicity::Nondecreasing;
  return m;
}

bool neverNegative(const Expr &e) {
  const Interval r = e.range();
  return r.lo && *r.lo >= 0;
}

} // namespace

Monotonicity monotonicityIn(const Expr &e, const std::string &symbol) {
  switch (e.kind()) {
  case ExprKind::Const:
    return Monotonicity::Constant;
  case ExprKind::Symbol:
    return e.symbolName() == symbol ? Monotonicity::Nondecreasing : Monotonicity::Constant;
  case ExprKind::Add:
  case ExprKind::Min:
  case ExprKind::Max: {
    Monotonicity m = Monotonicity::Constant;
    for (const Expr &t : e.operands())
      m = combine(m, monotonicityIn(t, symbol));
    return m;
  }
  case ExprKind::Mul: {
    // A product of factors that are never negative moves with each of them.
    Monotonicity m = Monotonicity::Constant;
    for (const Expr &f : e.operands())
      m = combine(m, monotonicityIn(f, symbol));
    if (m == Monotonicity::Constant)
      return m;
    if (e.operands().size() > 1)
      for (const Expr &f : e.operands())
        if (!neverNegative(f))
          return Monotonicity::Unknown;
    return e.coefficient() < 0 ? flipped(m) : m;
  }
  case ExprKind::FloorDiv:
  case ExprKind::CeilDiv: {
    const Expr &divisor = e.operands()[1];
    const Interval d = divisor.range();
    if (monotonicityIn(divisor, symbol) != Monotonicity::Constant)
      return Monotonicity::Unknown;
    const Monotonicity m = monotonicityIn(e.operands()[0], symbol);
    if (m == Monotonicity::Constant)
      return m;
    return d.lo && *d.lo > 0 ? m : Monotonicity::Unknown;
  }
  case ExprKind::Mod: {
    const bool constant = monotonicityIn(e.operands()[0], symbol) == Monotonicity::Constant &&
                          monotonicityIn(e.operands()[1], symbol) == Monotonicity::Constant;
    return constant ? Monotonicity::Constant : Monotonicity::Unknown;
  }
  }
  return Monotonicity::Unknown;
}

bool provablyLessEqual(const Expr &a, const Expr &b) {
  Interval d = (b - a).range();
  return d.lo && *d.lo >= 0;
}

bool provablyLess(const Expr &a, const Expr &b) {
  Interval d = (b - a).range();
  return d.lo && *d.lo > 0;
}

// ---- evaluation and substitution ------------------------------------------------------------

std::optional<int64_t> Expr::evaluate(const std::map<std::string, int64_t> &values) const {
  switch (kind()) {
  case ExprKind::Const:
    return node_->value;
  case ExprKind::Symbol: {
    auto it = values.find(node_->name);
    if (it == values.end())
      return std::nullopt;
    return it->second;
  }
  case ExprKind::Add: {
    int64_t s = 0;
    for (const Expr &t : operands()) {
      auto v = t.evaluate(values);
      if (!v)
        return std::nullopt;
      s = checkedAdd(s, *v);
    }
    return s;
  }
  case ExprKind::Mul: {
    int64_t p = node_->value;
    for (const Expr &f : operands()) {
      auto v = f.evaluate(values);
      if (!v)
        return std::nullopt;
      p = checkedMul(p, *v);
    }
    return p;
  }
  default:
    break;
  }
  auto a = operands()[0].evaluate(values), b = operands()[1].evaluate(values);
  if (!a || !b)
    return std::nullopt;
  switch (kind()) {
  case ExprKind::FloorDiv:
    return *b == 0 ? std::nullopt : std::optional<int64_t>(floorDivInt(*a, *b));
  case ExprKind::CeilDiv:
    return *b == 0 ? std::nullopt : std::optional<int64_t>(ceilDivInt(*a, *b));
  case ExprKind::Mod:
    return *b == 0 ? std::nullopt : std::optional<int64_t>(floorModInt(*a, *b));
  case ExprKind::Min:
    return std::min(*a, *b);
  case ExprKind::Max:
    return std::max(*a, *b);
  default:
    return std::nullopt;
  }
}

Expr Expr::substitute(const std::map<std::string, Expr> &replacements) const {
  switch (kind()) {
  case ExprKind::Const:
    return *this;
  case ExprKind::Symbol: {
    auto it = replacements.find(node_->name);
    return it == replacements.end() ? *this : it->second;
  }
  case ExprKind::Add: {
    // One polynomial for the whole sum: linear in the number of terms (a pairwise fold
    // would rebuild the growing sum once per term).
    Poly sum;
    for (const Expr &t : operands())
      for (auto &[k, mc] : toPoly(t.substitute(replacements)))
        addTerm(sum, mc.first, mc.second);
    return fromPoly(sum);
  }
  case ExprKind::Mul: {
    Expr p(node_->value);
    for (const Expr &f : operands())
      p = p * f.substitute(replacements);
    return p;
  }
  default:
    break;
  }
  Expr a = operands()[0].substitute(replacements), b = operands()[1].substitute(replacements);
  switch (kind()) {
  case ExprKind::FloorDiv:
    return floorDiv(a, b);
  case ExprKind::CeilDiv:
    return ceilDiv(a, b);
  case ExprKind::Mod:
    return mod(a, b);
  case ExprKind::Min:
    return min(a, b);
  default:
    return max(a, b);
  }
}

void Expr::collectSymbols(std::vector<std::string> &names) const {
  if (kind() == ExprKind::Symbol) {
    if (std::find(names.begin(), names.end(), node_->name) == names.end())
      names.push_back(node_->name);
    return;
  }
  for (const Expr &o : operands())
    o.collectSymbols(names);
}

// ---- printing ---------------------------------------------------------------------------------

namespace {

bool isNegativeTerm(const Expr &e) {
  return (e.isConst() && e.constValue() < 0) || (e.kind() == ExprKind::Mul && e.node()->value < 0);
}

/// Concatenation by appending (GCC 12 reports false -Wrestrict warnings for chains of
/// `"(" + s + ")"`).
std::string concat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string &p : parts)
    out.append(p);
  return out;
}

std::string atomString(const Expr &e) {
  if (e.kind() == ExprKind::Add || e.kind() == ExprKind::Mod || e.kind() == ExprKind::Mul ||
      (e.isConst() && e.constValue() < 0))
    return concat({"(", e.str(), ")"});
  return e.str();
}

} // namespace

std::string Expr::str() const {
  switch (kind()) {
  case ExprKind::Const:
    return std::to_string(node_->value);
  case ExprKind::Symbol:
    return node_->name;
  case ExprKind::Add: {
    std::string s;
    for (size_t i = 0; i < operands().size(); ++i) {
      const Expr &t = operands()[i];
      if (i == 0) {
        s = t.str();
      } else if (isNegativeTerm(t)) {
        s.append(" - ").append((-t).str());
      } else {
        s.append(" + ").append(t.str());
      }
    }
    return s;
  }
  case ExprKind::Mul: {
    std::string s;
    int64_t c = node_->value;
    if (c == -1)
      s = "-";
    else if (c != 1) {
      s = std::to_string(c);
      s.push_back('*');
    }
    for (size_t i = 0; i < operands().size(); ++i) {
      if (i)
        s.push_back('*');
      s.append(atomString(operands()[i]));
    }
    return s;
  }
  case ExprKind::FloorDiv:
    return concat({"⌊", atomString(operands()[0]), "/", atomString(operands()[1]), "⌋"});
  case ExprKind::CeilDiv:
    return concat({"⌈", atomString(operands()[0]), "/", atomString(operands()[1]), "⌉"});
  case ExprKind::Mod:
    return concat({atomString(operands()[0]), " % ", atomString(operands()[1])});
  case ExprKind::Min:
    return concat({"min(", operands()[0].str(), ", ", operands()[1].str(), ")"});
  case ExprKind::Max:
    return concat({"max(", operands()[0].str(), ", ", operands()[1].str(), ")"});
  }
  return "?";
}

} // namespace ntc
