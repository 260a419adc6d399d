//===- fuzz_layout.cpp - the layout algebra against a brute-force model ----===//
//
// Decodes the input into a source tensor (rank 1-3, sizes 0..9, given as constants or as size
// symbols bound only at evaluation) and up to 12 layout operations with small arguments: tile
// (tile shape, strides, dilation, floor mode), expand, squeeze, unsqueeze, permute, flatten,
// ravel, pad, slice, dtype() (go one level in) and withInner (come back out). It applies them
// to an ntc::Layout and to the model of layout_model.h, which works on explicit index tuples
// (NineToothed's semantics, docs/decisions.md for ntc's choices), and requires that
//   * both reject the same sequences (LayoutError, or ArithmeticOverflow for extents beyond
//     int64; with size symbols ntc may reject only at eval);
//   * after each operation both have the same levels and ranks;
//   * Layout::eval gives the model's index array: same shape, same source linear index or -1
//     (masked) at every position; with constant sizes no run-time check is left over.
// Any other exception, crash or sanitizer report is a finding as well.
//
//===----------------------------------------------------------------------===//
#include "layout_model.h"

#include "ir/Layout.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ntc;
using fuzz::ModelLayout;
using fuzz::Operation;
using fuzz::OpKind;

namespace {

std::string trace; // the source and the operations so far, printed on a failure
const bool verbose = std::getenv("NTC_FUZZ_VERBOSE") != nullptr;

[[noreturn]] void violated(const std::string &what) {
  std::fprintf(stderr, "fuzz_layout: %s\n%s\n", what.c_str(), trace.c_str());
  std::abort();
}

std::string list(const std::vector<int64_t> &v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

/// The arguments of an operation: mostly as many as the focused level has dimensions.
size_t count(FuzzedDataProvider &in, size_t rank) {
  switch (in.ConsumeIntegralInRange(0, 15)) {
  case 0:
    return rank + 1;
  case 1:
    return rank > 0 ? rank - 1 : 0;
  default:
    return rank;
  }
}

std::vector<int64_t> values(FuzzedDataProvider &in, size_t n, int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (size_t i = 0; i < n; ++i)
    v.push_back(in.ConsumeIntegralInRange(lo, hi));
  return v;
}

std::optional<int64_t> optional(FuzzedDataProvider &in, int64_t lo, int64_t hi) {
  if (in.ConsumeBool())
    return std::nullopt;
  return in.ConsumeIntegralInRange(lo, hi);
}

Operation decode(FuzzedDataProvider &in, size_t rank) {
  Operation op;
  op.kind = static_cast<OpKind>(in.ConsumeIntegralInRange(0, int(OpKind::Up)));
  const int64_t r = int64_t(rank);
  switch (op.kind) {
  case OpKind::Tile:
    op.a = values(in, count(in, rank), -1, 5);
    if (in.ConsumeBool())
      op.b = values(in, count(in, rank), -1, 4);
    if (in.ConsumeBool())
      op.c = values(in, count(in, rank), 0, 3);
    op.flag = in.ConsumeBool();
    break;
  case OpKind::Expand:
    op.a = values(in, count(in, rank), -2, 4);
    break;
  case OpKind::Squeeze:
    op.a = values(in, in.ConsumeIntegralInRange(1, 2), -r - 1, r);
    break;
  case OpKind::Unsqueeze:
    op.n = in.ConsumeIntegralInRange(-r - 2, r + 1);
    break;
  case OpKind::Permute: {
    for (int64_t d = 0; d < r; ++d)
      op.a.push_back(d);
    for (int64_t d = r - 1; d > 0; --d) // Fisher-Yates
      std::swap(op.a[d], op.a[in.ConsumeIntegralInRange<int64_t>(0, d)]);
    for (int64_t &d : op.a)
      if (in.ConsumeIntegralInRange(0, 3) == 0)
        d -= r; // the same dimension counted from the end
    if (in.ConsumeIntegralInRange(0, 7) == 0 && !op.a.empty())
      op.a[0] = in.ConsumeIntegralInRange(-r - 1, r); // maybe not a permutation
    break;
  }
  case OpKind::Flatten:
    op.x = optional(in, -r - 1, r + 1);
    op.y = optional(in, -r - 1, r + 1);
    break;
  case OpKind::Pad:
    op.a = values(in, count(in, rank), -3, 3);
    op.b = values(in, op.a.size(), -3, 3);
    break;
  case OpKind::Slice:
    op.n = in.ConsumeIntegralInRange(-r - 1, r);
    op.x = optional(in, -11, 11);
    op.y = optional(in, -11, 11);
    op.z = optional(in, -3, 3);
    break;
  default:
    break;
  }
  return op;
}

std::string describe(const Operation &op) {
  auto opt = [](const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "None"; };
  switch (op.kind) {
  case OpKind::Tile:
    return "tile(" + list(op.a) + ", " + list(op.b) + ", " + list(op.c) +
           (op.flag ? ", floor)" : ")");
  case OpKind::Expand:
    return "expand(" + list(op.a) + ")";
  case OpKind::Squeeze:
    return "squeeze(" + list(op.a) + ")";
  case OpKind::Unsqueeze:
    return "unsqueeze(" + std::to_string(op.n) + ")";
  case OpKind::Permute:
    return "permute(" + list(op.a) + ")";
  case OpKind::Flatten:
    return "flatten(" + opt(op.x) + ", " + opt(op.y) + ")";
  case OpKind::Ravel:
    return "ravel()";
  case OpKind::Pad: {
    std::string s = "pad({";
    for (size_t i = 0; i < op.a.size(); ++i)
      s += (i ? ", {" : "{") + std::to_string(op.a[i]) + ", " + std::to_string(op.b[i]) + "}";
    return s + "})";
  }
  case OpKind::Slice:
    return "slice(" + std::to_string(op.n) + ", " + opt(op.x) + ", " + opt(op.y) + ", " +
           opt(op.z) + ")";
  case OpKind::Dtype:
    return "dtype()";
  case OpKind::Up:
    return "withInner (back out)";
  }
  return "?";
}

/// Applies a level operation to ntc's layout (dtype/withInner are handled by the caller).
Layout apply(const Layout &l, const Operation &op) {
  auto exprs = [](const std::vector<int64_t> &v) { return std::vector<Expr>(v.begin(), v.end()); };
  auto opt = [](const std::optional<int64_t> &v) { return v ? OptExpr(Expr(*v)) : OptExpr(); };
  switch (op.kind) {
  case OpKind::Tile:
    return l.tile(exprs(op.a), exprs(op.b), exprs(op.c), op.flag);
  case OpKind::Expand:
    return l.expand(exprs(op.a));
  case OpKind::Squeeze:
    return l.squeeze(op.a);
  case OpKind::Unsqueeze:
    return l.unsqueeze(op.n);
  case OpKind::Permute:
    return l.permute(op.a);
  case OpKind::Flatten:
    return l.flatten(op.x, op.y);
  case OpKind::Ravel:
    return l.ravel();
  case OpKind::Pad: {
    std::vector<std::pair<Expr, Expr>> padding;
    for (size_t i = 0; i < op.a.size(); ++i)
      padding.emplace_back(op.a[i], op.b[i]);
    return l.pad(padding);
  }
  case OpKind::Slice:
    return l.slice(op.n, opt(op.x), opt(op.y), opt(op.z));
  default:
    return l;
  }
}

/// Which extents of the focused level are compile-time constants in ntc's layout: ntc checks
/// those when the operation is applied (and clamps slices like NumPy), the others at run time.
std::vector<bool> constantExtents(const Layout &l) {
  std::vector<bool> c;
  for (const Dim &d : l.levels()[l.focus()].dims)
    c.push_back(d.extent.isConst());
  return c;
}

/// ntc's levels and ranks must be the model's; with constant sizes, also the extents.
void compareStructure(const Layout &l, const ModelLayout &m, bool symbolic) {
  if (l.levels().size() != m.levels.size() || l.focus() != m.focus)
    violated("levels differ: ntc " + l.str() + " (focus " + std::to_string(l.focus()) +
             "), model " + m.str());
  for (size_t i = 0; i < m.levels.size(); ++i) {
    const auto &dims = l.levels()[i].dims;
    if (dims.size() != m.levels[i].size())
      violated("ranks differ: ntc " + l.str() + ", model " + m.str());
    for (size_t d = 0; d < dims.size() && !symbolic; ++d)
      if (!dims[d].extent.isConst() || dims[d].extent.constValue() != m.levels[i][d])
        violated("extents differ: ntc " + l.str() + ", model " + m.str());
  }
  if (!symbolic && !l.checks().empty())
    violated("constant sizes left a run-time check: " + l.checks()[0].what);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  const bool symbolic = in.ConsumeBool();
  const size_t rank = in.ConsumeIntegralInRange(1, 3);
  std::vector<int64_t> sizes = values(in, rank, 0, 9);
  std::vector<Expr> shape;
  std::map<std::string, int64_t> bindings;
  for (size_t d = 0; d < rank; ++d) {
    std::string name = "x_size_" + std::to_string(d);
    shape.push_back(symbolic ? Expr::symbol(name, {0, std::nullopt}) : Expr(sizes[d]));
    bindings[name] = sizes[d];
  }
  trace = std::string(symbolic ? "symbolic" : "constant") + " source " + list(sizes);

  Layout l = Layout::source("x", shape);
  ModelLayout model = ModelLayout::source(sizes);
  std::vector<Layout> outer; // layouts that dtype() went into, for withInner
  const int numOps = in.ConsumeIntegralInRange(0, 12);
  for (int i = 0; i < numOps && in.remaining_bytes() > 0; ++i) {
    Operation op = decode(in, l.ndim());
    if (op.kind == OpKind::Dtype && l.focus() + 1 >= l.levels().size())
      continue; // no inner level: nothing to test
    if (op.kind == OpKind::Up && outer.empty())
      continue;
    trace += "\n  ." + describe(op);
    if (verbose) // NTC_FUZZ_VERBOSE=1: the operations as they are applied (to read a crash)
      std::fprintf(stderr, "%s\n", trace.c_str());

    bool modelOk = true, skip = false;
    try {
      modelOk = model.apply(op, constantExtents(l), skip);
    } catch (const fuzz::ModelUndefined &) {
      return 0; // a case the model leaves open (see layout_model.h)
    }
    bool ntcThrew = false;
    try {
      if (op.kind == OpKind::Dtype) {
        outer.push_back(l);
        l = l.dtype();
      } else if (op.kind == OpKind::Up) {
        l = outer.back().withInner(l);
        outer.pop_back();
      } else {
        l = apply(l, op);
      }
    } catch (const LayoutError &e) {
      ntcThrew = true;
      trace += "  -> ntc: " + std::string(e.what());
    } catch (const ArithmeticOverflow &e) { // a located error in the front end
      ntcThrew = true;
      trace += "  -> ntc: " + std::string(e.what());
    }
    if (ntcThrew) {
      if (modelOk)
        violated("ntc rejects an operation the model accepts");
      return 0;
    }
    if (!modelOk) {
      // Only a run-time size can postpone the rejection to eval.
      if (!symbolic)
        violated("ntc accepts an operation the model rejects");
      try {
        std::vector<int64_t> s;
        l.eval(bindings, s);
      } catch (const LayoutError &) {
        return 0;
      } catch (const ArithmeticOverflow &) {
        return 0;
      }
      violated("ntc's eval accepts a layout the model rejects");
    }
    compareStructure(l, model, symbolic);
  }

  // Evaluate both; keep the arrays small.
  std::vector<int64_t> modelShape = model.arrayShape();
  int64_t total = 1;
  for (int64_t n : modelShape)
    total = n > 0 && total > (int64_t(1) << 14) / n ? (int64_t(1) << 14) + 1 : total * n;
  if (total > (int64_t(1) << 14))
    return 0;
  std::vector<int64_t> ntcShape, ntcArray;
  try {
    ntcArray = l.eval(bindings, ntcShape);
  } catch (const LayoutError &e) {
    violated(std::string("ntc's eval rejects a layout the model accepts: ") + e.what());
  } catch (const ArithmeticOverflow &e) {
    violated(std::string("ntc's eval overflows on a layout the model accepts: ") + e.what());
  }
  if (ntcShape != modelShape)
    violated("array shapes differ: ntc " + list(ntcShape) + ", model " + list(modelShape));
  std::vector<int64_t> modelArray = model.eval();
  for (size_t i = 0; i < modelArray.size(); ++i)
    if (ntcArray[i] != modelArray[i])
      violated("arrays differ at flat position " + std::to_string(i) + ": ntc " +
               std::to_string(ntcArray[i]) + ", model " + std::to_string(modelArray[i]) +
               "\n  ntc:   " + jsonNestedList(ntcArray, ntcShape) +
               "\n  model: " + jsonNestedList(modelArray, modelShape));
  if (symbolic) {
    std::map<std::string, Expr> values(bindings.begin(), bindings.end());
    compareStructure(l.substitute(values), model, false);
  }
  return 0;
}
