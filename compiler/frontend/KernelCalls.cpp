//===- KernelCalls.cpp - calls of kernel functions in an application -------===//
#include "frontend/KernelCalls.h"

#include "frontend/ArrangementEvaluator.h"
#include "frontend/DslNames.h"
#include "frontend/WrittenParams.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <algorithm>
#include <set>
#include <string>

namespace ntc {

using clang::dyn_cast;
using clang::isa;

namespace {

const clang::Expr *strip(const clang::Expr *e) {
  while (e) {
    const clang::Expr *next = e->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<clang::CXXConstructExpr>(next); c && c->getNumArgs() == 1)
      next = c->getArg(0);
    if (next == e)
      return e;
    e = next;
  }
  return e;
}

/// True when `t` is nt::KernelFunction<...>.
bool isKernelFunctionType(clang::QualType t) {
  const auto *record = t.getNonReferenceType()->getAsCXXRecordDecl();
  return record && record->getName() == "KernelFunction" && declaredInDsl(record);
}

/// The function an argument of nt::kernel_function names (`f` or `&f`).
const clang::FunctionDecl *namedFunction(const clang::Expr *e) {
  e = strip(e);
  if (const auto *u = dyn_cast<clang::UnaryOperator>(e))
    e = strip(u->getSubExpr());
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

/// The nt::kernel_function(arrangement, application) call that made the kernel function
/// `object` (the variable it is stored in, followed to its initialiser).
const clang::CallExpr *kernelFunctionMaker(const clang::Expr *object) {
  std::set<const clang::VarDecl *> seen;
  const clang::Expr *e = strip(object);
  while (e) {
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
      const auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!var || !seen.insert(var).second || !var->getAnyInitializer())
        return nullptr;
      e = strip(var->getAnyInitializer());
      continue;
    }
    if (const auto *call = dyn_cast<clang::CallExpr>(e))
      if (const clang::FunctionDecl *fn = call->getDirectCallee();
          fn && declaredInDsl(fn) && fn->getName() == "kernel_function" && call->getNumArgs() == 2)
        return call;
    return nullptr;
  }
  return nullptr;
}

const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *fn) {
  const clang::FunctionDecl *def = nullptr;
  return fn && fn->getBody(def) ? def : nullptr;
}

/// The expressions of `s` (and of the lambdas in it) that are kernel-function calls.
void collectCalls(const clang::Stmt *s, std::vector<KernelCall> &out) {
  if (!s)
    return;
  if (const auto *e = dyn_cast<clang::Expr>(s))
    if (std::optional<KernelCall> k = asKernelCall(e); k && k->call == e) {
      out.push_back(*k);
      for (const clang::Expr *arg : k->args)
        collectCalls(arg, out);
      return;
    }
  if (const auto *lambda = dyn_cast<clang::LambdaExpr>(s)) {
    collectCalls(lambda->getBody(), out);
    return;
  }
  for (const clang::Stmt *child : s->children())
    collectCalls(child, out);
}

/// A kernel-function call in a function the application calls (the first one found), or null.
const clang::CallExpr *callInHelper(const clang::Stmt *s,
                                    std::set<const clang::FunctionDecl *> &visited, bool inHelper) {
  if (!s)
    return nullptr;
  if (const auto *e = dyn_cast<clang::Expr>(s))
    if (std::optional<KernelCall> k = asKernelCall(e); k && k->call == e && inHelper)
      return k->call;
  if (const auto *call = dyn_cast<clang::CallExpr>(s))
    if (const clang::FunctionDecl *fn = call->getDirectCallee(); fn && !declaredInDsl(fn))
      if (const clang::FunctionDecl *def = definitionOf(fn); def && visited.insert(def).second)
        if (const clang::CallExpr *found = callInHelper(def->getBody(), visited, true))
          return found;
  for (const clang::Stmt *child : s->children())
    if (const clang::CallExpr *found = callInHelper(child, visited, inHelper))
      return found;
  return nullptr;
}

/// True when `e` holds `call` or names one of `vars`.
bool holds(const clang::Stmt *s, const clang::CallExpr *call,
           const std::set<const clang::ValueDecl *> &vars) {
  if (!s)
    return false;
  if (s == call)
    return true;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(s))
    return vars.count(ref->getDecl()) != 0;
  for (const clang::Stmt *child : s->children())
    if (holds(child, call, vars))
      return true;
  return false;
}

/// One step of the flow of a call's value: the variables that receive it (`auto y = call;`,
/// `y = call + b;`) join `vars`; the parameters that do join `params` (with the assignment).
void flow(const clang::Stmt *s, const clang::CallExpr *call,
          std::set<const clang::ValueDecl *> &vars,
          std::vector<std::pair<const clang::ValueDecl *, const clang::Stmt *>> &stores) {
  if (!s)
    return;
  const clang::Expr *target = nullptr, *value = nullptr;
  if (const auto *ds = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : ds->decls())
      if (const auto *var = dyn_cast<clang::VarDecl>(d); var && var->getInit())
        if (holds(var->getInit(), call, vars))
          vars.insert(var);
  } else if (const auto *b = dyn_cast<clang::BinaryOperator>(s); b && b->isAssignmentOp()) {
    target = b->getLHS();
    value = b->getRHS();
  } else if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(s);
             oc && isAssignmentOperator(oc->getOperator()) && oc->getNumArgs() == 2) {
    target = oc->getArg(0);
    value = oc->getArg(1);
  }
  if (target && holds(value, call, vars))
    if (const clang::ValueDecl *d = assignedVariable(target)) {
      if (isa<clang::ParmVarDecl>(d))
        stores.emplace_back(d, s);
      else
        vars.insert(d);
    }
  for (const clang::Stmt *child : s->children())
    flow(child, call, vars, stores);
}

void collectParams(const clang::Stmt *s, const std::set<const clang::ParmVarDecl *> &params,
                   std::vector<const clang::ParmVarDecl *> &out) {
  if (!s)
    return;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(s))
    if (const auto *p = dyn_cast<clang::ParmVarDecl>(ref->getDecl());
        p && params.count(p) && std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(p);
  for (const clang::Stmt *child : s->children())
    collectParams(child, params, out);
}

} // namespace

std::optional<KernelCall> asKernelCall(const clang::Expr *e) {
  const auto *oc = dyn_cast_or_null<clang::CXXOperatorCallExpr>(strip(e));
  if (!oc || oc->getOperator() != clang::OO_Call || oc->getNumArgs() < 1 ||
      !isKernelFunctionType(oc->getArg(0)->getType()))
    return std::nullopt;
  KernelCall k;
  k.call = oc;
  for (unsigned i = 1; i < oc->getNumArgs(); ++i)
    k.args.push_back(oc->getArg(i));
  const clang::CallExpr *maker = kernelFunctionMaker(oc->getArg(0));
  if (!maker)
    throw SourceError(oc->getArg(0)->getSourceRange(),
                      "a kernel function must be a variable initialised with "
                      "nt::kernel_function(arrangement, application)");
  const clang::FunctionDecl *arrangement = namedFunction(maker->getArg(0));
  const clang::FunctionDecl *application = namedFunction(maker->getArg(1));
  if (!arrangement || !hasAnnotation(arrangement, "nt::arrangement"))
    throw SourceError(maker->getArg(0)->getSourceRange(),
                      "the first argument of nt::kernel_function must be an arrangement "
                      "(a function declared with NT_ARRANGEMENT)");
  if (!application || !hasAnnotation(application, "nt::application"))
    throw SourceError(maker->getArg(1)->getSourceRange(),
                      "the second argument of nt::kernel_function must be an application "
                      "(a function declared with NT_APPLICATION)");
  k.arrangement = definitionOf(arrangement);
  k.application = definitionOf(application);
  if (!k.arrangement || !k.application)
    throw SourceError(maker->getSourceRange(), "the arrangement and the application of a kernel "
                                               "function need bodies");
  if (k.arrangement->getNumParams() != k.application->getNumParams())
    throw SourceError(oc->getSourceRange(),
                      "'" + k.arrangement->getNameAsString() + "' takes " +
                          std::to_string(k.arrangement->getNumParams()) + " tensors but '" +
                          k.application->getNameAsString() + "' " +
                          std::to_string(k.application->getNumParams()) +
                          "; a kernel function's arrangement returns one tensor per parameter "
                          "of its application")
        .note(maker->getSourceRange(), "kernel function made here");
  std::vector<bool> written = writtenParams(k.application);
  for (unsigned i = 0; i < written.size(); ++i)
    if (written[i]) {
      if (k.output >= 0)
        throw SourceError(oc->getSourceRange(),
                          "'" + k.application->getNameAsString() + "' writes both '" +
                              k.application->getParamDecl(k.output)->getNameAsString() + "' and '" +
                              k.application->getParamDecl(i)->getNameAsString() +
                              "'; a kernel function has exactly one output")
            .note(k.application->getLocation(), "application declared here");
      k.output = static_cast<int>(i);
    } else {
      k.inputs.push_back(static_cast<int>(i));
    }
  if (k.output < 0)
    throw SourceError(oc->getSourceRange(),
                      "'" + k.application->getNameAsString() +
                          "' writes none of its parameters; a kernel function's value is the "
                          "parameter its application writes")
        .note(k.application->getLocation(), "application declared here");
  if (k.args.size() != k.inputs.size()) {
    std::string names;
    for (int i : k.inputs)
      names +=
          (names.empty() ? "'" : ", '") + k.application->getParamDecl(i)->getNameAsString() + "'";
    throw SourceError(oc->getSourceRange(),
                      "this kernel function takes " + std::to_string(k.inputs.size()) +
                          " arguments (" + names + "; '" +
                          k.application->getParamDecl(k.output)->getNameAsString() +
                          "' is its value), not " + std::to_string(k.args.size()))
        .note(k.application->getLocation(), "application declared here");
  }
  return k;
}

std::vector<KernelCall> findKernelCalls(const clang::FunctionDecl *application) {
  const clang::FunctionDecl *def = definitionOf(application);
  std::vector<KernelCall> calls;
  if (!def)
    return calls;
  std::set<const clang::FunctionDecl *> visited{def};
  if (const clang::CallExpr *c = callInHelper(def->getBody(), visited, false))
    throw SourceError(c->getSourceRange(),
                      "a kernel function is called in a function that the application calls; "
                      "call it in the application itself, where the tensor its value is stored "
                      "to decides how its inputs are arranged");
  collectCalls(def->getBody(), calls);
  return calls;
}

std::optional<KernelCall> firstKernelCallIn(const clang::Expr *e) {
  std::vector<KernelCall> calls;
  collectCalls(e, calls);
  if (calls.empty())
    return std::nullopt;
  return calls.front();
}

int storedToParam(const clang::FunctionDecl *application, const clang::CallExpr *call) {
  const clang::FunctionDecl *def = definitionOf(application);
  std::set<const clang::ValueDecl *> vars;
  std::vector<std::pair<const clang::ValueDecl *, const clang::Stmt *>> stores;
  // Each pass follows the value one assignment further; the set of variables only grows.
  for (size_t before = static_cast<size_t>(-1); before != vars.size();) {
    before = vars.size();
    stores.clear();
    flow(def ? def->getBody() : nullptr, call, vars, stores);
  }
  int param = -1;
  const clang::Stmt *first = nullptr;
  for (const auto &[decl, where] : stores) {
    int index = -1;
    for (unsigned i = 0; i < def->getNumParams(); ++i)
      if (def->getParamDecl(i) == decl)
        index = static_cast<int>(i);
    if (index < 0 || index == param)
      continue;
    if (param >= 0)
      throw SourceError(call->getSourceRange(),
                        "the value of this kernel function call is stored to both '" +
                            def->getParamDecl(param)->getNameAsString() + "' and '" +
                            decl->getNameAsString() +
                            "'; ntc arranges its inputs for the program grid of the one tensor "
                            "it is stored to")
          .note(first->getSourceRange(), "stored here")
          .note(where->getSourceRange(), "and here");
    param = index;
    first = where;
  }
  if (param < 0)
    throw SourceError(call->getSourceRange(),
                      "the value of this kernel function call is never stored to a parameter; "
                      "ntc arranges the callee's inputs for the program grid of the tensor its "
                      "value is stored to");
  return param;
}

std::vector<const clang::ParmVarDecl *> namedParams(const clang::FunctionDecl *application,
                                                    const clang::Expr *e) {
  std::set<const clang::ParmVarDecl *> params;
  for (const clang::FunctionDecl *fn : {application, definitionOf(application)})
    if (fn)
      for (unsigned i = 0; i < fn->getNumParams(); ++i)
        params.insert(fn->getParamDecl(i));
  std::vector<const clang::ParmVarDecl *> out;
  collectParams(e, params, out);
  return out;
}

} // namespace ntc
