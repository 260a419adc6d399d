//===- PipelineLoads.cpp - copies into shared memory stages ahead ---------===//
//
// A loop whose body copies tiles of global memory into shared memory (the B operands of its
// tensor-core products: `convert_layout(load k[i]) : #shared`) waits for each copy before it
// can compute. This pass overlaps them through a ring of S stages: the copies for the first
// S - 1 iterations start before the loop, and iteration i starts those for iteration i + S - 1
// into the stage that iteration i - 1 used, with asynchronous copies (cp.async) where the
// dispatcher has checked 16-byte chunks. One wait per iteration makes stage i ready:
//
//   async_copy if b + j < e: <load x[b + j]> ; async_commit   (before the loop, j < S - 1)
//   for i in range(b, e):
//     async_wait pending=S-2       (x[i] has landed and every thread is past iteration i - 1)
//     async_copy if i + S - 1 < e: <load x[i + S - 1]> ; async_commit
//     ... shared_stage(iteration i) ...                        (a view of x[i]'s stage)
//
// The wait is also the iteration's only barrier: once every thread is past it, no thread still
// reads the stage of iteration i - 1, which the copies started next overwrite. S is the
// deepest ring (2 to 4 stages) that leaves as many programs on a multiprocessor of the tuned
// architecture as two stages do (counting up to four: more rarely helps), by shared memory,
// and fits a block on every architecture: deeper copies where they cost no occupancy.
//
// Any loop qualifies — the trip count may be symbolic and the body anything (attention has two
// products, a transpose folded into a copy, reductions and a rescale) — as long as its step
// is 1, the load's subscripts use only the loop index and values fixed outside the loop, and
// the loop stores nothing to the parameter it loads from.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ntc::passes {

namespace {

using namespace kir;

bool isStatementShared(const Value &v) {
  return v->kind == ValueKind::ConvertLayout && v->type.layout &&
         v->type.layout->kind == TileLayout::Kind::Shared && v->type.layout->buffer < 0 &&
         v->operands[0]->kind == ValueKind::Load;
}

/// Symbols that statements of `body` define: locals and inner loop indices.
void definedIn(const std::vector<Stmt> &body, std::set<std::string> &names) {
  forEachStmt(body, [&](const Stmt &s) {
    if (s->kind == StmtKind::For || s->kind == StmtKind::Define || s->kind == StmtKind::Assign)
      names.insert(s->var);
    return true;
  });
}

/// Arranged parameters whose source the statements of `body` store to.
std::set<int> storedSources(const Function &f, const std::vector<Stmt> &body) {
  std::set<int> sources;
  forEachStmt(body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Store)
      sources.insert(f.spec.arranged[s->param].source);
    return true;
  });
  return sources;
}

/// Stages of a ring whose iterations copy `bytesPerIteration` bytes (see the top).
int ringStages(int64_t bytesPerIteration, const GpuTarget &gpu) {
  // What the other shared buffers of a program (operand conversions, reduction scratch) and the
  // swizzled stages' rounding to whole kilobytes may add.
  constexpr int64_t reserve = 16 * 1024;
  const int64_t perSM = gpu.tuning().sharedPerMultiprocessor;
  auto programsPerSM = [&](int stages) {
    return std::min<int64_t>(4, perSM / (stages * bytesPerIteration + reserve));
  };
  if (gpu.knobs.stages > 0)
    return gpu.knobs.stages;
  int stages = 2;
  while (stages < 4 && programsPerSM(stages + 1) >= programsPerSM(2) &&
         (stages + 1) * bytesPerIteration + reserve <= gpu.sharedPerBlock())
    ++stages;
  return stages;
}

class Pipeliner {
public:
  Pipeliner(const Function &f, const GpuTarget &gpu) : f_(f), gpu_(gpu) {}

  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      if (s->kind != StmtKind::For) {
        out.push_back(s);
        continue;
      }
      Stmt loop = makeFor(s->var, s->begin, s->end, s->step, stmts(s->body));
      pipeline(loop, out);
    }
    return out;
  }

private:
  /// One candidate copy of a loop: the load and how it is staged.
  struct Copy {
    Value original; ///< the ConvertLayout in the body
    int64_t stageBytes = 0;
    LayoutRef staged;
  };

  /// Appends `loop` to `out`, pipelined when it has candidate copies.
  void pipeline(const Stmt &loop, std::vector<Stmt> &out) {
    if (!loop->step.isConst() || loop->step.constValue() != 1) {
      out.push_back(loop);
      return;
    }
    std::set<std::string> inner;
    definedIn(loop->body, inner);
    std::set<int> stored = storedSources(f_, loop->body);
    std::vector<Copy> copies;
    std::map<std::string, size_t> byKey;
    std::unordered_map<const ValueNode *, size_t> copyOf; // body value -> its copy
    for (const Stmt &s : loop->body) {
      if (!s->value || s->kind == StmtKind::AsyncCopy)
        continue;
      forEachValue(s->value, [&](const Value &v) {
        if (!isStatementShared(v))
          return;
        const Value &load = v->operands[0];
        if (stored.count(f_.spec.arranged[load->param].source))
          return;
        std::vector<std::string> symbols;
        for (const Expr &e : load->subscripts)
          e.collectSymbols(symbols);
        for (const std::string &name : symbols)
          if (inner.count(name))
            return;
        std::string key = std::to_string(load->param) + (v->transpose ? "T" : "N");
        for (const Expr &e : load->subscripts)
          key += "," + e.key();
        if (!byKey.count(key)) {
          byKey[key] = copies.size();
          copies.push_back(
              {v, sharedTileBytes(v->type.dtype, v->type.shape, v->type.layout->transposed), {}});
        }
        copyOf[v.get()] = byKey[key];
      });
    }
    if (copies.empty()) {
      out.push_back(loop);
      return;
    }
    // The ring is sized by the tiles' own bytes: swizzle-shared drops the padding of the 16-bit
    // stages that wgmma reads, and allocate-shared checks the block's limit in the end.
    int64_t bytesPerIteration = 0;
    for (const Copy &c : copies) {
      int64_t bytes = dtypeBytes(c.original->type.dtype);
      for (const Expr &e : c.original->type.shape)
        bytes *= e.constValue();
      bytesPerIteration += bytes;
    }
    const int stages = ringStages(bytesPerIteration, gpu_);
    for (Copy &c : copies)
      c.staged = pipelinedLayout(nextBuffer_++, stages, c.stageBytes, -1,
                                 c.original->type.layout->transposed);
    for (const auto &[node, index] : copyOf)
      replaced_[node] = copies[index].staged;
    const Expr i = Expr::symbol(loop->var);
    const int group = nextGroup_++;
    auto copyFor = [&](const Copy &c, const Expr &iteration) {
      const Value &load = c.original->operands[0];
      std::vector<Expr> subscripts;
      for (const Expr &e : load->subscripts)
        subscripts.push_back(e.substitute({{loop->var, iteration}}));
      Value next = makeLoad(load->param, subscripts, load->type);
      return makeAsyncCopy(
          makeStagedCopy(next, c.staged, c.original->transpose, iteration, loop->begin), iteration,
          loop->end, group);
    };
    for (int j = 0; j + 1 < stages; ++j) {
      for (const Copy &c : copies)
        out.push_back(copyFor(c, loop->begin + Expr(int64_t{j})));
      out.push_back(makeAsyncCommit());
    }
    std::vector<Stmt> body{makeAsyncWait(stages - 2, i, loop->begin, group)};
    for (const Copy &c : copies)
      body.push_back(copyFor(c, i + Expr(int64_t{stages - 1})));
    body.push_back(makeAsyncCommit());
    first_ = loop->begin;
    iteration_ = i;
    memo_.clear();
    for (const Stmt &s : loop->body)
      body.push_back(rewrite(s));
    out.push_back(makeFor(loop->var, loop->begin, loop->end, loop->step, body));
  }

  Stmt rewrite(const Stmt &s) {
    switch (s->kind) {
    case StmtKind::Define:
      return makeDefine(s->var, value(s->value));
    case StmtKind::Assign:
      return makeAssign(s->var, value(s->value));
    case StmtKind::Store:
      return makeStore(s->param, s->subscripts, value(s->value));
    default:
      return s; // nested loops keep their own copies; their shared tiles are not replaced
    }
  }

  /// `v` with the pipelined copies of the current loop replaced by their stages.
  Value value(const Value &v) {
    return mapValue(
        v,
        [&](const Value &node, const std::vector<Value> &) -> Value {
          auto it = replaced_.find(node.get());
          if (it == replaced_.end())
            return nullptr;
          TileType type = node->type;
          type.layout = it->second;
          return makeSharedStage(type, iteration_, first_);
        },
        memo_);
  }

  const Function &f_;
  const GpuTarget &gpu_;
  int nextBuffer_ = 0;
  int nextGroup_ = 0;
  std::unordered_map<const ValueNode *, LayoutRef> replaced_;
  ValueMemo memo_;
  Expr first_, iteration_;
};

} // namespace

kir::Function pipelineLoads(const kir::Function &laidOut, const GpuTarget &gpu) {
  Function out = laidOut;
  out.body = Pipeliner(laidOut, gpu).stmts(laidOut.body);
  return out;
}

} // namespace ntc::passes
