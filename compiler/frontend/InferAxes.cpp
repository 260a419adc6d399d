//===- InferAxes.cpp - axis names derived from the application ------------===//
#include "frontend/InferAxes.h"

#include "frontend/DslNames.h"
#include "frontend/KernelCalls.h"
#include "frontend/WrittenParams.h"
#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ntc {

using clang::dyn_cast;
using clang::isa;

bool isInferredAxisPlaceholder(const std::string &axis) { return !axis.empty() && axis[0] == '?'; }

std::string inferredAxisPlaceholder(int n) { return "?" + std::to_string(n); }

namespace {

/// A dimension of size 1 that broadcasts against anything (made by expand_dims).
constexpr int kOne = -1;

/// The dimensions of a tile value: one axis id per dimension, or kOne.
using Dims = std::vector<int>;

/// Dimension `dim` of arranged tensor `param` (level 0, in source order).
struct Member {
  int param = -1, dim = -1;
};

/// A relation that cannot hold.
struct Conflict {
  clang::SourceRange where; ///< the expression that implies the relation
  std::string message;
  std::vector<std::pair<clang::SourceRange, std::string>> notes;
  std::vector<std::pair<int, std::string>> tensorNotes; ///< notes at arranged tensors
};

/// Why two classes cannot be one axis: two dimensions of one tensor (`x`, `y`), or two names
/// the user wrote (`nameX` on x's class, `nameY` on y's).
struct Clash {
  Member x, y;
  std::string nameX, nameY;
};

/// Union-find over axis ids, keeping for each class the tensor dimensions and the user's
/// name in it, and for each tensor dimension where the application first related it.
class AxisClasses {
public:
  int fresh() {
    parent_.push_back(static_cast<int>(parent_.size()));
    members_.emplace_back();
    names_.emplace_back();
    return parent_.back();
  }

  int find(int a) {
    while (parent_[a] != a)
      a = parent_[a] = parent_[parent_[a]];
    return a;
  }

  void addMember(int id, Member m) { members_[find(id)].push_back(m); }
  void setUserName(int id, const std::string &name) { names_[find(id)] = name; }
  const std::vector<Member> &members(int id) { return members_[find(id)]; }
  const std::string &userName(int id) { return names_[find(id)]; }

  /// Where dimension `m` was first related to another, if it was.
  std::optional<clang::SourceRange> evidence(Member m) const {
    auto it = evidence_.find({m.param, m.dim});
    if (it == evidence_.end())
      return std::nullopt;
    return it->second;
  }

  /// Makes a and b one axis because of the expression at `where`; returns the clash that
  /// prevents it instead (the classes stay apart then).
  std::optional<Clash> unite(int a, int b, clang::SourceRange where) {
    a = find(a);
    b = find(b);
    if (a == b)
      return std::nullopt;
    for (const Member &x : members_[a])
      for (const Member &y : members_[b])
        if (x.param == y.param)
          return Clash{x, y, {}, {}};
    if (!names_[a].empty() && !names_[b].empty() && names_[a] != names_[b])
      return Clash{anyMember(a), anyMember(b), names_[a], names_[b]};
    for (int c : {a, b})
      for (const Member &m : members_[c])
        evidence_.emplace(std::make_pair(m.param, m.dim), where);
    parent_[b] = a;
    members_[a].insert(members_[a].end(), members_[b].begin(), members_[b].end());
    if (names_[a].empty())
      names_[a] = names_[b];
    return std::nullopt;
  }

private:
  Member anyMember(int root) const {
    return members_[root].empty() ? Member{} : members_[root].front();
  }

  std::vector<int> parent_;
  std::vector<std::vector<Member>> members_;
  std::vector<std::string> names_;
  std::map<std::pair<int, int>, clang::SourceRange> evidence_;
};

/// A variable of the walk: a local tile, or an alias of an arranged parameter.
struct Slot {
  std::optional<Dims> dims; ///< unknown when absent
  int param = -1;           ///< >= 0: the arranged parameter this variable is
};
using SlotPtr = std::shared_ptr<Slot>;

/// The derivation: walks the application once to find the tensors each loop index subscripts,
/// then once more relating dimensions.
class Deriver {
public:
  Deriver(const KernelSpec &spec, const clang::FunctionDecl *application, int writer)
      : spec_(spec), application_(application), writer_(writer) {}

  AxisClasses classes;
  std::map<std::string, int> idOfName; ///< axis name (placeholder or user's) -> id
  std::vector<Dims> visible, hidden;   ///< per arranged parameter: the tile's dimensions
  std::vector<std::vector<int>> outer; ///< per arranged parameter: level-0 ids (-2: unnamed)
  std::map<const clang::ValueDecl *, std::set<int>> subscriptedBy; ///< loop index -> params
  std::set<int> subscripted;
  std::vector<Conflict> conflicts;

  void run(clang::SourceRange arrangement) {
    setUpTensors();
    relateHiddenDims(arrangement);
    collecting_ = true;
    walkApplication();
    collecting_ = false;
    walkApplication();
    relateIteratedDims();
  }

  /// True when the class of `id` holds an axis of the written tensor.
  bool isProgramAxis(int id) {
    if (writer_ < 0 || id < 0)
      return false;
    for (int w : outer[static_cast<size_t>(writer_)])
      if (w >= 0 && classes.find(w) == classes.find(id))
        return true;
    return false;
  }

  /// Relates dims a and b (when both are axes) because of `where`.
  void relate(int a, int b, clang::SourceRange where) {
    if (collecting_ || a < 0 || b < 0 || !conflicts.empty())
      return;
    const std::optional<Clash> clash = classes.unite(a, b, where);
    if (!clash)
      return;
    Conflict c;
    c.where = where;
    Member x = clash->x, y = clash->y;
    if (x.param == y.param && y.dim < x.dim)
      std::swap(x, y);
    if (!clash->nameX.empty()) {
      c.message = "this makes the axes '" + clash->nameX + "' and '" + clash->nameY +
                  "' one axis; give the dimensions one name, or let both be inferred";
      for (const auto &[m, name] : {std::pair(x, clash->nameX), std::pair(y, clash->nameY)})
        if (m.param >= 0)
          c.tensorNotes.emplace_back(m.param,
                                     tensorName(m.param) + " names an axis '" + name + "' here");
    } else {
      c.message = "this makes dimensions " + std::to_string(x.dim) + " and " +
                  std::to_string(y.dim) + " of " + tensorName(x.param) +
                  " one axis; a tensor's dimensions are different axes (name them with "
                  "axes(...) where the inferred relation is not meant)";
      for (const Member &m : {x, y})
        if (auto e = classes.evidence(m))
          c.notes.emplace_back(*e, "dimension " + std::to_string(m.dim) + " of " +
                                       tensorName(m.param) + " was related here");
    }
    conflicts.push_back(std::move(c));
  }

  std::string tensorName(int param) const {
    return "'" + spec_.arranged[static_cast<size_t>(param)].name + "'";
  }

private:
  const KernelSpec &spec_;
  const clang::FunctionDecl *application_;
  int writer_; ///< the written tensor whose axes are the program axes (-1: none)
  bool collecting_ = false;
  int depth_ = 0;
  std::map<const clang::ValueDecl *, SlotPtr> env_;
  std::vector<std::optional<Dims>> returns_;

  // ---- the tensors' dimensions ----------------------------------------------------------

  int idFor(const std::string &axis) {
    auto it = idOfName.find(axis);
    if (it != idOfName.end())
      return it->second;
    const int id = classes.fresh();
    if (!isInferredAxisPlaceholder(axis))
      classes.setUserName(id, axis);
    idOfName[axis] = id;
    return id;
  }

  void setUpTensors() {
    const size_t n = spec_.arranged.size();
    visible.assign(n, {});
    hidden.assign(n, {});
    outer.assign(n, {});
    for (size_t i = 0; i < n; ++i) {
      const Layout &l = spec_.arranged[i].layout;
      const auto &level0 = l.levels()[0].dims;
      for (size_t d = 0; d < level0.size(); ++d) {
        if (level0[d].axis.empty()) {
          outer[i].push_back(-2);
          continue;
        }
        const int id = idFor(level0[d].axis);
        classes.addMember(id, {static_cast<int>(i), static_cast<int>(d)});
        outer[i].push_back(id);
      }
      if (l.levels().size() < 2)
        continue; // a scalar, or a tensor the application sees element by element
      const auto &tile = l.levels().back().dims;
      const bool allOne =
          std::all_of(tile.begin(), tile.end(), [](const Dim &d) { return d.extent == Expr(1); });
      for (const Dim &d : tile) {
        const int id = d.axis.empty() ? classes.fresh() : idFor(d.axis);
        (d.extent == Expr(1) && !allOne ? hidden[i] : visible[i]).push_back(id);
      }
    }
  }

  /// Dimensions tiled by 1 (a batch) are not in the tiles the application sees: they line up,
  /// right-aligned, with those of the written tensor.
  void relateHiddenDims(clang::SourceRange arrangement) {
    if (writer_ < 0)
      return;
    const Dims &w = hidden[static_cast<size_t>(writer_)];
    for (size_t i = 0; i < hidden.size(); ++i) {
      const Dims &h = hidden[i];
      for (size_t k = 0; k < std::min(h.size(), w.size()); ++k)
        relate(h[h.size() - 1 - k], w[w.size() - 1 - k], arrangement);
    }
  }

  /// Tensors walked with the same loop index iterate the same axes, in order.
  void relateIteratedDims() {
    for (const auto &[index, params] : subscriptedBy) {
      std::optional<Dims> first;
      for (int p : params) {
        Dims iterated;
        for (int id : outer[static_cast<size_t>(p)])
          if (id >= 0 && !isProgramAxis(id))
            iterated.push_back(id);
        if (!first) {
          first = iterated;
          continue;
        }
        if (first->size() == iterated.size())
          for (size_t k = 0; k < iterated.size(); ++k)
            relate((*first)[k], iterated[k], index->getSourceRange());
      }
    }
  }

  // ---- statements -----------------------------------------------------------------------

  void walkApplication() {
    env_.clear();
    for (unsigned i = 0; i < application_->getNumParams() && i < visible.size(); ++i) {
      auto slot = std::make_shared<Slot>();
      slot->param = static_cast<int>(i);
      env_[application_->getParamDecl(i)] = slot;
    }
    const clang::FunctionDecl *def = nullptr;
    if (application_->getBody(def))
      stmt(def->getBody());
  }

  void stmt(const clang::Stmt *s) {
    if (!s)
      return;
    if (const auto *e = dyn_cast<clang::Expr>(s)) {
      (void)expr(e);
      return;
    }
    if (const auto *ds = dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl *d : ds->decls())
        if (const auto *var = dyn_cast<clang::VarDecl>(d)) {
          auto slot = std::make_shared<Slot>();
          if (var->getType()->isReferenceType() && var->hasInit())
            if (SlotPtr aliased = slotOf(var->getInit()))
              slot = aliased;
          if (var->hasInit() && slot->param < 0)
            slot->dims = expr(var->getInit());
          env_[var] = slot;
        }
      return;
    }
    if (const auto *r = dyn_cast<clang::ReturnStmt>(s)) {
      std::optional<Dims> value = r->getRetValue() ? expr(r->getRetValue()) : std::nullopt;
      if (!returns_.empty())
        returns_.back() = value;
      return;
    }
    for (const clang::Stmt *child : s->children())
      stmt(child);
  }

  // ---- expressions ----------------------------------------------------------------------

  static const clang::Expr *strip(const clang::Expr *e) {
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (const auto *x = dyn_cast<clang::ExprWithCleanups>(e))
        e = x->getSubExpr();
      else if (const auto *x = dyn_cast<clang::MaterializeTemporaryExpr>(e))
        e = x->getSubExpr();
      else if (const auto *x = dyn_cast<clang::CXXBindTemporaryExpr>(e))
        e = x->getSubExpr();
      else if (const auto *x = dyn_cast<clang::CXXFunctionalCastExpr>(e))
        e = x->getSubExpr();
      else if (const auto *x = dyn_cast<clang::CXXConstructExpr>(e);
               x && x->getNumArgs() == 1 && !isa<clang::CXXTemporaryObjectExpr>(x))
        e = x->getArg(0);
      else
        return e;
    }
  }

  /// The variable slot an expression names (`x`, `(x)`), if any.
  SlotPtr slotOf(const clang::Expr *e) {
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(strip(e))) {
      auto it = env_.find(ref->getDecl());
      if (it != env_.end())
        return it->second;
    }
    return nullptr;
  }

  /// The dimensions a slot holds: a parameter's tile, or a local's value.
  std::optional<Dims> dimsOf(const Slot &s) const {
    if (s.param >= 0)
      return visible[static_cast<size_t>(s.param)];
    return s.dims;
  }

  /// NumPy broadcasting of two values: trailing dimensions are one axis.
  std::optional<Dims> broadcast(const std::optional<Dims> &a, const std::optional<Dims> &b,
                                clang::SourceRange where) {
    if (!a || !b)
      return std::nullopt;
    const size_t n = std::max(a->size(), b->size());
    Dims out(n, kOne);
    for (size_t i = 0; i < n; ++i) {
      const int x = i < a->size() ? (*a)[a->size() - 1 - i] : kOne;
      const int y = i < b->size() ? (*b)[b->size() - 1 - i] : kOne;
      relate(x, y, where);
      out[n - 1 - i] = x != kOne ? x : y;
    }
    return out;
  }

  /// Stores `value` into `target` (`x = v`, `x += v`, `x[k] = v`).
  void assign(const clang::Expr *target, const std::optional<Dims> &value,
              clang::SourceRange where) {
    const clang::Expr *t = strip(target);
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(t);
        oc && oc->getOperator() == clang::OO_Subscript && oc->getNumArgs() == 2) {
      const std::optional<Dims> element = expr(t);
      broadcast(element, value, where);
      return;
    }
    SlotPtr slot = slotOf(t);
    if (!slot)
      return;
    const std::optional<Dims> old = dimsOf(*slot);
    const std::optional<Dims> merged = broadcast(old, value, where);
    if (slot->param < 0)
      slot->dims = old ? merged : value;
  }

  /// Dimension `d` (negative from the end) of `dims`.
  static std::optional<int> at(const std::optional<Dims> &dims, const clang::Expr *index,
                               const clang::ASTContext &ctx) {
    clang::Expr::EvalResult r;
    if (!dims || !index->EvaluateAsInt(r, ctx))
      return std::nullopt;
    int64_t d = r.Val.getInt().getExtValue();
    const auto n = static_cast<int64_t>(dims->size());
    if (d < 0)
      d += n;
    if (d < 0 || d >= n)
      return std::nullopt;
    return (*dims)[static_cast<size_t>(d)];
  }

  const clang::ASTContext &ctx() const { return application_->getASTContext(); }

  /// True for nt::Symbol (an extent, a stride: a 0-d value in the application).
  static bool isSymbol(clang::QualType t) {
    const auto *record = t.getNonReferenceType()->getAsCXXRecordDecl();
    return record && record->getName() == "Symbol" && declaredInDsl(record);
  }

  /// The dimensions of a tile value of the application; nullopt when the walk cannot tell.
  std::optional<Dims> expr(const clang::Expr *e) {
    e = strip(e);
    const clang::SourceRange where = e->getSourceRange();
    if (isa<clang::IntegerLiteral>(e) || isa<clang::FloatingLiteral>(e) ||
        isa<clang::CXXBoolLiteralExpr>(e))
      return Dims{};
    if (e->getType()->isArithmeticType() || isSymbol(e->getType())) {
      for (const clang::Stmt *child : e->children())
        if (const auto *c = clang::dyn_cast_or_null<clang::Expr>(child))
          (void)expr(c);
      return Dims{};
    }
    if (const auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
      auto it = env_.find(ref->getDecl());
      return it == env_.end() ? std::nullopt : dimsOf(*it->second);
    }
    if (const auto *b = dyn_cast<clang::BinaryOperator>(e)) {
      const std::optional<Dims> l = expr(b->getLHS()), r = expr(b->getRHS());
      if (b->isAssignmentOp()) {
        assign(b->getLHS(), r, where);
        return l;
      }
      return broadcast(l, r, where);
    }
    if (const auto *oc = dyn_cast<clang::CXXOperatorCallExpr>(e))
      return operatorCall(oc);
    if (const auto *mc = dyn_cast<clang::CXXMemberCallExpr>(e))
      return memberCall(mc);
    if (const auto *call = dyn_cast<clang::CallExpr>(e))
      return this->call(call);
    if (const auto *c = dyn_cast<clang::ConditionalOperator>(e)) {
      (void)expr(c->getCond());
      return broadcast(expr(c->getTrueExpr()), expr(c->getFalseExpr()), where);
    }
    if (const auto *u = dyn_cast<clang::UnaryOperator>(e))
      return expr(u->getSubExpr());
    for (const clang::Stmt *child : e->children())
      stmt(child);
    return std::nullopt;
  }

  std::optional<Dims> operatorCall(const clang::CXXOperatorCallExpr *oc) {
    const clang::SourceRange where = oc->getSourceRange();
    const clang::OverloadedOperatorKind op = oc->getOperator();
    if (op == clang::OO_Subscript && oc->getNumArgs() == 2) {
      SlotPtr base = slotOf(oc->getArg(0));
      (void)expr(oc->getArg(1));
      if (!base || base->param < 0)
        return expr(oc->getArg(0));
      subscripted.insert(base->param);
      if (const auto *k = dyn_cast<clang::DeclRefExpr>(strip(oc->getArg(1))))
        subscriptedBy[k->getDecl()].insert(base->param);
      return visible[static_cast<size_t>(base->param)];
    }
    if (op == clang::OO_Call && isKernelCall(oc)) {
      // A kernel function computes one tile of the tensor its value is stored to
      // (compose-kernels): the value has that tensor's dimensions.
      for (const clang::Expr *a : oc->arguments())
        (void)expr(a);
      try {
        const int target = storedToParam(application_, oc);
        if (static_cast<size_t>(target) < visible.size())
          return visible[static_cast<size_t>(target)];
      } catch (const SourceError &) {
        // compose-kernels reports where the value goes wrong.
      }
      return std::nullopt;
    }
    if (op == clang::OO_Call) // a lambda
      return call(oc);
    std::vector<std::optional<Dims>> args;
    for (const clang::Expr *a : oc->arguments())
      args.push_back(expr(a));
    if (isAssignmentOperator(op)) {
      if (args.size() == 2)
        assign(oc->getArg(0), args[1], where);
      return args.empty() ? std::nullopt : args[0];
    }
    if (args.size() == 1)
      return args[0];
    if (args.size() == 2)
      return broadcast(args[0], args[1], where);
    return std::nullopt;
  }

  /// True when `oc` calls a kernel function (whatever its problems, which compose-kernels
  /// reports).
  static bool isKernelCall(const clang::CXXOperatorCallExpr *oc) {
    try {
      return asKernelCall(oc).has_value();
    } catch (const SourceError &) {
      return true;
    }
  }

  std::optional<Dims> memberCall(const clang::CXXMemberCallExpr *mc) {
    const clang::CXXMethodDecl *m = mc->getMethodDecl();
    const clang::Expr *object = mc->getImplicitObjectArgument();
    if (!m || !object)
      return std::nullopt;
    const std::string name = m->getNameAsString();
    const std::optional<Dims> self = expr(object);
    for (const clang::Expr *a : mc->arguments())
      (void)expr(a);
    if (name == "to")
      return self;
    if (name == "offsets") {
      if (mc->getNumArgs() == 0)
        return self;
      // Dimension d of the source: of a parameter's tile, visible or not.
      SlotPtr base = slotOf(object);
      std::optional<Dims> all = self;
      if (const auto *sub = dyn_cast<clang::CXXOperatorCallExpr>(strip(object));
          sub && sub->getOperator() == clang::OO_Subscript)
        base = slotOf(sub->getArg(0));
      if (base && base->param >= 0) {
        const auto &tile = spec_.arranged[static_cast<size_t>(base->param)].layout;
        if (tile.levels().size() >= 2 &&
            tile.levels().back().dims.size() == outer[static_cast<size_t>(base->param)].size())
          all = outer[static_cast<size_t>(base->param)];
      }
      if (auto d = at(all, mc->getArg(0), ctx()))
        return *d >= 0 ? std::optional<Dims>(Dims{*d}) : std::nullopt;
      return std::nullopt;
    }
    if (isa<clang::CXXConversionDecl>(m))
      return Dims{};
    return std::nullopt;
  }

  /// The dimensions a `Shape` argument names: `t.shape()`, or `{t.shape(i), ...}` with a
  /// new axis for each entry that is no tile's extent.
  std::optional<Dims> shapeArg(const clang::Expr *e) {
    e = strip(e);
    if (const auto *list = dyn_cast<clang::CXXStdInitializerListExpr>(e))
      e = strip(list->getSubExpr());
    if (const auto *mc = dyn_cast<clang::CXXMemberCallExpr>(e);
        mc && mc->getMethodDecl() && mc->getMethodDecl()->getNameAsString() == "shape") {
      const std::optional<Dims> of = extentOwner(mc->getImplicitObjectArgument());
      if (mc->getNumArgs() == 0)
        return of;
      return std::nullopt;
    }
    const auto *list = dyn_cast<clang::InitListExpr>(e);
    if (!list)
      return std::nullopt;
    Dims out;
    for (const clang::Expr *item : list->inits()) {
      std::optional<int> d;
      if (const auto *mc = dyn_cast<clang::CXXMemberCallExpr>(strip(item));
          mc && mc->getMethodDecl() && mc->getMethodDecl()->getNameAsString() == "shape" &&
          mc->getNumArgs() == 1)
        d = at(extentOwner(mc->getImplicitObjectArgument()), mc->getArg(0), ctx());
      out.push_back(d && *d >= 0 ? *d : classes.fresh());
    }
    return out;
  }

  /// The tile whose extents `t.shape(...)` reads: a parameter subscripted anywhere has an
  /// outer level there (its extents are no tile's), so it names no axis.
  std::optional<Dims> extentOwner(const clang::Expr *object) {
    SlotPtr base = slotOf(object);
    if (base && base->param >= 0 && subscripted.count(base->param))
      return std::nullopt;
    return expr(object);
  }

  std::optional<Dims> call(const clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return std::nullopt;
    if (declaredInDsl(callee))
      return language(call, callee->getNameAsString());
    return helper(call, callee);
  }

  /// An ntl:: function.
  std::optional<Dims> language(const clang::CallExpr *call, const std::string &name) {
    const clang::SourceRange where = call->getSourceRange();
    const unsigned n = call->getNumArgs();
    auto arg = [&](unsigned i) { return call->getArg(i); };
    if (name == "zeros" || name == "full")
      return n >= 1 ? shapeArg(arg(0)) : std::nullopt;
    if (name == "arange")
      return Dims{classes.fresh()};
    if (name == "broadcast_to") {
      if (n != 2)
        return std::nullopt;
      const std::optional<Dims> shape = shapeArg(arg(1));
      broadcast(expr(arg(0)), shape, where);
      return shape;
    }
    std::vector<std::optional<Dims>> args;
    for (unsigned i = 0; i < n; ++i)
      args.push_back(call->getArg(i)->getType()->isPointerType() ? std::nullopt : expr(arg(i)));
    if (name == "dot" && n >= 2) {
      const std::optional<Dims> &a = args[0], &b = args[1];
      if (!a || !b || a->size() != 2 || b->size() != 2)
        return std::nullopt;
      relate((*a)[1], (*b)[0], where);
      return Dims{(*a)[0], (*b)[1]};
    }
    if (name == "trans") {
      if (n != 1 || !args[0] || args[0]->size() != 2)
        return std::nullopt;
      return Dims{(*args[0])[1], (*args[0])[0]};
    }
    if (name == "sum" || name == "max" || name == "min" || name == "argmax") {
      if (n == 1)
        return Dims{};
      if (!args[0] || n != 2)
        return std::nullopt;
      Dims out = *args[0];
      clang::Expr::EvalResult r;
      if (!arg(1)->EvaluateAsInt(r, ctx()))
        return std::nullopt;
      int64_t axis = r.Val.getInt().getExtValue();
      if (axis < 0)
        axis += static_cast<int64_t>(out.size());
      if (axis < 0 || axis >= static_cast<int64_t>(out.size()))
        return std::nullopt;
      out.erase(out.begin() + axis);
      return out;
    }
    if (name == "expand_dims") {
      clang::Expr::EvalResult r;
      if (n != 2 || !args[0] || !arg(1)->EvaluateAsInt(r, ctx()))
        return std::nullopt;
      Dims out = *args[0];
      int64_t axis = r.Val.getInt().getExtValue();
      if (axis < 0)
        axis += static_cast<int64_t>(out.size()) + 1;
      if (axis < 0 || axis > static_cast<int64_t>(out.size()))
        return std::nullopt;
      out.insert(out.begin() + axis, kOne);
      return out;
    }
    if (name == "cast")
      return n >= 1 ? args[0] : std::nullopt;
    if (name == "rand")
      return n == 2 ? args[1] : std::nullopt;
    // The elementwise functions of the operation table, where and clamp: broadcasting.
    std::optional<Dims> out = n >= 1 ? args[0] : std::nullopt;
    for (unsigned i = 1; i < n; ++i)
      out = broadcast(out, args[i], where);
    return out;
  }

  /// A function of the user's (a helper, another kernel's application, a lambda): walked with
  /// its parameters bound to the arguments (references alias them).
  std::optional<Dims> helper(const clang::CallExpr *call, const clang::FunctionDecl *callee) {
    const clang::FunctionDecl *def = nullptr;
    if (!callee->getBody(def) || depth_ > 32)
      return std::nullopt;
    unsigned offset = 0; // an operator() call passes the object as argument 0
    if (const auto *m = dyn_cast<clang::CXXMethodDecl>(callee);
        m && m->isInstance() && isa<clang::CXXOperatorCallExpr>(call))
      offset = 1;
    std::vector<std::pair<const clang::ValueDecl *, SlotPtr>> bound;
    for (unsigned i = 0; i < def->getNumParams() && i + offset < call->getNumArgs(); ++i) {
      const clang::Expr *a = call->getArg(i + offset);
      SlotPtr slot;
      if (def->getParamDecl(i)->getType()->isReferenceType())
        slot = slotOf(a);
      if (!slot) {
        SlotPtr named = slotOf(a);
        slot = std::make_shared<Slot>();
        if (named && named->param >= 0)
          slot->param = named->param; // a tile passed by value is still that tensor's tile
        else
          slot->dims = expr(a);
      }
      bound.emplace_back(def->getParamDecl(i), slot);
    }
    std::map<const clang::ValueDecl *, SlotPtr> saved;
    for (const auto &[decl, slot] : bound) {
      auto it = env_.find(decl);
      if (it != env_.end())
        saved[decl] = it->second;
      env_[decl] = slot;
    }
    ++depth_;
    returns_.emplace_back();
    stmt(def->getBody());
    std::optional<Dims> result = returns_.back();
    returns_.pop_back();
    --depth_;
    for (const auto &[decl, slot] : bound) {
      env_.erase(decl);
      auto it = saved.find(decl);
      if (it != saved.end())
        env_[decl] = it->second;
    }
    return result;
  }
};

/// The names of the classes: the user's where a class has one, else p0, p1, ... for the axes
/// of the written tensor and r0, r1, ... for the others, in order of first appearance.
std::map<int, std::string> nameClasses(Deriver &d, int writer) {
  std::set<std::string> taken;
  for (const auto &[name, id] : d.idOfName)
    if (!isInferredAxisPlaceholder(name))
      taken.insert(name);
  std::map<int, std::string> names;
  int nextProgram = 0, nextOther = 0;
  auto fresh = [&](char prefix, int &counter) {
    std::string n;
    do
      n = prefix + std::to_string(counter++);
    while (taken.count(n));
    taken.insert(n);
    return n;
  };
  auto name = [&](int id) {
    const int root = d.classes.find(id);
    if (names.count(root))
      return;
    const std::string &user = d.classes.userName(root);
    names[root] = !user.empty()         ? user
                  : d.isProgramAxis(id) ? fresh('p', nextProgram)
                                        : fresh('r', nextOther);
  };
  if (writer >= 0)
    for (int id : d.outer[static_cast<size_t>(writer)])
      if (id >= 0)
        name(id);
  for (const std::vector<int> &ids : d.outer)
    for (int id : ids)
      if (id >= 0)
        name(id);
  return names;
}

/// `axes("m", "...")`: what a tensor would be named with, "..." where the derivation failed.
std::string suggestion(Deriver &d, const std::map<int, std::string> &names, size_t param,
                       size_t unknownDim) {
  std::string s = "axes(";
  for (size_t k = 0; k < d.outer[param].size(); ++k) {
    const int id = d.outer[param][k];
    const std::string n = k == unknownDim || id < 0 ? "..." : names.at(d.classes.find(id));
    s += std::string(k ? ", " : "") + "\"" + n + "\"";
  }
  return s + ")";
}

/// `'x'` for arranged parameter i.
std::string quotedName(const KernelSpec &spec, size_t i) {
  return "'" + spec.arranged[i].name + "'";
}

/// The first written tensor with axis names (user's or placeholders), -1 when none.
int findWriter(const KernelSpec &spec, const std::vector<bool> &written) {
  for (size_t i = 0; i < spec.arranged.size() && i < written.size(); ++i) {
    const auto &dims = spec.arranged[i].layout.levels()[0].dims;
    if (written[i] && !dims.empty() &&
        std::all_of(dims.begin(), dims.end(), [](const Dim &x) { return !x.axis.empty(); }))
      return static_cast<int>(i);
  }
  return -1;
}

} // namespace

void inferAxes(KernelSpec &spec, const clang::FunctionDecl *kernelDecl,
               const clang::FunctionDecl *application) {
  std::vector<bool> inferred(spec.arranged.size(), false);
  bool any = false;
  for (size_t i = 0; i < spec.arranged.size(); ++i)
    for (const Dim &dim : spec.arranged[i].layout.levels()[0].dims)
      if (isInferredAxisPlaceholder(dim.axis))
        inferred[i] = any = true;
  if (!any)
    return;

  const std::vector<clang::SourceRange> ranges =
      arrangedTensorRanges(kernelDecl, application, spec.arranged.size());
  auto tensorRange = [&](size_t i) {
    return i < ranges.size() ? ranges[i] : kernelDecl->getSourceRange();
  };
  auto parameterRange = [&](size_t i) {
    return i < application->getNumParams() ? application->getParamDecl(i)->getSourceRange()
                                           : application->getSourceRange();
  };
  std::vector<SourceError> errors;
  const std::string what = "cannot infer the axes of kernel '" + spec.name + "': ";

  const std::vector<bool> written = writtenParams(application);
  const int writer = findWriter(spec, written);
  if (writer < 0) {
    // The program axes are the written tensor's: without names there, nothing can be derived.
    const size_t first =
        static_cast<size_t>(std::find(inferred.begin(), inferred.end(), true) - inferred.begin());
    SourceError error(tensorRange(first),
                      "cannot infer the axes of kernel '" + spec.name +
                          "': the program axes are "
                          "the axes of the tensors the application writes, and none of them has "
                          "axes; arrange the output with axes(nt::inferred) or name its axes");
    for (size_t i = 0; i < spec.arranged.size() && i < written.size(); ++i)
      if (written[i])
        error.note(tensorRange(i), quotedName(spec, i) + " is written without axes");
    throw error;
  }
  Deriver d(spec, application, writer);
  d.run(writer >= 0 ? tensorRange(static_cast<size_t>(writer)) : kernelDecl->getSourceRange());
  for (const Conflict &c : d.conflicts) {
    SourceError error(c.where, what + c.message);
    for (const auto &[range, text] : c.notes)
      error.note(range, text);
    for (const auto &[param, text] : c.tensorNotes)
      error.note(tensorRange(static_cast<size_t>(param)), text);
    errors.push_back(error);
  }

  const std::map<int, std::string> names = nameClasses(d, writer);
  for (size_t i = 0; errors.empty() && i < spec.arranged.size(); ++i) {
    if (!inferred[i] || (writer >= 0 && static_cast<size_t>(writer) == i))
      continue;
    const std::string tensor = d.tensorName(static_cast<int>(i));
    size_t iterated = 0;
    for (size_t k = 0; k < d.outer[i].size(); ++k) {
      const int id = d.outer[i][k];
      if (d.isProgramAxis(id))
        continue;
      ++iterated;
      const bool tiledByOne =
          std::find(d.hidden[i].begin(), d.hidden[i].end(), id) != d.hidden[i].end();
      std::string why;
      if (tiledByOne)
        why = "it is tiled by 1, which leaves it out of the tile the application sees, "
              "and it lines up with no dimension of the written tensor";
      else if (!d.subscripted.count(static_cast<int>(i)))
        why = "the application relates it to no dimension of the written tensor and does not "
              "walk " +
              tensor + " with a loop index";
      if (why.empty())
        continue;
      errors.push_back(
          SourceError(tensorRange(i), what + "dimension " + std::to_string(k) + " of " + tensor +
                                          " cannot be derived: " + why)
              .note(parameterRange(i), "name the axes instead, e.g. " + spec.arranged[i].name +
                                           "." + suggestion(d, names, i, k)));
    }
    // (A tensor with levels of its own between level 0 and the tile has them to walk.)
    if (iterated == 0 && d.subscripted.count(static_cast<int>(i)) &&
        spec.arranged[i].layout.levels().size() == 2)
      errors.push_back(
          SourceError(tensorRange(i), what + "the application subscripts " + tensor +
                                          ", but every dimension of it is an axis of the "
                                          "written tensor, so no level is left to subscript")
              .note(parameterRange(i), "the axes derived: " + spec.arranged[i].name + "." +
                                           suggestion(d, names, i, d.outer[i].size())));
  }
  if (!errors.empty()) {
    clang::DiagnosticsEngine &diags = application->getASTContext().getDiagnostics();
    for (size_t i = 0; i + 1 < errors.size(); ++i)
      report(diags, errors[i]);
    throw errors.back();
  }

  std::map<std::string, std::string> renamed;
  for (const auto &[axis, id] : d.idOfName)
    if (isInferredAxisPlaceholder(axis))
      renamed[axis] = names.count(d.classes.find(id)) ? names.at(d.classes.find(id)) : axis;
  for (size_t i = 0; i < spec.arranged.size(); ++i) {
    ArrangedParam &a = spec.arranged[i];
    a.layout = a.layout.renameAxes(renamed);
    if (inferred[i])
      for (const Dim &dim : a.layout.levels()[0].dims)
        a.inferredAxes.push_back(dim.axis);
  }
}

} // namespace ntc
