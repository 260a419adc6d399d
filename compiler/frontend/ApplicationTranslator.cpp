//===- ApplicationTranslator.cpp - application AST to kernel IR -----------===//
//
// Walks the application's statements and expressions and builds kernel IR: parameters
// become loads and stores of their arranged tiles, `x[k]` selects a tile of an inner
// level, `for` loops over symbolic extents become IR loops, `if` on compile-time scalars
// becomes a compile-time condition, and helper/application calls are inlined (a
// `nt::Tile &` parameter aliases the caller's variable).
//
//===----------------------------------------------------------------------===//
#include "frontend/ApplicationTranslator.h"

#include "frontend/DslNames.h"
#include "frontend/KernelCalls.h"
#include "frontend/ReservedNames.h"
#include "frontend/WrittenParams.h"

#include "ir/Operations.h"

#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <set>

namespace ntc {

using AstExpr = clang::Expr;
using clang::dyn_cast;
using clang::isa;
using namespace kir;

namespace {

/// Default upper bound of a tile extent given by a run-time size without a declared bound.
constexpr int64_t kDefaultPaddedUpperBound = 16384;

/// A value during translation.
struct TV {
  /// Deferred: an argument expression of a kernel-function call over views with inner levels
  /// (`gelu(x)` for the callee's `lhs`), evaluated again once the callee selects a tile
  /// (`lhs[k]` is `gelu(x[k])`); `param` is a view it contains, `subs` the callee's indices.
  enum class Kind { None, Tile, Int, Param, DType, Shape, Source, Closure, Deferred };
  Kind kind = Kind::None;
  kir::Value tile;
  Expr integer;
  int param = -1;
  std::vector<Expr> subs;
  DType dtype = DType::Float32;
  std::vector<Expr> shape;
  const clang::FunctionDecl *function = nullptr;
  std::shared_ptr<struct Scope> closure; ///< also the scope of a Deferred expression
  const clang::Expr *deferred = nullptr;

  static TV ofTile(kir::Value v) {
    TV t;
    t.kind = Kind::Tile;
    t.tile = std::move(v);
    return t;
  }
  static TV ofInt(Expr e) {
    TV t;
    t.kind = Kind::Int;
    t.integer = std::move(e);
    return t;
  }
};

/// A variable: a local tile in the IR, or a value bound to a name (a parameter view, an
/// integer, a shape...). Parameters of the application (and aliases of them) are writable.
struct Binding {
  TV value;
  bool isLocal = false;
  std::string local;
  TileType localType;
  int controlDepth = 0; ///< loop/if nesting where the variable was (re)defined
  bool writable = false;
  bool loopIndex = false; ///< the index of an enclosing `for`: read-only in its body
  /// A kernel function's output before its application assigns it: reads give `value`
  /// (zeros); the first assignment defines the local `local`.
  bool pendingLocal = false;
};
using BindingPtr = std::shared_ptr<Binding>;

struct Scope {
  std::map<const clang::ValueDecl *, BindingPtr> vars;
  std::shared_ptr<Scope> parent;
  BindingPtr lookup(const clang::ValueDecl *d) const {
    for (const Scope *s = this; s; s = s->parent.get()) {
      auto it = s->vars.find(d);
      if (it != s->vars.end())
        return it->second;
    }
    return nullptr;
  }
};
using ScopePtr = std::shared_ptr<Scope>;

class Translator {
public:
  Translator(const clang::FunctionDecl *app, const KernelSpec &spec, std::vector<bool> written)
      : app_(app), ctx_(app->getASTContext()), written_(std::move(written)),
        stored_(spec.arranged.size(), false) {
    fn_.spec = spec;
  }

  /// Which arranged parameters the translation stored to.
  const std::vector<bool> &stored() const { return stored_; }
  /// True when it stored to a parameter that `written` does not list.
  bool storedBeyond(const std::vector<bool> &written) const {
    for (size_t i = 0; i < stored_.size(); ++i)
      if (stored_[i] && !written[i])
        return true;
    return false;
  }

  Translator(const Translator &) = delete;
  Translator &operator=(const Translator &) = delete;
  ~Translator() {
    for (const ScopePtr &s : scopes_) {
      s->vars.clear();
      s->parent.reset();
    }
  }

  /// A new scope, kept until the translation ends: a lambda's closure holds its scope, whose
  /// variables may hold the lambda, so scopes are released together when the translator is (no
  /// cycle leaks, also on errors).
  ScopePtr newScope() {
    scopes_.push_back(std::make_shared<Scope>());
    return scopes_.back();
  }

  kir::Function run() {
    auto scope = newScope();
    for (unsigned i = 0; i < app_->getNumParams(); ++i)
      scope->vars[app_->getParamDecl(i)] = paramBinding(static_cast<int>(i));
    const clang::FunctionDecl *def = nullptr;
    const clang::Stmt *body = app_->getBody(def);
    std::vector<Stmt> out;
    TV ignored;
    execBody(body, scope, out, ignored, /*allowReturnValue=*/false);
    fn_.body = std::move(out);
    return std::move(fn_);
  }

private:
  // ---- errors ------------------------------------------------------------------------------

  [[noreturn]] void fail(const clang::Stmt *s, const std::string &msg) {
    throw SourceError(s->getSourceRange(), msg);
  }

  template <class F> auto typed(const clang::Stmt *where, F &&f) -> decltype(f()) {
    try {
      return f();
    } catch (const TypeError &e) {
      fail(where, e.what());
    }
  }

  // ---- parameters --------------------------------------------------------------------------

  const ParamSpec &source(int param) const {
    return fn_.spec.params[fn_.spec.arranged[param].source];
  }
  const Layout &layout(int param) const { return fn_.spec.arranged[param].layout; }

  BindingPtr paramBinding(int i) {
    auto b = std::make_shared<Binding>();
    const ParamSpec &src = source(i);
    if (src.isIntegerConstexpr()) {
      b->value = TV::ofInt(src.constexprSymbol());
    } else if (src.kind != ParamSpec::Kind::Tensor) {
      b->value = TV::ofTile(makeScalarParam(i, src.dtype));
    } else {
      b->value.kind = TV::Kind::Param;
      b->value.param = i;
      b->writable = true;
    }
    return b;
  }

  /// Number of middle-level dimensions (between the program level and the tile).
  size_t middleDims(int param) const {
    const auto &levels = layout(param).levels();
    size_t n = 0;
    for (size_t l = 1; l + 1 < levels.size(); ++l)
      n += levels[l].dims.size();
    return n;
  }

  /// A tile extent: compile-time expressions (meta-parameters, integer nt::Constexpr values)
  /// stay; a run-time size becomes a padded symbol.
  Expr tileExtent(const Expr &e) {
    std::vector<std::string> names;
    e.collectSymbols(names);
    bool compileTime = true;
    for (const std::string &n : names)
      if (std::none_of(fn_.spec.metas.begin(), fn_.spec.metas.end(),
                       [&](const MetaParam &m) { return m.name == n; }) &&
          std::none_of(fn_.padded.begin(), fn_.padded.end(),
                       [&](const PaddedExtent &p) { return p.symbol == n; }) &&
          std::none_of(fn_.spec.params.begin(), fn_.spec.params.end(),
                       [&](const ParamSpec &p) { return p.isIntegerConstexpr() && p.name == n; }))
        compileTime = false;
    if (compileTime)
      return e;
    int64_t bound = e.range().hi.value_or(kDefaultPaddedUpperBound);
    int64_t ub = 1;
    while (ub < bound)
      ub *= 2;
    for (PaddedExtent &p : fn_.padded)
      if (p.upperBound == ub) {
        if (std::find(p.actuals.begin(), p.actuals.end(), e) == p.actuals.end())
          p.actuals.push_back(e);
        return Expr::symbol(p.symbol, {1, ub});
      }
    std::string name = kPaddedPrefix + std::to_string(ub);
    fn_.padded.push_back({name, {e}, ub, 0, std::nullopt});
    return Expr::symbol(name, {1, ub});
  }

  TileType tileTypeOf(int param) {
    const auto &levels = layout(param).levels();
    TileType t;
    t.dtype = source(param).dtype;
    if (levels.size() >= 2)
      for (const Dim &d : levels.back().dims)
        t.shape.push_back(tileExtent(d.extent));
    return t;
  }

  kir::Value load(const TV &p, const clang::Stmt *where) {
    size_t need = middleDims(p.param);
    if (p.subs.size() != need) {
      const auto &levels = layout(p.param).levels();
      fail(where, "'" + fn_.spec.arranged[p.param].name + "' has an inner level of shape " +
                      shapeString(levels[1].shape()) + "; select a tile with " +
                      fn_.spec.arranged[p.param].name + "[k] before using it");
    }
    return makeLoad(p.param, p.subs, tileTypeOf(p.param));
  }

  /// Shape seen at a parameter view: the next level, or the tile once fully indexed. These
  /// are the real extents (a run-time row length stays `x_size_1`); tile constructors such
  /// as ntl::zeros pad them.
  std::vector<Expr> viewShape(const TV &p) {
    const auto &levels = layout(p.param).levels();
    size_t consumed = 0;
    for (size_t l = 1; l + 1 < levels.size(); ++l) {
      if (p.subs.size() == consumed)
        return levels[l].shape();
      consumed += levels[l].dims.size();
    }
    return levels.size() >= 2 ? levels.back().shape() : std::vector<Expr>{};
  }

  // ---- conversions -------------------------------------------------------------------------

  kir::Value asTile(const TV &v, const clang::Stmt *where) {
    switch (v.kind) {
    case TV::Kind::Tile:
      return v.tile;
    case TV::Kind::Int:
      if (auto c = v.integer.asConst())
        return makeConstant(static_cast<double>(*c), DType::Int32, true);
      return makeIndex(v.integer);
    case TV::Kind::Param:
      return load(v, where);
    case TV::Kind::Deferred: {
      std::vector<Stmt> statements;
      kir::Value tile = materialize(v, where, statements);
      if (!statements.empty())
        fail(where, "this argument of a kernel function needs statements to compute; select a "
                    "tile of it (x[k]) before using it whole");
      return tile;
    }
    default:
      fail(where, "expected a tile here");
    }
  }

  Expr asInt(const TV &v, const clang::Stmt *where, const char *what) {
    if (v.kind == TV::Kind::Int)
      return v.integer;
    if (v.kind == TV::Kind::Tile && v.tile->kind == ValueKind::Index)
      return v.tile->integer;
    if (v.kind == TV::Kind::Tile && v.tile->kind == ValueKind::Constant &&
        v.tile->number == static_cast<double>(static_cast<int64_t>(v.tile->number)))
      return Expr(static_cast<int64_t>(v.tile->number));
    fail(where, std::string(what) + " must be a compile-time or loop integer, not a tile value");
  }

  int64_t asConstInt(const TV &v, const clang::Stmt *where, const char *what) {
    Expr e = asInt(v, where, what);
    if (!e.isConst())
      fail(where, std::string(what) + " must be a constant, not '" + e.str() + "'");
    return e.constValue();
  }

  DType asDType(const TV &v, const clang::Stmt *where) {
    if (v.kind != TV::Kind::DType)
      fail(where, "expected a data type such as ntl::float32");
    return v.dtype;
  }

  std::vector<Expr> asShape(const TV &v, const clang::Stmt *where) {
    if (v.kind == TV::Kind::Shape)
      return v.shape;
    fail(where, "expected a shape such as x.shape() or {BLOCK_M, BLOCK_N}");
  }

  // ---- statements --------------------------------------------------------------------------

  /// Executes a function body; a final `return expr;` stores the value in `result`.
  void execBody(const clang::Stmt *body, const ScopePtr &scope, std::vector<Stmt> &out, TV &result,
                bool allowReturnValue) {
    const auto *compound = dyn_cast<clang::CompoundStmt>(body);
    if (!compound) {
      exec(body, scope, out);
      return;
    }
    size_t i = 0, n = compound->size();
    for (const clang::Stmt *s : compound->body()) {
      ++i;
      if (const auto *r = dyn_cast<clang::ReturnStmt>(s)) {
        if (i != n)
          fail(s, "'return' must be the last statement of a function called from an application");
        if (r->getRetValue()) {
          if (!allowReturnValue)
            fail(s, "an application returns nothing; assign to its parameters instead");
          result = eval(r->getRetValue(), scope, out);
        }
        return;
      }
      exec(s, scope, out);
    }
  }

  void exec(const clang::Stmt *s, const ScopePtr &scope, std::vector<Stmt> &out) {
    if (!s || isa<clang::NullStmt>(s))
      return;
    if (const auto *c = dyn_cast<clang::CompoundStmt>(s)) {
      auto inner = newScope();
      inner->parent = scope;
      for (const clang::Stmt *child : c->body())
        exec(child, inner, out);
      return;
    }
    if (const auto *d = dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *decl : d->decls())
        if (const auto *var = dyn_cast<clang::VarDecl>(decl))
          declare(var, scope, out);
      return;
    }
    if (const auto *f = dyn_cast<clang::ForStmt>(s)) {
      translateFor(f, scope, out);
      return;
    }
    if (const auto *i = dyn_cast<clang::IfStmt>(s)) {
      translateIf(i, scope, out);
      return;
    }
    if (isa<clang::ReturnStmt>(s))
      fail(s, "'return' is only supported as the last statement of a function");
    if (const auto *e = dyn_cast<AstExpr>(s)) {
      eval(e, scope, out);
      return;
    }
    fail(s, std::string("'") + s->getStmtClassName() +
                "' statements are not supported in an application function");
  }

  /// An IR name for a local or loop index called `base` in the source: `base` itself unless
  /// it is taken (by an earlier local or loop, shadowed or retyped) or is a name the compiler
  /// gives to something else in the symbol algebra (a size, a stride, a program coordinate,
  /// a lane, a padded extent, a meta-parameter, a scalar parameter); then `base_N`.
  std::string freshName(const std::string &base) {
    std::string name = base;
    for (int n = 1; used_.count(name) || isCompilerSymbol(name); ++n)
      name = base + "_" + std::to_string(n);
    used_.insert(name);
    return name;
  }

  /// True when `name` is a symbol of the kernel or one the compiler generates.
  bool isCompilerSymbol(const std::string &name) const {
    std::vector<TensorName> tensors;
    for (const ParamSpec &p : fn_.spec.params) {
      if (p.name == name)
        return true;
      tensors.push_back({p.name, p.ndim, p.jaggedDim.has_value()});
    }
    for (const MetaParam &m : fn_.spec.metas)
      if (m.name == name)
        return true;
    return !generatedSymbol(name, tensors).empty(); // pid<d>, lane<d>, NP2_<n>, sizes, strides
  }

  void declare(const clang::VarDecl *var, const ScopePtr &scope, std::vector<Stmt> &out) {
    auto b = std::make_shared<Binding>();
    if (!var->getInit())
      throw SourceError(var->getSourceRange(),
                        "'" + var->getNameAsString() + "' needs an initial value");
    if (var->getType()->isReferenceType() && refersToVariable(var->getInit(), scope)) {
      // `auto &r = c;`: r names c's storage, so writes through either are seen by both.
      std::string what;
      scope->vars[var] = lvalue(var->getInit(), scope, out, what);
      return;
    }
    b->controlDepth = controlDepth_;
    TV v = copyOf(eval(var->getInit(), scope, out), var->getInit());
    if (v.kind == TV::Kind::Tile) {
      b->isLocal = true;
      b->local = freshName(var->getNameAsString());
      b->localType = v.tile->type;
      b->controlDepth = controlDepth_;
      out.push_back(makeDefine(b->local, v.tile));
    } else {
      b->value = v; // a parameter view, an integer, a shape, a data type...
      b->writable = false;
    }
    scope->vars[var] = b;
  }

  /// A by-value copy of `v` (`auto a = x;`, a by-value argument): the tile of a parameter that
  /// the application writes is loaded now, so later stores to the parameter do not show
  /// through the copy. Tiles of parameters that are never written are read where used (the
  /// same values, and GEMM loops keep their loads in place); views with inner levels are
  /// references to their parameter.
  TV copyOf(const TV &v, const clang::Stmt *where) {
    if (v.kind == TV::Kind::Param && v.subs.size() == middleDims(v.param) &&
        written_[static_cast<size_t>(v.param)])
      return TV::ofTile(load(v, where));
    return v;
  }

  /// `c ? a : b`. A condition on a tile's data selects per element (`where`); both operands are
  /// then evaluated, so they must have no side effects. Any other condition must be decided at
  /// compile time (constants, data types, integers of enclosing loops are not), and only the
  /// chosen operand is evaluated, as in C++.
  TV evalConditional(const clang::ConditionalOperator *e, const ScopePtr &scope,
                     std::vector<Stmt> &out) {
    const AstExpr *cond = e->getCond()->IgnoreParenImpCasts();
    if (const auto *m = dyn_cast<clang::CXXMemberCallExpr>(cond);
        m && isa<clang::CXXConversionDecl>(m->getMethodDecl())) {
      TV c = eval(m->getImplicitObjectArgument(), scope, out);
      if (c.kind == TV::Kind::Tile && c.tile->kind != ValueKind::Constant &&
          c.tile->kind != ValueKind::Index) {
        // Side effects: any write that evaluating the operand performs (to a variable, a
        // parameter or an integer, also inside called helpers and lambdas).
        auto operand = [&](const AstExpr *branch) {
          std::vector<Stmt> emitted;
          const int64_t writesBefore = writes_;
          kir::Value v = asTile(eval(branch, scope, emitted), branch);
          if (writes_ != writesBefore)
            fail(branch, "the operands of a '?:' on tile data are both evaluated (it selects per "
                         "element); this one has side effects");
          out.insert(out.end(), emitted.begin(), emitted.end());
          return v;
        };
        kir::Value a = operand(e->getTrueExpr());
        kir::Value b = operand(e->getFalseExpr());
        return TV::ofTile(typed(e, [&] { return makeWhere(c.tile, a, b); }));
      }
    }
    Cond c = evalCond(e->getCond(), scope, out).substitute({});
    if (c.kind == Cond::Kind::True)
      return eval(e->getTrueExpr(), scope, out);
    if (c.kind == Cond::Kind::False)
      return eval(e->getFalseExpr(), scope, out);
    fail(e->getCond(), "this condition of '?:' is decided only per variant (it depends on "
                       "meta-parameters or nt::Constexpr values); use an if statement");
  }

  /// True when `e` names a variable or a parameter's tile (something a reference can bind).
  bool refersToVariable(const AstExpr *e, const ScopePtr &scope) {
    e = e->IgnoreParenImpCasts();
    if (const auto *r = dyn_cast<clang::DeclRefExpr>(e))
      return scope->lookup(r->getDecl()) != nullptr;
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e))
      return oc->getOperator() == clang::OO_Subscript && refersToVariable(oc->getArg(0), scope);
    return false;
  }

  /// The scope a lambda's body runs in, as C++ gives it: variables captured by copy are
  /// copied when the lambda is created (a `mutable` lambda changes its own copy, which lasts
  /// as long as the lambda), init-captures are new variables, and variables captured by
  /// reference are the enclosing ones.
  ScopePtr captureScope(const clang::LambdaExpr *lambda, const ScopePtr &scope,
                        std::vector<Stmt> &out) {
    auto captured = newScope();
    captured->parent = scope;
    for (const clang::LambdaCapture &c : lambda->captures()) {
      if (!c.capturesVariable())
        continue;
      const auto *var = dyn_cast<clang::VarDecl>(c.getCapturedVar());
      if (!var)
        continue;
      bool byCopy = c.getCaptureKind() == clang::LCK_ByCopy;
      if (var->isInitCapture()) {
        if (byCopy || !refersToVariable(var->getInit(), scope)) {
          declare(var, captured, out);
        } else {
          std::string what;
          captured->vars[var] = lvalue(var->getInit(), scope, out, what);
        }
        continue;
      }
      BindingPtr b = scope->lookup(var);
      if (!byCopy || !b)
        continue; // by reference, or a global constant
      auto copy = std::make_shared<Binding>(*b);
      copy->writable = false; // a copy of a parameter's tile view is not the parameter
      copy->loopIndex = false;
      copy->controlDepth = controlDepth_;
      if (b->isLocal) {
        copy->local = freshName(b->local);
        out.push_back(makeDefine(copy->local, makeLocal(b->local, b->localType)));
      }
      captured->vars[var] = copy;
    }
    return captured;
  }

  void translateFor(const clang::ForStmt *f, const ScopePtr &scope, std::vector<Stmt> &out) {
    // for (int k = begin; k < end; ++k | k++ | k += step)
    const auto *init = dyn_cast_or_null<clang::DeclStmt>(f->getInit());
    const clang::VarDecl *var =
        init && init->isSingleDecl() ? dyn_cast<clang::VarDecl>(init->getSingleDecl()) : nullptr;
    if (!var || !var->getInit() || !var->getType()->isIntegerType())
      fail(f, "an application 'for' loop must declare one integer index, as in "
              "'for (int k = 0; k < x.shape(0); ++k)'");
    auto loopScope = newScope();
    loopScope->parent = scope;
    Expr begin = asInt(eval(var->getInit(), scope, out), var->getInit(), "the loop start");
    const AstExpr *cond = f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr;
    const AstExpr *bound = nullptr;
    auto refersTo = [&](const AstExpr *e) {
      const auto *r = dyn_cast<clang::DeclRefExpr>(e->IgnoreUnlessSpelledInSource());
      return r && r->getDecl() == var;
    };
    if (const auto *bo = dyn_cast_or_null<clang::BinaryOperator>(cond)) {
      if (bo->getOpcode() == clang::BO_LT && refersTo(bo->getLHS()))
        bound = bo->getRHS();
    } else if (const auto *oc = dyn_cast_or_null<clang::CXXOperatorCallExpr>(cond)) {
      if (oc->getOperator() == clang::OO_Less && refersTo(oc->getArg(0)))
        bound = oc->getArg(1);
    }
    if (!bound)
      fail(f->getCond() ? static_cast<const clang::Stmt *>(f->getCond()) : f,
           "an application 'for' loop must be bounded as 'k < extent'");
    Expr end = asInt(eval(bound, scope, out), bound, "the loop bound");
    Expr step(1);
    const AstExpr *inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
    if (const auto *u = dyn_cast_or_null<clang::UnaryOperator>(inc);
        u && u->isIncrementOp() && refersTo(u->getSubExpr())) {
    } else if (const auto *ca = dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
               ca && ca->getOpcode() == clang::BO_AddAssign && refersTo(ca->getLHS())) {
      step = asInt(eval(ca->getRHS(), scope, out), ca->getRHS(), "the loop step");
      if (!step.isConst() || step.constValue() <= 0)
        fail(ca, "the loop step must be a positive constant");
    } else {
      fail(f->getInc() ? static_cast<const clang::Stmt *>(f->getInc()) : f,
           "an application 'for' loop must step as '++k' or 'k += step'");
    }
    std::string name = freshName(var->getNameAsString());
    Interval range{std::nullopt, std::nullopt};
    if (begin.range().lo)
      range.lo = begin.range().lo;
    if (auto hi = end.range().hi)
      range.hi = *hi - 1;
    auto index = std::make_shared<Binding>();
    index->value = TV::ofInt(Expr::symbol(name, range));
    index->loopIndex = true;
    loopScope->vars[var] = index;
    std::vector<Stmt> body;
    ++controlDepth_;
    exec(f->getBody(), loopScope, body);
    --controlDepth_;
    out.push_back(makeFor(name, begin, end, step, std::move(body)));
  }

  void translateIf(const clang::IfStmt *i, const ScopePtr &scope, std::vector<Stmt> &out) {
    if (i->getInit())
      exec(i->getInit(), scope, out);
    Cond c = evalCond(i->getCond(), scope, out).substitute({});
    std::vector<Stmt> then, orelse;
    bool decided = c.kind == Cond::Kind::True || c.kind == Cond::Kind::False;
    controlDepth_ += decided ? 0 : 1;
    if (c.kind != Cond::Kind::False)
      exec(i->getThen(), scope, then);
    if (c.kind != Cond::Kind::True && i->getElse())
      exec(i->getElse(), scope, orelse);
    controlDepth_ -= decided ? 0 : 1;
    if (c.kind == Cond::Kind::True)
      out.insert(out.end(), then.begin(), then.end());
    else if (c.kind == Cond::Kind::False)
      out.insert(out.end(), orelse.begin(), orelse.end());
    else
      out.push_back(makeIf(c, std::move(then), std::move(orelse)));
  }

  Cond evalCond(const AstExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    e = e->IgnoreParenImpCasts();
    if (const auto *x = dyn_cast<clang::ExprWithCleanups>(e))
      return evalCond(x->getSubExpr(), scope, out);
    if (const auto *m = dyn_cast<clang::CXXMemberCallExpr>(e))
      if (isa<clang::CXXConversionDecl>(m->getMethodDecl()))
        return nonZero(eval(m->getImplicitObjectArgument(), scope, out), e);
    if (const auto *u = dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_LNot) {
      Cond c;
      c.kind = Cond::Kind::Not;
      c.operands = {evalCond(u->getSubExpr(), scope, out)};
      return c;
    }
    clang::BinaryOperatorKind op = clang::BO_Comma;
    const AstExpr *lhs = nullptr, *rhs = nullptr;
    if (const auto *b = dyn_cast<clang::BinaryOperator>(e)) {
      op = b->getOpcode();
      lhs = b->getLHS();
      rhs = b->getRHS();
    } else if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e);
               oc && oc->getNumArgs() == 2) {
      static const std::map<clang::OverloadedOperatorKind, clang::BinaryOperatorKind> ops = {
          {clang::OO_Less, clang::BO_LT},       {clang::OO_LessEqual, clang::BO_LE},
          {clang::OO_Greater, clang::BO_GT},    {clang::OO_GreaterEqual, clang::BO_GE},
          {clang::OO_EqualEqual, clang::BO_EQ}, {clang::OO_ExclaimEqual, clang::BO_NE}};
      auto it = ops.find(oc->getOperator());
      if (it != ops.end()) {
        op = it->second;
        lhs = oc->getArg(0);
        rhs = oc->getArg(1);
      }
    }
    if (op == clang::BO_LAnd || op == clang::BO_LOr) {
      Cond c;
      c.kind = op == clang::BO_LAnd ? Cond::Kind::And : Cond::Kind::Or;
      c.operands = {evalCond(lhs, scope, out), evalCond(rhs, scope, out)};
      return c;
    }
    if (lhs && (op == clang::BO_EQ || op == clang::BO_NE)) {
      // Data types compare at compile time: `x.dtype() == ntl::float16`.
      TV a = eval(lhs, scope, out);
      if (a.kind == TV::Kind::DType) {
        TV b = eval(rhs, scope, out);
        if (b.kind != TV::Kind::DType)
          fail(rhs, "a data type can only be compared with a data type");
        Cond c;
        c.kind =
            (a.dtype == b.dtype) == (op == clang::BO_EQ) ? Cond::Kind::True : Cond::Kind::False;
        return c;
      }
    }
    if (lhs && (op == clang::BO_LT || op == clang::BO_LE || op == clang::BO_GT ||
                op == clang::BO_GE || op == clang::BO_EQ || op == clang::BO_NE)) {
      Expr a = asInt(eval(lhs, scope, out), lhs, "a compile-time condition");
      Expr b = asInt(eval(rhs, scope, out), rhs, "a compile-time condition");
      Cond c;
      switch (op) {
      case clang::BO_LT:
        c = {Cond::Kind::Less, a, b, {}};
        break;
      case clang::BO_LE:
        c = {Cond::Kind::LessEqual, a, b, {}};
        break;
      case clang::BO_GT:
        c = {Cond::Kind::Less, b, a, {}};
        break;
      case clang::BO_GE:
        c = {Cond::Kind::LessEqual, b, a, {}};
        break;
      case clang::BO_EQ:
        c = {Cond::Kind::Equal, a, b, {}};
        break;
      default: {
        Cond eq{Cond::Kind::Equal, a, b, {}};
        c.kind = Cond::Kind::Not;
        c.operands = {eq};
      }
      }
      return c;
    }
    return nonZero(eval(e, scope, out), e);
  }

  Cond nonZero(const TV &v, const AstExpr *where) {
    if (v.kind == TV::Kind::Tile && v.tile->kind != ValueKind::Index &&
        v.tile->kind != ValueKind::Constant)
      fail(where, "an application 'if' must depend on compile-time values only (nt::Constexpr "
                  "parameters, meta-parameters); use ntl::where for data-dependent choices");
    Cond c;
    c.kind = Cond::Kind::NonZero;
    c.a = asInt(v, where, "a condition");
    return c;
  }

  // ---- assignment --------------------------------------------------------------------------

  /// Write `value` to the binding (local assign, parameter store, integer rebind).
  void write(const BindingPtr &b, const TV &value, const clang::Stmt *where, std::vector<Stmt> &out,
             const std::string &what) {
    ++writes_;
    if (b->pendingLocal) {
      kir::Value v = asTile(value, where);
      if (b->controlDepth != controlDepth_)
        fail(where, "'" + what +
                        "' is the output of a kernel function called by another kernel; assign "
                        "it once outside loops and branches before assigning it inside one");
      TileType tile = b->value.tile->type;
      if (v->type.shape != tile.shape)
        v = typed(where, [&] { return makeBroadcastTo(v, tile.shape); });
      b->pendingLocal = false;
      b->isLocal = true;
      b->local = freshName(b->local);
      b->localType = v->type;
      b->value = TV{};
      out.push_back(makeDefine(b->local, v));
      return;
    }
    if (b->isLocal) {
      kir::Value v = asTile(value, where);
      if (v->type.dtype != b->localType.dtype && !v->weak && b->controlDepth == controlDepth_) {
        // A tile variable is dynamically typed: outside loops and branches a new type simply
        // starts a new IR local.
        b->local = freshName(b->local);
        b->localType = v->type;
        out.push_back(makeDefine(b->local, v));
        return;
      }
      if (v->type.dtype != b->localType.dtype) {
        if (!v->weak)
          fail(where, "'" + what + "' is a " + b->localType.str() + " tile; assigning a " +
                          v->type.str() + " tile would change its type (use .to(" +
                          dtypeName(b->localType.dtype) + ") or a new variable)");
        v = makeCast(v, b->localType.dtype);
      }
      if (v->type.shape != b->localType.shape)
        v = typed(where, [&] { return makeBroadcastTo(v, b->localType.shape); });
      out.push_back(makeAssign(b->local, v));
      return;
    }
    if (b->value.kind == TV::Kind::Param && b->writable) {
      store(b->value, value, where, out);
      return;
    }
    if (b->value.kind == TV::Kind::Param && !b->loopIndex &&
        b->value.subs.size() == middleDims(b->value.param) && b->controlDepth == controlDepth_) {
      // A copy of a parameter's tile (`auto a = x;`) that is assigned becomes a local: the
      // parameter keeps its memory, as in C++.
      kir::Value v = asTile(value, where);
      b->isLocal = true;
      b->local = freshName(what);
      b->localType = v->type;
      b->value = TV{};
      out.push_back(makeDefine(b->local, v));
      return;
    }
    if (b->loopIndex)
      fail(where, "'" + what +
                      "' is the index of an enclosing loop; an application loop runs every index "
                      "from its start to its bound, so the index cannot be assigned in the body");
    if (b->value.kind == TV::Kind::Int && value.kind == TV::Kind::Int) {
      if (b->controlDepth != controlDepth_)
        fail(where, "'" + what +
                        "' is an integer defined outside this loop or branch; integers are "
                        "compile-time values in an application, so it cannot change per "
                        "iteration (use a tile, e.g. ntl::full, for a value that changes)");
      b->value = value;
      return;
    }
    fail(where, "cannot assign to '" + what + "'" +
                    (b->value.kind == TV::Kind::Param
                         ? "; it is a by-value copy of a kernel parameter (take it as nt::Tile& "
                           "to store into the parameter)"
                         : ""));
  }

  void store(const TV &target, const TV &value, const clang::Stmt *where, std::vector<Stmt> &out) {
    stored_[static_cast<size_t>(target.param)] = true;
    if (target.subs.size() != middleDims(target.param))
      fail(where, "'" + fn_.spec.arranged[target.param].name +
                      "' has an inner level; store into a tile with x[k] = value");
    kir::Value v = asTile(value, where);
    TileType t = tileTypeOf(target.param);
    if (v->type.shape != t.shape)
      v = typed(where, [&] { return makeBroadcastTo(v, t.shape); });
    out.push_back(makeStore(target.param, target.subs, v));
  }

  /// The binding an lvalue expression refers to (a variable or `param[k]...`).
  BindingPtr lvalue(const AstExpr *e, const ScopePtr &scope, std::vector<Stmt> &out,
                    std::string &what) {
    e = e->IgnoreParenImpCasts();
    if (const auto *r = dyn_cast<clang::DeclRefExpr>(e)) {
      what = r->getDecl()->getNameAsString();
      BindingPtr b = scope->lookup(r->getDecl());
      if (!b)
        fail(e, "cannot assign to '" + what + "' in an application");
      return b;
    }
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e);
        oc && oc->getOperator() == clang::OO_Subscript) {
      TV base = eval(oc->getArg(0), scope, out);
      if (base.kind != TV::Kind::Param)
        fail(e, "only parameters with inner levels can be indexed with [k]");
      auto b = std::make_shared<Binding>();
      b->value = subscript(base, eval(oc->getArg(1), scope, out), oc);
      b->writable = isWritable(oc->getArg(0), scope);
      what = "the subscripted parameter";
      return b;
    }
    fail(e, "cannot assign to this expression in an application");
  }

  bool isWritable(const AstExpr *e, const ScopePtr &scope) {
    e = e->IgnoreParenImpCasts();
    if (const auto *r = dyn_cast<clang::DeclRefExpr>(e))
      if (BindingPtr b = scope->lookup(r->getDecl()))
        return b->writable;
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e);
        oc && oc->getOperator() == clang::OO_Subscript)
      return isWritable(oc->getArg(0), scope);
    return false;
  }

  TV subscript(const TV &base, const TV &index, const clang::Stmt *where) {
    if (base.subs.size() >= middleDims(base.param))
      fail(where, "'" + fn_.spec.arranged[base.param].name +
                      "' has no inner level left to index; it is already a tile: read or assign '" +
                      fn_.spec.arranged[base.param].name +
                      "' itself (a tile of one element takes a broadcast value), or tile it once "
                      "more in the arrangement to index a middle level");
    TV r = base;
    Expr i = asInt(index, where, "a tile index");
    checkSubscript(base, i, where);
    r.subs.push_back(i);
    return r;
  }

  /// A subscript must lie inside its inner level: provably outside is a diagnostic, a
  /// constant that a run-time extent may not cover is checked by the wrapper. (An index
  /// from a loop is bounded by the loop; masks cover what it reaches.)
  void checkSubscript(const TV &base, const Expr &i, const clang::Stmt *where) {
    const auto &levels = layout(base.param).levels();
    size_t position = base.subs.size();
    const Dim *dim = nullptr;
    for (size_t l = 1; l + 1 < levels.size() && !dim; ++l) {
      if (position < levels[l].dims.size())
        dim = &levels[l].dims[position];
      else
        position -= levels[l].dims.size();
    }
    if (!dim)
      return;
    const std::string name = fn_.spec.arranged[base.param].name;
    if (provablyLess(i, Expr(0)))
      fail(where, "index " + i.str() + " of '" + name + "' is negative");
    if (provablyLessEqual(dim->extent, i))
      fail(where, "index " + i.str() + " of '" + name + "' is outside its inner level of extent " +
                      dim->extent.str());
    if (i.isConst() && !provablyLess(i, dim->extent)) {
      ExtentCheck check{dim->extent, i.constValue() + 1, std::nullopt,
                        "'" + name + "[" + i.str() + "]': the extent of the inner level"};
      fn_.checks.push_back(check);
    }
  }

  // ---- expressions -------------------------------------------------------------------------

  /// The value of `e`; integer overflow in it is reported at `e` (the innermost expression
  /// where it happens).
  TV eval(const AstExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    try {
      return evalUnchecked(e, scope, out);
    } catch (const ArithmeticOverflow &overflow) {
      fail(e, std::string("integer overflow: ") + overflow.what());
    }
  }

  TV evalUnchecked(const AstExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    e = e->IgnoreParens();
    if (!e->isValueDependent() && !isa<clang::DeclRefExpr>(e) &&
        (e->getType()->isIntegerType() || e->getType()->isRealFloatingType()) &&
        !e->getType()->isBooleanType()) {
      clang::Expr::EvalResult r;
      if (e->EvaluateAsRValue(r, ctx_)) {
        if (r.Val.isInt())
          return TV::ofInt(Expr(r.Val.getInt().getExtValue()));
        if (r.Val.isFloat())
          return TV::ofTile(makeConstant(r.Val.getFloat().convertToDouble(), DType::Float32, true));
      }
    }
    if (const auto *x = dyn_cast<clang::ExprWithCleanups>(e))
      return eval(x->getSubExpr(), scope, out);
    if (const auto *x = dyn_cast<clang::MaterializeTemporaryExpr>(e))
      return eval(x->getSubExpr(), scope, out);
    if (const auto *x = dyn_cast<clang::CXXBindTemporaryExpr>(e))
      return eval(x->getSubExpr(), scope, out);
    if (const auto *x = dyn_cast<clang::ConstantExpr>(e))
      return eval(x->getSubExpr(), scope, out);
    if (const auto *x = dyn_cast<clang::CXXStdInitializerListExpr>(e))
      return eval(x->getSubExpr(), scope, out);
    if (const auto *x = dyn_cast<clang::CastExpr>(e))
      return convertCast(x, eval(x->getSubExpr(), scope, out));
    if (const auto *x = dyn_cast<clang::CXXBoolLiteralExpr>(e))
      return TV::ofInt(Expr(x->getValue() ? 1 : 0));
    if (const auto *x = dyn_cast<clang::DeclRefExpr>(e))
      return evalDeclRef(x, scope, out);
    if (const auto *x = dyn_cast<clang::InitListExpr>(e)) {
      TV shape;
      shape.kind = TV::Kind::Shape;
      for (const AstExpr *init : x->inits())
        shape.shape.push_back(asInt(eval(init, scope, out), init, "an extent"));
      return shape;
    }
    if (const auto *x = dyn_cast<clang::LambdaExpr>(e)) {
      TV c;
      c.kind = TV::Kind::Closure;
      c.function = x->getCallOperator();
      c.closure = captureScope(x, scope, out);
      return c;
    }
    if (const auto *x = dyn_cast<clang::ConditionalOperator>(e))
      return evalConditional(x, scope, out);
    if (const auto *x = dyn_cast<clang::UnaryOperator>(e))
      return evalBuiltinUnary(x, scope, out);
    if (const auto *x = dyn_cast<clang::BinaryOperator>(e))
      return evalBuiltinBinary(x, scope, out);
    if (const auto *x = dyn_cast<clang::CXXOperatorCallExpr>(e))
      return evalOperator(x, scope, out);
    if (const auto *x = dyn_cast<clang::CXXMemberCallExpr>(e))
      return evalMember(x, scope, out);
    if (const auto *x = dyn_cast<clang::CallExpr>(e))
      return evalCall(x, scope, out);
    if (const auto *x = dyn_cast<clang::CXXConstructExpr>(e))
      return evalConstruct(x, scope, out);
    fail(e, std::string("'") + e->getStmtClassName() +
                "' expressions are not supported in an application function");
  }

  TV convertCast(const clang::CastExpr *c, TV v) {
    clang::QualType to = c->getType();
    if (v.kind == TV::Kind::Int && to->isRealFloatingType()) {
      if (auto k = v.integer.asConst())
        return TV::ofTile(makeConstant(static_cast<double>(*k), DType::Float32, true));
      return TV::ofTile(makeCast(makeIndex(v.integer), DType::Float32));
    }
    return v;
  }

  TV evalDeclRef(const clang::DeclRefExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    const clang::ValueDecl *d = e->getDecl();
    if (BindingPtr b = scope->lookup(d)) {
      if (b->isLocal)
        return TV::ofTile(makeLocal(b->local, b->localType));
      return b->value;
    }
    if (const auto *ec = dyn_cast<clang::EnumConstantDecl>(d)) {
      const auto *en = dyn_cast<clang::EnumDecl>(ec->getDeclContext());
      if (en && en->getName() == "DType" && declaredInDsl(en))
        if (auto t = dtypeFromName(ec->getName().str())) {
          TV v;
          v.kind = TV::Kind::DType;
          v.dtype = *t;
          return v;
        }
      return TV::ofInt(Expr(ec->getInitVal().getExtValue()));
    }
    if (const auto *fn = dyn_cast<clang::FunctionDecl>(d)) {
      TV v;
      v.kind = TV::Kind::Closure;
      v.function = fn;
      return v;
    }
    if (const auto *var = dyn_cast<clang::VarDecl>(d))
      if (var->hasGlobalStorage() && var->getAnyInitializer()) {
        const AstExpr *init = var->getAnyInitializer();
        if (const auto *call = dyn_cast<clang::CallExpr>(init->IgnoreImplicit()))
          if (const auto *callee = call->getDirectCallee();
              callee && declaredInDsl(callee) && callee->getName() == "block_size")
            return blockSize(call);
        return eval(init, newScope(), out);
      }
    fail(e, "'" + d->getNameAsString() + "' cannot be used in an application");
  }

  /// A global `nt::block_size(...)`: the meta-parameter symbol (or the fixed value).
  TV blockSize(const clang::CallExpr *call) {
    const auto *name = dyn_cast<clang::StringLiteral>(call->getArg(0)->IgnoreImplicit());
    if (!name)
      fail(call, "the name of a block size must be a string literal");
    for (const MetaParam &m : fn_.spec.metas)
      if (m.name == name->getString())
        return TV::ofInt(Expr::symbol(m.name, {m.lo, m.hi}));
    clang::Expr::EvalResult r;
    if (call->getNumArgs() >= 2 && call->getArg(1)->EvaluateAsInt(r, ctx_))
      return TV::ofInt(Expr(r.Val.getInt().getExtValue()));
    fail(call,
         "block size '" + name->getString().str() + "' is not used by this kernel's arrangement");
  }

  TV evalBuiltinUnary(const clang::UnaryOperator *u, const ScopePtr &scope,
                      std::vector<Stmt> &out) {
    switch (u->getOpcode()) {
    case clang::UO_Minus:
      return TV::ofInt(-asInt(eval(u->getSubExpr(), scope, out), u, "the operand of '-'"));
    case clang::UO_Plus:
      return eval(u->getSubExpr(), scope, out);
    case clang::UO_LNot:
      return TV::ofInt(
          Expr(asConstInt(eval(u->getSubExpr(), scope, out), u, "the operand") ? 0 : 1));
    case clang::UO_PreInc:
    case clang::UO_PostInc:
    case clang::UO_PreDec:
    case clang::UO_PostDec: {
      std::string what;
      BindingPtr b = lvalue(u->getSubExpr(), scope, out, what);
      TV old = eval(u->getSubExpr(), scope, out);
      TV updated = TV::ofInt(asInt(old, u, "the operand") + Expr(u->isIncrementOp() ? 1 : -1));
      write(b, updated, u, out, what);
      return u->isPrefix() ? updated : old;
    }
    default:
      fail(u, "this operator is not supported in an application");
    }
  }

  TV intArithmetic(clang::BinaryOperatorKind op, const Expr &a, const Expr &b,
                   const clang::Stmt *where) {
    switch (op) {
    case clang::BO_Add:
      return TV::ofInt(a + b);
    case clang::BO_Sub:
      return TV::ofInt(a - b);
    case clang::BO_Mul:
      return TV::ofInt(a * b);
    case clang::BO_Div:
      return TV::ofInt(floorDiv(a, b));
    case clang::BO_Rem:
      return TV::ofInt(mod(a, b));
    default:
      fail(where, "this integer operator is not supported in an application");
    }
  }

  TV evalBuiltinBinary(const clang::BinaryOperator *b, const ScopePtr &scope,
                       std::vector<Stmt> &out) {
    if (b->isAssignmentOp()) {
      std::string what;
      BindingPtr target = lvalue(b->getLHS(), scope, out, what);
      TV value = eval(b->getRHS(), scope, out);
      if (const auto *c = dyn_cast<clang::CompoundAssignOperator>(b))
        value = intArithmetic(clang::BinaryOperator::getOpForCompoundAssignment(c->getOpcode()),
                              asInt(eval(b->getLHS(), scope, out), b, "the operand"),
                              asInt(value, b, "the operand"), b);
      write(target, value, b, out, what);
      return value;
    }
    Expr x = asInt(eval(b->getLHS(), scope, out), b->getLHS(), "an operand");
    Expr y = asInt(eval(b->getRHS(), scope, out), b->getRHS(), "an operand");
    return intArithmetic(b->getOpcode(), x, y, b);
  }

  TV tileBinary(const std::string &op, const TV &a, const TV &b, const clang::Stmt *where) {
    kir::Value x = asTile(a, where), y = asTile(b, where);
    return TV::ofTile(typed(where, [&] { return makeBinary(op, x, y); }));
  }

  TV evalOperator(const clang::CXXOperatorCallExpr *e, const ScopePtr &scope,
                  std::vector<Stmt> &out) {
    using clang::OverloadedOperatorKind;
    static const std::map<OverloadedOperatorKind, std::string> binary = {
        {clang::OO_Plus, "add"},        {clang::OO_Minus, "sub"},
        {clang::OO_Star, "mul"},        {clang::OO_Slash, "div"},
        {clang::OO_Percent, "mod"},     {clang::OO_Less, "lt"},
        {clang::OO_Greater, "gt"},      {clang::OO_LessEqual, "le"},
        {clang::OO_GreaterEqual, "ge"}, {clang::OO_EqualEqual, "eq"},
        {clang::OO_ExclaimEqual, "ne"}, {clang::OO_Amp, "and"},
        {clang::OO_Pipe, "or"},         {clang::OO_Caret, "xor"},
        {clang::OO_AmpAmp, "and"},      {clang::OO_PipePipe, "or"}};
    static const std::map<OverloadedOperatorKind, std::string> compound = {
        {clang::OO_PlusEqual, "add"},
        {clang::OO_MinusEqual, "sub"},
        {clang::OO_StarEqual, "mul"},
        {clang::OO_SlashEqual, "div"},
        {clang::OO_PercentEqual, "mod"}};
    OverloadedOperatorKind op = e->getOperator();
    if (op == clang::OO_Equal || compound.count(op)) {
      std::string what;
      BindingPtr target = lvalue(e->getArg(0), scope, out, what);
      TV value = eval(e->getArg(1), scope, out);
      if (compound.count(op)) {
        TV current = eval(e->getArg(0), scope, out);
        value = combine(compound.at(op), current, value, e);
      }
      write(target, value, e, out, what);
      return value;
    }
    if (op == clang::OO_Subscript) {
      TV base = eval(e->getArg(0), scope, out);
      TV index = eval(e->getArg(1), scope, out);
      if (base.kind == TV::Kind::Shape) {
        int64_t d = asConstInt(index, e, "a dimension");
        int64_t r = static_cast<int64_t>(base.shape.size());
        if (d < 0)
          d += r;
        if (d < 0 || d >= r)
          fail(e, "dimension " + std::to_string(d) + " is out of range for a shape of rank " +
                      std::to_string(r));
        return TV::ofInt(base.shape[d]);
      }
      if (base.kind != TV::Kind::Param && base.kind != TV::Kind::Deferred)
        fail(e, "only parameters with inner levels can be indexed with [k]");
      TV r = subscript(base, index, e);
      if (r.kind == TV::Kind::Deferred && r.subs.size() == middleDims(r.param))
        return TV::ofTile(materialize(r, e, out));
      return r;
    }
    if (op == clang::OO_Call) {
      if (std::optional<KernelCall> k = asKernelCall(e))
        return composeCall(*k, scope, out);
      TV callee = eval(e->getArg(0), scope, out);
      if (callee.kind != TV::Kind::Closure)
        fail(e, "only functions and lambdas can be called in an application");
      const auto *method = dyn_cast_or_null<clang::FunctionDecl>(e->getDirectCallee());
      std::vector<const AstExpr *> args(e->arg_begin() + 1, e->arg_end());
      return inlineCall(method ? method : callee.function, args, scope, callee.closure, out, e);
    }
    if (e->getNumArgs() == 1 && op == clang::OO_Minus) {
      TV v = eval(e->getArg(0), scope, out);
      if (v.kind == TV::Kind::Int)
        return TV::ofInt(-v.integer);
      return TV::ofTile(typed(e, [&] { return makeUnary("neg", asTile(v, e)); }));
    }
    if (e->getNumArgs() == 1 && op == clang::OO_Exclaim)
      return TV::ofTile(
          typed(e, [&] { return makeUnary("not", asTile(eval(e->getArg(0), scope, out), e)); }));
    auto it = binary.find(op);
    if (it != binary.end() && e->getNumArgs() == 2)
      return combine(it->second, eval(e->getArg(0), scope, out), eval(e->getArg(1), scope, out), e);
    fail(e, "this operator is not supported in an application");
  }

  /// A binary operator on two values: integer arithmetic when both are integers.
  TV combine(const std::string &op, const TV &a, const TV &b, const clang::Stmt *where) {
    static const std::map<std::string, clang::BinaryOperatorKind> intOps = {{"add", clang::BO_Add},
                                                                            {"sub", clang::BO_Sub},
                                                                            {"mul", clang::BO_Mul},
                                                                            {"div", clang::BO_Div},
                                                                            {"mod", clang::BO_Rem}};
    if (a.kind == TV::Kind::Int && b.kind == TV::Kind::Int && intOps.count(op))
      return intArithmetic(intOps.at(op), a.integer, b.integer, where);
    return tileBinary(op, a, b, where);
  }

  TV evalMember(const clang::CXXMemberCallExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    const clang::CXXMethodDecl *method = e->getMethodDecl();
    TV object = eval(e->getImplicitObjectArgument(), scope, out);
    std::string name = method ? method->getNameAsString() : "";
    std::vector<TV> args;
    for (const AstExpr *a : e->arguments())
      args.push_back(isa<clang::CXXDefaultArgExpr>(a) ? TV{} : eval(a, scope, out));
    auto dimArg = [&](size_t rank) {
      int64_t d = asConstInt(args.at(0), e, "a dimension");
      int64_t r = static_cast<int64_t>(rank);
      if (d < 0)
        d += r;
      if (d < 0 || d >= r)
        fail(e, "dimension " + std::to_string(d) + " is out of range for rank " +
                    std::to_string(rank));
      return static_cast<size_t>(d);
    };
    if (object.kind == TV::Kind::Source) {
      const ParamSpec &src = source(object.param);
      size_t d = dimArg(src.ndim);
      if (name == "shape")
        return TV::ofInt(
            Expr::symbol(src.sizeSymbol(static_cast<int>(d)), {0, src.upperBounds[d]}));
      if (name == "stride")
        return TV::ofInt(Expr::symbol(src.strideSymbol(static_cast<int>(d))));
      fail(e, "'" + name + "' is not a member of a tile's source");
    }
    if (object.kind == TV::Kind::Shape && name == "size")
      return TV::ofInt(Expr(static_cast<int64_t>(object.shape.size())));
    if (name == "source" && object.kind == TV::Kind::Param) {
      TV s = object;
      s.kind = TV::Kind::Source;
      return s;
    }
    if (name == "offsets" && object.kind == TV::Kind::Param && args.empty())
      return TV::ofTile(linearOffsets(object, e));
    if (name == "offsets" && object.kind == TV::Kind::Param)
      return TV::ofTile(offsets(object, dimArg(source(object.param).ndim), e));
    if (name == "shape") {
      std::vector<Expr> shape = object.kind == TV::Kind::Param || object.kind == TV::Kind::Deferred
                                    ? viewShape(object)
                                    : asTile(object, e)->type.shape;
      if (args.empty() || args[0].kind == TV::Kind::None) {
        TV s;
        s.kind = TV::Kind::Shape;
        s.shape = shape;
        return s;
      }
      return TV::ofInt(shape[dimArg(shape.size())]);
    }
    if (name == "dtype") {
      TV t;
      t.kind = TV::Kind::DType;
      t.dtype = object.kind == TV::Kind::Param      ? source(object.param).dtype
                : object.kind == TV::Kind::Deferred ? materialize(object, e, out)->type.dtype
                                                    : asTile(object, e)->type.dtype;
      return t;
    }
    if (name == "to") {
      kir::Value v = asTile(object, e);
      DType to = asDType(args.at(0), e);
      return TV::ofTile(v->type.dtype == to && !v->weak ? v : makeCast(v, to));
    }
    if (llvm::isa_and_nonnull<clang::CXXConversionDecl>(method))
      return object;
    fail(e, "'" + name + "' is not supported on a tile");
  }

  /// x.offsets(): Σ_d offsets(d) · stride_d over the source dimensions, one int64 per element
  /// of the tile (each coordinate spans the whole tile, so that the terms add elementwise).
  kir::Value linearOffsets(const TV &p, const clang::Stmt *where) {
    if (p.subs.size() != middleDims(p.param))
      fail(where, "offsets() needs a tile; select one with x[k] first");
    const ParamSpec &src = source(p.param);
    const TileType tile{DType::Int64, tileTypeOf(p.param).shape};
    kir::Value sum;
    for (int d = 0; d < src.ndim; ++d) {
      kir::Value term = makeBinary("mul", makeOffsets(p.param, p.subs, d, tile),
                                   makeIndex(Expr::symbol(src.strideSymbol(d))));
      sum = sum ? makeBinary("add", sum, term) : term;
    }
    return sum ? sum : makeFull(tile.shape, 0, DType::Int64);
  }

  kir::Value offsets(const TV &p, size_t dim, const clang::Stmt *where) {
    const Layout &l = layout(p.param);
    std::vector<std::string> names;
    l.coords()[dim].collectSymbols(names);
    const auto &innermost = l.levels().back().dims;
    TileType t{DType::Int64, {}};
    std::vector<size_t> used;
    for (size_t j = 0; j < innermost.size() && l.levels().size() > 1; ++j)
      if (std::find(names.begin(), names.end(), innermost[j].index.symbolName()) != names.end())
        used.push_back(j);
    TileType tile = tileTypeOf(p.param);
    if (used.size() == 1)
      t.shape = {tile.shape[used[0]]};
    else if (used.size() > 1)
      t.shape = tile.shape;
    if (p.subs.size() != middleDims(p.param))
      fail(where, "offsets() needs a tile; select one with x[k] first");
    return makeOffsets(p.param, p.subs, static_cast<int64_t>(dim), t);
  }

  TV evalConstruct(const clang::CXXConstructExpr *e, const ScopePtr &scope,
                   std::vector<Stmt> &out) {
    const clang::CXXRecordDecl *record = e->getConstructor()->getParent();
    std::string type = record->getNameAsString();
    // `{}` for a shape (ntl::full({}, v, dtype): a 0-d tile, Triton's tl.full([], ...)) is a
    // value-initialized std::initializer_list.
    if (e->getNumArgs() == 0 && type == "initializer_list" && record->isInStdNamespace()) {
      TV shape;
      shape.kind = TV::Kind::Shape;
      return shape;
    }
    if (e->getNumArgs() == 0)
      fail(e, "a '" + type + "' needs a value here");
    if (type == "Shape" && declaredInDsl(record)) {
      TV list = eval(e->getArg(0), scope, out);
      return list;
    }
    const AstExpr *arg = e->getArg(0)->IgnoreParens();
    if (const auto *cast = dyn_cast<clang::ImplicitCastExpr>(arg);
        cast && type == "Tile" && cast->getCastKind() == clang::CK_IntegralToFloating)
      arg = cast->getSubExpr(); // Tile(double) from an integer: a weak integer, not a float
    TV v = eval(arg, scope, out);
    if (type == "Tile" && declaredInDsl(record) && v.kind == TV::Kind::Int)
      return TV::ofTile(asTile(v, e));
    return v;
  }

  // ---- calls -------------------------------------------------------------------------------

  TV evalCall(const clang::CallExpr *e, const ScopePtr &scope, std::vector<Stmt> &out) {
    const clang::FunctionDecl *fn = e->getDirectCallee();
    std::vector<const AstExpr *> args(e->arg_begin(), e->arg_end());
    if (!fn) {
      TV callee = eval(e->getCallee(), scope, out);
      if (callee.kind != TV::Kind::Closure)
        fail(e, "this call is not supported in an application");
      return inlineCall(callee.function, args, scope, callee.closure, out, e);
    }
    if (declaredInDsl(fn))
      return builtin(fn->getNameAsString(), e, args, scope, out);
    return inlineCall(fn, args, scope, nullptr, out, e);
  }

  /// The binding of an inlined function's by-value parameter `name` to the value `v`: a new
  /// local holding a tile (so that the callee's writes stay its own), the value itself else.
  BindingPtr parameterBinding(const std::string &name, const TV &v, std::vector<Stmt> &out) {
    auto b = std::make_shared<Binding>();
    b->controlDepth = controlDepth_;
    if (v.kind == TV::Kind::Tile) {
      b->isLocal = true;
      b->local = freshName(name);
      b->localType = v.tile->type;
      out.push_back(makeDefine(b->local, v.tile));
    } else {
      b->value = v;
    }
    return b;
  }

  TV inlineCall(const clang::FunctionDecl *fn, const std::vector<const AstExpr *> &args,
                const ScopePtr &caller, const ScopePtr &closure, std::vector<Stmt> &out,
                const clang::Stmt *where) {
    const clang::FunctionDecl *def = nullptr;
    if (!fn || !fn->getBody(def))
      fail(where, "'" + (fn ? fn->getNameAsString() : std::string("?")) +
                      "' has no body to inline into the application");
    if (++depth_ > 64)
      fail(where, "call depth exceeds 64; recursion is not supported in an application");
    auto scope = newScope();
    scope->parent = closure;
    for (unsigned i = 0; i < def->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = def->getParamDecl(i);
      if (i >= args.size())
        fail(where, "missing argument for '" + p->getNameAsString() + "'");
      clang::QualType t = p->getType();
      bool byRef = t->isLValueReferenceType() && !t.getNonReferenceType().isConstQualified();
      if (byRef) {
        std::string what;
        scope->vars[p] = lvalue(args[i], caller, out, what);
        continue;
      }
      scope->vars[p] =
          parameterBinding(p->getNameAsString(), copyOf(eval(args[i], caller, out), args[i]), out);
    }
    TV result;
    execBody(def->getBody(), scope, out, result, /*allowReturnValue=*/true);
    --depth_;
    return result;
  }

  /// A kernel-function call `f(args...)` (compose-kernels arranged the tensors of its
  /// arguments for this kernel's grid): the callee's application inlined, its inputs bound to
  /// the arguments, its output to a local with the tile shape of the parameter the call's
  /// value is stored to (zeros until the callee assigns it); the value is that local.
  TV composeCall(const KernelCall &k, const ScopePtr &caller, std::vector<Stmt> &out) {
    int target = storedToParam(app_, k.call);
    if (++depth_ > 64)
      fail(k.call, "call depth exceeds 64; recursion is not supported in an application");
    auto scope = newScope();
    for (size_t j = 0; j < k.inputs.size(); ++j) {
      const clang::ParmVarDecl *p = k.application->getParamDecl(k.inputs[j]);
      scope->vars[p] =
          parameterBinding(p->getNameAsString(), argument(k.args[j], caller, out), out);
    }
    const clang::ParmVarDecl *output = k.application->getParamDecl(k.output);
    auto result = std::make_shared<Binding>();
    TileType tile = tileTypeOf(target);
    result->pendingLocal = true;
    result->local = output->getNameAsString();
    result->value = TV::ofTile(makeFull(tile.shape, 0, tile.dtype));
    result->controlDepth = controlDepth_;
    scope->vars[output] = result;
    TV ignored;
    execBody(k.application->getBody(), scope, out, ignored, /*allowReturnValue=*/false);
    --depth_;
    if (result->pendingLocal)
      return result->value;
    return TV::ofTile(makeLocal(result->local, result->localType));
  }

  /// The value an argument of a kernel-function call binds: a Deferred expression when it
  /// computes on views with inner levels (a prologue such as `gelu(x)`), else its value.
  TV argument(const AstExpr *arg, const ScopePtr &scope, std::vector<Stmt> &out) {
    const AstExpr *bare = arg->IgnoreImplicit()->IgnoreParenImpCasts();
    if (!isa<clang::DeclRefExpr>(bare)) {
      int view = -1;
      forEachViewIn(arg, scope, [&](const clang::DeclRefExpr *, const BindingPtr &b) {
        view = b->value.param;
      });
      if (view >= 0) {
        TV v;
        v.kind = TV::Kind::Deferred;
        v.deferred = arg;
        v.closure = scope;
        v.param = view;
        return v;
      }
    }
    return copyOf(eval(arg, scope, out), arg);
  }

  /// Calls `f` for each name in `e` bound to a parameter view with inner levels left.
  template <class F> void forEachViewIn(const clang::Stmt *e, const ScopePtr &scope, F &&f) {
    if (!e)
      return;
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e))
      if (BindingPtr b = scope->lookup(ref->getDecl());
          b && !b->isLocal && b->value.kind == TV::Kind::Param &&
          b->value.subs.size() < middleDims(b->value.param))
        f(ref, b);
    for (const clang::Stmt *child : e->children())
      forEachViewIn(child, scope, f);
  }

  /// A Deferred argument's tile: its expression with every view in it indexed as the callee
  /// indexed the argument.
  kir::Value materialize(const TV &v, const clang::Stmt *where, std::vector<Stmt> &out) {
    auto scope = newScope();
    scope->parent = v.closure;
    forEachViewIn(v.deferred, v.closure, [&](const clang::DeclRefExpr *ref, const BindingPtr &b) {
      if (middleDims(b->value.param) - b->value.subs.size() != v.subs.size())
        fail(ref, "'" + ref->getDecl()->getNameAsString() + "' has " +
                      std::to_string(middleDims(b->value.param) - b->value.subs.size()) +
                      " inner dimensions left, but the kernel function indexes this argument "
                      "with " +
                      std::to_string(v.subs.size()));
      auto indexed = std::make_shared<Binding>(*b);
      indexed->value.subs.insert(indexed->value.subs.end(), v.subs.begin(), v.subs.end());
      scope->vars[ref->getDecl()] = indexed;
    });
    return asTile(eval(v.deferred, scope, out), where);
  }

  /// dot's input precision: NineToothed's "ieee", "tf32" or "tf32x3", as a string literal. The
  /// GPU multiplies float32 operands on the tensor cores for "tf32" (one pass) and "tf32x3"
  /// (three, about float32's accuracy); the CPU in IEEE precision, which all three allow.
  std::string inputPrecision(const AstExpr *arg) {
    const auto *literal = dyn_cast<clang::StringLiteral>(arg->IgnoreParenImpCasts());
    if (!literal)
      fail(arg, "the input precision of dot must be a string literal: \"ieee\", \"tf32\" or "
                "\"tf32x3\"");
    const std::string precision = literal->getString().str();
    if (precision != "ieee" && precision != "tf32" && precision != "tf32x3")
      fail(arg, "unknown input precision '" + precision +
                    "' for dot: use \"ieee\", \"tf32\" or \"tf32x3\"");
    return precision;
  }

  TV builtin(const std::string &name, const clang::CallExpr *e,
             const std::vector<const AstExpr *> &args, const ScopePtr &scope,
             std::vector<Stmt> &out) {
    std::vector<TV> a;
    for (size_t i = 0; i < args.size(); ++i)
      a.push_back(isa<clang::CXXDefaultArgExpr>(args[i]) || (name == "dot" && i == 2)
                      ? TV{}
                      : eval(args[i], scope, out));
    auto tile = [&](size_t i) { return asTile(a.at(i), args.at(i)); };
    auto tv = [&](auto make) { return TV::ofTile(typed(e, make)); };
    if (const kir::Operation *op = kir::findFunction(name)) // the operation table
      return op->arity == 1 ? tv([&] { return makeUnary(name, tile(0)); })
                            : tv([&] { return makeBinary(name, tile(0), tile(1)); });
    if (name == "clamp")
      return tv(
          [&] { return makeBinary("minimum", makeBinary("maximum", tile(0), tile(1)), tile(2)); });
    if (name == "where")
      return tv([&] { return makeWhere(tile(0), tile(1), tile(2)); });
    if (name == "sum" || name == "max" || name == "min" || name == "argmax") {
      std::optional<int64_t> axis;
      if (a.size() > 1 && a[1].kind != TV::Kind::None)
        axis = asConstInt(a[1], args[1], "an axis");
      return tv([&] { return makeReduce(name, tile(0), axis); });
    }
    if (name == "dot") {
      const std::string precision = args.size() > 2 ? inputPrecision(args[2]) : "";
      return tv([&] { return makeDot(tile(0), tile(1), precision); });
    }
    if (name == "trans")
      return tv([&] { return makeTrans(tile(0)); });
    if (name == "cast")
      return tv([&] { return makeCast(tile(0), asDType(a.at(1), args[1])); });
    if (name == "expand_dims")
      return tv([&] { return makeExpandDims(tile(0), asConstInt(a.at(1), args[1], "an axis")); });
    if (name == "broadcast_to")
      return tv([&] { return makeBroadcastTo(tile(0), asShape(a.at(1), args[1])); });
    if (name == "zeros" || name == "full") {
      std::vector<Expr> shape = asShape(a.at(0), args[0]);
      for (Expr &d : shape)
        d = tileExtent(d);
      double value = 0;
      DType dtype = asDType(a.at(name == "zeros" ? 1 : 2), args.back());
      if (name == "full") {
        kir::Value v = tile(1);
        if (v->kind != ValueKind::Constant)
          fail(args[1], "the fill value of ntl::full must be a constant");
        value = v->number;
      }
      return TV::ofTile(makeFull(shape, value, dtype));
    }
    if (name == "arange") {
      Expr b = asInt(a.at(0), args[0], "the start of arange");
      Expr end = asInt(a.at(1), args[1], "the end of arange");
      return tv([&] { return makeArange(b, end); });
    }
    if (name == "rand")
      return tv([&] { return makeRand(tile(0), tile(1)); });
    if (name == "kernel_function") // a local kernel function: its calls are read from the AST
      return TV{};
    fail(e, "'ntl::" + name + "' is not supported in an application");
  }

  const clang::FunctionDecl *app_;
  clang::ASTContext &ctx_;
  kir::Function fn_;
  std::set<std::string> used_;   ///< IR names of locals and loop indices so far
  std::vector<bool> written_;    ///< per arranged parameter: the application stores to it
  std::vector<bool> stored_;     ///< per arranged parameter: this translation stored to it
  int64_t writes_ = 0;           ///< writes performed so far (side effects of expressions)
  std::vector<ScopePtr> scopes_; ///< every scope of this translation (see newScope)
  int depth_ = 0;
  int controlDepth_ = 0;
};

} // namespace

kir::Function translateApplication(const clang::FunctionDecl *application, const KernelSpec &spec) {
  // Copies of a written parameter's tile are taken when made; which parameters are written is
  // known from the AST (writtenParams) and confirmed by the translation, which runs again in
  // the rare case that it stored to a parameter the AST scan missed.
  std::vector<bool> written = writtenParams(application);
  written.resize(spec.arranged.size(), false);
  Translator first(application, spec, written);
  kir::Function f = first.run();
  if (first.stored() == written || !first.storedBeyond(written))
    return f;
  std::vector<bool> all = written;
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = all[i] || first.stored()[i];
  return Translator(application, spec, all).run();
}

} // namespace ntc
