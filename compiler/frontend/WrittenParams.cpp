//===- WrittenParams.cpp - which application parameters are stored to -----===//
#include "frontend/WrittenParams.h"

#include "frontend/InferAxes.h"
#include "passes/NamedAxes.h"
#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <set>
#include <utility>

namespace ntc {

using clang::dyn_cast;
using clang::isa;

namespace {

/// True when `d` is declared in namespace nt (or a namespace inside it).
bool declaredInNt(const clang::Decl *d) {
  for (const clang::DeclContext *c = d->getDeclContext(); c; c = c->getParent())
    if (const auto *ns = dyn_cast<clang::NamespaceDecl>(c))
      if (ns->getName() == "nt" && isa<clang::TranslationUnitDecl>(ns->getParent()))
        return true;
  return false;
}

} // namespace

const clang::ValueDecl *assignedVariable(const clang::Expr *e) {
  while (e) {
    e = e->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *r = dyn_cast<clang::DeclRefExpr>(e))
      return r->getDecl();
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e);
        oc && oc->getOperator() == clang::OO_Subscript && oc->getNumArgs() == 2) {
      e = oc->getArg(0);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

/// Maps the variables that alias application parameters (the parameters themselves, and
/// reference parameters of called functions) to the parameter's index.
using Aliases = std::map<const clang::ValueDecl *, int>;

class WriteFinder {
public:
  explicit WriteFinder(size_t n) : written(n, false) {}

  void function(const clang::FunctionDecl *fn, const Aliases &aliases) {
    const clang::FunctionDecl *def = nullptr;
    if (!fn || !fn->getBody(def) || aliases.empty() || depth_ > 64)
      return;
    std::vector<std::pair<const clang::ValueDecl *, int>> key(aliases.begin(), aliases.end());
    if (!visited_.insert({def, key}).second)
      return;
    ++depth_;
    // The aliases were keyed by the declaration the call site saw; use the definition's.
    Aliases own;
    for (unsigned i = 0; i < def->getNumParams() && i < fn->getNumParams(); ++i) {
      auto it = aliases.find(fn->getParamDecl(i));
      if (it != aliases.end())
        own[def->getParamDecl(i)] = it->second;
    }
    own.insert(aliases.begin(), aliases.end());
    stmt(def->getBody(), own);
    --depth_;
  }

  std::vector<bool> written;

private:
  void mark(const clang::Expr *target, const Aliases &aliases) {
    if (const clang::ValueDecl *d = assignedVariable(target)) {
      auto it = aliases.find(d);
      if (it != aliases.end() && it->second >= 0 &&
          static_cast<size_t>(it->second) < written.size())
        written[it->second] = true;
    }
  }

  void stmt(const clang::Stmt *s, const Aliases &aliases) {
    if (!s)
      return;
    if (const auto *lambda = dyn_cast<clang::LambdaExpr>(s)) {
      // A lambda's body sees the enclosing aliases through its captures.
      stmt(lambda->getBody(), aliases);
      return;
    }
    if (const auto *b = dyn_cast<clang::BinaryOperator>(s); b && b->isAssignmentOp())
      mark(b->getLHS(), aliases);
    if (const auto *u = dyn_cast<clang::UnaryOperator>(s); u && u->isIncrementDecrementOp())
      mark(u->getSubExpr(), aliases);
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(s);
        oc && isAssignmentOperator(oc->getOperator()) && oc->getNumArgs() >= 1)
      mark(oc->getArg(0), aliases);
    if (const auto *mc = dyn_cast<clang::CXXMemberCallExpr>(s))
      if (const clang::CXXMethodDecl *m = mc->getMethodDecl();
          m && isAssignmentOperator(m->getOverloadedOperator()))
        mark(mc->getImplicitObjectArgument(), aliases);
    if (const auto *call = dyn_cast<clang::CallExpr>(s))
      this->call(call, aliases);
    for (const clang::Stmt *child : s->children())
      stmt(child, aliases);
  }

  /// Follow a call that passes an alias to a non-const lvalue reference parameter.
  void call(const clang::CallExpr *call, const Aliases &aliases) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || declaredInNt(callee))
      return;
    unsigned offset = 0; // an operator() call passes the object as argument 0
    if (const auto *m = dyn_cast<clang::CXXMethodDecl>(callee);
        m && m->isInstance() && isa<clang::CXXOperatorCallExpr>(call))
      offset = 1;
    Aliases passed;
    for (unsigned i = 0; i < callee->getNumParams() && i + offset < call->getNumArgs(); ++i) {
      clang::QualType t = callee->getParamDecl(i)->getType();
      if (!t->isLValueReferenceType() || t.getNonReferenceType().isConstQualified())
        continue;
      if (const clang::ValueDecl *d = assignedVariable(call->getArg(i + offset))) {
        auto it = aliases.find(d);
        if (it != aliases.end())
          passed[callee->getParamDecl(i)] = it->second;
      }
    }
    function(callee, passed);
  }

  std::set<
      std::pair<const clang::FunctionDecl *, std::vector<std::pair<const clang::ValueDecl *, int>>>>
      visited_;
  int depth_ = 0;
};

/// The function named by an NT_KERNEL argument (`f` or `&f`).
const clang::FunctionDecl *functionArg(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *u = dyn_cast<clang::UnaryOperator>(e))
    e = u->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

void findArrangeCalls(const clang::Stmt *s, std::vector<const clang::CallExpr *> &out) {
  if (!s)
    return;
  if (const auto *call = dyn_cast<clang::CallExpr>(s))
    if (const clang::FunctionDecl *fn = call->getDirectCallee())
      if (fn->getName() == "arrange" && declaredInNt(fn))
        out.push_back(call);
  for (const clang::Stmt *child : s->children())
    findArrangeCalls(child, out);
}

} // namespace

bool isAssignmentOperator(clang::OverloadedOperatorKind op) {
  switch (op) {
  case clang::OO_Equal:
  case clang::OO_PlusEqual:
  case clang::OO_MinusEqual:
  case clang::OO_StarEqual:
  case clang::OO_SlashEqual:
  case clang::OO_PercentEqual:
  case clang::OO_AmpEqual:
  case clang::OO_PipeEqual:
  case clang::OO_CaretEqual:
  case clang::OO_LessLessEqual:
  case clang::OO_GreaterGreaterEqual:
  case clang::OO_PlusPlus:
  case clang::OO_MinusMinus:
    return true;
  default:
    return false;
  }
}

std::vector<clang::SourceRange> arrangedTensorRanges(const clang::FunctionDecl *kernelDecl,
                                                     const clang::FunctionDecl *application,
                                                     size_t n) {
  std::vector<clang::SourceRange> ranges;
  for (size_t i = 0; i < n; ++i)
    ranges.push_back(i < application->getNumParams()
                         ? application->getParamDecl(i)->getSourceRange()
                         : kernelDecl->getSourceRange());
  const auto *body = dyn_cast_or_null<clang::CompoundStmt>(kernelDecl->getBody());
  if (!body || body->size() != 1)
    return ranges;
  const auto *e = dyn_cast<clang::Expr>(body->body_front());
  const auto *kernelCall = e ? dyn_cast<clang::CallExpr>(e->IgnoreImplicit()) : nullptr;
  if (!kernelCall || kernelCall->getNumArgs() < 2)
    return ranges;
  const clang::FunctionDecl *arrangement = functionArg(kernelCall->getArg(1));
  const clang::FunctionDecl *def = nullptr;
  if (!arrangement || !arrangement->getBody(def))
    return ranges;
  std::vector<const clang::CallExpr *> calls;
  findArrangeCalls(def->getBody(), calls);
  const clang::CallExpr *arrange = nullptr;
  for (const clang::CallExpr *c : calls)
    if (c->getNumArgs() == n)
      arrange = c;
  if (!arrange)
    return ranges;
  for (size_t i = 0; i < n; ++i) {
    const clang::Expr *arg = arrange->getArg(i)->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<clang::CXXConstructExpr>(arg); c && c->getNumArgs() == 1)
      arg = c->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts();
    ranges[i] = arrange->getArg(i)->getSourceRange();
    if (const auto *r = dyn_cast<clang::DeclRefExpr>(arg))
      if (const auto *var = dyn_cast<clang::VarDecl>(r->getDecl());
          var && !isa<clang::ParmVarDecl>(var) && var->hasInit())
        ranges[i] = var->getSourceRange();
  }
  return ranges;
}

std::vector<bool> writtenParams(const clang::FunctionDecl *application) {
  WriteFinder finder(application->getNumParams());
  Aliases params;
  for (unsigned i = 0; i < application->getNumParams(); ++i)
    params[application->getParamDecl(i)] = static_cast<int>(i);
  finder.function(application, params);
  return finder.written;
}

void applyNamedAxes(KernelSpec &spec, const clang::FunctionDecl *kernelDecl,
                    const clang::FunctionDecl *application) {
  inferAxes(spec, kernelDecl, application);
  bool anyName = false;
  for (const ArrangedParam &a : spec.arranged)
    for (const Dim &d : a.layout.levels()[0].dims)
      anyName = anyName || !d.axis.empty();
  if (!anyName)
    return; // the common case: nothing to lower, no need to walk the application

  std::vector<passes::NamedAxesError> errors;
  try {
    errors = passes::lowerNamedAxes(spec, writtenParams(application));
  } catch (const LayoutError &e) {
    throw SourceError(kernelDecl->getSourceRange(),
                      std::string("cannot lower the named axes of kernel '") + spec.name +
                          "': " + e.what());
  }
  if (errors.empty())
    return;
  std::vector<clang::SourceRange> ranges =
      arrangedTensorRanges(kernelDecl, application, spec.arranged.size());
  clang::DiagnosticsEngine &diags = application->getASTContext().getDiagnostics();
  for (size_t i = 0; i < errors.size(); ++i) {
    SourceError error(kernelDecl->getSourceRange(), errors[i].message);
    for (const auto &[param, text] : errors[i].notes)
      error.note(param >= 0 && static_cast<size_t>(param) < ranges.size()
                     ? ranges[param]
                     : kernelDecl->getSourceRange(),
                 text);
    if (i + 1 == errors.size())
      throw error;
    report(diags, error);
  }
}

} // namespace ntc
