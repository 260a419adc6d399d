//===- AllocateShared.cpp - the block's shared memory ---------------------===//
//
// Two kinds of users share the dynamic shared-memory buffer of a block:
//
// * operations that communicate between threads for a moment (a layout conversion, a
//   reduction across warps, a blocked dot or transpose, the GEMM ring of dot_loop): each starts
//   and ends with a barrier, so they all use one scratch region at offset 0, as large as the
//   largest of them;
// * tiles resident in shared memory (the B operands of tensor-core products): a statement makes
//   them and the same statement consumes them, so they are placed after the scratch region, one
//   after another within a statement, and every statement starts again at the same address.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>

namespace ntc::passes {

namespace {

using namespace kir;

int64_t align16(int64_t n) { return (n + 15) / 16 * 16; }

bool isShared(const LayoutRef &l) { return l && l->kind == TileLayout::Kind::Shared; }

/// True when a conversion keeps every element in its thread (Mma<WM, 1> → its DotA) or within
/// its warp (a Slice to its lane shares and back).
bool inRegisters(const Value &convert) {
  const LayoutRef &from = convert->operands[0]->type.layout, &to = convert->type.layout;
  if (convert->transpose || !from || !to)
    return false;
  if (to->kind == TileLayout::Kind::LanePartial)
    return sameLayout(to->parent, from);
  if (from->kind == TileLayout::Kind::LanePartial)
    return sameLayout(from->parent, to);
  return from->kind == TileLayout::Kind::Mma && from->warpsN == 1 &&
         to->kind == TileLayout::Kind::DotA && sameLayout(to->parent, from);
}

/// Scratch bytes of the operations of a value (0 for those that stay in registers).
int64_t scratchOf(const Value &v, int threads) {
  int64_t n = shapeElements(v->type.shape);
  const bool laidOut = v->type.layout != nullptr;
  switch (v->kind) {
  case ValueKind::SharedStage:
    return 0;
  case ValueKind::ConvertLayout:
    if (isShared(v->type.layout) || inRegisters(v))
      return 0;
    return dtypeBytes(v->type.dtype) * n;
  case ValueKind::Reduce: {
    const Value &x = v->operands[0];
    const LayoutRef &in = x->type.layout;
    if (in && in->kind == TileLayout::Kind::Mma) {
      int cross = v->axis == 1 ? in->warpsN : in->warpsM;
      return cross == 1 ? 0 : 16 * cross * x->type.shape[1 - v->axis].constValue();
    }
    return (dtypeBytes(x->type.dtype) + 8) * (v->allAxes ? threads : shapeElements(x->type.shape));
  }
  case ValueKind::Dot: {
    if (laidOut)
      return 0;
    const auto &a = v->operands[0]->type.shape, &b = v->operands[1]->type.shape;
    DType in = promote(v->operands[0], v->operands[1]);
    return dtypeBytes(in) * (shapeElements(a) + shapeElements(b)) + 16;
  }
  case ValueKind::Trans:
    return dtypeBytes(v->type.dtype) * n;
  case ValueKind::BroadcastTo:
    return laidOut ? 0 : dtypeBytes(v->type.dtype) * n;
  default: {
    // Blocked operands broadcast to this value's shape go through shared memory.
    int64_t need = 0;
    if (!laidOut)
      for (const Value &o : v->operands)
        if (o->type.shape != v->type.shape)
          need = std::max<int64_t>(need, 8 * std::max<int64_t>(shapeElements(o->type.shape), 1));
    return need;
  }
  }
}

/// Rebuilds values with the shared tiles of one statement at their offsets (pipelined
/// buffers at theirs, from `buffers`).
class Placer {
public:
  Placer(int64_t base, const std::map<int, int64_t> &buffers) : next_(base), buffers_(buffers) {}

  Value place(const Value &v) {
    return mapValue(
        v,
        [&](const Value &node, const std::vector<Value> &operands) -> Value {
          const LayoutRef &l = node->type.layout;
          if (!isShared(l))
            return nullptr;
          if (l->buffer >= 0)
            return withLayout(node,
                              pipelinedLayout(l->buffer, l->stages, l->stageBytes,
                                              buffers_.at(l->buffer), l->transposed, l->swizzle),
                              operands);
          if (node->kind != ValueKind::ConvertLayout)
            return nullptr;
          int64_t offset = next_;
          next_ += sharedTileBytes(node->type.dtype, node->type.shape, l->transposed);
          return withLayout(node, sharedLayout(offset, l->transposed), operands);
        },
        done_);
  }

  int64_t end() const { return next_; }

private:
  int64_t next_;
  const std::map<int, int64_t> &buffers_;
  ValueMemo done_;
};

std::vector<Stmt> placeStmts(const std::vector<Stmt> &body, int64_t base,
                             const std::map<int, int64_t> &buffers, int64_t &end) {
  std::vector<Stmt> out;
  for (const Stmt &s : body) {
    Placer placer(base, buffers);
    switch (s->kind) {
    case StmtKind::Define:
      out.push_back(makeDefine(s->var, placer.place(s->value)));
      break;
    case StmtKind::Assign:
      out.push_back(makeAssign(s->var, placer.place(s->value)));
      break;
    case StmtKind::Store:
      out.push_back(makeStore(s->param, s->subscripts, placer.place(s->value)));
      break;
    case StmtKind::For:
      out.push_back(
          makeFor(s->var, s->begin, s->end, s->step, placeStmts(s->body, base, buffers, end)));
      break;
    case StmtKind::If:
      out.push_back(makeIf(s->cond, placeStmts(s->body, base, buffers, end),
                           placeStmts(s->orelse, base, buffers, end)));
      break;
    case StmtKind::AsyncCopy:
      out.push_back(withValue(s, placer.place(s->value)));
      break;
    case StmtKind::DotIssue:
      out.push_back(makeDotIssue(s->var, placer.place(s->value)));
      break;
    case StmtKind::AsyncCommit:
    case StmtKind::AsyncWait:
    case StmtKind::DotWait:
    case StmtKind::Barrier:
    case StmtKind::StageRelease:
    case StmtKind::StageAcquire:
    case StmtKind::StageReleaseHeld:
      out.push_back(s);
      break;
    }
    end = std::max(end, placer.end());
  }
  return out;
}

} // namespace

int64_t sharedTileBytes(DType dtype, const std::vector<Expr> &shape, bool transposed) {
  int64_t rows = shape[transposed ? 1 : 0].constValue();
  int64_t cols = shape[transposed ? 0 : 1].constValue();
  int64_t bytes = dtypeBytes(dtype);
  return align16(bytes * rows * (cols + 16 / bytes));
}

SharedPlan allocateShared(const kir::Function &laidOut, int threads, const GpuTarget &gpu) {
  SharedPlan plan;
  int64_t scratch = 0;
  forEachStmt(laidOut.body, [&](const Stmt &s) {
    if (auto loop = planDotLoop(s, threads, gpu))
      scratch = std::max(scratch, loop->smemBytes);
    return true;
  });
  forEachValue(laidOut.body,
               [&](const Value &v) { scratch = std::max(scratch, scratchOf(v, threads)); });
  plan.scratchBytes = scratch == 0 ? 0 : scratch + 64;
  // Pipelined stage buffers, each its own region after the scratch.
  std::map<int, int64_t> buffers;
  int64_t base = align16(plan.scratchBytes);
  forEachValue(laidOut.body, [&](const Value &v) {
    const LayoutRef &l = v->type.layout;
    if (isShared(l) && l->buffer >= 0 && !buffers.count(l->buffer)) {
      if (l->swizzle > 0) // the buffer starts 1024-byte aligned (CudaDialect's prologue)
        base = (base + 1023) / 1024 * 1024;
      buffers[l->buffer] = base;
      base += align16(l->stages * l->stageBytes);
    }
  });
  int64_t end = buffers.empty() ? plan.scratchBytes : base;
  plan.function = laidOut;
  plan.function.body = placeStmts(laidOut.body, base, buffers, end);
  plan.totalBytes = end;
  return plan;
}

} // namespace ntc::passes
