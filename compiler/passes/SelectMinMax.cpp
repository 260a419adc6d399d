//===- SelectMinMax.cpp - float maximum/minimum as one instruction -------===//
//
// ntc's elementwise maximum and minimum propagate NaN. The device library compiles them for
// floats as two NaN tests with early returns (the NaN operand itself is the result, as on the
// CPU) and ptxas keeps those as branches: in attention's loop a divergence region (BSSY/BSYNC)
// around the running maximum of every row, every iteration. The alternative is one
// `max.NaN`/`min.NaN` instruction (IEEE 754-2019 maximum/minimum: a NaN operand gives the
// canonical NaN, +0 is above −0, as the max/min reductions already compute). Neither form is
// better everywhere: measured on an H100 (docs/performance.md, twenty-eighth session), the
// instruction made attention at head dimension 128 5% faster, but ptxas then spilled the 128×128
// programs at head dimension 64 under their 128-register cap and they ran 2-6% slower. So the
// choice is a tuning knob, `minmax=1`, and this pass records it in the IR: with the knob, every
// elementwise maximum and minimum of floats is marked (ValueNode::oneInstruction) and the printer
// calls ntc::dev::maximum_instruction / minimum_instruction. GPU only.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

using namespace kir;

bool isFloatMinMax(const kir::Value &v) {
  return v->kind == ValueKind::Binary && (v->op == "maximum" || v->op == "minimum") &&
         isFloat(v->type.dtype);
}

kir::Function selectMinMax(const kir::Function &laidOut, const GpuTarget &gpu) {
  if (gpu.knobs.minmax != 1)
    return laidOut;
  Function out = laidOut;
  out.body = markValues(laidOut.body, isFloatMinMax, [](ValueNode &v) { v.oneInstruction = true; });
  return out;
}

} // namespace ntc::passes
