//===- fuzz_frontend.cpp - the front end and both code generators ---------===//
//
// Reads the input as a kernel source (`#include <ntc/dsl.hpp>` and the standard kernels'
// folder are on the include path), runs the front end in process as `ntc` does (Clang, the
// arrangement evaluator, the application checks and translation), prints the kernel IR, and
// runs both code generators on the kernels it accepts. Diagnostics are expected (and
// discarded); so are the std::runtime_error exceptions a code generator throws for a kernel it
// cannot compile. A crash, a sanitizer report, a hang or any other exception is a finding.
//
// Inputs that reach outside the kernel language are skipped: Clang's `#pragma clang __debug`
// (crash, overflow_stack...) and includes of device files (/dev/zero).
//
//===----------------------------------------------------------------------===//
#include "codegen/Codegen.h"
#include "frontend/Frontend.h"
#include "ir/KernelIR.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string code(reinterpret_cast<const char *>(data), size);
  for (const char *outside : {"__debug", "/dev/", "/proc/", "/sys/", "#embed", "__has_embed"})
    if (code.find(outside) != std::string::npos)
      return -1; // not added to the corpus

  ntc::FrontendOptions options;
  options.quiet = true;
  options.clangArgs = {"-I" NTC_FUZZ_KERNELS_DIR};
  ntc::FrontendResult result = ntc::runFrontendOnCode(code, options, "input.cpp");
  if (!result.ok || result.kernels.empty())
    return 0;
  for (const ntc::kir::Function &f : result.kernels)
    (void)ntc::kir::print(f);
  try {
    (void)ntc::codegen::generateCpu(result.kernels, "input", "input.cpp");
  } catch (const std::runtime_error &) {
  }
  try {
    (void)ntc::codegen::generateCuda(result.kernels, "input", "input.cpp");
  } catch (const std::runtime_error &) {
  }
  return 0;
}
