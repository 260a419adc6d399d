//===- KeepOperandsResident.cpp - loop-invariant A operands in shared memory --===//
//
// Attention multiplies the same queries by every block of keys: `q_loaded` is converted once,
// before the loop, into the registers of a tensor-core A operand (#dot_a), and every
// iteration's product reads those registers. On sm_90a that costs twice: the registers stay
// allocated for the whole loop (at head dimension 64, 16 of them per thread, which ptxas then
// recovers by recomputing addresses in the loop), and wgmma may not take a register operand
// that lives on as it is (the device library copies it through an XOR every iteration, see
// MarkDyingOperands.cpp).
//
// This pass keeps such an operand where its conversion already puts it, in shared memory: the
// conversion writes it once, swizzled, into a buffer of its own (a one-stage pipelined buffer,
// which allocate-shared keeps apart from every other use for the whole program), and the
// products read it from there, wgmma with both operands behind descriptors (ldmatrix into
// fragments where the product runs on mma.sync):
//
//   %q = convert_layout(x) : #dot_a<#mma<4x1>, k=2>
//   for i in ...: ... dot(%q, shared_stage(...)) ...
// becomes
//   %q = convert_layout(x) : #shared<swizzle=128B, buffer=2, stages=1x8192B>
//   for i in ...: ... dot(%q : #shared<...>, shared_stage(...)) : #mma<4x1> ...
//
// A candidate is a local defined once by such a conversion, never reassigned, of 16-bit
// elements in a swizzle-able shape, read only as the A operand of tensor-core products whose
// layout is a wgmma one (warps along M only, each a 16-row slab, N one instruction wide, B
// swizzled), at least one of them inside a loop. Targets whose newest architecture has no
// wgmma keep their registers. GPU only; after swizzle-shared, before allocate-shared.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>

namespace ntc::passes {

namespace {

using namespace kir;

/// What the statements of a function do with each local: how it is defined, and whether every
/// read of it is the A operand of a wgmma product (and one of them in a loop).
class UseScan {
public:
  struct Local {
    int definitions = 0;
    bool assigned = false;
    bool otherReads = false;
    bool readInLoop = false;
  };

  void stmts(const std::vector<Stmt> &body, bool inLoop) {
    for (const Stmt &s : body) {
      if (s->kind == StmtKind::Define)
        ++locals_[s->var].definitions;
      if (s->kind == StmtKind::Assign)
        locals_[s->var].assigned = true;
      if (s->value) {
        if (s->value->kind == ValueKind::Local) // read as a statement's whole value
          locals_[s->value->local].otherReads = true;
        forEachValue(s->value, [&](const Value &v) { reads(v, inLoop); });
      }
      if (s->kind == StmtKind::For)
        stmts(s->body, true);
      if (s->kind == StmtKind::If) {
        stmts(s->body, inLoop);
        stmts(s->orelse, inLoop);
      }
    }
  }

  const std::map<std::string, Local> &locals() const { return locals_; }

private:
  void reads(const Value &v, bool inLoop) {
    for (size_t i = 0; i < v->operands.size(); ++i) {
      const Value &o = v->operands[i];
      if (o->kind != ValueKind::Local)
        continue;
      Local &l = locals_[o->local];
      if (v->kind == ValueKind::Dot && i == 0 && wgmmaProduct(v))
        l.readInLoop = l.readInLoop || inLoop;
      else
        l.otherReads = true;
    }
  }

  std::map<std::string, Local> locals_;
};

/// The largest pipelined buffer id of a function, or -1.
int lastBuffer(const std::vector<Stmt> &body) {
  int last = -1;
  forEachValue(body, [&](const Value &v) {
    const LayoutRef &l = v->type.layout;
    if (l && l->kind == TileLayout::Kind::Shared)
      last = std::max(last, l->buffer);
  });
  return last;
}

/// The resident layout for the value that defines a local, or null when it is no candidate.
LayoutRef residentLayout(const Value &v, int buffer) {
  const LayoutRef &l = v->type.layout;
  if (v->kind != ValueKind::ConvertLayout || v->transpose || !l ||
      l->kind != TileLayout::Kind::DotA || v->type.shape.size() != 2)
    return nullptr;
  const int64_t rows = v->type.shape[0].constValue(), cols = v->type.shape[1].constValue();
  const int swizzle = sharedSwizzle(v->type.dtype, rows, cols);
  if (swizzle == 0)
    return nullptr;
  const int64_t bytes = rows * cols * dtypeBytes(v->type.dtype);
  return pipelinedLayout(buffer, 1, (bytes + 1023) / 1024 * 1024, -1, false, swizzle);
}

} // namespace

/// True when a product with this result type and B operand runs as a chain of wgmma reading B
/// through descriptors (ntc::dev::detail::wgmma_product_v).
bool wgmmaProduct(const kir::Value &dot) {
  const kir::LayoutRef &l = dot->type.layout, &b = dot->operands[1]->type.layout;
  if (!l || l->kind != kir::TileLayout::Kind::Mma || l->warpsN != 1 || l->warpsM % 4 != 0)
    return false;
  if (!b || b->kind != kir::TileLayout::Kind::Shared || b->swizzle == 0)
    return false;
  const int64_t rows = dot->type.shape[0].constValue(), cols = dot->type.shape[1].constValue();
  const bool oneInstruction = cols == 16 || cols == 32 || cols == 64 || cols == 128 || cols == 256;
  return rows == 16 * l->warpsM && oneInstruction;
}

kir::Function keepOperandsResident(const kir::Function &swizzled, const GpuTarget &gpu) {
  if (!gpu.tuning().wgmma())
    return swizzled;
  UseScan scan;
  scan.stmts(swizzled.body, false);
  // The candidates' new layouts, by local name, and the names by defining value.
  std::map<std::string, LayoutRef> resident;
  std::map<const ValueNode *, std::string> defined;
  const auto count = useCounts(swizzled.body);
  int buffer = lastBuffer(swizzled.body);
  forEachStmt(swizzled.body, [&](const Stmt &s) {
    if (s->kind != StmtKind::Define)
      return true;
    auto it = scan.locals().find(s->var);
    if (it == scan.locals().end())
      return true;
    const UseScan::Local &use = it->second;
    if (use.definitions != 1 || use.assigned || use.otherReads || !use.readInLoop ||
        count.at(s->value.get()) != 1)
      return true;
    if (LayoutRef l = residentLayout(s->value, buffer + 1)) {
      resident[s->var] = l;
      defined[s->value.get()] = s->var;
      ++buffer;
    }
    return true;
  });
  if (resident.empty())
    return swizzled;
  // The definitions convert into the buffers; the reads see the new layout.
  ValueMemo memo;
  Function out = swizzled;
  out.body = mapStmtValues(swizzled.body, [&](const Value &root) {
    return mapValue(
        root,
        [&](const Value &node, const std::vector<Value> &operands) -> Value {
          if (auto it = defined.find(node.get()); it != defined.end())
            return withLayout(node, resident.at(it->second), operands);
          if (node->kind == ValueKind::Local && resident.count(node->local))
            return withLayout(node, resident.at(node->local), operands);
          return nullptr;
        },
        memo);
  });
  return out;
}

} // namespace ntc::passes
