//===- HostWrapper.h - C-ABI wrappers, headers and kernel descriptions ----===//
#pragma once

#include "ir/KernelIR.h"
#include "passes/Passes.h"

#include <functional>
#include <sstream>
#include <string>

namespace ntc::codegen {

/// The code that runs one variant once validation passed (`ntc_grid` programs, arguments
/// in `ntc_args`); returns a statement list ending in `return ...;`.
using LaunchEmitter = std::function<std::string(const passes::Variant &)>;

/// Emit the `<kernel>_args` struct: data pointers, sizes and strides, scalars. `target`
/// ("cpu" or "cuda") selects the element types of the data pointers.
void emitArgsStruct(const kir::Function &f, const std::string &target, std::ostringstream &os);

/// The element type of a dtype in code generated for `target`.
std::string elementType(DType t, const std::string &target);

/// Emit the extern "C" wrapper: validate every argument (rank, dtype, device, data,
/// sizes tied by the arrangement, constexpr values, padded extents), compute the grid,
/// return early on an empty grid, select a variant and launch it.
void emitWrapper(const kir::Function &f, const passes::GridInfo &grid,
                 const std::vector<passes::Variant> &variants, const std::string &target,
                 const LaunchEmitter &launch, std::ostringstream &os);

/// Emit `ntc_<kernel>_info()`.
void emitInfo(const kir::Function &f, const std::string &target, std::ostringstream &os);

/// The C prototype of the wrapper (without the trailing ';').
std::string wrapperPrototype(const kir::Function &f);

/// The header declaring the wrappers and info functions of `kernels`.
std::string emitHeader(const std::vector<kir::Function> &kernels, const std::string &stem,
                       const std::string &sourceName);

} // namespace ntc::codegen
