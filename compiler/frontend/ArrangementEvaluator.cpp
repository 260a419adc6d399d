//===- ArrangementEvaluator.cpp - interpret NT_KERNEL and arrangements ----===//
#include "frontend/ArrangementEvaluator.h"

#include "frontend/InferAxes.h"

#include "frontend/DslNames.h"

#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <map>

namespace ntc {

using AstExpr = clang::Expr;
using clang::dyn_cast;
using clang::isa;

bool hasAnnotation(const clang::FunctionDecl *decl, const char *annotation) {
  for (const auto *a : decl->specific_attrs<clang::AnnotateAttr>())
    if (a->getAnnotation() == annotation)
      return true;
  return false;
}

namespace {

struct Frame;

/// A value of the arrangement interpreter.
struct Value {
  enum class Kind {
    None,
    Int,
    Bool,
    Float,
    String,
    DType,
    Tensor,
    List,
    Function,
    Closure,
    Param,
    Inferred ///< nt::inferred
  };
  Kind kind = Kind::None;
  Expr integer;
  bool boolean = false;
  double real = 0;
  std::string text;
  DType dtype = DType::Float32;
  std::shared_ptr<const Layout> tensor;
  std::vector<Value> list;
  const clang::FunctionDecl *function = nullptr;
  std::shared_ptr<Frame> closure;
  std::shared_ptr<ParamSpec> param;

  static Value ofInt(Expr e) {
    Value v;
    v.kind = Kind::Int;
    v.integer = std::move(e);
    return v;
  }
  static Value ofBool(bool b) {
    Value v;
    v.kind = Kind::Bool;
    v.boolean = b;
    return v;
  }
  static Value ofFloat(double d) {
    Value v;
    v.kind = Kind::Float;
    v.real = d;
    return v;
  }
  static Value ofTensor(Layout l) {
    Value v;
    v.kind = Kind::Tensor;
    v.tensor = std::make_shared<const Layout>(std::move(l));
    return v;
  }
  static Value ofList(std::vector<Value> items) {
    Value v;
    v.kind = Kind::List;
    v.list = std::move(items);
    return v;
  }
};

/// Local variables of one function activation; closures keep their defining frame.
struct Frame {
  std::map<const clang::ValueDecl *, Value> vars;
  std::shared_ptr<Frame> parent;

  Value *lookup(const clang::ValueDecl *d) {
    for (Frame *f = this; f; f = f->parent.get()) {
      auto it = f->vars.find(d);
      if (it != f->vars.end())
        return &it->second;
    }
    return nullptr;
  }
};

using FramePtr = std::shared_ptr<Frame>;

const char *kindName(Value::Kind k) {
  switch (k) {
  case Value::Kind::None:
    return "nothing";
  case Value::Kind::Int:
    return "an integer";
  case Value::Kind::Bool:
    return "a bool";
  case Value::Kind::Float:
    return "a floating-point value";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::DType:
    return "a data type";
  case Value::Kind::Tensor:
    return "a tensor";
  case Value::Kind::List:
    return "a list";
  case Value::Kind::Function:
  case Value::Kind::Closure:
    return "a function";
  case Value::Kind::Param:
    return "a parameter declaration";
  case Value::Kind::Inferred:
    return "nt::inferred";
  }
  return "?";
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

} // namespace

struct ArrangementEvaluator::Impl {
  clang::ASTContext &ctx;
  std::map<const clang::VarDecl *, Value> globals;
  std::vector<MetaParam> metas;
  /// The parameters of the kernel being evaluated that are declared nt::Constexpr with integer
  /// values, by name: the symbol each stands for where the arrangement uses it as an integer.
  std::map<std::string, Expr> constexprSymbols;
  int callDepth = 0;
  /// Placeholder axis names given so far (axes(nt::inferred)).
  int inferredAxes_ = 0;
  /// Values given to block sizes for one evaluateArrangement (compose-kernels sets a
  /// callee's own block sizes to the caller's extents).
  std::map<std::string, Expr> blockSizeValues;

  /// `v` with the set block sizes replaced by their values.
  Value withBlockSizeValues(Value v) const {
    if (v.kind == Value::Kind::Int && !blockSizeValues.empty())
      v.integer = v.integer.substitute(blockSizeValues);
    return v;
  }
  /// The frames of the kernel being evaluated. A closure stored in a variable of the frame it
  /// captures (`auto f = [&](...) {...};`) is a shared_ptr cycle; releaseFrames() breaks it.
  std::vector<std::weak_ptr<Frame>> frames;

  explicit Impl(clang::ASTContext &c) : ctx(c) {}

  FramePtr newFrame() {
    auto f = std::make_shared<Frame>();
    frames.push_back(f);
    return f;
  }
  void releaseFrames() {
    for (const std::weak_ptr<Frame> &w : frames)
      if (FramePtr f = w.lock()) {
        f->vars.clear();
        f->parent.reset();
      }
    frames.clear();
  }

  [[noreturn]] void fail(const clang::Stmt *s, const std::string &msg) {
    throw SourceError(s->getSourceRange(), msg);
  }

  // ---- conversions ------------------------------------------------------------------------

  Expr asInt(const Value &v, const clang::Stmt *where, const char *what) {
    if (v.kind == Value::Kind::Int)
      return v.integer;
    if (v.kind == Value::Kind::Bool)
      return Expr(v.boolean ? 1 : 0);
    fail(where, std::string(what) + " must be an integer or a symbol, not " + kindName(v.kind));
  }

  int64_t asConstInt(const Value &v, const clang::Stmt *where, const char *what) {
    Expr e = asInt(v, where, what);
    if (!e.isConst())
      fail(where, std::string(what) + " must be a compile-time constant, not '" + e.str() + "'");
    return e.constValue();
  }

  bool asBool(const Value &v, const clang::Stmt *where) {
    if (v.kind == Value::Kind::Bool)
      return v.boolean;
    if (v.kind == Value::Kind::Float)
      return v.real != 0;
    return asConstInt(v, where, "a condition") != 0;
  }

  double asReal(const Value &v, const clang::Stmt *where, const char *what) {
    if (v.kind == Value::Kind::Float)
      return v.real;
    return static_cast<double>(asConstInt(v, where, what));
  }

  const Layout &asTensor(const Value &v, const clang::Stmt *where) {
    if (v.kind != Value::Kind::Tensor)
      fail(where, std::string("expected a tensor, got ") + kindName(v.kind));
    return *v.tensor;
  }

  std::vector<Value> asList(const Value &v, const clang::Stmt *where, const char *what) {
    if (v.kind == Value::Kind::List)
      return v.list;
    if (v.kind == Value::Kind::None)
      return {};
    return {v}; // a single value where a list is expected, e.g. squeeze(0)
  }

  std::vector<Expr> asIntList(const Value &v, const clang::Stmt *where, const char *what) {
    std::vector<Expr> out;
    for (const Value &item : asList(v, where, what))
      out.push_back(asInt(item, where, what));
    return out;
  }

  std::vector<int64_t> asConstIntList(const Value &v, const clang::Stmt *where, const char *what) {
    std::vector<int64_t> out;
    for (const Value &item : asList(v, where, what))
      out.push_back(asConstInt(item, where, what));
    return out;
  }

  std::optional<Expr> asOptInt(const Value &v, const clang::Stmt *where, const char *what) {
    if (v.kind == Value::Kind::None)
      return std::nullopt;
    return asInt(v, where, what);
  }

  // ---- statements -------------------------------------------------------------------------

  /// Executes a statement; returns true when a `return` was executed (value in `result`).
  bool exec(const clang::Stmt *s, const FramePtr &f, Value &result) {
    if (!s)
      return false;
    if (const auto *c = dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt *child : c->body())
        if (exec(child, f, result))
          return true;
      return false;
    }
    if (const auto *d = dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *decl : d->decls()) {
        const auto *var = dyn_cast<clang::VarDecl>(decl);
        if (!var)
          continue;
        f->vars[var] = var->getInit() ? eval(var->getInit(), f) : Value{};
      }
      return false;
    }
    if (const auto *r = dyn_cast<clang::ReturnStmt>(s)) {
      result = r->getRetValue() ? eval(r->getRetValue(), f) : Value{};
      return true;
    }
    if (const auto *i = dyn_cast<clang::IfStmt>(s)) {
      if (i->getInit())
        exec(i->getInit(), f, result);
      bool taken = asBool(eval(i->getCond(), f), i->getCond());
      return exec(taken ? i->getThen() : i->getElse(), f, result);
    }
    if (const auto *loop = dyn_cast<clang::ForStmt>(s)) {
      exec(loop->getInit(), f, result);
      for (int iterations = 0;; ++iterations) {
        if (iterations > 100000)
          fail(loop, "loop in an arrangement does not terminate after 100000 iterations");
        if (loop->getCond() && !asBool(eval(loop->getCond(), f), loop->getCond()))
          break;
        if (exec(loop->getBody(), f, result))
          return true;
        if (loop->getInc())
          eval(loop->getInc(), f);
      }
      return false;
    }
    if (isa<clang::NullStmt>(s))
      return false;
    if (const auto *e = dyn_cast<AstExpr>(s)) {
      eval(e, f);
      return false;
    }
    fail(s, statementName(s) + " not supported in an arrangement; use 'for' with constant "
                               "bounds, 'if' and local variables");
  }

  /// How a statement is called in a message ("'while' loops are").
  static std::string statementName(const clang::Stmt *s) {
    if (isa<clang::WhileStmt>(s) || isa<clang::DoStmt>(s))
      return "'while' loops are";
    if (isa<clang::SwitchStmt>(s))
      return "'switch' statements are";
    if (isa<clang::BreakStmt>(s))
      return "'break' is";
    if (isa<clang::ContinueStmt>(s))
      return "'continue' is";
    if (isa<clang::GotoStmt>(s) || isa<clang::LabelStmt>(s))
      return "'goto' is";
    if (isa<clang::CXXForRangeStmt>(s))
      return "range-based 'for' loops are";
    if (isa<clang::CXXTryStmt>(s))
      return "exceptions are";
    return std::string("'") + s->getStmtClassName() + "' statements are";
  }

  // ---- expressions ------------------------------------------------------------------------

  /// The value of `e`; integer overflow in it is reported at `e` (the innermost expression
  /// where it happens).
  Value eval(const AstExpr *e, const FramePtr &f) {
    try {
      return evalUnchecked(e, f);
    } catch (const ArithmeticOverflow &overflow) {
      fail(e, std::string("integer overflow: ") + overflow.what());
    }
  }

  Value evalUnchecked(const AstExpr *e, const FramePtr &f) {
    e = e->IgnoreParens();
    if (isa<clang::CXXDefaultArgExpr>(e))
      return Value{}; // a defaulted argument means "not given"
    // Integer and floating constant expressions: let Clang fold them (sizeof, constexpr
    // functions, std::numeric_limits, INFINITY...).
    if (!e->isValueDependent() && !isa<clang::DeclRefExpr>(e)) {
      clang::QualType t = e->getType();
      if (t->isIntegerType() && !t->isBooleanType()) {
        clang::Expr::EvalResult r;
        if (e->EvaluateAsInt(r, ctx))
          return Value::ofInt(Expr(r.Val.getInt().getExtValue()));
      } else if (t->isRealFloatingType()) {
        llvm::APFloat r(0.0);
        if (e->EvaluateAsFloat(r, ctx))
          return Value::ofFloat(r.convertToDouble());
      }
    }
    if (const auto *x = dyn_cast<clang::ExprWithCleanups>(e))
      return eval(x->getSubExpr(), f);
    if (const auto *x = dyn_cast<clang::MaterializeTemporaryExpr>(e))
      return eval(x->getSubExpr(), f);
    if (const auto *x = dyn_cast<clang::CXXBindTemporaryExpr>(e))
      return eval(x->getSubExpr(), f);
    if (const auto *x = dyn_cast<clang::ConstantExpr>(e))
      return eval(x->getSubExpr(), f);
    if (const auto *x = dyn_cast<clang::CXXStdInitializerListExpr>(e))
      return eval(x->getSubExpr(), f);
    if (isa<clang::CXXDefaultArgExpr>(e) || isa<clang::CXXNullPtrLiteralExpr>(e))
      return Value{};
    if (const auto *x = dyn_cast<clang::ImplicitCastExpr>(e))
      return convert(eval(x->getSubExpr(), f), x->getType(), x);
    if (const auto *x = dyn_cast<clang::ExplicitCastExpr>(e))
      return convert(eval(x->getSubExpr(), f), x->getType(), x);
    if (const auto *x = dyn_cast<clang::IntegerLiteral>(e))
      return Value::ofInt(Expr(static_cast<int64_t>(x->getValue().getSExtValue())));
    if (const auto *x = dyn_cast<clang::CXXBoolLiteralExpr>(e))
      return Value::ofBool(x->getValue());
    if (const auto *x = dyn_cast<clang::FloatingLiteral>(e))
      return Value::ofFloat(x->getValueAsApproximateDouble());
    if (const auto *x = dyn_cast<clang::StringLiteral>(e)) {
      Value v;
      v.kind = Value::Kind::String;
      v.text = x->getString().str();
      return v;
    }
    if (const auto *x = dyn_cast<clang::DeclRefExpr>(e))
      return evalDeclRef(x, f);
    if (const auto *x = dyn_cast<clang::InitListExpr>(e)) {
      std::vector<Value> items;
      for (const AstExpr *init : x->inits())
        items.push_back(eval(init, f));
      return Value::ofList(std::move(items));
    }
    if (const auto *x = dyn_cast<clang::UnaryOperator>(e))
      return evalUnary(x, f);
    if (const auto *x = dyn_cast<clang::BinaryOperator>(e))
      return evalBinary(x, f);
    if (const auto *x = dyn_cast<clang::ConditionalOperator>(e))
      return asBool(eval(x->getCond(), f), x->getCond()) ? eval(x->getTrueExpr(), f)
                                                         : eval(x->getFalseExpr(), f);
    if (const auto *x = dyn_cast<clang::LambdaExpr>(e)) {
      Value v;
      v.kind = Value::Kind::Closure;
      v.function = x->getCallOperator();
      v.closure = f;
      return v;
    }
    if (const auto *x = dyn_cast<clang::CXXOperatorCallExpr>(e))
      return evalOperatorCall(x, f);
    if (const auto *x = dyn_cast<clang::CXXMemberCallExpr>(e))
      return evalMemberCall(x, f);
    if (const auto *x = dyn_cast<clang::CallExpr>(e))
      return evalCall(x, f);
    if (const auto *x = dyn_cast<clang::CXXConstructExpr>(e))
      return evalConstruct(x, f);
    fail(e, std::string("'") + e->getStmtClassName() +
                "' expressions are not supported in an arrangement");
  }

  Value convert(Value v, clang::QualType to, const AstExpr *where) {
    if (to->isRealFloatingType() && v.kind == Value::Kind::Int)
      return Value::ofFloat(static_cast<double>(asConstInt(v, where, "the value")));
    if (to->isBooleanType() && v.kind == Value::Kind::Int)
      return Value::ofBool(asConstInt(v, where, "the value") != 0);
    if (to->isIntegerType() && !to->isBooleanType() && v.kind == Value::Kind::Float)
      return Value::ofInt(Expr(static_cast<int64_t>(v.real)));
    if (to->isIntegerType() && v.kind == Value::Kind::Bool && !to->isBooleanType())
      return Value::ofInt(Expr(v.boolean ? 1 : 0));
    return v;
  }

  Value evalDeclRef(const clang::DeclRefExpr *e, const FramePtr &f) {
    const clang::ValueDecl *d = e->getDecl();
    if (Value *v = f->lookup(d))
      return *v;
    if (const auto *ec = dyn_cast<clang::EnumConstantDecl>(d)) {
      const auto *en = dyn_cast<clang::EnumDecl>(ec->getDeclContext());
      if (en && en->getName() == "DType" && declaredInDsl(en)) {
        auto t = dtypeFromName(ec->getName().str());
        if (!t)
          fail(e, "unknown data type '" + ec->getName().str() + "'");
        Value v;
        v.kind = Value::Kind::DType;
        v.dtype = *t;
        return v;
      }
      return Value::ofInt(Expr(ec->getInitVal().getExtValue()));
    }
    if (const auto *fn = dyn_cast<clang::FunctionDecl>(d)) {
      Value v;
      v.kind = Value::Kind::Function;
      v.function = fn;
      return v;
    }
    if (const auto *var = dyn_cast<clang::VarDecl>(d)) {
      if (var->getName() == "none" && declaredInDsl(var))
        return Value{};
      if (var->getName() == "inferred" && declaredInDsl(var)) {
        Value v;
        v.kind = Value::Kind::Inferred;
        return v;
      }
      if (var->hasGlobalStorage() && var->getAnyInitializer() &&
          (var->isConstexpr() || var->getType().isConstQualified())) {
        auto it = globals.find(var);
        if (it == globals.end()) {
          // The cache holds the declared value; set block sizes apply where it is read.
          std::map<std::string, Expr> set;
          std::swap(set, blockSizeValues);
          const clang::VarDecl *def = nullptr;
          const AstExpr *init = var->getAnyInitializer(def);
          Value v = eval(init, newFrame());
          std::swap(set, blockSizeValues);
          it = globals.emplace(var, v).first;
        }
        return withBlockSizeValues(it->second);
      }
    }
    std::string hint;
    if (const auto *var = dyn_cast<clang::VarDecl>(d); var && var->hasGlobalStorage())
      hint = "; declare it constexpr";
    fail(e, "'" + d->getNameAsString() + "' has no value known at compile time" + hint);
  }

  Value evalUnary(const clang::UnaryOperator *e, const FramePtr &f) {
    using clang::UnaryOperatorKind;
    switch (e->getOpcode()) {
    case clang::UO_Minus: {
      Value v = eval(e->getSubExpr(), f);
      if (v.kind == Value::Kind::Float)
        return Value::ofFloat(-v.real);
      return Value::ofInt(-asInt(v, e, "the operand of '-'"));
    }
    case clang::UO_Plus:
      return eval(e->getSubExpr(), f);
    case clang::UO_LNot:
      return Value::ofBool(!asBool(eval(e->getSubExpr(), f), e));
    case clang::UO_PreInc:
    case clang::UO_PostInc:
    case clang::UO_PreDec:
    case clang::UO_PostDec: {
      Value old = eval(e->getSubExpr(), f);
      Expr delta = e->isIncrementOp() ? Expr(1) : Expr(-1);
      Value updated = Value::ofInt(asInt(old, e, "the operand") + delta);
      assign(e->getSubExpr(), updated, f);
      return e->isPrefix() ? updated : old;
    }
    default:
      fail(e, "this unary operator is not supported in an arrangement");
    }
  }

  Value arithmetic(clang::BinaryOperatorKind op, const Value &a, const Value &b,
                   const AstExpr *where) {
    if (a.kind == Value::Kind::Float || b.kind == Value::Kind::Float) {
      double x = asReal(a, where, "an operand"), y = asReal(b, where, "an operand");
      switch (op) {
      case clang::BO_Add:
        return Value::ofFloat(x + y);
      case clang::BO_Sub:
        return Value::ofFloat(x - y);
      case clang::BO_Mul:
        return Value::ofFloat(x * y);
      case clang::BO_Div:
        return Value::ofFloat(x / y);
      case clang::BO_LT:
        return Value::ofBool(x < y);
      case clang::BO_GT:
        return Value::ofBool(x > y);
      case clang::BO_LE:
        return Value::ofBool(x <= y);
      case clang::BO_GE:
        return Value::ofBool(x >= y);
      case clang::BO_EQ:
        return Value::ofBool(x == y);
      case clang::BO_NE:
        return Value::ofBool(x != y);
      default:
        fail(where, "this operator is not supported on floating-point values");
      }
    }
    if (op == clang::BO_LAnd || op == clang::BO_LOr) {
      bool x = asBool(a, where), y = asBool(b, where);
      return Value::ofBool(op == clang::BO_LAnd ? (x && y) : (x || y));
    }
    Expr x = asInt(a, where, "an operand"), y = asInt(b, where, "an operand");
    switch (op) {
    case clang::BO_Add:
      return Value::ofInt(x + y);
    case clang::BO_Sub:
      return Value::ofInt(x - y);
    case clang::BO_Mul:
      return Value::ofInt(x * y);
    case clang::BO_Div:
    case clang::BO_Rem:
      if (y.isConst() && y.constValue() == 0)
        fail(where, "division by zero in an arrangement");
      return Value::ofInt(op == clang::BO_Div ? floorDiv(x, y) : mod(x, y));
    default:
      break;
    }
    auto decide = [&](bool provenTrue, bool provenFalse) {
      if (!provenTrue && !provenFalse)
        fail(where, "cannot decide '" + x.str() + "' against '" + y.str() +
                        "' at compile time; the sizes are only known at run time");
      return Value::ofBool(provenTrue);
    };
    switch (op) {
    case clang::BO_LT:
      return decide(provablyLess(x, y), provablyLessEqual(y, x));
    case clang::BO_LE:
      return decide(provablyLessEqual(x, y), provablyLess(y, x));
    case clang::BO_GT:
      return decide(provablyLess(y, x), provablyLessEqual(x, y));
    case clang::BO_GE:
      return decide(provablyLessEqual(y, x), provablyLess(x, y));
    case clang::BO_EQ:
      return decide(x == y, provablyLess(x, y) || provablyLess(y, x));
    case clang::BO_NE:
      return decide(provablyLess(x, y) || provablyLess(y, x), x == y);
    default:
      fail(where, "this operator is not supported in an arrangement");
    }
  }

  Value evalBinary(const clang::BinaryOperator *e, const FramePtr &f) {
    if (e->getOpcode() == clang::BO_Assign) {
      Value v = eval(e->getRHS(), f);
      assign(e->getLHS(), v, f);
      return v;
    }
    if (const auto *c = dyn_cast<clang::CompoundAssignOperator>(e)) {
      Value v = arithmetic(clang::BinaryOperator::getOpForCompoundAssignment(c->getOpcode()),
                           eval(e->getLHS(), f), eval(e->getRHS(), f), e);
      assign(e->getLHS(), v, f);
      return v;
    }
    if (e->getOpcode() == clang::BO_Comma) {
      eval(e->getLHS(), f);
      return eval(e->getRHS(), f);
    }
    return arithmetic(e->getOpcode(), eval(e->getLHS(), f), eval(e->getRHS(), f), e);
  }

  /// Assign `v` to the lvalue `target`: a variable, `x.dtype()` (any depth), or an element of a
  /// vector (`shape[d]`).
  void assign(const AstExpr *target, const Value &v, const FramePtr &f) {
    target = target->IgnoreParenImpCasts();
    if (const auto *sub = dyn_cast<clang::CXXOperatorCallExpr>(target);
        sub && sub->getOperator() == clang::OO_Subscript) {
      Value list = eval(sub->getArg(0), f);
      list.list[vectorIndex(list, sub->getArg(1), f)] = v;
      assign(sub->getArg(0), list, f);
      return;
    }
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(target)) {
      Value *slot = f->lookup(ref->getDecl());
      if (!slot)
        fail(target, "cannot assign to '" + ref->getDecl()->getNameAsString() +
                         "' in an arrangement; only local variables can be assigned");
      *slot = v;
      return;
    }
    if (const auto *call = dyn_cast<clang::CXXMemberCallExpr>(target)) {
      const auto *method = call->getMethodDecl();
      if (method && method->getName() == "dtype" && call->getNumArgs() == 0) {
        const AstExpr *base = call->getImplicitObjectArgument();
        Value outerValue = eval(base, f);
        const Layout &outer = asTensor(outerValue, base);
        const Layout &inner = asTensor(v, target);
        try {
          assign(base, Value::ofTensor(outer.withInner(inner)), f);
        } catch (const LayoutError &err) {
          fail(target, err.what());
        }
        return;
      }
    }
    fail(target, "cannot assign to this expression in an arrangement");
  }

  Value evalOperatorCall(const clang::CXXOperatorCallExpr *e, const FramePtr &f) {
    clang::OverloadedOperatorKind op = e->getOperator();
    if (op == clang::OO_Equal) {
      Value v = eval(e->getArg(1), f);
      assign(e->getArg(0), v, f);
      return v;
    }
    if (op == clang::OO_Subscript) {
      Value list = eval(e->getArg(0), f);
      return list.list[vectorIndex(list, e->getArg(1), f)];
    }
    if (op == clang::OO_Call) {
      Value callee = eval(e->getArg(0), f);
      if (callee.kind != Value::Kind::Closure)
        fail(e, "only lambdas and functions can be called in an arrangement");
      const auto *method = dyn_cast_or_null<clang::FunctionDecl>(e->getDirectCallee());
      std::vector<const AstExpr *> args(e->arg_begin() + 1, e->arg_end());
      return callFunction(method ? method : callee.function, args, f, callee.closure, e);
    }
    static const std::map<clang::OverloadedOperatorKind, clang::BinaryOperatorKind> binary = {
        {clang::OO_Plus, clang::BO_Add},        {clang::OO_Minus, clang::BO_Sub},
        {clang::OO_Star, clang::BO_Mul},        {clang::OO_Slash, clang::BO_Div},
        {clang::OO_Percent, clang::BO_Rem},     {clang::OO_Less, clang::BO_LT},
        {clang::OO_Greater, clang::BO_GT},      {clang::OO_LessEqual, clang::BO_LE},
        {clang::OO_GreaterEqual, clang::BO_GE}, {clang::OO_EqualEqual, clang::BO_EQ},
        {clang::OO_ExclaimEqual, clang::BO_NE}};
    if (e->getNumArgs() == 1 && op == clang::OO_Minus)
      return Value::ofInt(-asInt(eval(e->getArg(0), f), e, "the operand of '-'"));
    auto it = binary.find(op);
    if (it != binary.end() && e->getNumArgs() == 2)
      return arithmetic(it->second, eval(e->getArg(0), f), eval(e->getArg(1), f), e);
    fail(e, "this operator is not supported in an arrangement");
  }

  Value callFunction(const clang::FunctionDecl *fn, const std::vector<const AstExpr *> &args,
                     const FramePtr &caller, const FramePtr &closure, const AstExpr *where) {
    if (!fn || !fn->hasBody())
      fail(where, "'" + (fn ? fn->getNameAsString() : std::string("?")) +
                      "' has no body that the arrangement can evaluate");
    const clang::FunctionDecl *def = nullptr;
    const clang::Stmt *body = fn->getBody(def);
    if (def)
      fn = def;
    if (args.size() > fn->getNumParams())
      fail(where, "too many arguments in the call to '" + fn->getNameAsString() + "'");
    if (++callDepth > 64)
      fail(where, "call depth exceeds 64; is the arrangement recursive?");
    auto frame = newFrame();
    frame->parent = closure;
    for (unsigned i = 0; i < fn->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = fn->getParamDecl(i);
      // Clang spells an omitted argument of a user function as a CXXDefaultArgExpr: its value
      // is the parameter's default, evaluated as C++ does (not "not given", as for the DSL's).
      const auto *omitted =
          i < args.size() ? dyn_cast<clang::CXXDefaultArgExpr>(args[i]->IgnoreParens()) : nullptr;
      if (omitted)
        frame->vars[p] = eval(omitted->getExpr(), frame);
      else if (i < args.size())
        frame->vars[p] = eval(args[i], caller);
      else if (p->hasDefaultArg())
        frame->vars[p] = eval(p->getDefaultArg(), frame);
      else
        fail(where, "missing argument for '" + p->getNameAsString() + "'");
    }
    Value result;
    exec(body, frame, result);
    // Non-const reference parameters write back to the caller's lvalue: a variable, `x.dtype()`
    // or a vector element (an lvalue the arrangement cannot assign is an error, not a lost
    // write).
    for (unsigned i = 0; i < args.size(); ++i) {
      clang::QualType t = fn->getParamDecl(i)->getType();
      if (t->isLValueReferenceType() && !t.getNonReferenceType().isConstQualified())
        assign(args[i], frame->vars[fn->getParamDecl(i)], caller);
    }
    --callDepth;
    return result;
  }

  Value evalCall(const clang::CallExpr *e, const FramePtr &f) {
    const clang::FunctionDecl *fn = e->getDirectCallee();
    std::vector<const AstExpr *> args(e->arg_begin(), e->arg_end());
    if (!fn) {
      Value callee = eval(e->getCallee(), f);
      if (callee.kind != Value::Kind::Function && callee.kind != Value::Kind::Closure)
        fail(e, "this call cannot be evaluated in an arrangement");
      return callFunction(callee.function, args, f, callee.closure, e);
    }
    if (declaredInDsl(fn))
      return evalBuiltin(fn->getName().str(), e, args, f);
    if (fn->isInStdNamespace())
      fail(e, "'std::" + fn->getNameAsString() +
                  "' cannot be evaluated in an arrangement; only integer constant expressions "
                  "from the standard library are folded");
    return callFunction(fn, args, f, nullptr, e);
  }

  /// Calls of functions declared in <ntc/dsl.hpp>.
  Value evalBuiltin(const std::string &name, const clang::CallExpr *e,
                    const std::vector<const AstExpr *> &args, const FramePtr &f) {
    if (name == "arrange") {
      std::vector<Value> items;
      for (const AstExpr *a : args) {
        Value v = eval(a, f);
        asTensor(v, a);
        items.push_back(v);
      }
      return Value::ofList(std::move(items));
    }
    if (name == "block_size") {
      Value n = eval(args.at(0), f);
      if (n.kind != Value::Kind::String)
        fail(args[0], "the name of a block size must be a string literal");
      int64_t lo = asConstInt(eval(args.at(1), f), args[1], "a block size bound");
      int64_t hi =
          args.size() > 2 ? asConstInt(eval(args[2], f), args[2], "a block size bound") : lo;
      if (lo <= 0 || hi < lo)
        fail(e, "block size '" + n.text + "' needs 0 < low <= high, got [" + std::to_string(lo) +
                    ", " + std::to_string(hi) + "]");
      if (lo != hi && !(isPowerOfTwo(lo) && isPowerOfTwo(hi)))
        fail(e, "the bounds of tuned block size '" + n.text + "' must be powers of two, got [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
      for (const MetaParam &m : metas)
        if (m.name == n.text && (m.lo != lo || m.hi != hi))
          fail(e, "block size '" + n.text + "' is declared twice with different bounds");
      if (lo == hi)
        return Value::ofInt(Expr(lo));
      if (std::none_of(metas.begin(), metas.end(),
                       [&](const MetaParam &m) { return m.name == n.text; }))
        metas.push_back({n.text, lo, hi});
      return withBlockSizeValues(Value::ofInt(Expr::symbol(n.text, {lo, hi})));
    }
    if (name == "Scalar" || name == "Constexpr") {
      auto p = std::make_shared<ParamSpec>();
      if (name == "Scalar") {
        p->kind = ParamSpec::Kind::Scalar;
        Value t = eval(args.at(0), f);
        if (t.kind != Value::Kind::DType)
          fail(args[0], "nt::Scalar takes a data type such as nt::float32");
        p->dtype = t.dtype;
      } else {
        p->kind = ParamSpec::Kind::Constexpr;
        p->dtype = DType::Int64;
        for (const Value &v : asList(eval(args.at(1), f), args[1], "the values"))
          p->constexprValues.push_back(asReal(v, args[1], "a constexpr value"));
        if (p->constexprValues.empty())
          fail(args[1], "nt::Constexpr needs at least one value");
        for (double v : p->constexprValues)
          if (v != static_cast<double>(static_cast<int64_t>(v)))
            p->dtype = DType::Float64;
      }
      Value v;
      v.kind = Value::Kind::Param;
      v.param = p;
      return v;
    }
    fail(e, "'nt::" + name + "' cannot be used in an arrangement");
  }

  /// The most elements a std::vector of an arrangement holds (shapes and dimension lists are
  /// short; a longer one is a runaway loop).
  static constexpr int64_t kMaxVectorElements = 64;

  /// True for std::vector: arrangements build computed shapes and dimension lists with it.
  static bool isStdVector(const clang::CXXRecordDecl *record) {
    return record && record->getName() == "vector" && record->isInStdNamespace();
  }

  /// A std::vector under construction: empty, from an initializer list, another vector, or
  /// (count, value).
  Value constructVector(const clang::CXXConstructExpr *e, const FramePtr &f) {
    std::vector<const AstExpr *> args;
    for (const AstExpr *a : e->arguments())
      if (!isa<clang::CXXDefaultArgExpr>(a))
        args.push_back(a);
    if (args.empty())
      return Value::ofList({});
    const clang::QualType first = args[0]->getType();
    if (args.size() == 1 && !first->isIntegerType()) {
      Value v = eval(args[0], f); // an initializer list or a vector
      return v.kind == Value::Kind::List ? v : Value::ofList({v});
    }
    if (args.size() == 2 && first->isIntegerType()) {
      const int64_t count = asConstInt(eval(args[0], f), args[0], "the size of a vector");
      if (count < 0 || count > kMaxVectorElements)
        fail(args[0], "a vector of " + std::to_string(count) +
                          " elements in an arrangement (at most " +
                          std::to_string(kMaxVectorElements) + ")");
      return Value::ofList(std::vector<Value>(static_cast<size_t>(count), eval(args[1], f)));
    }
    fail(e, "construct a std::vector in an arrangement from a list, another vector, or a size "
            "and a value");
  }

  /// The position `index` names in a vector (bounds checked).
  size_t vectorIndex(const Value &list, const AstExpr *index, const FramePtr &f) {
    if (list.kind != Value::Kind::List)
      fail(index, std::string("subscript of ") + kindName(list.kind) + ", expected a vector");
    const int64_t i = asConstInt(eval(index, f), index, "a vector index");
    if (i < 0 || i >= static_cast<int64_t>(list.list.size()))
      fail(index, "index " + std::to_string(i) + " is out of range for a vector of " +
                      std::to_string(list.list.size()) + " elements");
    return static_cast<size_t>(i);
  }

  /// push_back, size, empty, back, front and clear on the std::vector `object` (the value of
  /// the call's object expression, which a mutation assigns).
  Value vectorMethod(const std::string &name, Value object, const std::vector<Value> &args,
                     const clang::CXXMemberCallExpr *e, const FramePtr &f) {
    if ((name == "push_back" || name == "emplace_back") && args.size() == 1) {
      object.list.push_back(args[0]);
      if (static_cast<int64_t>(object.list.size()) > kMaxVectorElements)
        fail(e, "a vector of more than " + std::to_string(kMaxVectorElements) +
                    " elements in an arrangement");
      assign(e->getImplicitObjectArgument(), object, f);
      return Value{};
    }
    if (name == "clear" && args.empty()) {
      assign(e->getImplicitObjectArgument(), Value::ofList({}), f);
      return Value{};
    }
    if (name == "size" && args.empty())
      return Value::ofInt(Expr(static_cast<int64_t>(object.list.size())));
    if (name == "empty" && args.empty())
      return Value::ofBool(object.list.empty());
    if ((name == "back" || name == "front") && args.empty()) {
      if (object.list.empty())
        fail(e, "'" + name + "' of an empty vector");
      return name == "back" ? object.list.back() : object.list.front();
    }
    fail(e, "'" + name +
                "' of a std::vector is not supported in an arrangement (push_back, "
                "size, empty, back, front, clear and [] are)");
  }

  Value evalConstruct(const clang::CXXConstructExpr *e, const FramePtr &f) {
    const clang::CXXRecordDecl *record = e->getConstructor()->getParent();
    if (isStdVector(record))
      return constructVector(e, f);
    if (record->getName() == "Tensor" && declaredInDsl(record) && e->getNumArgs() == 2) {
      auto p = std::make_shared<ParamSpec>();
      p->kind = ParamSpec::Kind::Tensor;
      int64_t ndim = asConstInt(eval(e->getArg(0), f), e->getArg(0), "the rank of a tensor");
      if (ndim < 0 || ndim > 8)
        fail(e->getArg(0), "tensor rank " + std::to_string(ndim) + " is outside 0 to 8");
      p->ndim = static_cast<int>(ndim);
      Value t = eval(e->getArg(1), f);
      if (t.kind != Value::Kind::DType)
        fail(e->getArg(1), "expected a data type such as nt::float16");
      p->dtype = t.dtype;
      p->upperBounds.assign(p->ndim, std::nullopt);
      p->constexprDims.assign(p->ndim, false);
      Value v;
      v.kind = Value::Kind::Param;
      v.param = p;
      return v;
    }
    if (e->getNumArgs() == 0)
      return Value{};
    if (e->getNumArgs() == 1 || isa<clang::CXXDefaultArgExpr>(e->getArg(1)))
      return eval(e->getArg(0), f);
    std::vector<Value> items; // aggregate-like construction: keep the arguments
    for (const AstExpr *a : e->arguments())
      items.push_back(eval(a, f));
    return Value::ofList(std::move(items));
  }

  Value evalMemberCall(const clang::CXXMemberCallExpr *e, const FramePtr &f) {
    const clang::CXXMethodDecl *method = e->getMethodDecl();
    if (!method)
      fail(e, "this call cannot be evaluated in an arrangement");
    if (isa<clang::CXXConversionDecl>(method))
      return constexprValue(eval(e->getImplicitObjectArgument(), f), e);
    std::string name = method->getName().str();
    Value object = eval(e->getImplicitObjectArgument(), f);
    std::vector<Value> args;
    for (const AstExpr *a : e->arguments())
      args.push_back(eval(a, f));
    if (object.kind == Value::Kind::Param)
      return paramOption(name, *object.param, args, e);
    if (isStdVector(method->getParent()))
      return vectorMethod(name, object, args, e, f);
    if (object.kind != Value::Kind::Tensor)
      fail(e, "'" + name + "' called on " + kindName(object.kind) + ", expected a tensor");
    try {
      return tensorOp(name, *object.tensor, args, e);
    } catch (const LayoutError &err) {
      fail(e, err.what());
    }
  }

  /// A tensor used as an integer (Tensor's conversion to nt::Symbol): only a parameter declared
  /// nt::Constexpr with integer values, untouched, stands for one (its symbol).
  Value constexprValue(const Value &object, const clang::CXXMemberCallExpr *e) {
    if (object.kind == Value::Kind::Tensor) {
      const Layout &t = *object.tensor;
      auto it = constexprSymbols.find(t.sourceName());
      if (it != constexprSymbols.end() && t.levels().size() == 1 && t.ndim() == 0)
        return Value::ofInt(it->second);
    }
    fail(e, "only a parameter declared nt::Constexpr with integer values can be used as an "
            "integer in an arrangement");
  }

  Value paramOption(const std::string &name, const ParamSpec &spec, const std::vector<Value> &args,
                    const clang::CXXMemberCallExpr *e) {
    auto p = std::make_shared<ParamSpec>(spec);
    auto dimArg = [&](const Value &v) {
      int64_t given = asConstInt(v, e, "a dimension");
      int64_t d = given < 0 ? given + p->ndim : given;
      if (d < 0 || d >= p->ndim)
        fail(e, "dimension " + std::to_string(given) + " is out of range for a tensor of rank " +
                    std::to_string(p->ndim));
      return static_cast<size_t>(d);
    };
    if (name == "other")
      p->other = asReal(args.at(0), e, "the value of other()");
    else if (name == "upper_bound")
      p->upperBounds[dimArg(args.at(0))] = asConstInt(args.at(1), e, "an upper bound");
    else if (name == "constexpr_dim")
      p->constexprDims[dimArg(args.at(0))] = true;
    else if (name == "jagged_dim") {
      const size_t d = dimArg(args.at(0));
      if (d == 0)
        fail(e, "dimension 0 of a jagged tensor is its batch; jagged_dim must be 1 or more");
      if (p->jaggedDim && *p->jaggedDim != static_cast<int>(d))
        fail(e, "a tensor has at most one jagged dimension (already " +
                    std::to_string(*p->jaggedDim) + ")");
      p->jaggedDim = static_cast<int>(d);
    } else
      fail(e, "'" + name + "' is not an option of a tensor parameter");
    Value v;
    v.kind = Value::Kind::Param;
    v.param = p;
    return v;
  }

  Value tensorOp(const std::string &name, const Layout &t, const std::vector<Value> &args,
                 const clang::CXXMemberCallExpr *e) {
    auto arg = [&](size_t i) { return i < args.size() ? args[i] : Value{}; };
    if (name == "tile") {
      Value floorMode = arg(3);
      return Value::ofTensor(t.tile(asIntList(arg(0), e, "a tile size"),
                                    asIntList(arg(1), e, "a stride"),
                                    asIntList(arg(2), e, "a dilation"),
                                    floorMode.kind != Value::Kind::None && asBool(floorMode, e)));
    }
    if (name == "expand")
      return Value::ofTensor(t.expand(asIntList(arg(0), e, "an extent")));
    if (name == "squeeze")
      return Value::ofTensor(t.squeeze(asConstIntList(arg(0), e, "a dimension")));
    if (name == "unsqueeze")
      return Value::ofTensor(t.unsqueeze(asConstInt(arg(0), e, "a dimension")));
    if (name == "permute")
      return Value::ofTensor(t.permute(asConstIntList(arg(0), e, "a dimension")));
    if (name == "flatten") {
      auto opt = [&](const Value &v) -> std::optional<int64_t> {
        if (v.kind == Value::Kind::None)
          return std::nullopt;
        return asConstInt(v, e, "a dimension");
      };
      return Value::ofTensor(t.flatten(opt(arg(0)), opt(arg(1))));
    }
    if (name == "ravel")
      return Value::ofTensor(t.ravel());
    if (name == "pad") {
      std::vector<std::pair<Expr, Expr>> pairs;
      for (const Value &p : asList(arg(0), e, "padding")) {
        std::vector<Expr> lr = asIntList(p, e, "a padding");
        if (lr.size() != 2)
          fail(e, "pad: each dimension needs a {left, right} pair");
        pairs.emplace_back(lr[0], lr[1]);
      }
      return Value::ofTensor(t.pad(pairs));
    }
    if (name == "slice")
      return Value::ofTensor(
          t.slice(asConstInt(arg(0), e, "a dimension"), asOptInt(arg(1), e, "a slice start"),
                  asOptInt(arg(2), e, "a slice stop"), asOptInt(arg(3), e, "a slice step")));
    if (name == "axes") {
      std::vector<std::string> names;
      if (args.size() == 1 && args[0].kind == Value::Kind::Inferred) {
        // Placeholders that infer-axes (frontend/InferAxes.h) replaces.
        for (size_t d = 0; d < t.ndim(); ++d)
          names.push_back(inferredAxisPlaceholder(++inferredAxes_));
        return Value::ofTensor(t.axes(names));
      }
      for (const Value &v : args) {
        if (v.kind == Value::Kind::Inferred)
          fail(e, "nt::inferred names every dimension: write axes(nt::inferred) alone");
        if (v.kind != Value::Kind::String)
          fail(e, "axis names must be string literals");
        if (isInferredAxisPlaceholder(v.text))
          fail(e, "axis names may not begin with '?'");
        names.push_back(v.text);
      }
      return Value::ofTensor(t.axes(names));
    }
    if (name == "shape") {
      if (args.empty() || args[0].kind == Value::Kind::None) {
        std::vector<Value> dims;
        for (const Expr &x : t.shape())
          dims.push_back(Value::ofInt(x));
        return Value::ofList(std::move(dims));
      }
      return Value::ofInt(t.shape(asConstInt(args[0], e, "a dimension")));
    }
    if (name == "ndim")
      return Value::ofInt(Expr(static_cast<int64_t>(t.ndim())));
    if (name == "dtype")
      return Value::ofTensor(t.dtype());
    fail(e, "'" + name + "' is not an arrangement operation on a tensor");
  }

  // ---- the NT_KERNEL declaration -----------------------------------------------------------

  const clang::FunctionDecl *functionArg(const AstExpr *e) {
    e = e->IgnoreParenImpCasts();
    if (const auto *u = dyn_cast<clang::UnaryOperator>(e))
      e = u->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e))
      if (const auto *fn = dyn_cast<clang::FunctionDecl>(ref->getDecl()))
        return fn;
    fail(e, "expected the name of a function");
  }

  KernelSpec evaluateKernel(const clang::FunctionDecl *kernelDecl,
                            const clang::FunctionDecl *&application) {
    metas.clear();
    globals.clear(); // block sizes register themselves with the kernel being evaluated
    const auto *body = dyn_cast_or_null<clang::CompoundStmt>(kernelDecl->getBody());
    const clang::CallExpr *call = nullptr;
    if (body && body->size() == 1)
      if (const auto *e = dyn_cast<AstExpr>(body->body_front()))
        call = dyn_cast<clang::CallExpr>(e->IgnoreImplicit());
    if (!call || call->getNumArgs() < 3)
      throw SourceError(kernelDecl->getSourceRange(),
                        "malformed NT_KERNEL declaration; write NT_KERNEL(name, arrangement, "
                        "application, parameters...)");
    auto root = newFrame();
    KernelSpec spec;
    Value nameValue = eval(call->getArg(0), root);
    spec.name = nameValue.text;
    const clang::FunctionDecl *arrangement = functionArg(call->getArg(1));
    application = functionArg(call->getArg(2));
    spec.arrangementName = arrangement->getNameAsString();
    spec.applicationName = application->getNameAsString();
    if (!hasAnnotation(arrangement, "nt::arrangement"))
      throw SourceError(call->getArg(1)->getSourceRange(),
                        "'" + spec.arrangementName + "' is not an arrangement")
          .note(arrangement->getSourceRange(), "declare it with NT_ARRANGEMENT");
    if (!hasAnnotation(application, "nt::application"))
      throw SourceError(call->getArg(2)->getSourceRange(),
                        "'" + spec.applicationName + "' is not an application")
          .note(application->getSourceRange(), "declare it with NT_APPLICATION");
    const clang::FunctionDecl *arrangementDef = nullptr;
    if (!arrangement->getBody(arrangementDef))
      throw SourceError(call->getArg(1)->getSourceRange(),
                        "arrangement '" + spec.arrangementName + "' has no body");
    arrangement = arrangementDef;

    unsigned numParams = call->getNumArgs() - 3;
    if (numParams != arrangement->getNumParams())
      throw SourceError(call->getSourceRange(),
                        "kernel '" + spec.name + "' declares " + std::to_string(numParams) +
                            " parameters but arrangement '" + spec.arrangementName + "' takes " +
                            std::to_string(arrangement->getNumParams()))
          .note(arrangement->getSourceRange(), "arrangement declared here");

    // Parameters become source tensors named after the arrangement's parameters; those declared
    // nt::Constexpr with integer values can also stand for their symbol (constexprValue).
    constexprSymbols.clear();
    auto frame = newFrame();
    for (unsigned i = 0; i < numParams; ++i) {
      const AstExpr *arg = call->getArg(3 + i);
      Value p = eval(arg, root);
      if (p.kind != Value::Kind::Param)
        fail(arg, "expected a parameter such as nt::Tensor(2, nt::float16), nt::Scalar(...) "
                  "or nt::Constexpr(...)");
      ParamSpec ps = *p.param;
      ps.name = arrangement->getParamDecl(i)->getNameAsString();
      if (ps.isIntegerConstexpr())
        constexprSymbols[ps.name] = ps.constexprSymbol();
      spec.params.push_back(ps);
      Layout source = Layout::source(ps.name, ps.shape());
      if (ps.jaggedDim)
        source = source.jagged(static_cast<size_t>(*ps.jaggedDim),
                               Expr::symbol(ps.seqStartSymbol(), {0, std::nullopt}),
                               Expr::symbol(ps.seqLenSymbol(), {0, std::nullopt}));
      frame->vars[arrangement->getParamDecl(i)] = Value::ofTensor(source);
    }

    Value result;
    exec(arrangement->getBody(), frame, result);
    std::vector<Value> arranged =
        result.kind == Value::Kind::List ? result.list : std::vector<Value>{result};
    for (const Value &v : arranged)
      if (v.kind != Value::Kind::Tensor)
        throw SourceError(arrangement->getSourceRange(),
                          "arrangement '" + spec.arrangementName +
                              "' must return nt::arrange(...) of tensors");
    if (arranged.size() != application->getNumParams())
      throw SourceError(call->getArg(2)->getSourceRange(),
                        "application '" + spec.applicationName + "' takes " +
                            std::to_string(application->getNumParams()) +
                            " tiles but arrangement '" + spec.arrangementName + "' produces " +
                            std::to_string(arranged.size()))
          .note(application->getSourceRange(), "application declared here");
    for (size_t i = 0; i < arranged.size(); ++i) {
      const Layout &l = *arranged[i].tensor;
      int source = -1;
      for (size_t p = 0; p < spec.params.size(); ++p)
        if (spec.params[p].name == l.sourceName())
          source = static_cast<int>(p);
      if (l.focus() != 0)
        throw SourceError(arrangement->getSourceRange(),
                          "arrangement '" + spec.arrangementName + "' returns an inner level (" +
                              "dtype()) as parameter " + std::to_string(i) +
                              "; return the whole tensor");
      spec.arranged.push_back({application->getParamDecl(i)->getNameAsString(), source, l, {}});
    }
    spec.metas = metas;
    return spec;
  }

  std::vector<Layout> evaluateArrangement(const clang::FunctionDecl *arrangement,
                                          const std::vector<Layout> &tensors,
                                          const clang::Stmt *where) {
    if (tensors.size() != arrangement->getNumParams())
      fail(where, "arrangement '" + arrangement->getNameAsString() + "' takes " +
                      std::to_string(arrangement->getNumParams()) + " tensors, not " +
                      std::to_string(tensors.size()));
    auto frame = newFrame();
    for (unsigned i = 0; i < tensors.size(); ++i)
      frame->vars[arrangement->getParamDecl(i)] = Value::ofTensor(tensors[i]);
    Value result;
    exec(arrangement->getBody(), frame, result);
    std::vector<Value> arranged =
        result.kind == Value::Kind::List ? result.list : std::vector<Value>{result};
    std::vector<Layout> layouts;
    for (const Value &v : arranged) {
      if (v.kind != Value::Kind::Tensor)
        throw SourceError(arrangement->getSourceRange(),
                          "arrangement '" + arrangement->getNameAsString() +
                              "' must return nt::arrange(...) of tensors");
      layouts.push_back(*v.tensor);
    }
    return layouts;
  }
};

ArrangementEvaluator::ArrangementEvaluator(clang::ASTContext &context)
    : impl_(std::make_unique<Impl>(context)) {}
ArrangementEvaluator::~ArrangementEvaluator() = default;

KernelSpec ArrangementEvaluator::evaluateKernel(const clang::FunctionDecl *kernelDecl,
                                                const clang::FunctionDecl *&application) {
  // Each kernel starts afresh, also after an error that left calls unfinished, and its frames
  // are released however its evaluation ends.
  struct Release {
    Impl &impl;
    ~Release() { impl.releaseFrames(); }
  } release{*impl_};
  impl_->callDepth = 0;
  return impl_->evaluateKernel(kernelDecl, application);
}

std::vector<Layout> ArrangementEvaluator::evaluateArrangement(
    const clang::FunctionDecl *arrangement, const std::vector<Layout> &tensors,
    const clang::Stmt *where, const std::map<std::string, Expr> &blockSizeValues) {
  struct Release {
    Impl &impl;
    ~Release() {
      impl.releaseFrames();
      impl.blockSizeValues.clear();
    }
  } release{*impl_};
  impl_->callDepth = 0;
  impl_->blockSizeValues = blockSizeValues;
  return impl_->evaluateArrangement(arrangement, tensors, where);
}

const std::vector<MetaParam> &ArrangementEvaluator::metas() const { return impl_->metas; }

} // namespace ntc
