//===- Codegen.h - generated files for one kernel source ------------------===//
#pragma once

#include "ir/KernelIR.h"
#include "passes/Passes.h"
#include "target/GpuTarget.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ntc::codegen {

/// One generated file: a name relative to the output directory and its contents.
struct GeneratedFile {
  std::string name;
  std::string contents;
};

/// Tuning tables' choices by kernel name; a kernel without an entry compiles its default
/// configuration alone.
using Tunings = std::map<std::string, passes::KernelTuning>;

/// Generate `<stem>.h` and `<stem>.cpp` (the CPU backend) for the kernels of one source.
/// `sourceName` is quoted in comments (a file name, never an absolute path). Throws
/// std::runtime_error when a kernel cannot be compiled for the target.
std::vector<GeneratedFile> generateCpu(const std::vector<kir::Function> &kernels,
                                       const std::string &stem, const std::string &sourceName,
                                       std::ostream *trace = nullptr, const Tunings &tunings = {});

/// Generate `<stem>.h` and `<stem>.cu` (the CUDA backend) for the kernels of one source,
/// planned for the architectures of `gpu` (defaultGpuTarget() when none is given).
std::vector<GeneratedFile> generateCuda(const std::vector<kir::Function> &kernels,
                                        const std::string &stem, const std::string &sourceName,
                                        std::ostream *trace = nullptr,
                                        const GpuTarget &gpu = defaultGpuTarget(),
                                        const Tunings &tunings = {});

/// The C++ element type of a dtype in generated code ("float", "ntc::cpu::float16", ...).
std::string cppElementType(DType t);
/// The C ABI type of a run-time scalar of this dtype ("float", "int64_t", ...).
std::string cScalarType(DType t);
/// The ntc::rt::dtypes constant of a dtype ("ntc::rt::dtypes::float16").
std::string dlpackDType(DType t);

} // namespace ntc::codegen
