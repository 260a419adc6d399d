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
// With `overlap=2` (level 2) the statements between the two products (the middle: attention's
// softmax) also run while the last product is in flight, as FlashAttention-3's intra-warpgroup
// overlap: the next iteration's first product is issued before the last one, and a wait that
// leaves one product in flight completes it alone:
//
//   for i in range(b, e):                    %x, %m = <placeholder>   (head, middle definitions)
//     async_wait S-2                         if b < e:
//     async_copy K(i+S-1), V(i+S-1)            (as above) ; head(b) ; middle(b)
//     async_commit                           for i in range(b, e - 1):
//     head(i)     (%s = dot(%q, K(i)))         async_wait 2(S-2) ; K(i+S) ; commit
//     middle(i)   (softmax of %s)              head(i+1) with dot_issue %s <- dot(%q, K(i+1))
//     %acc <- dot(p, V(i), acc')               dot_issue %acc <- dot(.., V(i), ..) ; tail(i)
//     tail(i)                                  dot_wait %s pending=1 ; middle(i+1)
//                                              dot_wait %acc ; barrier ; V(i+S) ; commit
//                                            if b < e: %acc <- dot(.., V(e-1), ..) ; tail(e-1)
//
// Every iteration of the loop issues the next first product: ptxas serializes every wgmma of a
// function (C7514) when a wait may retire a product issued on some paths only, so the last
// iteration, which has no next one, follows the loop. Level 2 needs the first product to start
// afresh from a resident A operand through wgmma (no in-flight record: its operands are in
// shared memory), the middle to assign register locals only (ifs of assignments included) and
// hold no product or accumulator, and neither the last product nor the tail to read what the
// head writes (the next head has overwritten it by then); elsewhere the loop rotates as at
// level 1.
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
#include <optional>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

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
            (t->value && readsLocal(t->value, name));
    return true;
  });
  return found;
}

/// `stmts` with their definitions as assignments (the locals become loop-carried); other
/// statements as they are.
std::vector<Stmt> asAssignments(const std::vector<Stmt> &stmts) {
  std::vector<Stmt> out;
  for (const Stmt &s : stmts)
    out.push_back(s->kind == StmtKind::Define ? makeAssign(s->var, s->value) : s);
  return out;
}

/// The parts of a candidate loop's body.
struct Candidate {
  int64_t stages = 0;
  std::vector<Stmt> kept, moved; ///< the copies: of other rings, of the last product's ring
  std::vector<Stmt> head;        ///< the statements up to the first product, that one included
  std::vector<Stmt> middle;      ///< those between the first product and the last
  Stmt last;                     ///< `%acc <- dot(a, shared_stage(ring), acc')`
  std::vector<Stmt> tail;        ///< those after the last product
};

/// The locals that `stmts` define or assign (nested bodies included).
std::set<std::string> written(const std::vector<Stmt> &stmts) {
  std::set<std::string> names;
  forEachStmt(stmts, [&](const Stmt &s) {
    if (s->kind == StmtKind::Define || s->kind == StmtKind::Assign)
      names.insert(s->var);
    return true;
  });
  return names;
}

/// True when `stmts` only assign locals, directly or in the branches of ifs.
bool onlyAssignments(const std::vector<Stmt> &stmts) {
  for (const Stmt &s : stmts)
    if (s->kind != StmtKind::Assign &&
        !(s->kind == StmtKind::If && onlyAssignments(s->body) && onlyAssignments(s->orelse)))
      return false;
  return true;
}

class Overlapper {
public:
  explicit Overlapper(int level) : level_(level) {}

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

  /// True when `product` starts afresh and runs as a chain of wgmma with both operands swizzled
  /// in shared memory, A resident (the asynchronous case of ntc::dev::dot_issue's shared form).
  static bool asyncSharedProduct(const Value &product) {
    if (product->kind != ValueKind::Dot || product->operands.size() != 2 ||
        product->type.dtype != DType::Float32)
      return false;
    const LayoutRef &a = product->operands[0]->type.layout;
    if (!a || a->kind != TileLayout::Kind::Shared || a->swizzle == 0)
      return false;
    return product->operands[1]->kind == ValueKind::SharedStage && wgmmaProduct(product);
  }

  /// The parts of `loop`'s body when it is a candidate of level 1.
  static std::optional<Candidate> split(const Stmt &loop) {
    const std::vector<Stmt> &body = loop->body;
    // The pipelined prologue of the body: async_wait, the copies, async_commit.
    if (body.empty() || body[0]->kind != StmtKind::AsyncWait)
      return std::nullopt;
    Candidate c;
    c.stages = body[0]->begin.constValue() + 2;
    size_t k = 1;
    std::vector<Stmt> copies;
    while (k < body.size() && body[k]->kind == StmtKind::AsyncCopy)
      copies.push_back(body[k++]);
    if (copies.empty() || k >= body.size() || body[k]->kind != StmtKind::AsyncCommit)
      return std::nullopt;
    const std::vector<Stmt> rest(body.begin() + static_cast<std::ptrdiff_t>(k) + 1, body.end());
    // The last product, into a local, and the first statement holding a product.
    size_t last = rest.size();
    for (size_t j = 0; j < rest.size(); ++j)
      if (rest[j]->kind == StmtKind::Assign && asyncProduct(rest[j]->value))
        last = j;
    if (last == rest.size())
      return std::nullopt;
    const std::string acc = rest[last]->var;
    const Value &product = rest[last]->value;
    size_t head = rest.size();
    for (size_t j = 0; j < last && head == rest.size(); ++j)
      if (rest[j]->value && holdsProduct(rest[j]->value))
        head = j;
    if (head == rest.size())
      return std::nullopt;
    for (size_t j = 0; j <= head; ++j)
      if ((rest[j]->kind != StmtKind::Define && rest[j]->kind != StmtKind::Assign) ||
          touches(rest[j], acc))
        return std::nullopt;
    for (size_t j = last + 1; j < rest.size(); ++j)
      if (touches(rest[j], acc))
        return std::nullopt;
    // A product after the last candidate would run while it is in flight: not handled.
    for (size_t j = last + 1; j < rest.size(); ++j)
      if (rest[j]->value && holdsProduct(rest[j]->value))
        return std::nullopt;
    // Split the copies: those of the product's ring wait for it; the others keep their place.
    const int ring = product->operands[1]->type.layout->buffer;
    for (const Stmt &copy : copies)
      (copy->value->type.layout && copy->value->type.layout->buffer == ring ? c.moved : c.kept)
          .push_back(copy);
    if (c.moved.empty() || ring < 0)
      return std::nullopt;
    auto at = [&](size_t j) { return rest.begin() + static_cast<std::ptrdiff_t>(j); };
    c.head.assign(at(0), at(head + 1));
    c.middle.assign(at(head + 1), at(last));
    c.last = rest[last];
    c.tail.assign(at(last + 1), rest.end());
    return c;
  }

  /// True when the candidate may issue the next iteration's first product before its last one
  /// and run the middle of the next iteration while the last is in flight (level 2): the first
  /// product is the head's last statement and runs as wgmma from shared memory; the middle
  /// assigns register locals only, holds no product and leaves the accumulator alone; neither
  /// the last product nor the tail reads what the head writes (the next head has overwritten it
  /// by then).
  static bool issuesAhead(const Candidate &c) {
    const Stmt &first = c.head.back();
    if (!asyncSharedProduct(first->value))
      return false;
    const std::string &acc = c.last->var;
    for (const Stmt &s : c.middle) {
      if (touches(s, acc))
        return false;
      bool product = false;
      forEachStmt({s}, [&](const Stmt &t) {
        product = product || (t->value && holdsProduct(t->value));
        return true;
      });
      if (product)
        return false;
      if (s->kind == StmtKind::Define) {
        const LayoutRef &l = s->value->type.layout;
        if (l && l->kind == TileLayout::Kind::Shared)
          return false;
      } else if (!onlyAssignments({s})) {
        return false;
      }
    }
    for (const std::string &name : written(c.head)) {
      if (readsLocal(c.last->value, name))
        return false;
      for (const Stmt &s : c.tail)
        if (touches(s, name))
          return false;
    }
    return true;
  }

  /// True when `v` computes on registers alone: no memory, no product, no reduction across
  /// threads, and layout conversions into register layouts only.
  static bool onRegisters(const Value &v) {
    bool only = true;
    forEachValue(v, [&](const Value &x) {
      switch (x->kind) {
      case ValueKind::Local:
      case ValueKind::Constant:
      case ValueKind::ScalarParam:
      case ValueKind::Index:
      case ValueKind::Full:
      case ValueKind::Unary:
      case ValueKind::Binary:
      case ValueKind::Where:
      case ValueKind::Cast:
      case ValueKind::ExpandDims:
      case ValueKind::BroadcastTo:
        break;
      case ValueKind::ConvertLayout:
        only = only && x->type.layout && x->type.layout->kind != TileLayout::Kind::Shared;
        break;
      default:
        only = false;
      }
    });
    return only;
  }

  /// At level 2, computes the last product's A operand at the end of the middle (as a local of
  /// its own) when it computes on registers alone and does not read the accumulator: the loop
  /// then carries the operand itself (attention's P as 16-bit wgmma fragments) rather than
  /// what it is computed from (P in 32 bits), which halves those registers while the product
  /// is in flight. Between the end of the middle and the product only the next head runs, and
  /// the product reads nothing the head writes (issuesAhead), so the value is the same. The
  /// local's `ntc_` prefix is reserved for generated code: no kernel name can collide with it.
  static void carryOperand(Candidate &c) {
    const Value &product = c.last->value;
    const Value &a = product->operands[0];
    if (a->kind == ValueKind::Local || readsLocal(a, c.last->var) || !onRegisters(a))
      return;
    const std::string name = "ntc_" + c.last->var + "_a";
    c.middle.push_back(makeDefine(name, a));
    std::vector<Value> operands = product->operands;
    operands[0] = makeLocal(name, a->type);
    c.last = makeAssign(c.last->var, withLayout(product, product->type.layout, operands));
  }

  /// Appends the rotated form of `loop` to `out` and returns true when it is a candidate.
  bool rotate(const Stmt &loop, std::vector<Stmt> &out) {
    std::optional<Candidate> c = split(loop);
    if (!c)
      return false;
    const bool ahead = level_ >= 2 && issuesAhead(*c);
    if (ahead)
      carryOperand(*c);
    const std::string &i = loop->var;
    auto append = [](std::vector<Stmt> &to, const std::vector<Stmt> &stmts) {
      to.insert(to.end(), stmts.begin(), stmts.end());
    };
    auto less = [](const Expr &a, const Expr &b) {
      Cond cond;
      cond.kind = Cond::Kind::Less;
      cond.a = a;
      cond.b = b;
      return cond;
    };
    // Locals the head (and, issued ahead, the middle) defines live across iterations now:
    // defined before the loop.
    std::vector<Stmt> carried = c->head;
    if (ahead)
      append(carried, c->middle);
    for (const Stmt &s : carried)
      if (s->kind == StmtKind::Define)
        out.push_back(
            makeDefine(s->var, withLayout(makeFull(s->value->type.shape, 0, s->value->type.dtype),
                                          s->value->type.layout, {})));
    // The first iteration's head (and middle), with both groups of copies of the ring's next
    // stage.
    const StmtNode &wait = *loop->body[0];
    std::vector<Stmt> prologue{makeAsyncWait(c->stages - 2, loop->begin, wait.step, wait.group)};
    append(prologue, substituteSymbol(i, loop->begin, c->kept));
    prologue.push_back(makeAsyncCommit());
    append(prologue, substituteSymbol(i, loop->begin, c->moved));
    prologue.push_back(makeAsyncCommit());
    append(prologue, substituteSymbol(i, loop->begin, asAssignments(c->head)));
    if (ahead)
      append(prologue, substituteSymbol(i, loop->begin, asAssignments(c->middle)));
    out.push_back(makeIf(less(loop->begin, loop->end), prologue, {}));
    // The next iteration's head: its ring's stage, its copies, its statements.
    const Expr following = Expr::symbol(i) + Expr(int64_t{1});
    std::vector<Stmt> nextHead{
        makeAsyncWait(2 * (c->stages - 2), following, wait.step, wait.group)};
    append(nextHead, substituteSymbol(i, following, c->kept));
    nextHead.push_back(makeAsyncCommit());
    std::vector<Stmt> rotated;
    if (ahead) {
      // for i in range(b, e - 1): head(i + 1), its product issued ; issue the last product ;
      //   tail(i) ; wait for the first product ; middle(i + 1) ; wait for the last product.
      // Every iteration issues the next first product: ptxas serializes every wgmma of the
      // program (C7514) when a wait retires products issued on some paths only. The last
      // iteration, with no next head, follows the loop as it was.
      std::vector<Stmt> head = asAssignments(c->head);
      const Stmt first = head.back();
      head.back() = makeDotIssue(first->var, first->value);
      append(rotated, nextHead);
      append(rotated, substituteSymbol(i, following, head));
      rotated.push_back(makeDotIssue(c->last->var, c->last->value));
      append(rotated, c->tail);
      rotated.push_back(makeDotWait(first->var, 1, false));
      append(rotated, substituteSymbol(i, following, asAssignments(c->middle)));
    } else {
      // for i: middle(i) ; issue the last product ; tail(i) ; [head(i + 1)] ; wait for the last.
      rotated = c->middle;
      rotated.push_back(makeDotIssue(c->last->var, c->last->value));
      append(rotated, c->tail);
      append(nextHead, substituteSymbol(i, following, asAssignments(c->head)));
      rotated.push_back(makeIf(less(following, loop->end), nextHead, {}));
    }
    // Both end with the last product's wait and its ring's next copies.
    rotated.push_back(makeDotWait(c->last->var));
    rotated.push_back(makeBarrier());
    append(rotated, substituteSymbol(i, following, c->moved));
    rotated.push_back(makeAsyncCommit());
    if (!ahead) {
      out.push_back(makeFor(i, loop->begin, loop->end, loop->step, rotated));
      return true;
    }
    const Expr lastIteration = loop->end - Expr(int64_t{1});
    out.push_back(makeFor(i, loop->begin, lastIteration, loop->step, rotated));
    std::vector<Stmt> epilogue{c->last};
    append(epilogue, c->tail);
    out.push_back(
        makeIf(less(loop->begin, loop->end), substituteSymbol(i, lastIteration, epilogue), {}));
    return true;
  }

  int level_;
};

} // namespace

kir::Function overlapProducts(const kir::Function &resident, const GpuTarget &gpu) {
  if (gpu.knobs.overlap < 1 || !gpu.tuning().wgmma())
    return resident;
  Function out = resident;
  out.body = Overlapper(gpu.knobs.overlap).stmts(resident.body);
  return out;
}

} // namespace ntc::passes
