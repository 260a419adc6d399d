//===- KernelIR.cpp - tile values, statements and their typing ------------===//
#include "ir/KernelIR.h"
#include "ir/Operations.h"

#include <ntc/common/promotion.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

namespace ntc::kir {

std::string TileType::str() const {
  std::string s = dtypeName(dtype);
  s += "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + shape[i].str();
  s += "]";
  return layout ? s + " " + layout->str() : s;
}

namespace {

ValueNode node(ValueKind kind, TileType type) {
  ValueNode n;
  n.kind = kind;
  n.type = std::move(type);
  return n;
}

StmtNode node(StmtKind kind) {
  StmtNode n;
  n.kind = kind;
  return n;
}

Value make(ValueNode n) { return std::make_shared<const ValueNode>(std::move(n)); }
Stmt make(StmtNode n) { return std::make_shared<const StmtNode>(std::move(n)); }

/// The row of the `arity`-operand operation `op` (ntc/common/operations.inc).
const Operation &operation(const std::string &op, int arity) {
  const Operation *row = findOperation(op);
  if (!row || row->arity != arity)
    throw TypeError(std::string("unknown ") + (arity == 1 ? "unary" : "binary") + " operation '" +
                    op + "'");
  return *row;
}

/// The element type of `op`'s result, its operands' common type being `common`.
DType resultType(const Operation &op, DType common) {
  switch (op.rule) {
  case TypeRule::Promote:
    return common;
  case TypeRule::Float:
    return isFloat(common) ? common : DType::Float32;
  case TypeRule::Integral:
    if (isFloat(common)) {
      const std::string what = op.isFunction() ? op.name : op.token;
      throw TypeError("'" + what + "' needs " +
                      (op.arity == 1 ? "a bool or integer tile" : "bool or integer tiles") +
                      ", not " + dtypeName(common));
    }
    return common;
  case TypeRule::Compare:
    return DType::Bool;
  }
  return common;
}

int64_t normalizeAxis(int64_t axis, size_t rank, const char *op) {
  int64_t r = static_cast<int64_t>(rank);
  int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r)
    throw TypeError(std::string(op) + ": axis " + std::to_string(axis) +
                    " is out of range for a tile of rank " + std::to_string(rank));
  return a;
}

/// The kind of a dtype in the shared promotion table (ntc/common/promotion.hpp).
promotion::Kind promotionKind(DType t) {
  using promotion::Kind;
  switch (t) {
  case DType::Bool:
    return Kind::Bool;
  case DType::Int8:
    return Kind::Int8;
  case DType::Int16:
    return Kind::Int16;
  case DType::Int32:
    return Kind::Int32;
  case DType::Int64:
    return Kind::Int64;
  case DType::UInt8:
    return Kind::UInt8;
  case DType::UInt16:
    return Kind::UInt16;
  case DType::UInt32:
    return Kind::UInt32;
  case DType::UInt64:
    return Kind::UInt64;
  case DType::Float8E4M3:
    return Kind::Float8E4M3;
  case DType::Float8E5M2:
    return Kind::Float8E5M2;
  case DType::Float16:
    return Kind::Float16;
  case DType::BFloat16:
    return Kind::BFloat16;
  case DType::Float32:
    return Kind::Float32;
  case DType::Float64:
    return Kind::Float64;
  }
  return Kind::Float32;
}

/// The dtype of a promotion kind.
DType fromPromotionKind(promotion::Kind k) {
  for (DType t : {DType::Bool, DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::UInt8,
                  DType::UInt16, DType::UInt32, DType::UInt64, DType::Float8E4M3, DType::Float8E5M2,
                  DType::Float16, DType::BFloat16, DType::Float32, DType::Float64})
    if (promotionKind(t) == k)
      return t;
  return DType::Float32;
}

} // namespace

bool isPaddedExtent(const Expr &e) {
  return e.kind() == ExprKind::Symbol && e.symbolName().rfind(kPaddedPrefix, 0) == 0;
}

std::vector<Expr> broadcastShapes(const std::vector<Expr> &a, const std::vector<Expr> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<Expr> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    bool hasA = i < a.size(), hasB = i < b.size();
    Expr x = hasA ? a[a.size() - 1 - i] : Expr(1);
    Expr y = hasB ? b[b.size() - 1 - i] : Expr(1);
    Expr r;
    if (x == y || y == Expr(1))
      r = x;
    else if (x == Expr(1))
      r = y;
    else if (isPaddedExtent(x) && y.isConst() && y.constValue() > 1)
      r = y; // the run-time extent is pinned to the constant (passes::pinPaddedExtents)
    else if (isPaddedExtent(y) && x.isConst() && x.constValue() > 1)
      r = x;
    else {
      auto shape = [](const std::vector<Expr> &s) {
        std::string t = "(";
        for (size_t k = 0; k < s.size(); ++k)
          t += (k ? ", " : "") + s[k].str();
        return t + (s.size() == 1 ? ",)" : ")");
      };
      throw TypeError("shapes " + shape(a) + " and " + shape(b) +
                      " cannot be broadcast together (dimension " + x.str() + " vs " + y.str() +
                      ")");
    }
    out[rank - 1 - i] = r;
  }
  return out;
}

DType promote(const Value &a, const Value &b) {
  DType x = a->type.dtype, y = b->type.dtype;
  if (a->weak && !b->weak)
    return isFloat(x) && !isFloat(y) ? DType::Float32 : y;
  if (b->weak && !a->weak)
    return isFloat(y) && !isFloat(x) ? DType::Float32 : x;
  return fromPromotionKind(promotion::promote(promotionKind(x), promotionKind(y)));
}

Value makeLoad(int param, std::vector<Expr> subscripts, TileType type) {
  ValueNode n = node(ValueKind::Load, std::move(type));
  n.param = param;
  n.subscripts = std::move(subscripts);
  return make(std::move(n));
}

Value makeScalarParam(int param, DType dtype) {
  ValueNode n = node(ValueKind::ScalarParam, {dtype, {}});
  n.param = param;
  return make(std::move(n));
}

Value makeConstant(double value, DType dtype, bool weak) {
  ValueNode n = node(ValueKind::Constant, {dtype, {}});
  n.number = value;
  n.weak = weak;
  return make(std::move(n));
}

Value makeIndex(Expr value) {
  ValueNode n = node(ValueKind::Index, {DType::Int64, {}});
  n.integer = std::move(value);
  n.weak = true;
  return make(std::move(n));
}

Value makeLocal(const std::string &name, TileType type) {
  ValueNode n = node(ValueKind::Local, std::move(type));
  n.local = name;
  return make(std::move(n));
}

Value makeFull(std::vector<Expr> shape, double value, DType dtype) {
  ValueNode n = node(ValueKind::Full, {dtype, std::move(shape)});
  n.number = value;
  return make(std::move(n));
}

Value makeArange(Expr begin, Expr end) {
  ValueNode n = node(ValueKind::Arange, {DType::Int32, {end - begin}});
  n.integer = std::move(begin);
  n.integer2 = std::move(end);
  return make(std::move(n));
}

Value makeUnary(const std::string &op, Value x) {
  const Operation &row = operation(op, 1);
  TileType t = x->type;
  t.dtype = resultType(row, t.dtype);
  ValueNode n = node(ValueKind::Unary, t);
  n.op = op;
  n.weak = x->weak && row.rule == TypeRule::Promote; // -x keeps a weak constant weak
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeBinary(const std::string &op, Value a, Value b) {
  const Operation &row = operation(op, 2);
  TileType t;
  t.shape = broadcastShapes(a->type.shape, b->type.shape);
  t.dtype = resultType(row, promote(a, b));
  ValueNode n = node(ValueKind::Binary, t);
  n.op = op;
  n.weak = a->weak && b->weak;
  n.operands = {std::move(a), std::move(b)};
  return make(std::move(n));
}

Value makeWhere(Value cond, Value a, Value b) {
  TileType t;
  t.shape = broadcastShapes(cond->type.shape, broadcastShapes(a->type.shape, b->type.shape));
  t.dtype = promote(a, b);
  ValueNode n = node(ValueKind::Where, t);
  n.weak = a->weak && b->weak;
  n.operands = {std::move(cond), std::move(a), std::move(b)};
  return make(std::move(n));
}

Value makeCast(Value x, DType dtype) {
  ValueNode n = node(ValueKind::Cast, {dtype, x->type.shape});
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeReduce(const std::string &op, Value x, std::optional<int64_t> axis) {
  if (op != "sum" && op != "max" && op != "min" && op != "argmax")
    throw TypeError("unknown reduction '" + op + "'");
  TileType t = x->type;
  ValueNode n = node(ValueKind::Reduce, t);
  if (axis) {
    n.axis = normalizeAxis(*axis, t.shape.size(), op.c_str());
    n.type.shape.erase(n.type.shape.begin() + n.axis);
  } else {
    n.allAxes = true;
    n.type.shape.clear();
  }
  if (op == "argmax")
    n.type.dtype = DType::Int32;
  else if (op == "sum" && x->type.dtype == DType::Bool)
    n.type.dtype = DType::Int32;
  n.op = op;
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeDot(Value a, Value b, const std::string &precision) {
  const auto &sa = a->type.shape, &sb = b->type.shape;
  if (sa.size() != 2 || sb.size() != 2)
    throw TypeError("dot needs two 2-D tiles, got " + a->type.str() + " and " + b->type.str());
  if (sa[1] != sb[0])
    throw TypeError("dot: the inner dimensions differ: " + a->type.str() + " times " +
                    b->type.str());
  DType in = promote(a, b);
  DType acc = in;
  if (isFloat(in) && dtypeBits(in) <= 16)
    acc = DType::Float32;
  else if (isInteger(in) && dtypeBits(in) < 32)
    acc = DType::Int32;
  ValueNode n = node(ValueKind::Dot, {acc, {sa[0], sb[1]}});
  if (in == DType::Float32 && (precision == "tf32" || precision == "tf32x3"))
    n.precision = precision;
  n.operands = {std::move(a), std::move(b)};
  return make(std::move(n));
}

Value makeDotAccumulate(Value a, Value b, Value acc, const std::string &precision) {
  Value product = makeDot(a, b, precision);
  if (product->type.dtype != acc->type.dtype || product->type.shape != acc->type.shape)
    throw TypeError("dot: the accumulator " + acc->type.str() + " is not of the product's type " +
                    product->type.str());
  ValueNode n = node(ValueKind::Dot, acc->type);
  n.precision = product->precision;
  n.operands = {std::move(a), std::move(b), std::move(acc)};
  return make(std::move(n));
}

Value makeTrans(Value x) {
  if (x->type.shape.size() != 2)
    throw TypeError("trans needs a 2-D tile, got " + x->type.str());
  ValueNode n = node(ValueKind::Trans, {x->type.dtype, {x->type.shape[1], x->type.shape[0]}});
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeExpandDims(Value x, int64_t axis) {
  TileType t = x->type;
  int64_t a = normalizeAxis(axis, t.shape.size() + 1, "expand_dims");
  t.shape.insert(t.shape.begin() + a, Expr(1));
  ValueNode n = node(ValueKind::ExpandDims, t);
  n.axis = a;
  n.weak = x->weak;
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeBroadcastTo(Value x, std::vector<Expr> shape) {
  std::vector<Expr> result = broadcastShapes(x->type.shape, shape);
  if (result.size() != shape.size() || !std::equal(result.begin(), result.end(), shape.begin()))
    throw TypeError("broadcast_to: " + x->type.str() + " cannot be broadcast to the shape given");
  ValueNode n = node(ValueKind::BroadcastTo, {x->type.dtype, std::move(shape)});
  n.operands = {std::move(x)};
  return make(std::move(n));
}

Value makeOffsets(int param, std::vector<Expr> subscripts, int64_t dim, TileType type) {
  ValueNode n = node(ValueKind::Offsets, std::move(type));
  n.param = param;
  n.subscripts = std::move(subscripts);
  n.integer = Expr(dim);
  return make(std::move(n));
}

Value makeRand(Value seed, Value offsets) {
  ValueNode n = node(ValueKind::Rand, {DType::Float32, offsets->type.shape});
  n.operands = {std::move(seed), std::move(offsets)};
  return make(std::move(n));
}

Value makeConvertLayout(Value x, LayoutRef layout, bool transpose) {
  TileType type = x->type;
  if (transpose) {
    if (type.shape.size() != 2)
      throw TypeError("convert_layout: only 2-D tiles can be transposed");
    std::swap(type.shape[0], type.shape[1]);
  }
  type.layout = std::move(layout);
  ValueNode n = node(ValueKind::ConvertLayout, std::move(type));
  n.operands = {std::move(x)};
  n.transpose = transpose;
  return make(std::move(n));
}

Value makeStagedCopy(Value load, LayoutRef staged, bool transpose, Expr iteration, Expr first) {
  ValueNode n = *makeConvertLayout(std::move(load), std::move(staged), transpose);
  n.integer = std::move(iteration);
  n.integer2 = std::move(first);
  return make(std::move(n));
}

Value withLayout(const Value &v, LayoutRef layout, std::vector<Value> operands) {
  ValueNode n = *v;
  n.type.layout = std::move(layout);
  n.operands = std::move(operands);
  return make(std::move(n));
}

Value withVectorChunk(const Value &v, int chunk) {
  ValueNode n = *v;
  n.vectorChunk = chunk;
  return make(std::move(n));
}

Stmt withVectorChunk(const Stmt &s, int chunk) {
  StmtNode n = *s;
  n.vectorChunk = chunk;
  return make(std::move(n));
}

Stmt withValue(const Stmt &s, Value v) {
  StmtNode n = *s;
  n.value = std::move(v);
  return make(std::move(n));
}

Stmt withTensorMap(const Stmt &s, int map) {
  StmtNode n = *s;
  n.tensorMap = map;
  return make(std::move(n));
}

Stmt withGroup(const Stmt &s, int group) {
  StmtNode n = *s;
  n.group = group;
  return make(std::move(n));
}

Value makeSharedStage(TileType type, Expr iteration, Expr first) {
  ValueNode n = node(ValueKind::SharedStage, std::move(type));
  n.integer = std::move(iteration);
  n.integer2 = std::move(first);
  return make(std::move(n));
}

Stmt makeAsyncCopy(Value staged, Expr iteration, Expr end, int group) {
  StmtNode n = node(StmtKind::AsyncCopy);
  n.value = std::move(staged);
  n.begin = std::move(iteration);
  n.end = std::move(end);
  n.group = group;
  return make(std::move(n));
}

Stmt makeAsyncCommit() { return make(node(StmtKind::AsyncCommit)); }

Stmt makeAsyncWait(int64_t pending, Expr iteration, Expr first, int group) {
  StmtNode n = node(StmtKind::AsyncWait);
  n.begin = Expr(pending);
  n.end = std::move(iteration);
  n.step = std::move(first);
  n.group = group;
  return make(std::move(n));
}

namespace {
/// StageRelease or StageAcquire (`kind`) of the stage of iteration `iteration` of ring `group`.
Stmt stageStmt(StmtKind kind, Expr iteration, Expr first, int group, std::vector<Stmt> refill) {
  for (const Stmt &s : refill)
    if (s->kind != StmtKind::AsyncCopy || s->group != group || s->tensorMap < 0)
      throw TypeError("stage_release/stage_acquire: the refill must be TMA copies of the ring");
  StmtNode n = node(kind);
  n.end = std::move(iteration);
  n.step = std::move(first);
  n.group = group;
  n.body = std::move(refill);
  return make(std::move(n));
}
} // namespace

Stmt makeStageRelease(Expr iteration, Expr first, int group, std::vector<Stmt> refill) {
  return stageStmt(StmtKind::StageRelease, std::move(iteration), std::move(first), group,
                   std::move(refill));
}

Stmt makeStageAcquire(Expr iteration, Expr first, int group, std::vector<Stmt> refill) {
  return stageStmt(StmtKind::StageAcquire, std::move(iteration), std::move(first), group,
                   std::move(refill));
}

Stmt makeStageReleaseHeld(int group) {
  StmtNode n = node(StmtKind::StageReleaseHeld);
  n.group = group;
  return make(std::move(n));
}

Stmt makeDotIssue(const std::string &name, Value product) {
  if (product->kind != ValueKind::Dot)
    throw TypeError("dot_issue: the value must be a product");
  const LayoutRef &a = product->operands[0]->type.layout;
  const bool registerOperand = a && a->kind == TileLayout::Kind::DotA;
  const bool sharedOperand = a && a->kind == TileLayout::Kind::Shared;
  if (!(registerOperand && product->operands.size() == 3) &&
      !(sharedOperand && product->operands.size() == 2))
    throw TypeError("dot_issue: the product must accumulate with A in registers, or start "
                    "afresh with A in shared memory");
  StmtNode n = node(StmtKind::DotIssue);
  n.var = name;
  n.value = std::move(product);
  n.registerOperand = registerOperand;
  return make(std::move(n));
}

Stmt makeDotWait(const std::string &name, int64_t pending, bool registerOperand) {
  if (pending < 0 || pending > 7 || (registerOperand && pending != 0))
    throw TypeError("dot_wait: 0 to 7 products may stay in flight, none after a product with A "
                    "in registers");
  StmtNode n = node(StmtKind::DotWait);
  n.var = name;
  n.begin = Expr(pending);
  n.registerOperand = registerOperand;
  return make(std::move(n));
}

Stmt makeBarrier() { return make(node(StmtKind::Barrier)); }

Stmt makeDefine(const std::string &name, Value v) {
  StmtNode n = node(StmtKind::Define);
  n.var = name;
  n.value = std::move(v);
  return make(std::move(n));
}

Stmt makeAssign(const std::string &name, Value v) {
  StmtNode n = node(StmtKind::Assign);
  n.var = name;
  n.value = std::move(v);
  return make(std::move(n));
}

Stmt makeStore(int param, std::vector<Expr> subscripts, Value v) {
  StmtNode n = node(StmtKind::Store);
  n.param = param;
  n.subscripts = std::move(subscripts);
  n.value = std::move(v);
  return make(std::move(n));
}

Stmt makeFor(const std::string &index, Expr begin, Expr end, Expr step, std::vector<Stmt> body) {
  StmtNode n = node(StmtKind::For);
  n.var = index;
  n.begin = std::move(begin);
  n.end = std::move(end);
  n.step = std::move(step);
  n.body = std::move(body);
  return make(std::move(n));
}

Stmt makeIf(Cond cond, std::vector<Stmt> then, std::vector<Stmt> orelse) {
  StmtNode n = node(StmtKind::If);
  n.cond = std::move(cond);
  n.body = std::move(then);
  n.orelse = std::move(orelse);
  return make(std::move(n));
}

// ---- conditions -------------------------------------------------------------------------------

Cond Cond::substitute(const std::map<std::string, Expr> &values) const {
  Cond c = *this;
  auto decided = [](bool v) {
    Cond r;
    r.kind = v ? Kind::True : Kind::False;
    return r;
  };
  switch (kind) {
  case Kind::True:
  case Kind::False:
    return c;
  case Kind::NonZero:
  case Kind::Less:
  case Kind::LessEqual:
  case Kind::Equal: {
    c.a = a.substitute(values);
    c.b = b.substitute(values);
    auto x = c.a.asConst(), y = c.b.asConst();
    if (kind == Kind::NonZero && x)
      return decided(*x != 0);
    if (x && y)
      return decided(kind == Kind::Less ? *x < *y : kind == Kind::LessEqual ? *x <= *y : *x == *y);
    return c;
  }
  case Kind::Not: {
    Cond inner = operands[0].substitute(values);
    if (inner.kind == Kind::True || inner.kind == Kind::False)
      return decided(inner.kind == Kind::False);
    c.operands = {inner};
    return c;
  }
  case Kind::And:
  case Kind::Or: {
    Cond l = operands[0].substitute(values), r = operands[1].substitute(values);
    bool isAnd = kind == Kind::And;
    for (const Cond *x : {&l, &r}) {
      if (x->kind == (isAnd ? Kind::False : Kind::True))
        return decided(!isAnd);
    }
    if (l.kind == (isAnd ? Kind::True : Kind::False))
      return r;
    if (r.kind == (isAnd ? Kind::True : Kind::False))
      return l;
    c.operands = {l, r};
    return c;
  }
  }
  return c;
}

std::string Cond::str() const {
  switch (kind) {
  case Kind::True:
    return "true";
  case Kind::False:
    return "false";
  case Kind::NonZero:
    return a.str() + " != 0";
  case Kind::Less:
    return a.str() + " < " + b.str();
  case Kind::LessEqual:
    return a.str() + " <= " + b.str();
  case Kind::Equal:
    return a.str() + " == " + b.str();
  case Kind::Not:
    return "!(" + operands[0].str() + ")";
  case Kind::And:
    return "(" + operands[0].str() + ") && (" + operands[1].str() + ")";
  case Kind::Or:
    return "(" + operands[0].str() + ") || (" + operands[1].str() + ")";
  }
  return "?";
}

// ---- printer ----------------------------------------------------------------------------------

namespace {

std::string exprList(const std::vector<Expr> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + v[i].str();
  return s;
}

std::string valueString(const Function &f, const Value &v) {
  auto paramName = [&](int p) { return f.spec.arranged[p].name; };
  std::ostringstream os;
  switch (v->kind) {
  case ValueKind::Load:
    os << "load " << paramName(v->param) << "[" << exprList(v->subscripts) << "]";
    if (v->vectorChunk > 0)
      os << " vector " << v->vectorChunk;
    break;
  case ValueKind::ScalarParam:
    os << "param " << paramName(v->param);
    break;
  case ValueKind::Constant:
    os << v->number;
    break;
  case ValueKind::Index:
    os << "index(" << v->integer.str() << ")";
    break;
  case ValueKind::Local:
    os << "%" << v->local;
    break;
  case ValueKind::Full:
    os << "full(" << v->number << ")";
    break;
  case ValueKind::Arange:
    os << "arange(" << v->integer.str() << ", " << v->integer2.str() << ")";
    break;
  case ValueKind::Offsets:
    os << "offsets " << paramName(v->param) << "[" << exprList(v->subscripts) << "] dim "
       << v->integer.str();
    break;
  default: {
    static const char *names[] = {"",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "",
                                  "where",
                                  "cast",
                                  "",
                                  "dot",
                                  "trans",
                                  "expand_dims",
                                  "broadcast_to",
                                  "",
                                  "rand",
                                  "convert_layout",
                                  "shared_stage"};
    std::string name = v->op.empty() ? names[static_cast<int>(v->kind)] : v->op;
    os << name << "(";
    for (size_t i = 0; i < v->operands.size(); ++i)
      os << (i ? ", " : "") << valueString(f, v->operands[i]);
    if (v->kind == ValueKind::Reduce && !v->allAxes)
      os << ", axis=" << v->axis;
    if (v->kind == ValueKind::ExpandDims)
      os << ", " << v->axis;
    if (v->kind == ValueKind::ConvertLayout && v->transpose)
      os << ", transpose";
    if (v->kind == ValueKind::Dot && !v->precision.empty())
      os << ", input_precision=" << v->precision;
    if (v->kind == ValueKind::Dot && v->aDies)
      os << ", a_dies";
    if (v->kind == ValueKind::Dot && v->turn >= 0)
      os << ", turn=" << v->turn << (v->turnOpens ? "" : " continued")
         << (v->turnCloses ? "" : " open");
    if (v->kind == ValueKind::Cast && v->canonicalNaN)
      os << ", canonical_nan";
    if (v->kind == ValueKind::Binary && v->oneInstruction)
      os << ", one_instruction";
    if (v->kind == ValueKind::Binary && v->unlessOne)
      os << ", unless_one";
    if (v->kind == ValueKind::SharedStage ||
        (v->kind == ValueKind::ConvertLayout && v->type.layout && v->type.layout->buffer >= 0 &&
         v->type.layout->stages > 1))
      os << (v->operands.empty() ? "" : ", ") << "iteration " << v->integer.str() << " from "
         << v->integer2.str();
    os << ")";
  }
  }
  return os.str() + " : " + v->type.str();
}

void printStmts(const Function &f, const std::vector<Stmt> &body, int indent,
                std::ostringstream &os) {
  std::string pad(indent * 2, ' ');
  for (const Stmt &s : body) {
    switch (s->kind) {
    case StmtKind::Define:
      os << pad << "%" << s->var << " = " << valueString(f, s->value) << "\n";
      break;
    case StmtKind::Assign:
      os << pad << "%" << s->var << " <- " << valueString(f, s->value) << "\n";
      break;
    case StmtKind::Store:
      os << pad << "store " << f.spec.arranged[s->param].name << "[" << exprList(s->subscripts)
         << "]" << (s->vectorChunk > 0 ? " vector " + std::to_string(s->vectorChunk) : "")
         << (s->tensorMap >= 0 ? " tma map=" + std::to_string(s->tensorMap) : "") << " <- "
         << valueString(f, s->value) << "\n";
      break;
    case StmtKind::For:
      os << pad << "for " << s->var << " in range(" << s->begin.str() << ", " << s->end.str()
         << ", " << s->step.str() << "):\n";
      printStmts(f, s->body, indent + 1, os);
      break;
    case StmtKind::AsyncCopy:
      os << pad << "async_copy if " << s->begin.str() << " < " << s->end.str() << ": "
         << valueString(f, s->value)
         << (s->tensorMap >= 0 ? " tma map=" + std::to_string(s->tensorMap) : "") << "\n";
      break;
    case StmtKind::AsyncCommit:
      os << pad << "async_commit\n";
      break;
    case StmtKind::AsyncWait:
      os << pad << "async_wait pending=" << s->begin.str() << " iteration=" << s->end.str()
         << " group=" << s->group << "\n";
      break;
    case StmtKind::DotIssue:
      os << pad << "dot_issue %" << s->var << " <- " << valueString(f, s->value) << "\n";
      break;
    case StmtKind::DotWait:
      os << pad << "dot_wait %" << s->var
         << (s->begin.constValue() ? " pending=" + s->begin.str() : std::string()) << "\n";
      break;
    case StmtKind::Barrier:
      os << pad << "barrier\n";
      break;
    case StmtKind::StageRelease:
      if (s->body.empty()) {
        os << pad << "stage_release iteration=" << s->end.str() << " group=" << s->group
           << ", the producer refilling\n";
        break;
      }
      os << pad << "stage_release iteration=" << s->end.str() << " group=" << s->group
         << ", the last warp refilling:\n";
      printStmts(f, s->body, indent + 1, os);
      break;
    case StmtKind::StageAcquire:
      os << pad << "stage_acquire iteration=" << s->end.str() << " group=" << s->group
         << ", then refilling:\n";
      printStmts(f, s->body, indent + 1, os);
      break;
    case StmtKind::StageReleaseHeld:
      os << pad << "stage_release_held group=" << s->group << "\n";
      break;
    case StmtKind::If:
      os << pad << "if " << s->cond.str() << ":\n";
      printStmts(f, s->body, indent + 1, os);
      if (!s->orelse.empty()) {
        os << pad << "else:\n";
        printStmts(f, s->orelse, indent + 1, os);
      }
      break;
    }
  }
}

} // namespace

std::string print(const Function &f) {
  std::ostringstream os;
  os << "kernel " << f.spec.name << "(";
  for (size_t i = 0; i < f.spec.arranged.size(); ++i)
    os << (i ? ", " : "") << f.spec.arranged[i].name << ": " << f.spec.arranged[i].layout.str();
  os << "):\n";
  for (const PaddedExtent &p : f.padded) {
    os << "  # " << p.symbol << " = next power of two of max(";
    for (size_t i = 0; i < p.actuals.size(); ++i)
      os << (i ? ", " : "") << p.actuals[i].str();
    os << "), at most " << p.upperBound << "\n";
  }
  for (size_t m = 0; m < f.tensorMaps.size(); ++m) {
    const TensorMapUse &u = f.tensorMaps[m];
    os << "  # tensor map " << m << ": " << f.spec.params[static_cast<size_t>(u.param)].name
       << ", box [";
    for (size_t d = 0; d < u.box.size(); ++d)
      os << (d ? ", " : "") << u.box[d];
    os << "], swizzle " << u.swizzleBytes << "\n";
  }
  for (const TmaRing &r : f.tmaRings)
    os << "  # tma ring of group " << r.group << ": " << r.stages << " stages, " << r.arrivals
       << " arrivals, barriers at " << r.byteOffset
       << (r.releasers > 0 ? ", released by " + std::to_string(r.releasers) + " warps"
                           : std::string())
       << (r.lastReleaserRefills ? ", the last one refilling" : "")
       << (r.asyncCopiesToo ? ", cp.async copies too" : "")
       << (r.tensorCoreReadsOnly ? ", read by wgmma alone" : "")
       << (r.operandMaps.size() == 2
               ? ", the dot loop's operands through maps " + std::to_string(r.operandMaps[0]) +
                     " and " + std::to_string(r.operandMaps[1])
               : std::string())
       << (r.cluster > 1 ? ", in clusters of " + std::to_string(r.cluster) + " sharing operand " +
                               (r.multicastOperand == 0 ? "a" : "b") + " (multicast)"
                         : std::string())
       << "\n";
  for (int b : f.turnBarriers)
    os << "  # turns through barriers from " << b << "\n";
  if (const auto &w = f.warpSpecialization; w && w->persistent && w->producerBody.empty())
    os << "  # persistent, warp-specialized: " << w->consumerThreads << " consumer threads ("
       << w->consumerRegisters << " registers), a producer of " << w->producerThreads << " ("
       << w->producerRegisters << " registers); stores staged at " << w->storeStaging
       << (w->storeRounds > 1 ? " in " + std::to_string(w->storeRounds) + " rounds" : std::string())
       << ", total " << w->totalBytes << " bytes\n";
  if (const auto &w = f.warpSpecialization; w && !w->producerBody.empty()) {
    os << "  # "
       << (w->persistent ? "persistent, each side looping over the block's programs; " : "")
       << "a producer warpgroup: " << w->consumerThreads << " consumer threads ("
       << w->consumerRegisters << " registers), a producer of " << w->producerThreads << " ("
       << w->producerRegisters << " registers), whose first thread runs:\n";
    printStmts(f, w->producerBody, 2, os);
    os << "  # and the consumers:\n";
  }
  printStmts(f, f.body, 1, os);
  return os.str();
}

namespace {
void visitOnce(const Value &v, const std::function<void(const Value &)> &f,
               std::unordered_set<const ValueNode *> &seen) {
  if (!seen.insert(v.get()).second)
    return;
  f(v);
  for (const Value &o : v->operands)
    visitOnce(o, f, seen);
}
} // namespace

Value mapValue(const Value &v,
               const std::function<Value(const Value &, const std::vector<Value> &)> &replace,
               ValueMemo &memo) {
  if (auto it = memo.find(v.get()); it != memo.end())
    return it->second;
  std::vector<Value> operands;
  bool changed = false;
  for (const Value &o : v->operands) {
    operands.push_back(mapValue(o, replace, memo));
    changed = changed || operands.back() != o;
  }
  Value r = replace(v, operands);
  if (!r)
    r = changed ? withLayout(v, v->type.layout, operands) : v;
  memo.emplace(v.get(), r);
  return r;
}

void forEachValue(const Value &v, const std::function<void(const Value &)> &f) {
  std::unordered_set<const ValueNode *> seen;
  visitOnce(v, f, seen);
}

bool readsLocal(const Value &v, const std::string &name) {
  bool found = false;
  forEachValue(v, [&](const Value &x) {
    found = found || (x->kind == ValueKind::Local && x->local == name);
  });
  return found;
}

namespace {

/// substituteSymbol's walk: statements and values rebuilt with the substitution, each distinct
/// value once.
class SymbolSubstituter {
public:
  SymbolSubstituter(const std::string &name, const Expr &by) : subst_{{name, by}} {}

  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    std::vector<Stmt> out;
    for (const Stmt &s : body) {
      StmtNode n = *s;
      if (n.value)
        n.value = value(n.value);
      for (Expr &e : n.subscripts)
        e = e.substitute(subst_);
      n.begin = n.begin.substitute(subst_);
      n.end = n.end.substitute(subst_);
      n.step = n.step.substitute(subst_);
      n.cond = n.cond.substitute(subst_);
      n.body = stmts(n.body);
      n.orelse = stmts(n.orelse);
      out.push_back(std::make_shared<const StmtNode>(std::move(n)));
    }
    return out;
  }

private:
  Value value(const Value &v) {
    if (auto it = memo_.find(v.get()); it != memo_.end())
      return it->second;
    ValueNode n = *v;
    for (Expr &e : n.subscripts)
      e = e.substitute(subst_);
    n.integer = n.integer.substitute(subst_);
    n.integer2 = n.integer2.substitute(subst_);
    for (Value &o : n.operands)
      o = value(o);
    Value r = std::make_shared<const ValueNode>(std::move(n));
    memo_[v.get()] = r;
    return r;
  }

  std::map<std::string, Expr> subst_;
  std::unordered_map<const ValueNode *, Value> memo_;
};

} // namespace

std::vector<Stmt> substituteSymbol(const std::string &name, const Expr &by,
                                   const std::vector<Stmt> &body) {
  return SymbolSubstituter(name, by).stmts(body);
}

std::vector<Stmt> rewriteLoops(
    const std::vector<Stmt> &body,
    const std::function<bool(const Stmt &loop, int depth, std::vector<Stmt> &out)> &rewrite,
    int depth) {
  std::vector<Stmt> out;
  for (const Stmt &s : body) {
    if (s->kind == StmtKind::For) {
      Stmt loop =
          makeFor(s->var, s->begin, s->end, s->step, rewriteLoops(s->body, rewrite, depth + 1));
      if (s->group >= 0)
        loop = withGroup(loop, s->group);
      if (!rewrite(loop, depth, out))
        out.push_back(loop);
    } else if (s->kind == StmtKind::If) {
      out.push_back(makeIf(s->cond, rewriteLoops(s->body, rewrite, depth),
                           rewriteLoops(s->orelse, rewrite, depth)));
    } else {
      out.push_back(s);
    }
  }
  return out;
}

void forEachStmt(const std::vector<Stmt> &body, const std::function<bool(const Stmt &)> &f) {
  for (const Stmt &s : body)
    if (f(s)) {
      forEachStmt(s->body, f);
      forEachStmt(s->orelse, f);
    }
}

std::unordered_map<const ValueNode *, int> useCounts(const std::vector<Stmt> &body) {
  std::unordered_map<const ValueNode *, int> uses;
  forEachValue(body, [&](const Value &v) {
    for (const Value &o : v->operands)
      ++uses[o.get()];
  });
  forEachStmt(body, [&](const Stmt &s) {
    if (s->value)
      ++uses[s->value.get()];
    return true;
  });
  return uses;
}

std::vector<Stmt> markValues(const std::vector<Stmt> &body,
                             const std::function<bool(const Value &)> &marks,
                             const std::function<void(ValueNode &)> &mark) {
  ValueMemo memo;
  return mapStmtValues(body, [&](const Value &root) {
    return mapValue(
        root,
        [&](const Value &node, const std::vector<Value> &ops) -> Value {
          if (!marks(node))
            return nullptr;
          ValueNode marked = *node;
          marked.operands = ops;
          mark(marked);
          return std::make_shared<const ValueNode>(std::move(marked));
        },
        memo);
  });
}

std::vector<Stmt> mapStmtValues(const std::vector<Stmt> &body,
                                const std::function<Value(const Value &)> &f) {
  std::vector<Stmt> out;
  for (const Stmt &s : body) {
    switch (s->kind) {
    case StmtKind::Define:
      out.push_back(makeDefine(s->var, f(s->value)));
      break;
    case StmtKind::Assign:
      out.push_back(makeAssign(s->var, f(s->value)));
      break;
    case StmtKind::Store:
      out.push_back(
          withVectorChunk(makeStore(s->param, s->subscripts, f(s->value)), s->vectorChunk));
      break;
    case StmtKind::AsyncCopy:
      out.push_back(withValue(s, f(s->value)));
      break;
    case StmtKind::StageRelease:
      out.push_back(makeStageRelease(s->end, s->step, s->group, mapStmtValues(s->body, f)));
      break;
    case StmtKind::StageAcquire:
      out.push_back(makeStageAcquire(s->end, s->step, s->group, mapStmtValues(s->body, f)));
      break;
    case StmtKind::StageReleaseHeld:
      out.push_back(s);
      break;
    case StmtKind::DotIssue:
      out.push_back(makeDotIssue(s->var, f(s->value)));
      break;
    case StmtKind::For:
      out.push_back(makeFor(s->var, s->begin, s->end, s->step, mapStmtValues(s->body, f)));
      break;
    case StmtKind::If:
      out.push_back(makeIf(s->cond, mapStmtValues(s->body, f), mapStmtValues(s->orelse, f)));
      break;
    case StmtKind::AsyncCommit:
    case StmtKind::AsyncWait:
    case StmtKind::DotWait:
    case StmtKind::Barrier:
      out.push_back(s);
      break;
    }
  }
  return out;
}

void forEachValue(const std::vector<Stmt> &body, const std::function<void(const Value &)> &f) {
  std::unordered_set<const ValueNode *> seen;
  forEachStmt(body, [&](const Stmt &s) {
    if (s->value)
      visitOnce(s->value, f, seen);
    return true;
  });
}

} // namespace ntc::kir
