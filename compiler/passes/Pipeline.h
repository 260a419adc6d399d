//===- Pipeline.h - the passes, in order ----------------------------------===//
#pragma once

#include "passes/Passes.h"

#include <ostream>

namespace ntc::passes {

/// A kernel ready for code generation: its grid, its variants and, for each distinct set
/// of compile-time values, the specialized kernel IR.
struct CompiledKernel {
  kir::Function function;
  GridInfo grid; ///< with the meta-parameters fixed for the target
  std::vector<Variant> variants;
  std::vector<std::pair<std::map<std::string, int64_t>, kir::Function>> specializations;
};

/// Run infer-grid, build-variants and specialize on a translated kernel (verify ran in the
/// front end, where it can point at the source). With `trace`, print the IR or the result
/// after every pass (`--print-ir-after-all`). `gpu` is the CUDA target model (unused on the CPU).
CompiledKernel runPipeline(const kir::Function &f, Target target, const GpuTarget &gpu,
                           std::ostream *trace);

} // namespace ntc::passes
