//===- GuardMasks.cpp - compute a loop's mask only where it removes something ---===//
//
// guard-masks: attention masks its scores with `where(k_offsets < seq_len, qk, -inf)` (and,
// causal, `where(q_offsets >= k_offsets, qk, -inf)`) in every iteration, though only the last key
// block (and the diagonal one) has an element to remove. For a definition `x = where(cond, a, c)`
// in a loop, with a constant c, whose condition holds for every element before some loop index T
// (maskTrueBefore, MaskBounds.cpp), the definition becomes
//
//   x = a
//   if (T <= index) x = where(cond, x, c)
//
// (`if (index < T)` when the condition holds from T on, maskTrueFrom), so earlier iterations skip
// the offsets, the comparisons and the selection. The `if` tests integers that are uniform over the
// program (the loop index, program coordinates, sizes), so on the GPU every thread of a block takes
// the same branch.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

using namespace kir;

class Guarder {
public:
  explicit Guarder(const Function &f) : f_(f) {}

  std::vector<Stmt> stmts(const std::vector<Stmt> &body, const StmtNode *loop) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      switch (s->kind) {
      case StmtKind::For: {
        StmtNode n = *s;
        n.body = stmts(s->body, s.get());
        out.push_back(std::make_shared<const StmtNode>(std::move(n)));
        break;
      }
      case StmtKind::If: {
        StmtNode n = *s;
        n.body = stmts(s->body, loop);
        n.orelse = stmts(s->orelse, loop);
        out.push_back(std::make_shared<const StmtNode>(std::move(n)));
        break;
      }
      case StmtKind::Define:
      case StmtKind::Assign:
        if (!loop || !guard(*s, *loop, out))
          out.push_back(s);
        break;
      default:
        out.push_back(s);
      }
    }
    return out;
  }

private:
  /// Appends the guarded form of `s` to `out` and returns true when it applies.
  bool guard(const StmtNode &s, const StmtNode &loop, std::vector<Stmt> &out) {
    const Value &v = s.value;
    if (v->kind != ValueKind::Where)
      return false;
    const Value &cond = v->operands[0], &kept = v->operands[1], &fill = v->operands[2];
    if (fill->kind != ValueKind::Constant && fill->kind != ValueKind::Full)
      return false;
    // `x = a` must give x the where's type (a is not broadcast by the condition).
    if (kept->type.dtype != v->type.dtype || kept->type.shape != v->type.shape)
      return false;
    // The iterations in which the mask may remove something: from T on, or before T.
    Cond masked;
    bool everywhere = false; // the condition holds in every iteration
    if (std::optional<Expr> before = maskTrueBefore(f_, cond, loop.var);
        before && !provablyLessEqual(*before, loop.begin)) {
      masked.kind = Cond::Kind::LessEqual;
      masked.a = *before;
      masked.b = Expr::symbol(loop.var);
      everywhere = provablyLessEqual(loop.end, *before);
    } else if (std::optional<Expr> from = maskTrueFrom(f_, cond, loop.var);
               from && !provablyLessEqual(loop.end, *from)) {
      masked.kind = Cond::Kind::Less;
      masked.a = Expr::symbol(loop.var);
      masked.b = *from;
      everywhere = provablyLessEqual(*from, loop.begin);
    } else {
      return false;
    }
    const bool assignsItself =
        s.kind == StmtKind::Assign && kept->kind == ValueKind::Local && kept->local == s.var;
    if (!assignsItself)
      out.push_back(s.kind == StmtKind::Define ? makeDefine(s.var, kept) : makeAssign(s.var, kept));
    if (everywhere)
      return true;
    out.push_back(
        makeIf(masked, {makeAssign(s.var, makeWhere(cond, makeLocal(s.var, v->type), fill))}, {}));
    return true;
  }

  const Function &f_;
};

} // namespace

kir::Function guardMasks(const kir::Function &specialized) {
  kir::Function out = specialized;
  out.body = Guarder(specialized).stmts(specialized.body, nullptr);
  return out;
}

} // namespace ntc::passes
