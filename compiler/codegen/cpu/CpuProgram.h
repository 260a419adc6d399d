//===- CpuProgram.h - one program of a specialized kernel as C++ ----------===//
#pragma once

#include "ir/KernelIR.h"
#include "passes/Passes.h"

#include <sstream>
#include <string>

namespace ntc::codegen {

/// Emit `template <class Index> void <name>(const <kernel>_args &, int64_t program)`
/// running one program of the specialized function on the CPU tile library.
void emitCpuProgram(const kir::Function &specialized, const passes::GridInfo &grid,
                    const std::string &name, std::ostringstream &os);

} // namespace ntc::codegen
