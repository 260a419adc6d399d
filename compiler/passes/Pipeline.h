//===- Pipeline.h - the passes, in order ----------------------------------===//
#pragma once

#include "passes/Passes.h"

#include <ostream>

namespace ntc::passes {

/// A kernel ready for code generation: its grid, its variants and, for each distinct set
/// of compile-time values, the specialized kernel IR.
struct CompiledKernel {
  kir::Function function;
  /// The grid: its meta-parameters fixed when one configuration is compiled, symbols (chosen
  /// at launch with the configuration) otherwise.
  GridInfo grid;
  std::vector<Config> configs;   ///< the configurations compiled, the default first
  std::vector<TunedShape> tuned; ///< a tuning table's shape buckets (none: always the default)
  std::vector<Variant> variants;
  std::vector<std::pair<std::map<std::string, int64_t>, kir::Function>> specializations;
};

/// Run infer-grid, build-variants and specialize on a translated kernel (verify ran in the
/// front end, where it can point at the source) for the configurations of `tuning` (the
/// default configuration alone when null). With `trace`, print the IR or the result after every
/// pass
/// (`--print-ir-after-all`). `gpu` is the CUDA target model (unused on the CPU).
CompiledKernel runPipeline(const kir::Function &f, Target target, const GpuTarget &gpu,
                           std::ostream *trace, const KernelTuning *tuning = nullptr);

} // namespace ntc::passes
