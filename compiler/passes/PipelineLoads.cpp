//===- PipelineLoads.cpp - copies into shared memory one iteration ahead --===//
//
// A loop whose body copies tiles of global memory into shared memory (the B operands of its
// tensor-core products: `convert_layout(load k[i]) : #shared`) waits for each copy before it
// can compute. This pass overlaps them: the copy for iteration i + 1 is started at the top of
// iteration i into the other stage of a two-stage buffer, with asynchronous copies
// (cp.async) where the dispatcher has checked 16-byte chunks, and the use in iteration i
// waits for its own stage only (`shared_stage`):
//
//   async_copy if b < e: <load x[b]> ; async_commit            (before the loop)
//   for i in range(b, e):
//     barrier                                                   (stage (i+1)%2 is free)
//     async_copy if i + 1 < e: <load x[i + 1]> ; async_commit
//     ... shared_stage(iteration i) ...                         (waits for x[i])
//
// Any loop qualifies — the trip count may be symbolic and the body anything (attention has two
// products, a transpose folded into a copy, reductions and a rescale) — as long as its step
// is 1, the load's subscripts use only the loop index and values fixed outside the loop, and
// the loop stores nothing to the parameter it loads from.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

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

class Pipeliner {
public:
  explicit Pipeliner(const Function &f) : f_(f) {}

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
        if (byKey.count(key)) {
          replaced_[v.get()] = copies[byKey[key]].staged;
          return;
        }
        int64_t stageBytes =
            sharedTileBytes(v->type.dtype, v->type.shape, v->type.layout->transposed);
        LayoutRef staged =
            pipelinedLayout(nextBuffer_++, 2, stageBytes, -1, v->type.layout->transposed);
        byKey[key] = copies.size();
        copies.push_back({v, staged});
        replaced_[v.get()] = staged;
      });
    }
    if (copies.empty()) {
      out.push_back(loop);
      return;
    }
    const Expr i = Expr::symbol(loop->var);
    auto copyFor = [&](const Copy &c, const Expr &iteration) {
      const Value &load = c.original->operands[0];
      std::vector<Expr> subscripts;
      for (const Expr &e : load->subscripts)
        subscripts.push_back(e.substitute({{loop->var, iteration}}));
      Value next = makeLoad(load->param, subscripts, load->type);
      return makeAsyncCopy(
          makeStagedCopy(next, c.staged, c.original->transpose, iteration, loop->begin), iteration,
          loop->end);
    };
    for (const Copy &c : copies)
      out.push_back(copyFor(c, loop->begin));
    out.push_back(makeAsyncCommit());
    std::vector<Stmt> body{makeBarrier()};
    for (const Copy &c : copies)
      body.push_back(copyFor(c, i + Expr(int64_t{1})));
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
  int nextBuffer_ = 0;
  std::unordered_map<const ValueNode *, LayoutRef> replaced_;
  ValueMemo memo_;
  Expr first_, iteration_;
};

} // namespace

kir::Function pipelineLoads(const kir::Function &laidOut) {
  Function out = laidOut;
  out.body = Pipeliner(laidOut).stmts(laidOut.body);
  return out;
}

} // namespace ntc::passes
