//===- TuningTable.h - reading a tuning table for code generation ---------===//
//
// A tuning table (docs/tuning.md; written by ntc-tune) records, per kernel, target
// architecture, alignment class and shape bucket, the configuration that ran fastest.
// `ntc --tuning-table` compiles the configurations it names, and a dispatcher that picks by
// shape bucket, into the generated library; nothing is read at run time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "codegen/Codegen.h"

#include <string>
#include <vector>

namespace ntc::tuning {

/// Something to report about a table: an error stops code generation, a warning does not.
struct TableProblem {
  bool error = false;
  std::string message; ///< starts with the table's path
};

/// Reads the table at `path` for `kernels`, compiled for `target` (and, on the GPU, `gpu`'s
/// architectures): for each kernel the table covers, the default configuration followed by the
/// configurations its entries name, and the entries' shape buckets. Entries of other kernels,
/// targets or architectures are skipped; entries of a kernel whose hash (passes::kernelHash)
/// or dtypes differ from the source's are skipped with a warning (the kernel keeps its default),
/// as are configurations that do not fit the target; a table that cannot be read or is
/// malformed is an error.
codegen::Tunings readTuningTable(const std::string &path, const std::vector<kir::Function> &kernels,
                                 passes::Target target, const GpuTarget &gpu,
                                 std::vector<TableProblem> &problems);

/// The same for a table's text (`path` only names it in messages).
codegen::Tunings parseTuningTable(const std::string &text, const std::string &path,
                                  const std::vector<kir::Function> &kernels, passes::Target target,
                                  const GpuTarget &gpu, std::vector<TableProblem> &problems);

} // namespace ntc::tuning
