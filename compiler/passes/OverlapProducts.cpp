//===- OverlapProducts.cpp - a loop's last product in flight past the next first one -===//
//
// In attention's pipelined loop every product waits for the tensor cores where it stands: the
// second product (PV) completes before the next iteration starts its copies and its first
// product (QK). Triton's loop and FlashAttention's keep PV in flight instead, so that the
// tensor cores run PV and the next QK back to back. With the configuration knob `overlap=1`
// (LaunchKnobs::overlap) and a wgmma target, this pass rotates such a loop by its head, the
// statements up to its first product:
//
//   for i in range(b, e):                    %x = <placeholder>       (each head definition)
//     async_wait S-2                         if b < e:
//     async_copy K(i+S-1), V(i+S-1)            async_wait S-2 ; K(b+S-1) ; commit
//     async_commit                             V(b+S-1) ; commit ; head(b)
//     head(i)         (%x = ... dot ...)     for i in range(b, e):
//     body(i)                                  body(i) with dot_issue %acc <- dot(.., V(i), ..)
//     %acc <- dot(p, V(i), acc')               tail(i)
//     tail(i)                                  if i + 1 < e:
//                                                async_wait 2(S-2) ; K(i+S) ; commit ; head(i+1)
//                                              dot_wait %acc ; barrier ; V(i+S) ; commit
//
// The head of iteration i + 1 runs where it ran before, after all of iteration i, so the
// rotation changes no value. The product's ring (V) is copied only after the wait and a barrier,
// since its next copy overwrites the stage the product reads; the other copies keep their place,
// and each iteration commits two groups (whence 2(S-2) groups may stay in flight at the wait).
// Nothing reads the accumulator between dot_issue and dot_wait: that is the candidate test.
//
// A candidate loop was pipelined (it starts with async_wait, its copies and a commit), its last
// product is `%acc <- dot(a, shared_stage(ring), acc')` of 16-bit operands, A in registers, as a
// chain of wgmma, and B a stage of the loop's own ring; an earlier statement holds a product; the
// statements up to that one (the head) define or assign locals only and do not read %acc, nor
// does anything after the product. GPU only, after keep-operands-resident, before
// allocate-shared.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <map>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// True when `v` or a value below it reads local `name`.
bool reads(const Value &v, const std::string &name) {
  bool found = false;
  forEachValue(v, [&](const Value &x) {
    found = found || (x->kind == ValueKind::Local && x->local == name);
  });
  return found;
}

/// True when `v` or a value below it is a product.
bool holdsProduct(const Value &v) {
  bool found = false;
  forEachValue(v, [&](const Value &x) { found = found || x->kind == ValueKind::Dot; });
  return found;
}

/// True when statement `s` (nested bodies included) reads or assigns local `name`.
bool touches(const Stmt &s, const std::string &name) {
  bool found = false;
  forEachStmt({s}, [&](const Stmt &t) {
    found = found ||
            ((t->kind == StmtKind::Assign || t->kind == StmtKind::DotIssue) && t->var == name) ||
            (t->value && reads(t->value, name));
    return true;
  });
  return found;
}

/// The head's statements as assignments (its definitions become loop-carried locals).
std::vector<Stmt> asAssignments(const std::vector<Stmt> &head) {
  std::vector<Stmt> out;
  for (const Stmt &s : head)
    out.push_back(makeAssign(s->var, s->value));
  return out;
}

class Overlapper {
public:
  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    return rewriteLoops(
        body, [&](const Stmt &loop, int, std::vector<Stmt> &out) { return rotate(loop, out); });
  }

private:
  /// True when `product` runs as a chain of wgmma with A in registers and B swizzled in shared
  /// memory (ntc::dev::dot_issue's asynchronous case).
  static bool asyncProduct(const Value &product) {
    if (product->kind != ValueKind::Dot || product->operands.size() != 3 ||
        product->type.dtype != DType::Float32)
      return false;
    const Value &a = product->operands[0], &b = product->operands[1];
    if (!a->type.layout || a->type.layout->kind != TileLayout::Kind::DotA)
      return false;
    if (a->type.dtype != DType::Float16 && a->type.dtype != DType::BFloat16)
      return false;
    return b->kind == ValueKind::SharedStage && wgmmaProduct(product);
  }

  /// Appends the rotated form of `loop` to `out` and returns true when it is a candidate.
  bool rotate(const Stmt &loop, std::vector<Stmt> &out) {
    const std::vector<Stmt> &body = loop->body;
    // The pipelined prologue of the body: async_wait, the copies, async_commit.
    if (body.empty() || body[0]->kind != StmtKind::AsyncWait)
      return false;
    const int64_t stages = body[0]->begin.constValue() + 2;
    size_t k = 1;
    std::vector<Stmt> copies;
    while (k < body.size() && body[k]->kind == StmtKind::AsyncCopy)
      copies.push_back(body[k++]);
    if (copies.empty() || k >= body.size() || body[k]->kind != StmtKind::AsyncCommit)
      return false;
    const std::vector<Stmt> rest(body.begin() + static_cast<std::ptrdiff_t>(k) + 1, body.end());
    // The last product, into a local, and the first statement holding a product.
    size_t last = rest.size();
    for (size_t j = 0; j < rest.size(); ++j)
      if (rest[j]->kind == StmtKind::Assign && asyncProduct(rest[j]->value))
        last = j;
    if (last == rest.size())
      return false;
    const std::string acc = rest[last]->var;
    const Value &product = rest[last]->value;
    size_t head = rest.size();
    for (size_t j = 0; j < last && head == rest.size(); ++j)
      if (rest[j]->value && holdsProduct(rest[j]->value))
        head = j;
    if (head == rest.size())
      return false;
    for (size_t j = 0; j <= head; ++j)
      if ((rest[j]->kind != StmtKind::Define && rest[j]->kind != StmtKind::Assign) ||
          touches(rest[j], acc))
        return false;
    for (size_t j = last + 1; j < rest.size(); ++j)
      if (touches(rest[j], acc))
        return false;
    // A product after the last candidate would run while it is in flight: not handled.
    for (size_t j = last + 1; j < rest.size(); ++j)
      if (rest[j]->value && holdsProduct(rest[j]->value))
        return false;
    // Split the copies: those of the product's ring wait for it; the others keep their place.
    const int ring = product->operands[1]->type.layout->buffer;
    std::vector<Stmt> kept, moved;
    for (const Stmt &c : copies)
      (c->value->type.layout && c->value->type.layout->buffer == ring ? moved : kept).push_back(c);
    if (moved.empty() || ring < 0)
      return false;

    const std::string &i = loop->var;
    const std::vector<Stmt> headStmts(rest.begin(),
                                      rest.begin() + static_cast<std::ptrdiff_t>(head) + 1);
    // Locals the head defines live across iterations now: defined before the loop.
    for (const Stmt &s : headStmts)
      if (s->kind == StmtKind::Define)
        out.push_back(
            makeDefine(s->var, withLayout(makeFull(s->value->type.shape, 0, s->value->type.dtype),
                                          s->value->type.layout, {})));
    // The first iteration's head, with both groups of copies of the ring's next stage.
    auto append = [](std::vector<Stmt> &to, const std::vector<Stmt> &stmts) {
      to.insert(to.end(), stmts.begin(), stmts.end());
    };
    auto less = [](const Expr &a, const Expr &b) {
      Cond c;
      c.kind = Cond::Kind::Less;
      c.a = a;
      c.b = b;
      return c;
    };
    const StmtNode &wait = *body[0];
    std::vector<Stmt> prologue{makeAsyncWait(stages - 2, loop->begin, wait.step, wait.group)};
    append(prologue, substituteSymbol(i, loop->begin, kept));
    prologue.push_back(makeAsyncCommit());
    append(prologue, substituteSymbol(i, loop->begin, moved));
    prologue.push_back(makeAsyncCommit());
    append(prologue, substituteSymbol(i, loop->begin, asAssignments(headStmts)));
    out.push_back(makeIf(less(loop->begin, loop->end), prologue, {}));
    // The rotated body.
    std::vector<Stmt> rotated(rest.begin() + static_cast<std::ptrdiff_t>(head) + 1,
                              rest.begin() + static_cast<std::ptrdiff_t>(last));
    rotated.push_back(makeDotIssue(acc, product));
    rotated.insert(rotated.end(), rest.begin() + static_cast<std::ptrdiff_t>(last) + 1, rest.end());
    const Expr following = Expr::symbol(i) + Expr(int64_t{1});
    std::vector<Stmt> nextHead{makeAsyncWait(2 * (stages - 2), following, wait.step, wait.group)};
    append(nextHead, substituteSymbol(i, following, kept));
    nextHead.push_back(makeAsyncCommit());
    append(nextHead, substituteSymbol(i, following, asAssignments(headStmts)));
    rotated.push_back(makeIf(less(following, loop->end), nextHead, {}));
    rotated.push_back(makeDotWait(acc));
    rotated.push_back(makeBarrier());
    append(rotated, substituteSymbol(i, following, moved));
    rotated.push_back(makeAsyncCommit());
    out.push_back(makeFor(i, loop->begin, loop->end, loop->step, rotated));
    return true;
  }
};

} // namespace

kir::Function overlapProducts(const kir::Function &resident, const GpuTarget &gpu) {
  if (gpu.knobs.overlap != 1 || !gpu.tuning().wgmma())
    return resident;
  Function out = resident;
  out.body = Overlapper().stmts(resident.body);
  return out;
}

} // namespace ntc::passes
