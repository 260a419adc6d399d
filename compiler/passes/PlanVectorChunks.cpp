//===- PlanVectorChunks.cpp - the vector accesses of the vector program ---===//
//
// A kernel's program with vector accesses (the twin that the dispatcher launches once it has
// checked strides and alignment) reads and writes whole chunks of consecutive elements where
// planVectorAccess proves that it can. This pass records that decision on the laid-out IR, as
// the chunk of each access (ValueNode/StmtNode::vectorChunk), which the printer prints, and
// collects the dispatcher's checks for the same accesses (one ntc::rt::vector_ready per
// parameter and dimension that they walk). Chunks:
//   * a load of a register tile and a store: the tile's chunk in its layout (tileChunk:
//     blocked chunks, Mma fragment rows, or a column Slice's pairs);
//   * the operand loads of a GEMM main loop (planDotLoop): dot_loop's 16-byte copies;
//   * the load of a pipelined copy (AsyncCopy): 16-byte asynchronous copies, when a row is a
//     whole number of them.
// Loads into other layouts, and accesses that planVectorAccess rejects, stay element by
// element (chunk 0).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

class ChunkPlanner {
public:
  ChunkPlanner(const kir::Function &f, const GridInfo &grid, int threads, const GpuTarget &gpu)
      : f_(f), grid_(grid), threads_(threads), gpu_(gpu) {}

  /// The launch-time conditions of the accesses chunked so far, in the order met.
  std::vector<VectorCondition> conditions;

  std::vector<kir::Stmt> stmts(const std::vector<kir::Stmt> &body) {
    std::vector<kir::Stmt> out;
    for (const kir::Stmt &s : body)
      out.push_back(stmt(s));
    return out;
  }

private:
  const kir::Function &f_;
  const GridInfo &grid_;
  int threads_;
  const GpuTarget &gpu_;

  /// The coordinates and simplified mask of param[subscripts].
  Access access(int param, const std::vector<Expr> &subscripts) const {
    Access a = resolveAccess(f_, param, subscripts);
    simplifyMask(a, grid_, f_, param);
    return a;
  }

  int elementBytes(int param) const {
    return dtypeBytes(f_.spec.params[f_.spec.arranged[param].source].dtype);
  }

  /// `chunk` when the access `a` of `param` can move whole chunks of that many elements with
  /// vector instructions (its launch-time condition is then added), else 0.
  int accepted(const Access &a, int param, int chunk) {
    const std::optional<VectorAccess> plan =
        chunk > 0 ? planVectorAccess(a, elementBytes(param), chunk) : std::nullopt;
    if (!plan)
      return 0;
    const int source = f_.spec.arranged[param].source;
    for (VectorCondition &c : conditions)
      if (c.param == source && c.dim == plan->dim) {
        c.width = std::max(c.width, plan->width);
        return chunk;
      }
    conditions.push_back({source, plan->dim, plan->width});
    return chunk;
  }

  /// `v` with its loads of register tiles chunked (blocked, Mma and column Slice tiles).
  kir::Value registerLoads(const kir::Value &v) {
    kir::ValueMemo memo;
    return kir::mapValue(
        v,
        [&](const kir::Value &n, const std::vector<kir::Value> &) -> kir::Value {
          if (n->kind != kir::ValueKind::Load)
            return nullptr;
          const Access a = access(n->param, n->subscripts);
          const int chunk = accepted(
              a, n->param, tileChunk(n->type.layout, a, threads_, elementBytes(n->param), true));
          return chunk > 0 ? kir::withVectorChunk(n, chunk) : nullptr;
        },
        memo);
  }

  /// A GEMM main loop with its operand loads chunked for dot_loop's copies.
  kir::Stmt dotLoop(const kir::Stmt &s, const DotLoop &loop) {
    std::unordered_map<const kir::ValueNode *, kir::Value> operands;
    for (const kir::Value *load : {&loop.a, &loop.b}) {
      const int chunk =
          accepted(access((*load)->param, (*load)->subscripts), (*load)->param, kDotLoopChunk);
      if (chunk > 0)
        operands[load->get()] = kir::withVectorChunk(*load, chunk);
    }
    kir::ValueMemo memo;
    const kir::Stmt &update = s->body[0];
    kir::Value value = kir::mapValue(
        update->value,
        [&](const kir::Value &n, const std::vector<kir::Value> &) -> kir::Value {
          auto it = operands.find(n.get());
          return it == operands.end() ? nullptr : it->second;
        },
        memo);
    return kir::makeFor(s->var, s->begin, s->end, s->step, {kir::makeAssign(update->var, value)});
  }

  /// A pipelined copy with its load chunked for 16-byte asynchronous copies.
  kir::Stmt asyncCopy(const kir::Stmt &s) {
    const kir::Value &staged = s->value, &load = staged->operands[0];
    const int chunk = asyncCopyChunk(load->type.dtype);
    const Expr &row = load->type.shape.back();
    if (!row.isConst() || row.constValue() % chunk != 0 ||
        accepted(access(load->param, load->subscripts), load->param, chunk) == 0)
      return s;
    return kir::withValue(
        s, kir::withLayout(staged, staged->type.layout, {kir::withVectorChunk(load, chunk)}));
  }

  /// A store with its loads chunked, then itself (the order the conditions list them in).
  kir::Stmt store(const kir::Stmt &s) {
    kir::Stmt stored = kir::makeStore(s->param, s->subscripts, registerLoads(s->value));
    const Access a = access(s->param, s->subscripts);
    const int chunk = accepted(
        a, s->param, tileChunk(s->value->type.layout, a, threads_, elementBytes(s->param), false));
    return chunk > 0 ? kir::withVectorChunk(stored, chunk) : stored;
  }

  kir::Stmt stmt(const kir::Stmt &s) {
    switch (s->kind) {
    case kir::StmtKind::Define:
      return kir::makeDefine(s->var, registerLoads(s->value));
    case kir::StmtKind::Assign:
      return kir::makeAssign(s->var, registerLoads(s->value));
    case kir::StmtKind::Store:
      return store(s);
    case kir::StmtKind::AsyncCopy:
      return asyncCopy(s);
    case kir::StmtKind::For:
      if (auto loop = planDotLoop(s, threads_, gpu_))
        return dotLoop(s, *loop);
      return kir::makeFor(s->var, s->begin, s->end, s->step, stmts(s->body));
    case kir::StmtKind::If:
      return kir::makeIf(s->cond, stmts(s->body), stmts(s->orelse));
    case kir::StmtKind::DotIssue:
      return kir::makeDotIssue(s->var, registerLoads(s->value));
    case kir::StmtKind::AsyncCommit:
    case kir::StmtKind::AsyncWait:
    case kir::StmtKind::DotWait:
    case kir::StmtKind::Barrier:
    case kir::StmtKind::StageRelease:
    case kir::StmtKind::StageAcquire:
    case kir::StmtKind::StageReleaseHeld:
      return s;
    }
    return s;
  }
};

} // namespace

VectorPlan planVectorChunks(const kir::Function &laid, const GridInfo &grid, int threads,
                            const GpuTarget &gpu) {
  ChunkPlanner planner(laid, grid, threads, gpu);
  VectorPlan plan{laid, {}};
  plan.function.body = planner.stmts(laid.body);
  plan.conditions = std::move(planner.conditions);
  return plan;
}

} // namespace ntc::passes
