//===- SkipMaskedIterations.cpp - end loops where a mask removes everything ---===//
//
// skip-masked-iterations: a loop whose iterations from some index on are provably identities
// on the loop's state ends there. Causal attention is the case in point: its key loop replaces
// the scores of a key block by -inf wherever the key comes after the query, and a block whose
// first key comes after the program's last query is masked entirely; such an iteration leaves
// the running maximum, the sum and the accumulator as they were, so it need not run.
//
// For every `for` loop the pass looks for a definition `x = where(cond, a, c)` with a constant
// c, and derives from `cond` a symbolic index B past which the condition is false for every
// element of the tile (maskFalseFrom, MaskBounds.cpp). It then
// evaluates the body abstractly with x = c everywhere (`exp2(-inf) = 0`, `max(m, -inf) = m`,
// `m - m = 0`, `dot(0, v) = 0`, `a * 1 = a`, `a + 0 = a`, ...) and requires every variable the
// loop assigns to come out as its value at the start of the iteration, with nothing stored.
// Then the loop's end becomes min(end, max(begin + 1, B)): the first iteration always runs.
//
// The abstract evaluation treats loaded elements and the loop's state after its first
// iteration as finite numbers, as FlashAttention's block skipping does (a row that has seen no
// unmasked element at all holds NaN either way); see docs/decisions.md.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ntc::passes {

namespace {

using namespace kir;

/// What the abstract evaluation knows about a value in a skipped iteration.
struct Abstract {
  enum class Kind { Finite, Uniform, Same } kind = Kind::Finite;
  double number = 0; ///< Uniform: every element
  std::string local; ///< Same: equal to this variable's value at the iteration's start
  static Abstract finite() { return {}; }
  static Abstract uniform(double x) {
    return std::isnan(x) ? finite() : Abstract{Kind::Uniform, x, {}};
  }
  static Abstract same(const std::string &name) { return {Kind::Same, 0, name}; }
  bool is(double x) const { return kind == Kind::Uniform && number == x; }
  bool isInfinite() const { return kind == Kind::Uniform && std::isinf(number); }
  bool sameAs(const Abstract &o) const {
    return kind == o.kind && (kind != Kind::Same || local == o.local) &&
           (kind != Kind::Uniform || number == o.number) && kind != Kind::Finite;
  }
};

class Skipper {
public:
  explicit Skipper(const Function &f) : f_(f) {}

  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      if (s->kind == StmtKind::For) {
        StmtNode n = *s;
        n.body = stmts(s->body);
        if (auto bound = skipBound(n))
          n.end = min(n.end, max(n.begin + Expr(1), *bound));
        out.push_back(std::make_shared<const StmtNode>(std::move(n)));
      } else if (s->kind == StmtKind::If) {
        StmtNode n = *s;
        n.body = stmts(s->body);
        n.orelse = stmts(s->orelse);
        out.push_back(std::make_shared<const StmtNode>(std::move(n)));
      } else {
        out.push_back(s);
      }
    }
    return out;
  }

private:
  /// The least index from which every iteration of `loop` is an identity, when one is proved
  /// and it can end the loop early.
  std::optional<Expr> skipBound(const StmtNode &loop) {
    if (!loop.step.isConst() || loop.step.constValue() < 1)
      return std::nullopt;
    std::optional<Expr> best;
    for (const Stmt &s : loop.body) {
      if (s->kind != StmtKind::Define && s->kind != StmtKind::Assign)
        continue;
      const Value &v = s->value;
      if (v->kind != ValueKind::Where || !isUniform(v->operands[2]))
        continue;
      std::optional<Expr> bound = maskFalseFrom(f_, v->operands[0], loop.var);
      if (!bound || provablyLessEqual(loop.end, *bound))
        continue;
      if (!identityWhenMasked(loop, v.get(), v->operands[2]->number))
        continue;
      best = best ? min(*best, *bound) : *bound;
    }
    return best;
  }

  static bool isUniform(const Value &v) {
    return v->kind == ValueKind::Constant || v->kind == ValueKind::Full;
  }

  // ---- the abstract evaluation of a masked iteration ------------------------------------

  /// True when an iteration in which the value `masked` is `fill` everywhere leaves every
  /// variable the loop assigns as it was and stores nothing.
  bool identityWhenMasked(const StmtNode &loop, const ValueNode *masked, double fill) {
    masked_ = masked;
    fill_ = fill;
    env_.clear();
    memo_.clear();
    // The loop's state: variables it assigns that live on from one iteration to the next (not
    // defined in the body).
    std::vector<std::string> state, defined;
    for (const Stmt &s : loop.body) {
      if (s->kind != StmtKind::Define && s->kind != StmtKind::Assign)
        return false; // stores, nested loops and branches are not analysed
      // A definition or assignment reads the variables as they are before it.
      Abstract a = eval(s->value);
      memo_.clear();
      env_[s->var] = a;
      if (s->kind == StmtKind::Define)
        defined.push_back(s->var);
      else if (std::find(defined.begin(), defined.end(), s->var) == defined.end())
        state.push_back(s->var);
    }
    for (const std::string &name : state)
      if (!env_[name].sameAs(Abstract::same(name)))
        return false;
    return true;
  }

  Abstract eval(const Value &v) {
    auto it = memo_.find(v.get());
    if (it != memo_.end())
      return it->second;
    Abstract r = evalNode(v);
    memo_[v.get()] = r;
    return r;
  }

  Abstract evalNode(const Value &v) {
    if (v.get() == masked_)
      return Abstract::uniform(fill_);
    switch (v->kind) {
    case ValueKind::Constant:
    case ValueKind::Full:
      return Abstract::uniform(v->number);
    case ValueKind::Local: {
      auto it = env_.find(v->local);
      return it == env_.end() ? Abstract::same(v->local) : it->second;
    }
    case ValueKind::Where: {
      Abstract a = eval(v->operands[1]), b = eval(v->operands[2]);
      return a.kind == Abstract::Kind::Uniform && a.sameAs(b) ? a : Abstract::finite();
    }
    case ValueKind::Cast: {
      Abstract a = eval(v->operands[0]);
      // 0, 1 and the infinities are exact in every floating type.
      if (a.kind == Abstract::Kind::Uniform && isFloat(v->type.dtype) &&
          (a.number == 0 || a.number == 1 || std::isinf(a.number)))
        return a;
      return Abstract::finite();
    }
    case ValueKind::ExpandDims:
    case ValueKind::BroadcastTo:
    case ValueKind::Trans: {
      Abstract a = eval(v->operands[0]);
      return a.kind == Abstract::Kind::Uniform ? a : Abstract::finite();
    }
    case ValueKind::Unary:
      return unary(v->op, eval(v->operands[0]));
    case ValueKind::Binary:
      return binary(v->op, eval(v->operands[0]), eval(v->operands[1]));
    case ValueKind::Reduce: {
      Abstract a = eval(v->operands[0]);
      if ((v->op == "sum" && a.is(0)) ||
          ((v->op == "max" || v->op == "min") && a.kind == Abstract::Kind::Uniform))
        return a;
      return Abstract::finite();
    }
    case ValueKind::Dot: {
      Abstract a = eval(v->operands[0]), b = eval(v->operands[1]);
      const bool zero = (a.is(0) && !b.isInfinite()) || (b.is(0) && !a.isInfinite());
      if (!zero)
        return Abstract::finite();
      return v->operands.size() > 2 ? eval(v->operands[2]) : Abstract::uniform(0);
    }
    default:
      return Abstract::finite();
    }
  }

  static Abstract unary(const std::string &op, const Abstract &a) {
    if (a.kind != Abstract::Kind::Uniform)
      return Abstract::finite();
    if (op == "exp")
      return Abstract::uniform(std::exp(a.number));
    if (op == "exp2")
      return Abstract::uniform(std::exp2(a.number));
    if (op == "neg")
      return Abstract::uniform(-a.number);
    return Abstract::finite();
  }

  static Abstract binary(const std::string &op, const Abstract &a, const Abstract &b) {
    const bool bothUniform = a.kind == Abstract::Kind::Uniform && b.kind == Abstract::Kind::Uniform;
    const double inf = std::numeric_limits<double>::infinity();
    if (op == "add") {
      if (bothUniform)
        return Abstract::uniform(a.number + b.number);
      if (b.is(0))
        return a;
      if (a.is(0))
        return b;
      if (a.isInfinite())
        return a; // ±inf + a finite value
      if (b.isInfinite())
        return b;
    } else if (op == "sub") {
      if (bothUniform)
        return Abstract::uniform(a.number - b.number);
      if (b.is(0))
        return a;
      if (a.kind == Abstract::Kind::Same && a.sameAs(b))
        return Abstract::uniform(0);
      if (a.isInfinite())
        return a;
      if (b.isInfinite())
        return Abstract::uniform(-b.number);
    } else if (op == "mul") {
      if (bothUniform)
        return Abstract::uniform(a.number * b.number);
      if (b.is(1))
        return a;
      if (a.is(1))
        return b;
      if (a.is(0) || b.is(0))
        return Abstract::uniform(0); // 0 · a finite value
    } else if (op == "div") {
      if (bothUniform)
        return Abstract::uniform(a.number / b.number);
      if (b.is(1))
        return a;
    } else if (op == "maximum" || op == "minimum") {
      const double identity = op == "maximum" ? -inf : inf;
      if (bothUniform)
        return Abstract::uniform(op == "maximum" ? std::fmax(a.number, b.number)
                                                 : std::fmin(a.number, b.number));
      if (b.is(identity))
        return a;
      if (a.is(identity))
        return b;
      if (a.sameAs(b))
        return a;
    }
    return Abstract::finite();
  }

  const Function &f_;
  const ValueNode *masked_ = nullptr;
  double fill_ = 0;
  std::map<std::string, Abstract> env_;
  std::unordered_map<const ValueNode *, Abstract> memo_;
};

} // namespace

kir::Function skipMaskedIterations(const kir::Function &f) {
  kir::Function out = f;
  out.body = Skipper(f).stmts(f.body);
  return out;
}

} // namespace ntc::passes
