//===- AssignLayouts.cpp - a GPU layout for every tile value --------------===//
//
// Layouts are anchored on the products that run on the tensor cores and propagated from there:
//
// * a dot of two 2-D float16/bfloat16 tiles accumulating float, whose shapes divide into the
//   16×8 fragments of the block's warps, gets the Mma layout; its A operand is converted to
//   the DotA layout (in registers when it comes from an Mma tile, as the probabilities of
//   attention do), its B operand goes to shared memory (a `trans` in front of it is folded into
//   that copy);
// * elementwise operations take the layout of their operands (an Mma operand wins over a
//   blocked one, which is converted); operands broadcast along a dimension get the Slice layout
//   of the result, so that broadcasting stays in registers;
// * a reduction of an Mma tile along one axis gives the Slice layout; expand_dims and
//   broadcast_to of a Slice tile return towards the parent;
// * loads, random numbers and everything else stay blocked; elementwise arithmetic on loads
//   whose result an Mma (or Slice) operand needs is computed in that layout from its loads on
//   (computedInWant) where the loads take fewer bytes than the result (the loads are then
//   converted instead of the result) and in programs meant to be persistent and
//   warp-specialized (knob persistent=1 on sm_90a), whose loads then read that layout in place
//   (no conversion through shared memory); values made from constants,
//   aranges and offsets alone are materialized in whatever layout their user wants;
// * a local variable takes the join of the layouts of every value assigned to it (a fixed
//   point over the loop bodies), so that loop-carried accumulators stay in fragments.
//
// Loops that planDotLoop hands to the GEMM pipeline (dot_loop) are left as they are; the
// accumulators they update are anchors too, pinned to the Mma layout of the loop's fragments
// (DotLoop::accumulator), so that the epilogue after the loop works on those registers.
// Without an eligible dot or a GEMM loop the function is returned unchanged.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <map>
#include <set>
#include <unordered_map>

namespace ntc::passes {

namespace {

using namespace kir;

bool isHalf(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

/// True for a product of two 2-D float16 (or two bfloat16) tiles accumulating float: the
/// element types and ranks mma.sync m16n8k16 takes.
bool tensorCoreTypes(const Value &v) {
  if (v->kind != ValueKind::Dot)
    return false;
  const Value &a = v->operands[0], &b = v->operands[1];
  return a->type.shape.size() == 2 && b->type.shape.size() == 2 &&
         v->type.dtype == DType::Float32 && a->type.dtype == b->type.dtype && isHalf(a->type.dtype);
}

/// The layout of a value during inference: Free values can be materialized in any layout.
struct Abstract {
  enum Kind { Free, Blocked, Layout, Conflict };
  Kind kind = Free;
  LayoutRef layout;
};

Abstract join(const Abstract &a, const Abstract &b) {
  if (a.kind == Abstract::Free || b.kind == Abstract::Conflict)
    return b;
  if (b.kind == Abstract::Free || a.kind == Abstract::Conflict)
    return a;
  if (a.kind == Abstract::Blocked)
    return b;
  if (b.kind == Abstract::Blocked)
    return a;
  return sameLayout(a.layout, b.layout) ? a : Abstract{Abstract::Conflict, nullptr};
}

bool sameAbstract(const Abstract &a, const Abstract &b) {
  return a.kind == b.kind && sameLayout(a.layout, b.layout);
}

/// The layout a value is finally given when it has no preference (Free) or a conflict: blocked.
LayoutRef concrete(const Abstract &a) { return a.kind == Abstract::Layout ? a.layout : nullptr; }

class LayoutAssigner {
public:
  /// `inPlace`: loads that an Mma (or Slice) operand needs are loaded in its layout
  /// (computedInWant) instead of converted through shared memory.
  LayoutAssigner(const Function &f, LayoutRef mma, std::set<const StmtNode *> dotLoops,
                 std::map<std::string, LayoutRef> pinned, bool inPlace)
      : f_(f), mma_(std::move(mma)), dotLoops_(std::move(dotLoops)), pinned_(std::move(pinned)),
        inPlace_(inPlace) {}

  Function run() {
    // Fixed point of the locals' layouts (each can only move up the lattice).
    for (int round = 0; round < 16; ++round) {
      natural_.clear();
      changed_ = false;
      inferStmts(f_.body);
      if (!changed_)
        break;
    }
    natural_.clear();
    final_ = true;
    Function out = f_;
    out.body = lowerStmts(f_.body);
    return out;
  }

private:
  // ---- inference ---------------------------------------------------------------------------

  void inferStmts(const std::vector<Stmt> &body) {
    for (const Stmt &s : body) {
      if (dotLoops_.count(s.get()))
        continue;
      if (s->value) {
        Abstract a = infer(s->value);
        if (s->kind == StmtKind::Define || s->kind == StmtKind::Assign)
          demand(s->var, a);
      }
      inferStmts(s->body);
      inferStmts(s->orelse);
    }
  }

  /// Joins `a` into the layout of the local `name`.
  void demand(const std::string &name, const Abstract &a) {
    if (pinned_.count(name))
      return;
    Abstract &local = env_[name];
    Abstract joined = join(local, a);
    if (!sameAbstract(joined, local)) {
      local = joined;
      changed_ = true;
    }
  }

  /// The layout of the local `name` (pinned ones have theirs; once inference is done, those
  /// with no preference are blocked).
  Abstract localLayout(const std::string &name) {
    if (auto it = pinned_.find(name); it != pinned_.end())
      return it->second ? Abstract{Abstract::Layout, it->second}
                        : Abstract{Abstract::Blocked, nullptr};
    Abstract a = env_[name];
    if (final_ && a.kind != Abstract::Layout)
      return {Abstract::Blocked, nullptr};
    return a;
  }

  bool eligibleDot(const Value &v) const {
    if (!mma_ || !tensorCoreTypes(v))
      return false;
    const Value &a = v->operands[0], &b = v->operands[1];
    int64_t m = a->type.shape[0].constValue(), k = a->type.shape[1].constValue(),
            n = b->type.shape[1].constValue();
    return m % (16 * mma_->warpsM) == 0 && k % 16 == 0 && n % (8 * mma_->warpsN) == 0;
  }

  Abstract infer(const Value &v) {
    if (auto it = natural_.find(v.get()); it != natural_.end())
      return it->second;
    Abstract a = compute(v);
    natural_.emplace(v.get(), a);
    return a;
  }

  /// The contribution of operand `o` to an elementwise result of shape `shape`.
  Abstract operandContribution(const Value &o, const std::vector<Expr> &shape) {
    if (shapeElements(o->type.shape) == 1)
      return {};
    Abstract a = infer(o);
    if (o->type.shape == shape || a.kind != Abstract::Layout)
      return a;
    if (a.layout->kind == TileLayout::Kind::Slice)
      return {Abstract::Layout, a.layout->parent};
    return {Abstract::Blocked, nullptr};
  }

  Abstract compute(const Value &v) {
    static const Abstract blocked{Abstract::Blocked, nullptr};
    // Every operand is inferred, whatever this value makes of it: a product anywhere below
    // (under a one-element operand, a full reduction, a random-number seed) may demand a layout
    // for a local, and that must be known before any statement is lowered.
    for (const Value &o : v->operands)
      infer(o);
    switch (v->kind) {
    case ValueKind::Full:
    case ValueKind::Arange:
    case ValueKind::Offsets:
    case ValueKind::Constant:
    case ValueKind::Index:
    case ValueKind::ScalarParam:
      return {};
    case ValueKind::Load:
    case ValueKind::Rand:
    case ValueKind::ConvertLayout:
    case ValueKind::SharedStage:
      return blocked;
    case ValueKind::Local:
      return localLayout(v->local);
    case ValueKind::Unary:
    case ValueKind::Cast:
      return infer(v->operands[0]);
    case ValueKind::Binary:
    case ValueKind::Where: {
      Abstract a;
      for (const Value &o : v->operands)
        a = join(a, operandContribution(o, v->type.shape));
      return a;
    }
    case ValueKind::Reduce: {
      Abstract x = infer(v->operands[0]);
      if (v->allAxes)
        return blocked;
      if (x.kind == Abstract::Free)
        return x;
      if (x.kind == Abstract::Layout && x.layout->kind == TileLayout::Kind::Mma)
        return {Abstract::Layout, sliceLayout(x.layout, static_cast<int>(v->axis))};
      return blocked;
    }
    case ValueKind::ExpandDims: {
      Abstract x = infer(v->operands[0]);
      if (x.kind == Abstract::Free)
        return x;
      if (x.kind == Abstract::Layout && x.layout->kind == TileLayout::Kind::Slice &&
          v->type.shape.size() == 2 && v->axis == x.layout->dim)
        return x;
      return blocked;
    }
    case ValueKind::BroadcastTo: {
      Abstract x = infer(v->operands[0]);
      if (x.kind == Abstract::Free)
        return x;
      if (x.kind == Abstract::Layout && x.layout->kind == TileLayout::Kind::Slice &&
          v->type.shape.size() == 2)
        return {Abstract::Layout, x.layout->parent};
      return blocked;
    }
    case ValueKind::Trans: {
      Abstract x = infer(v->operands[0]);
      return x.kind == Abstract::Free ? x : blocked;
    }
    case ValueKind::Dot:
      if (!eligibleDot(v))
        return blocked;
      // A local used as the A operand is kept in the operand's layout (converted once where
      // it is assigned, not at every use: the queries of attention stay in registers).
      if (const Value &a = v->operands[0]; a->kind == ValueKind::Local)
        demand(a->local, {Abstract::Layout, dotOperandLayout(mma_, 0, 2)});
      return {Abstract::Layout, mma_};
    }
    return blocked;
  }

  // ---- lowering ----------------------------------------------------------------------------

  std::vector<Stmt> lowerStmts(const std::vector<Stmt> &body) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      if (dotLoops_.count(s.get())) {
        out.push_back(s);
        continue;
      }
      switch (s->kind) {
      case StmtKind::Define:
        out.push_back(makeDefine(s->var, lower(s->value, concrete(localLayout(s->var)))));
        break;
      case StmtKind::Assign:
        out.push_back(makeAssign(s->var, lower(s->value, concrete(localLayout(s->var)))));
        break;
      case StmtKind::Store:
        out.push_back(makeStore(s->param, s->subscripts, lowerAsIs(s->value)));
        break;
      case StmtKind::For:
        out.push_back(makeFor(s->var, s->begin, s->end, s->step, lowerStmts(s->body)));
        break;
      case StmtKind::If:
        out.push_back(makeIf(s->cond, lowerStmts(s->body), lowerStmts(s->orelse)));
        break;
      case StmtKind::AsyncCopy:
      case StmtKind::AsyncCommit:
      case StmtKind::AsyncWait:
      case StmtKind::DotIssue:
      case StmtKind::DotWait:
      case StmtKind::Barrier:
      case StmtKind::StageRelease:
      case StmtKind::StageAcquire:
      case StmtKind::StageReleaseHeld:
        out.push_back(s); // made later, by pipeline-loads and overlap-products
        break;
      }
    }
    return out;
  }

  /// `v` in the layout it prefers (blocked when it has none).
  Value lowerAsIs(const Value &v) { return lower(v, concrete(infer(v))); }

  /// `v` in layout `want` (null: blocked): materialized there when it is Free, converted
  /// otherwise. One-element tiles are replicated and stay blocked.
  Value lower(const Value &v, const LayoutRef &want) {
    std::pair<const ValueNode *, std::string> key{v.get(), layoutString(want)};
    if (auto it = lowered_.find(key); it != lowered_.end())
      return it->second;
    Value r;
    Abstract a = infer(v);
    if (shapeElements(v->type.shape) == 1)
      r = rebuild(v, nullptr);
    else if (a.kind == Abstract::Free || computedInWant(v, want))
      r = rebuild(v, want);
    else
      r = rebuild(v, concrete(a));
    if (shapeElements(v->type.shape) != 1 && !sameLayout(r->type.layout, want))
      r = makeConvertLayout(r, want, false);
    lowered_.emplace(key, r);
    return r;
  }

  /// True when `want` is an Mma layout or a Slice of one and `v` is elementwise arithmetic on
  /// loads, constants and scalars alone (operands of the result's shape or of one element,
  /// which rebuild keeps in `want`); `loadBytes` is then the bytes of its loaded tiles.
  bool elementwiseOnLoads(const Value &v, const LayoutRef &want, int64_t &loadBytes) {
    if (!want ||
        (want->kind != TileLayout::Kind::Mma &&
         !(want->kind == TileLayout::Kind::Slice && want->parent->kind == TileLayout::Kind::Mma)))
      return false;
    bool elementwise = true;
    loadBytes = 0;
    forEachValue(v, [&](const Value &x) {
      switch (x->kind) {
      case ValueKind::Load:
        loadBytes += shapeElements(x->type.shape) * dtypeBytes(x->type.dtype);
        break;
      case ValueKind::Constant:
      case ValueKind::ScalarParam:
      case ValueKind::Index:
      case ValueKind::Full:
      case ValueKind::Arange:
      case ValueKind::Offsets:
      case ValueKind::Unary:
      case ValueKind::Cast:
        break;
      case ValueKind::Binary:
      case ValueKind::Where:
        for (const Value &o : x->operands)
          elementwise =
              elementwise && (o->type.shape == x->type.shape || shapeElements(o->type.shape) == 1);
        break;
      default:
        elementwise = false;
      }
    });
    return elementwise && loadBytes > 0;
  }

  /// True when `v`, computed blocked, is to be computed in `want` from its loads on:
  /// elementwise arithmetic on loads (elementwiseOnLoads) whose loads are either read in `want`
  /// (in place: programs meant to be persistent, whose consumers cannot convert through shared
  /// memory with a barrier of the whole block; ntc::dev::load_vec of an Mma tile) or else
  /// converted to `want` themselves, where their tiles take fewer bytes than `v`'s (addmm's
  /// `beta * input` widens a float16 tile to float32: converting the load moves half the bytes
  /// through shared memory).
  bool computedInWant(const Value &v, const LayoutRef &want) {
    int64_t loadBytes = 0;
    if (!elementwiseOnLoads(v, want, loadBytes))
      return false;
    if (inPlace_)
      return true;
    // (A load alone takes as many bytes as its result: it is never converted here.)
    return loadBytes < shapeElements(v->type.shape) * dtypeBytes(v->type.dtype);
  }

  /// The layout an operand of shape `from` needs so that it broadcasts in registers into a
  /// result of shape `to` and layout `l` (an Mma layout): the Slice along the broadcast
  /// dimension. Null when there is none (the result is then computed blocked).
  static std::optional<LayoutRef>
  broadcastOperand(const LayoutRef &l, const std::vector<Expr> &from, const std::vector<Expr> &to) {
    if (!l)
      return LayoutRef{};
    if (l->kind != TileLayout::Kind::Mma || to.size() != 2)
      return std::nullopt;
    if (from.size() == 1)
      return sliceLayout(l, 0);
    if (from.size() == 2 && from[0].constValue() == 1)
      return sliceLayout(l, 0);
    if (from.size() == 2 && from[1].constValue() == 1)
      return sliceLayout(l, 1);
    return std::nullopt;
  }

  /// v's operation in layout `l`, its operands lowered to what that needs; the result's
  /// layout may be blocked instead when `l` cannot be had.
  Value rebuild(const Value &v, LayoutRef l) {
    const std::vector<Value> &ops = v->operands;
    switch (v->kind) {
    case ValueKind::Load:
    case ValueKind::ScalarParam:
    case ValueKind::Constant:
    case ValueKind::Index:
    case ValueKind::Full:
    case ValueKind::Arange:
    case ValueKind::Offsets:
      return withLayout(v, l, {});
    case ValueKind::Local:
      return withLayout(v, concrete(localLayout(v->local)), {});
    case ValueKind::Unary:
    case ValueKind::Cast:
      return withLayout(v, l, {lower(ops[0], l)});
    case ValueKind::Binary:
    case ValueKind::Where: {
      std::vector<std::optional<LayoutRef>> wants;
      for (const Value &o : ops)
        wants.push_back(shapeElements(o->type.shape) == 1 || o->type.shape == v->type.shape
                            ? std::optional<LayoutRef>(l)
                            : broadcastOperand(l, o->type.shape, v->type.shape));
      bool ok = true;
      for (const auto &w : wants)
        ok = ok && w.has_value();
      std::vector<Value> lowered;
      for (size_t i = 0; i < ops.size(); ++i)
        lowered.push_back(lower(ops[i], ok ? *wants[i] : nullptr));
      return withLayout(v, ok ? l : nullptr, lowered);
    }
    case ValueKind::Reduce:
      if (l && l->kind == TileLayout::Kind::Slice && !v->allAxes)
        return withLayout(v, l, {lower(ops[0], l->parent)});
      return withLayout(v, nullptr, {lower(ops[0], nullptr)});
    case ValueKind::ExpandDims:
      if (l && l->kind == TileLayout::Kind::Slice && v->axis == l->dim)
        return withLayout(v, l, {lower(ops[0], l)});
      return withLayout(v, nullptr, {lower(ops[0], nullptr)});
    case ValueKind::BroadcastTo:
      if (auto w = broadcastOperand(l, ops[0]->type.shape, v->type.shape))
        return withLayout(v, l, {lower(ops[0], *w)});
      return withLayout(v, nullptr, {lower(ops[0], nullptr)});
    case ValueKind::Dot:
      if (l && eligibleDot(v)) {
        Value a = lower(ops[0], dotOperandLayout(l, 0, 2));
        const Value &b = ops[1];
        Value shared =
            b->kind == ValueKind::Trans && shapeElements(b->type.shape) > 1
                ? makeConvertLayout(lowerAsIs(b->operands[0]), sharedLayout(-1, true), true)
                : makeConvertLayout(lowerAsIs(b), sharedLayout(-1, false), false);
        return withLayout(v, l, {a, shared});
      }
      return withLayout(v, nullptr, {lower(ops[0], nullptr), lower(ops[1], nullptr)});
    case ValueKind::Trans:
    case ValueKind::Rand:
    case ValueKind::ConvertLayout:
    case ValueKind::SharedStage: {
      std::vector<Value> lowered;
      for (const Value &o : ops)
        lowered.push_back(lower(o, nullptr));
      return withLayout(v, nullptr, lowered);
    }
    }
    return v;
  }

  const Function &f_;
  LayoutRef mma_;
  std::set<const StmtNode *> dotLoops_;
  std::map<std::string, LayoutRef> pinned_;
  std::map<std::string, Abstract> env_;
  std::unordered_map<const ValueNode *, Abstract> natural_;
  std::map<std::pair<const ValueNode *, std::string>, Value> lowered_;
  bool inPlace_ = false;
  bool changed_ = false;
  bool final_ = false;
};

/// The warps of the Mma layout for `threads` threads and these products: as many warps along
/// the rows as the smallest M allows (rows of one warp then share their statistics without
/// shared memory), the rest along the columns; null when some product does not fit.
LayoutRef chooseMma(const std::vector<Value> &dots, int threads) {
  int warps = threads / 32, warpsM = warps;
  for (const Value &d : dots) {
    int64_t m = d->operands[0]->type.shape[0].constValue();
    while (warpsM > 1 && m % (16 * warpsM) != 0)
      warpsM /= 2;
  }
  int warpsN = warps / warpsM;
  for (const Value &d : dots) {
    int64_t m = d->operands[0]->type.shape[0].constValue();
    int64_t n = d->operands[1]->type.shape[1].constValue();
    if (m % (16 * warpsM) != 0 || n % (8 * warpsN) != 0)
      return nullptr;
  }
  return mmaLayout(warpsM, warpsN);
}

} // namespace

kir::Function assignLayouts(const kir::Function &specialized, int threads, const GpuTarget &gpu) {
  // GEMM main loops stay with dot_loop; the accumulators they update take the layout of the
  // loop's fragments (an accumulator of two loops with different ones stays blocked).
  std::set<const StmtNode *> dotLoops;
  std::map<std::string, LayoutRef> pinned;
  forEachStmt(specialized.body, [&](const Stmt &s) {
    std::optional<DotLoop> loop = planDotLoop(s, threads, gpu);
    if (!loop)
      return true;
    dotLoops.insert(s.get());
    auto [it, fresh] = pinned.emplace(loop->acc, loop->accumulator);
    if (!fresh && !sameLayout(it->second, loop->accumulator))
      it->second = nullptr;
    return false;
  });
  std::vector<Value> dots;
  forEachStmt(specialized.body, [&](const Stmt &s) {
    if (dotLoops.count(s.get()))
      return false;
    if (s->value)
      forEachValue(s->value, [&](const Value &v) {
        if (tensorCoreTypes(v))
          dots.push_back(v);
      });
    return true;
  });
  LayoutRef mma = dots.empty() ? nullptr : chooseMma(dots, threads);
  if (!mma && dotLoops.empty())
    return specialized;
  // Loads in place only where the program is to be persistent and warp-specialized (knob
  // persistent=1 on sm_90a): its consumers cannot convert through shared memory (a barrier of
  // the whole block), and measured elsewhere a load by fragment rows costs more than a blocked
  // load and a conversion (docs/decisions.md).
  const bool inPlace = gpu.hasHopper() && gpu.knobs.persistent == 1;
  return LayoutAssigner(specialized, mma, dotLoops, pinned, inPlace).run();
}

} // namespace ntc::passes
