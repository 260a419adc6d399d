//===- AssignCyclicLayouts.cpp - cyclic layouts for scalar accesses -------===//
//
// The blocked layout of the device tile library gives each thread chunks of up to 8
// consecutive elements, so that a chunk is one 16-byte access when the dispatcher has checked
// strides and alignment (the vector twin). A program whose accesses cannot be vectors (the
// element-by-element program, launched for rows that are not 16-byte aligned) then has a
// warp's loads and stores spread over up to 8× the cache lines they need. This pass gives such
// a program the cyclic layout (`#blocked<threads, chunk=1>`: element e in thread e % threads),
// in which the 32 lanes of a warp touch 32 consecutive elements.
//
// It applies to straight-line programs of loads, elementwise operations, conditionals, casts,
// full reductions and stores, whose tiles are whole multiples of the block (every thread holds
// the same number of elements): those are the operations that keep their meaning in any layout
// where each element has one owner. Anything else (products, transposes, axis reductions,
// broadcasts, offsets, random numbers, loops, layouts assigned by assign-layouts) leaves the
// function unchanged. One-element values (the results of full reductions, scalars) stay
// replicated.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

using namespace kir;

/// True when every value of the function keeps its meaning in the cyclic layout.
bool cyclicApplies(const Function &f, int threads) {
  bool ok = true;
  forEachStmt(f.body, [&](const Stmt &s) {
    if (s->kind != StmtKind::Define && s->kind != StmtKind::Assign && s->kind != StmtKind::Store)
      ok = false;
    return ok;
  });
  if (!ok)
    return false;
  bool multiplesOfBlock = true, anyTile = false;
  forEachValue(f.body, [&](const Value &v) {
    if (v->type.layout)
      ok = false;
    switch (v->kind) {
    case ValueKind::Load:
    case ValueKind::ScalarParam:
    case ValueKind::Constant:
    case ValueKind::Index:
    case ValueKind::Local:
    case ValueKind::Full:
    case ValueKind::Unary:
    case ValueKind::Cast:
      break;
    case ValueKind::Binary:
    case ValueKind::Where: // operands of the result's shape or of one element (no broadcasts)
      for (const Value &o : v->operands)
        ok = ok && (shapeElements(o->type.shape) <= 1 || o->type.shape == v->type.shape);
      break;
    case ValueKind::Reduce:
      ok = ok && v->allAxes;
      break;
    default:
      ok = false;
    }
    const int64_t n = shapeElements(v->type.shape);
    if (n > 1) {
      anyTile = true;
      multiplesOfBlock = multiplesOfBlock && n % threads == 0;
    }
  });
  return ok && anyTile && multiplesOfBlock;
}

} // namespace

Function assignCyclicLayouts(const Function &f, int threads) {
  if (!cyclicApplies(f, threads))
    return f;
  const LayoutRef cyclic = chunkedLayout(threads, 1);
  ValueMemo memo;
  auto lay = [&](const Value &v) {
    return mapValue(
        v,
        [&](const Value &node, const std::vector<Value> &operands) -> Value {
          if (shapeElements(node->type.shape) <= 1)
            return nullptr;
          return withLayout(node, cyclic, operands);
        },
        memo);
  };
  Function out = f;
  out.body.clear();
  for (const Stmt &s : f.body) {
    switch (s->kind) {
    case StmtKind::Define:
      out.body.push_back(makeDefine(s->var, lay(s->value)));
      break;
    case StmtKind::Assign:
      out.body.push_back(makeAssign(s->var, lay(s->value)));
      break;
    default: // Store (cyclicApplies admits nothing else)
      out.body.push_back(makeStore(s->param, s->subscripts, lay(s->value)));
    }
  }
  return out;
}

} // namespace ntc::passes
