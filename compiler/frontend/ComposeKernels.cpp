//===- ComposeKernels.cpp - arrange a kernel function's inputs for its caller ===//
#include "frontend/ComposeKernels.h"

#include "frontend/ArrangementEvaluator.h"
#include "frontend/InferAxes.h"
#include "frontend/KernelCalls.h"
#include "passes/NamedAxes.h"
#include "support/Diagnostics.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ntc {

namespace {

/// True for a tensor that nt::arrange received untiled (one level: the source itself).
bool isUntiled(const Layout &l) { return l.levels().size() == 1; }

/// The source tensor of parameter `param` of `spec`, as the arrangement receives it.
Layout sourceOf(const KernelSpec &spec, int param, const clang::Stmt *where) {
  if (spec.arranged[param].source < 0)
    throw SourceError(where->getSourceRange(),
                      "'" + spec.arranged[param].name + "' is not a parameter of the kernel");
  const ParamSpec &ps = spec.params[static_cast<size_t>(spec.arranged[param].source)];
  if (ps.jaggedDim)
    throw SourceError(where->getSourceRange(),
                      "'" + ps.name +
                          "' is jagged; a kernel function cannot be composed over a "
                          "jagged tensor");
  return Layout::source(ps.name, ps.shape());
}

int paramIndex(const clang::FunctionDecl *application, const clang::ParmVarDecl *p) {
  const clang::FunctionDecl *def = nullptr;
  application->getBody(def);
  for (const clang::FunctionDecl *fn : {application, def})
    if (fn)
      for (unsigned i = 0; i < fn->getNumParams(); ++i)
        if (fn->getParamDecl(i) == p)
          return static_cast<int>(i);
  return -1;
}

/// Sample values of the symbols of `spec`'s sizes and meta-parameters, for comparing two
/// arrangements element by element (`n` picks one of a few samples).
std::map<std::string, int64_t> sample(const KernelSpec &spec, const std::vector<MetaParam> &metas,
                                      int n) {
  static const int64_t sizes[] = {37, 70, 129, 5, 200, 64, 1, 96};
  std::map<std::string, int64_t> values;
  int i = n;
  for (const ParamSpec &p : spec.params) {
    for (int d = 0; d < p.ndim; ++d) {
      int64_t v = sizes[(i++) % 8];
      if (p.upperBounds[d])
        v = std::min(v, *p.upperBounds[d]);
      values[p.sizeSymbol(d)] = v;
    }
    if (p.isIntegerConstexpr())
      values[p.name] = static_cast<int64_t>(p.constexprValues.front());
  }
  for (const MetaParam &m : metas)
    values[m.name] = n % 2 ? m.hi : m.lo;
  return values;
}

/// True when `a` and `b` arrange one tensor alike: the same levels and extents, and (where
/// the sample values let both be evaluated) the same element at every position.
bool sameArrangement(const Layout &a, const Layout &b, const KernelSpec &spec,
                     const std::vector<MetaParam> &metas) {
  if (a.levels().size() != b.levels().size())
    return false;
  for (size_t l = 0; l < a.levels().size(); ++l)
    if (a.levels()[l].shape() != b.levels()[l].shape())
      return false;
  for (int n = 0; n < 3; ++n) {
    std::map<std::string, int64_t> values = sample(spec, metas, n);
    std::vector<int64_t> shapeA, shapeB, elemsA, elemsB;
    try {
      elemsA = a.eval(values, shapeA);
      elemsB = b.eval(values, shapeB);
    } catch (const LayoutError &) {
      continue; // a symbol without a sample value: the extents above decide
    }
    if (shapeA != shapeB || elemsA != elemsB)
      return false;
  }
  return true;
}

/// compose-kernels for one kernel.
class Composer {
public:
  Composer(KernelSpec &spec, ArrangementEvaluator &evaluator,
           const clang::FunctionDecl *application)
      : spec_(spec), evaluator_(evaluator), application_(application) {
    for (const MetaParam &m : spec.metas)
      callerMetas_.insert(m.name);
    for (size_t i = 0; i < spec.arranged.size(); ++i)
      if (isUntiled(spec.arranged[i].layout))
        untiled_.insert(static_cast<int>(i));
  }

  void compose(const KernelCall &k) {
    if (std::vector<KernelCall> nested = findKernelCalls(k.application); !nested.empty())
      throw SourceError(k.call->getSourceRange(),
                        "'" + k.application->getNameAsString() +
                            "' calls a kernel function itself; a composed kernel function cannot "
                            "compose another one (yet): write the inner composition's tensors "
                            "into the outer application")
          .note(nested.front().call->getSourceRange(), "the inner call");
    int out = storedToParam(application_, k.call);
    const ArrangedParam &target = spec_.arranged[out];
    if (isUntiled(target.layout))
      throw SourceError(k.call->getSourceRange(),
                        "the value of this kernel function call is stored to '" + target.name +
                            "', which nt::arrange receives untiled; tile '" + target.name +
                            "' as the callee tiles its output");
    std::vector<std::vector<int>> untiled(k.inputs.size());
    std::vector<std::optional<Layout>> bound = bindTensors(k, out, untiled);

    // The callee's own block sizes that the caller's tile of `out` fixes.
    std::vector<Layout> first = arrange(k, bound, {});
    std::map<std::string, Expr> values = blockSizesFixedBy(first[k.output], target.layout);
    std::vector<Layout> arranged = values.empty() ? first : arrange(k, bound, values);
    for (const auto &[name, value] : values)
      fixed_[name] = value;
    checkOutput(k, arranged[k.output], target);

    for (size_t j = 0; j < k.inputs.size(); ++j)
      for (size_t m = 0; m < untiled[j].size(); ++m) {
        int param = untiled[j][m];
        Layout layout = arranged[k.inputs[j]];
        if (m > 0) { // another tensor in the same argument: arranged as that parameter too
          bound[k.inputs[j]] = sourceOf(spec_, param, k.args[j]);
          layout = arrange(k, bound, values)[k.inputs[j]];
        }
        auto [previous, inserted] = arrangedBy_.emplace(param, k.args[j]);
        if (!inserted)
          throw SourceError(k.args[j]->getSourceRange(),
                            "'" + spec_.arranged[param].name +
                                "' is an argument of two kernel function calls; ntc arranges "
                                "an untiled tensor for one call (pass the other call its own "
                                "tensor)")
              .note(previous->second->getSourceRange(), "first passed here");
        spec_.arranged[param].layout = layout;
      }
  }

  /// The meta-parameters after composition: the caller's and the callees', less those fixed.
  std::vector<MetaParam> metas() const {
    std::vector<MetaParam> result;
    for (const MetaParam &m : evaluator_.metas())
      if (!fixed_.count(m.name))
        result.push_back(m);
    return result;
  }

private:
  /// The tensor each parameter of the callee's arrangement is evaluated on: the output's is
  /// `out`; an input's is the first untiled tensor its argument names (all of them are listed
  /// in `untiled[j]`), else a tensor the caller tiled itself, else a 0-d stand-in (a scalar).
  std::vector<std::optional<Layout>> bindTensors(const KernelCall &k, int out,
                                                 std::vector<std::vector<int>> &untiled) {
    std::vector<std::optional<Layout>> bound(k.arrangement->getNumParams());
    bound[k.output] = sourceOf(spec_, out, k.call);
    for (size_t j = 0; j < k.inputs.size(); ++j) {
      if (std::optional<KernelCall> inner = firstKernelCallIn(k.args[j]))
        throw SourceError(inner->call->getSourceRange(),
                          "the value of a kernel function cannot be the argument of another: "
                          "the callee would read it as a tensor, whose masked elements read the "
                          "value its kernel declares, but a computed tile has none; compute the "
                          "outer callee's work on the value in this application")
            .note(k.call->getSourceRange(), "the outer call");
      int tiled = -1;
      for (const clang::ParmVarDecl *p : namedParams(application_, k.args[j])) {
        int i = paramIndex(application_, p);
        if (i < 0 || spec_.arranged[i].source < 0 ||
            spec_.params[spec_.arranged[i].source].kind != ParamSpec::Kind::Tensor)
          continue;
        if (untiled_.count(i))
          untiled[j].push_back(i);
        else if (tiled < 0)
          tiled = i;
      }
      int representative = !untiled[j].empty() ? untiled[j].front() : tiled;
      bound[k.inputs[j]] =
          representative >= 0
              ? sourceOf(spec_, representative, k.args[j])
              : Layout::source(k.application->getParamDecl(k.inputs[j])->getNameAsString(), {});
    }
    return bound;
  }

  /// The callee's arrangement of its output must be the caller's arrangement of `target`.
  void checkOutput(const KernelCall &k, const Layout &callee, const ArrangedParam &target) {
    if (sameArrangement(callee, target.layout, spec_, evaluator_.metas()))
      return;
    throw SourceError(k.call->getSourceRange(),
                      "'" + k.application->getNameAsString() + "' computes its output '" +
                          k.application->getParamDecl(k.output)->getNameAsString() +
                          "' in tiles of " + shapeString(callee.levels().back().shape()) + " (" +
                          callee.str() + "), but a program of this kernel holds a " +
                          shapeString(target.layout.levels().back().shape()) + " tile of '" +
                          target.name + "' (" + target.layout.str() +
                          "), where the call's value is stored; a kernel function must "
                          "compute exactly the caller's tile: tile '" +
                          target.name + "' as '" + k.arrangement->getNameAsString() +
                          "' tiles its output")
        .note(k.arrangement->getLocation(), "the callee's arrangement");
  }

  /// The callee's arrangement on `bound`, its named axes lowered, checked to return one
  /// tensor per parameter of its application, in order.
  std::vector<Layout> arrange(const KernelCall &k, const std::vector<std::optional<Layout>> &bound,
                              const std::map<std::string, Expr> &values) {
    std::vector<Layout> tensors;
    for (const std::optional<Layout> &b : bound)
      tensors.push_back(*b);
    std::vector<Layout> result;
    try {
      result = evaluator_.evaluateArrangement(k.arrangement, tensors, k.call, values);
    } catch (SourceError &error) {
      // The problem is in the callee's arrangement of the caller's tensors: say which call.
      error.note(k.call->getSourceRange(), "while arranging the tensors of this call with '" +
                                               k.arrangement->getNameAsString() + "'");
      throw;
    }
    unsigned n = k.application->getNumParams();
    bool ordered = result.size() == n;
    for (unsigned i = 0; ordered && i < n; ++i)
      ordered = result[i].sourceName() == tensors[i].sourceName();
    if (!ordered)
      throw SourceError(k.call->getSourceRange(),
                        "'" + k.arrangement->getNameAsString() +
                            "' must return its parameters arranged in the order it takes them "
                            "(one per parameter of '" +
                            k.application->getNameAsString() +
                            "') to be called as a kernel function")
          .note(k.arrangement->getLocation(), "arrangement declared here");
    return lowerNamedAxes(k, result);
  }

  std::vector<Layout> lowerNamedAxes(const KernelCall &k, std::vector<Layout> layouts) {
    bool named = false;
    for (const Layout &l : layouts)
      for (const Dim &d : l.levels()[0].dims) {
        if (isInferredAxisPlaceholder(d.axis))
          throw SourceError(k.call->getSourceRange(),
                            "'" + k.arrangement->getNameAsString() +
                                "' arranges a tensor with axes(nt::inferred); name the axes of "
                                "a kernel function's tensors to call it from another kernel")
              .note(k.arrangement->getLocation(), "arrangement declared here");
        named = named || !d.axis.empty();
      }
    if (!named)
      return layouts;
    KernelSpec callee;
    callee.name = k.application->getNameAsString();
    callee.params = spec_.params;
    callee.metas = evaluator_.metas();
    std::vector<bool> written(layouts.size(), false);
    written[k.output] = true;
    for (size_t i = 0; i < layouts.size(); ++i) {
      int source = -1;
      for (size_t p = 0; p < callee.params.size(); ++p)
        if (callee.params[p].name == layouts[i].sourceName())
          source = static_cast<int>(p);
      if (source < 0) { // an argument that names no tensor: a 0-d stand-in
        ParamSpec stand;
        stand.name = layouts[i].sourceName();
        callee.params.push_back(stand);
        source = static_cast<int>(callee.params.size()) - 1;
      }
      callee.arranged.push_back(
          {k.application->getParamDecl(i)->getNameAsString(), source, layouts[i], {}});
    }
    std::vector<passes::NamedAxesError> errors;
    try {
      errors = passes::lowerNamedAxes(callee, written);
    } catch (const LayoutError &e) {
      throw SourceError(k.call->getSourceRange(),
                        std::string("cannot lower the named axes of the kernel function: ") +
                            e.what());
    }
    if (!errors.empty())
      throw SourceError(k.call->getSourceRange(),
                        "the kernel function's named axes: " + errors.front().message)
          .note(k.arrangement->getLocation(), "arrangement declared here");
    for (size_t i = 0; i < layouts.size(); ++i)
      layouts[i] = callee.arranged[i].layout;
    return layouts;
  }

  /// The callee's own block sizes (not the caller's) that are whole extents of the callee's
  /// output tile where the caller's tile of `target` has another extent: each is set to that
  /// extent.
  std::map<std::string, Expr> blockSizesFixedBy(const Layout &calleeOut, const Layout &target) {
    std::map<std::string, Expr> values;
    const auto &c = calleeOut.levels(), &t = target.levels();
    if (c.size() != t.size() || c.back().dims.size() != t.back().dims.size())
      return values;
    for (size_t d = 0; d < c.back().dims.size(); ++d) {
      const Expr &ce = c.back().dims[d].extent, &te = t.back().dims[d].extent;
      if (ce == te || ce.kind() != ExprKind::Symbol)
        continue;
      const std::string &name = ce.symbolName();
      bool calleeMeta = std::any_of(evaluator_.metas().begin(), evaluator_.metas().end(),
                                    [&](const MetaParam &m) { return m.name == name; });
      if (calleeMeta && !callerMetas_.count(name) && !values.count(name))
        values[name] = te;
    }
    return values;
  }

  KernelSpec &spec_;
  ArrangementEvaluator &evaluator_;
  const clang::FunctionDecl *application_;
  std::set<std::string> callerMetas_;
  /// The parameters nt::arrange received untiled (before any call arranged them).
  std::set<int> untiled_;
  std::map<std::string, Expr> fixed_;
  std::map<int, const clang::Expr *> arrangedBy_;
};

} // namespace

void composeKernels(KernelSpec &spec, ArrangementEvaluator &evaluator,
                    const clang::FunctionDecl *application) {
  std::vector<KernelCall> calls = findKernelCalls(application);
  if (calls.empty())
    return;
  Composer composer(spec, evaluator, application);
  for (const KernelCall &k : calls)
    composer.compose(k);
  spec.metas = composer.metas();
}

} // namespace ntc
