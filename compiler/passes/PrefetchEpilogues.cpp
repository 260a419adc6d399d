//===- PrefetchEpilogues.cpp - an epilogue's tiles fetched into L2 early --===//
//
// A GEMM program's epilogue reads tiles of other tensors after its main loop (addmm's `input`,
// linear's bias and residual). Nothing else is in flight there, so each program waits for DRAM
// once per tile; in a persistent, warp-specialized program (specialize-warps) the tensor cores
// then stand idle, and with the tile loaded in the accumulator's layout those loads are on the
// critical path. This pass puts, right before each top-level GEMM main loop (planDotLoop), a
// Prefetch of every tile that the top-level statements after it (up to the next loop) load: the
// block's threads ask the L2 for the tile's lines (ntc::dev::prefetch_l2, one instruction per
// 128-byte line) while the loop multiplies, and the epilogue's loads hit L2. A prefetch is a
// hint: it reads nothing into registers and nothing waits for it, so it cannot change a result.
// Only loads whose coordinates are known before the loop qualify (top-level statements: program
// coordinates and sizes); each tile is prefetched once.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// Identity of a load: its parameter and subscripts.
std::string loadKey(const Value &load) {
  std::string key = std::to_string(load->param);
  for (const Expr &e : load->subscripts)
    key += "," + e.key();
  return key;
}

/// The loads of tiles (more than one element) in the top-level statements of `body` from
/// `first` up to the next loop, each once.
std::vector<Value> epilogueLoads(const std::vector<Stmt> &body, size_t first) {
  std::vector<Value> loads;
  std::set<std::string> seen;
  for (size_t i = first; i < body.size() && body[i]->kind != StmtKind::For; ++i) {
    const Stmt &s = body[i];
    if (!s->value ||
        (s->kind != StmtKind::Define && s->kind != StmtKind::Assign && s->kind != StmtKind::Store))
      continue;
    forEachValue(s->value, [&](const Value &v) {
      if (v->kind == ValueKind::Load && shapeElements(v->type.shape) > 1 &&
          seen.insert(loadKey(v)).second)
        loads.push_back(v);
    });
  }
  return loads;
}

} // namespace

kir::Function prefetchEpilogues(const kir::Function &f, int threads, const GpuTarget &gpu) {
  std::vector<Stmt> body;
  bool changed = false;
  for (size_t i = 0; i < f.body.size(); ++i) {
    const Stmt &s = f.body[i];
    if (s->kind == StmtKind::For && planDotLoop(s, threads, gpu))
      for (const Value &load : epilogueLoads(f.body, i + 1)) {
        body.push_back(makePrefetch(load));
        changed = true;
      }
    body.push_back(s);
  }
  if (!changed)
    return f;
  kir::Function out = f;
  out.body = std::move(body);
  return out;
}

} // namespace ntc::passes
