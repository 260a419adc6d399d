//===- MarkDyingOperands.cpp - tensor-core A operands read by one product --===//
//
// On sm_90a a tensor-core product reads its A operand from registers while the wgmma chain runs.
// ptxas (CUDA 13.0) reused the register of an A operand that lives on (a loop-invariant one,
// such as attention's queries) once the product had completed, so the device library copies
// every A operand into fresh fragment registers through an operation ptxas cannot see through
// (wgmma_fragment: an XOR with an opaque zero): one instruction per register and product. An
// operand computed for the product alone needs no such copy. This pass marks the products
// whose A operand is a conversion from another element type (`p.to(float16)`: the conversion
// writes new registers, which cannot be another value's) that nothing else reads, through
// layout conversions that have no other reader either (ValueNode::aDies); the printer passes
// ntc::dev::dying_operand to them. GPU only; after fuse-dot-accumulate.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <unordered_map>

namespace ntc::passes {

namespace {

using namespace kir;

/// True when `a`, a tensor-core product's A operand, holds registers of its own that only the
/// product reads.
bool dies(const Value &a, const std::unordered_map<const ValueNode *, int> &count) {
  if (a->type.dtype != DType::Float16 && a->type.dtype != DType::BFloat16)
    return false; // the device library's register products take 16-bit operands only
  Value v = a;
  while (true) {
    auto it = count.find(v.get());
    if (it == count.end() || it->second != 1)
      return false;
    if (v->kind == ValueKind::Cast)
      return v->operands[0]->type.dtype != v->type.dtype;
    if (v->kind != ValueKind::ConvertLayout || v->transpose || v->operands.empty())
      return false;
    v = v->operands[0];
  }
}

} // namespace

kir::Function markDyingOperands(const kir::Function &laidOut) {
  const std::unordered_map<const ValueNode *, int> count = useCounts(laidOut.body);
  Function out = laidOut;
  out.body = markValues(
      laidOut.body,
      [&](const Value &node) {
        return node->kind == ValueKind::Dot && node->type.layout &&
               node->type.layout->tensorCore() && dies(node->operands[0], count);
      },
      [](ValueNode &dot) { dot.aDies = true; });
  return out;
}

} // namespace ntc::passes
