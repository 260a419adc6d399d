//===- FuseDotAccumulate.cpp - x + dot(a, b) as one accumulating product ---===//
//
// `acc = acc * alpha + dot(p, v)` (attention's rescaled accumulator) computes the product into
// fresh registers and then adds them: a second accumulator's worth of registers and one addition
// per element. The tensor cores add to an accumulator for free, so this pass rewrites
// `x + dot(a, b)` and `dot(a, b) + x` into the three-operand Dot (Triton's dot(a, b, acc)) when
// the product has no other user and x has the product's type and layout. Floating-point
// results may round differently from the CPU backend's x + (a·b) (the products are summed into
// x instead of into zero), within the tolerance of any tensor-core product. GPU only; after
// assign-layouts.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <unordered_map>

namespace ntc::passes {

namespace {

using namespace kir;

bool sameType(const TileType &a, const TileType &b) {
  return a.dtype == b.dtype && a.shape == b.shape && sameLayout(a.layout, b.layout);
}

class Fuser {
public:
  explicit Fuser(const std::vector<Stmt> &body) : uses_(useCounts(body)) {}

  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    return mapStmtValues(body, [&](const Value &v) { return value(v); });
  }

private:
  /// True when `product` is a two-operand tensor-core Dot used once that `other` can seed.
  bool fusible(const ValueNode *original, const Value &product, const Value &other) const {
    auto it = uses_.find(original);
    return product->kind == ValueKind::Dot && product->operands.size() == 2 &&
           product->type.layout && product->type.layout->tensorCore() && it != uses_.end() &&
           it->second == 1 && sameType(product->type, other->type);
  }

  Value value(const Value &v) {
    return mapValue(
        v,
        [&](const Value &node, const std::vector<Value> &ops) -> Value {
          if (node->kind != ValueKind::Binary || node->op != "add" ||
              !sameType(node->type, ops[0]->type))
            return nullptr;
          for (int side = 0; side < 2; ++side) {
            const Value &product = ops[side], &other = ops[1 - side];
            if (fusible(node->operands[side].get(), product, other)) // the add's type is x's
              return makeDotAccumulate(product->operands[0], product->operands[1], other,
                                       product->precision);
          }
          return nullptr;
        },
        memo_);
  }

  std::unordered_map<const ValueNode *, int> uses_;
  ValueMemo memo_;
};

} // namespace

kir::Function fuseDotAccumulate(const kir::Function &laidOut) {
  Function out = laidOut;
  out.body = Fuser(laidOut.body).stmts(laidOut.body);
  return out;
}

} // namespace ntc::passes
