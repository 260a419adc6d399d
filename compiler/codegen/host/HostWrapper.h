//===- HostWrapper.h - C-ABI wrappers, headers and kernel descriptions ----===//
#pragma once

#include "ir/KernelIR.h"
#include "passes/Pipeline.h"

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
/// sizes tied by the arrangement, constexpr values, padded extents), pick the configuration
/// (the tuning table's entry nearest the call's shape buckets, else the default), compute the
/// grid, return early on an empty grid, select a variant and launch it. The body is a static
/// function that can also only report the configuration (ntc_kernel_info_t::config_for).
void emitWrapper(const passes::CompiledKernel &k, const std::string &target,
                 const LaunchEmitter &launch, std::ostringstream &os);

/// Emit `ntc_<kernel>_info()` with the generic call and the configuration query.
void emitInfo(const passes::CompiledKernel &k, const std::string &target, std::ostringstream &os);

/// One parameter of a wrapper's C prototype (a jagged tensor gives two).
struct CParam {
  std::string type; ///< with the space or '*' before the name ("const DLTensor *", "float ")
  std::string name;
  bool tensor = false; ///< a DLTensor (else a scalar passed by value)
};

/// The parameters of the wrapper's C prototype, in order, without the stream.
std::vector<CParam> cParams(const kir::Function &f);

/// The C prototype of the wrapper (without the trailing ';').
std::string wrapperPrototype(const kir::Function &f);

/// The header declaring the wrappers and info functions of `kernels`.
std::string emitHeader(const std::vector<kir::Function> &kernels, const std::string &stem,
                       const std::string &sourceName);

} // namespace ntc::codegen
