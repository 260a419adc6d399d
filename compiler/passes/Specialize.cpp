//===- Specialize.cpp - fix a variant's values in the kernel IR -----------===//
#include "passes/Passes.h"

#include <stdexcept>

namespace ntc::passes {

namespace {

/// The most elements one tile value may have (Triton allows 2^20; the CPU backend more).
constexpr int64_t kMaxTileElements = int64_t(1) << 24;

using namespace kir;

class Specializer {
public:
  explicit Specializer(const std::map<std::string, int64_t> &values) {
    for (const auto &[name, v] : values)
      subst_[name] = Expr(v);
  }

  Value value(const Value &v) {
    auto it = memo_.find(v.get());
    if (it != memo_.end())
      return it->second;
    ValueNode n = *v;
    n.type = type(n.type);
    for (Expr &s : n.subscripts)
      s = s.substitute(subst_);
    n.integer = n.integer.substitute(subst_);
    n.integer2 = n.integer2.substitute(subst_);
    for (Value &o : n.operands)
      o = value(o);
    Value r = std::make_shared<const ValueNode>(std::move(n));
    memo_[v.get()] = r;
    return r;
  }

  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      if (s->kind == StmtKind::If) {
        Cond c = s->cond.substitute(subst_);
        if (c.kind == Cond::Kind::True || c.kind == Cond::Kind::False) {
          std::vector<Stmt> taken = stmts(c.kind == Cond::Kind::True ? s->body : s->orelse);
          out.insert(out.end(), taken.begin(), taken.end());
          continue;
        }
        throw std::runtime_error("the condition '" + c.str() +
                                 "' is not decided by the variant's compile-time values");
      }
      StmtNode n = *s;
      if (n.value)
        n.value = value(n.value);
      for (Expr &e : n.subscripts)
        e = e.substitute(subst_);
      n.begin = n.begin.substitute(subst_);
      n.end = n.end.substitute(subst_);
      n.step = n.step.substitute(subst_);
      n.body = stmts(n.body);
      out.push_back(std::make_shared<const StmtNode>(std::move(n)));
    }
    return out;
  }

  const std::map<std::string, Expr> &substitution() const { return subst_; }

private:
  TileType type(const TileType &t) {
    TileType r = t;
    int64_t elements = 1;
    for (Expr &e : r.shape) {
      e = e.substitute(subst_);
      if (!e.isConst())
        throw std::runtime_error("the tile extent '" + e.str() +
                                 "' is not a compile-time constant in this variant");
      if (e.constValue() < 0)
        throw std::runtime_error("the tile extent " + e.str() + " is negative in this variant");
      if (__builtin_mul_overflow(elements, e.constValue(), &elements) ||
          elements > kMaxTileElements)
        throw std::runtime_error("a tile of shape " + shapeString(r.shape) + " has more than " +
                                 std::to_string(kMaxTileElements) +
                                 " elements; use smaller tiles (one program holds its tiles)");
    }
    return r;
  }

  std::map<std::string, Expr> subst_;
  std::map<const ValueNode *, Value> memo_;
};

} // namespace

kir::Function specialize(const kir::Function &f, const std::map<std::string, int64_t> &values) {
  Specializer s(values);
  kir::Function r;
  r.spec = f.spec;
  for (ArrangedParam &a : r.spec.arranged)
    a.layout = a.layout.substitute(s.substitution());
  r.padded = f.padded;
  for (kir::PaddedExtent &p : r.padded)
    if (auto it = values.find(p.symbol); it != values.end())
      p.value = it->second;
  r.body = s.stmts(f.body);
  return r;
}

int64_t shapeElements(const std::vector<Expr> &shape) {
  int64_t n = 1;
  for (const Expr &e : shape)
    n *= e.constValue();
  return n;
}

} // namespace ntc::passes
