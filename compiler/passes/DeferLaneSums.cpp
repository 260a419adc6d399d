//===- DeferLaneSums.cpp - loop-carried row sums added across lanes once --===//
//
// A sum over the columns of an Mma tile adds each thread's slots of a row, then the four lanes
// that share the row (two shuffles and two additions per row); attention's online softmax does
// that every iteration for `l_i = l_i * alpha + sum(p, 1)`, although nothing reads l_i before
// the loop ends. Since alpha is the same in the four lanes (a Slice value), the lanes can carry
// their own shares instead: l_i's share = share * alpha + this lane's part of sum(p, 1), and one
// conversion after the loop adds the shares (FlashAttention-3 reduces its row sums so). The
// shuffles leave the loop; the sums round in another order (as the tree reduction's did).
//
// The pass rewrites a local L defined before a loop (float32, a Slice of an Mma layout whose
// reduced dimension lies within each warp: lanesOnlySlice) when
//  * nothing between its definition and the loop refers to L,
//  * the loop's only reference to L is one assignment at the top level of its body,
//    `L <- add(C, N)` (either order), where C is L or `mul(L, S)` (either order; S a whole
//    value of L's layout or a scalar, not reading L) and N is a sum over the Slice's dimension
//    of an Mma tile in the same layout, or a local defined at the top level of the body as such
//    a sum that nothing else in the loop reads,
//  * no statement after the loop assigns L, and one reads it.
// Then L is defined as convert_layout(value) to its lane shares (TileLayout::Kind::LanePartial;
// the first lane of each element holds the value, the others zero), the sum, the product and the
// addition take the shares' layout, and right after the loop `ntc_lanes_L` = convert_layout(L)
// back to the Slice adds the shares; the statements after the loop read it instead of L. The
// device library refuses any other operation on shares (tile.cuh's arith). GPU only; after
// fuse-dot-accumulate, before pipeline-loads and overlap-products (which keep the statements
// that follow a loop after whatever they put in its place).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <functional>
#include <optional>

namespace ntc::passes {

namespace {

using namespace kir;

/// True for a statement that defines or assigns local `name`.
bool writes(const Stmt &s, const std::string &name) {
  return (s->kind == StmtKind::Define || s->kind == StmtKind::Assign ||
          s->kind == StmtKind::DotIssue) &&
         s->var == name;
}

/// How many statements of `body` (nested ones included) read, define or assign local `name`.
int references(const std::vector<Stmt> &body, const std::string &name) {
  int count = 0;
  forEachStmt(body, [&](const Stmt &s) {
    if (writes(s, name) || (s->value && readsLocal(s->value, name)))
      ++count;
    return true;
  });
  return count;
}

/// True when some statement of `body` (nested ones included) defines or assigns local `name`.
bool assigns(const std::vector<Stmt> &body, const std::string &name) {
  bool found = false;
  forEachStmt(body, [&](const Stmt &s) {
    found = found || writes(s, name);
    return true;
  });
  return found;
}

/// True when `v` is a sum over the reduced dimension of `slice` of an Mma tile, in `slice`.
bool isLaneSum(const Value &v, const TileType &slice) {
  if (v->kind != ValueKind::Reduce || v->op != "sum" || v->allAxes ||
      v->axis != slice.layout->dim || v->type.dtype != DType::Float32 ||
      !sameLayout(v->type.layout, slice.layout))
    return false;
  const LayoutRef &in = v->operands[0]->type.layout;
  return in && sameLayout(in, slice.layout->parent);
}

/// The match of one loop's update of a carried sum.
struct Update {
  size_t assign = 0; ///< index of `L <- ...` in the loop body
  const ValueNode *add = nullptr;
  const ValueNode *mul = nullptr; ///< C = mul(L, S), or null for C = L
  const ValueNode *sum = nullptr; ///< N when it is the sum itself
  std::string sumLocal;           ///< N when it is a local defined as the sum
  size_t sumDefine = 0;           ///< index of that local's definition
};

/// True when `c` is the carried term of `name`'s update: L, or L times a whole value or scalar.
bool carriedTerm(const Value &c, const std::string &name, const TileType &type, Update &u) {
  if (c->kind == ValueKind::Local && c->local == name)
    return true;
  if (c->kind != ValueKind::Binary || c->op != "mul" || !sameLayout(c->type.layout, type.layout) ||
      c->type.dtype != DType::Float32)
    return false;
  for (int i = 0; i < 2; ++i) {
    const Value &l = c->operands[i], &s = c->operands[1 - i];
    const bool scalar = s->type.shape.empty();
    if (l->kind == ValueKind::Local && l->local == name && !readsLocal(s, name) &&
        (scalar || sameLayout(s->type.layout, type.layout))) {
      u.mul = c.get();
      return true;
    }
  }
  return false;
}

/// The update of local `name` (of `type`) in `body`, if the loop's only reference to it is one.
std::optional<Update> matchUpdate(const std::vector<Stmt> &body, const std::string &name,
                                  const TileType &type) {
  if (references(body, name) != 1)
    return std::nullopt;
  for (size_t i = 0; i < body.size(); ++i) {
    const Stmt &s = body[i];
    if (s->kind != StmtKind::Assign || s->var != name)
      continue;
    const Value &v = s->value;
    if (v->kind != ValueKind::Binary || v->op != "add" || v->type.dtype != DType::Float32 ||
        !sameLayout(v->type.layout, type.layout))
      return std::nullopt;
    for (int k = 0; k < 2; ++k) {
      Update u;
      u.assign = i;
      u.add = v.get();
      const Value &c = v->operands[k], &n = v->operands[1 - k];
      if (!carriedTerm(c, name, type, u) || readsLocal(n, name))
        continue;
      if (isLaneSum(n, type)) {
        u.sum = n.get();
        return u;
      }
      if (n->kind != ValueKind::Local || references(body, n->local) != 2)
        continue; // its definition and this read only
      for (size_t j = 0; j < i; ++j)
        if (body[j]->kind == StmtKind::Define && body[j]->var == n->local &&
            isLaneSum(body[j]->value, type)) {
          u.sumLocal = n->local;
          u.sumDefine = j;
          return u;
        }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// The loop `loop` with the update `u` of `name` computed on lane shares of layout `shares`.
Stmt rewriteLoop(const Stmt &loop, const std::string &name, const Update &u,
                 const TileType &shares) {
  std::vector<Stmt> body = loop->body;
  ValueMemo memo;
  const Value update = mapValue(
      body[u.assign]->value,
      [&](const Value &node, const std::vector<Value> &operands) -> Value {
        if (node->kind == ValueKind::Local && (node->local == name || node->local == u.sumLocal))
          return makeLocal(node->local, shares);
        if (node.get() == u.add || node.get() == u.mul || node.get() == u.sum)
          return withLayout(node, shares.layout, operands);
        return nullptr;
      },
      memo);
  body[u.assign] = makeAssign(name, update);
  if (!u.sumLocal.empty()) {
    const Value &sum = body[u.sumDefine]->value;
    body[u.sumDefine] = makeDefine(u.sumLocal, withLayout(sum, shares.layout, sum->operands));
  }
  StmtNode n = *loop;
  n.body = std::move(body);
  return std::make_shared<const StmtNode>(std::move(n));
}

/// `body` with every qualifying carried sum of its loops deferred (nested bodies first).
std::vector<Stmt> defer(const std::vector<Stmt> &input) {
  std::vector<Stmt> body;
  body.reserve(input.size());
  for (const Stmt &s : input) {
    if (s->kind != StmtKind::For && s->kind != StmtKind::If) {
      body.push_back(s);
      continue;
    }
    StmtNode n = *s;
    n.body = defer(s->body);
    n.orelse = defer(s->orelse);
    body.push_back(std::make_shared<const StmtNode>(std::move(n)));
  }
  for (size_t d = 0; d < body.size(); ++d) {
    if (body[d]->kind != StmtKind::Define)
      continue;
    const std::string name = body[d]->var;
    const TileType type = body[d]->value->type;
    if (type.dtype != DType::Float32 || !lanesOnlySlice(type.layout))
      continue;
    // The first loop after the definition that refers to L, with nothing between.
    size_t f = d + 1;
    while (f < body.size() && body[f]->kind != StmtKind::For && references({body[f]}, name) == 0)
      ++f;
    if (f == body.size() || body[f]->kind != StmtKind::For)
      continue;
    const std::optional<Update> u = matchUpdate(body[f]->body, name, type);
    if (!u)
      continue;
    const std::vector<Stmt> after(body.begin() + static_cast<long>(f) + 1, body.end());
    if (assigns(after, name) || references(after, name) == 0)
      continue;
    TileType shares = type;
    shares.layout = lanePartialLayout(type.layout);
    const std::string total = "ntc_lanes_" + name;
    std::vector<Stmt> out(body.begin(), body.begin() + static_cast<long>(f));
    out[d] = makeDefine(name, makeConvertLayout(body[d]->value, shares.layout, false));
    out.push_back(rewriteLoop(body[f], name, *u, shares));
    out.push_back(
        makeDefine(total, makeConvertLayout(makeLocal(name, shares), type.layout, false)));
    const Value whole = makeLocal(total, type);
    for (const Stmt &s : mapStmtValues(after, [&](const Value &v) {
           ValueMemo memo;
           return mapValue(
               v,
               [&](const Value &node, const std::vector<Value> &) -> Value {
                 return node->kind == ValueKind::Local && node->local == name ? whole : nullptr;
               },
               memo);
         }))
      out.push_back(s);
    body = std::move(out);
  }
  return body;
}

} // namespace

kir::Function deferLaneSums(const kir::Function &laidOut) {
  kir::Function f = laidOut;
  f.body = defer(laidOut.body);
  return f;
}

} // namespace ntc::passes
