//===- CudaBackend.cpp - the CUDA backend: <stem>.h and <stem>.cu ---------===//
//
// Stage 1 (SIMT): one thread block per program, tiles spread over the block's threads by
// the device tile library (ntc/device), the same program body as the CPU backend. The
// wrapper validates like the CPU one, then launches the chosen variant on the caller's
// stream and maps a launch failure to NTC_ERROR_LAUNCH with CUDA's message.
//
//===----------------------------------------------------------------------===//
#include "codegen/Codegen.h"
#include "codegen/Names.h"
#include "codegen/cuda/CudaDialect.h"
#include "codegen/host/HostWrapper.h"
#include "passes/Pipeline.h"

#include <sstream>

namespace ntc::codegen {

namespace {

struct Program {
  std::string name;
  int threads;
  int64_t smem;
  /// Launch conditions of the vector-access twin `name + "_vec"` (empty: no twin).
  std::vector<passes::VectorCondition> vector;
  /// Shared memory of the twin (it may differ: the element-by-element program's layout may be
  /// cyclic).
  int64_t vectorSmem = 0;
  /// Programs per block of the program and of its twin (passes::programsPerBlock); `smem` and
  /// `vectorSmem` are then a block's, for all of them.
  int programs = 1, vectorPrograms = 1;
};

/// A program's shared memory rounded up so that the programs of a block each start aligned.
int64_t perProgramSmem(int64_t bytes) { return (bytes + 127) / 128 * 128; }

/// The launch of one program (after the grid check), returning from the wrapper.
std::string launchCode(const std::string &kernel, const std::string &fn, int threads,
                       int64_t smemBytes, const std::string &indent, int programs = 1) {
  std::string smem = std::to_string(smemBytes), code;
  const std::string blocks = programs == 1 ? std::string("ntc_grid")
                                           : "(ntc_grid + " + std::to_string(programs - 1) +
                                                 ") / " + std::to_string(programs);
  if (smemBytes > 48 * 1024)
    code += indent + "if (cudaError_t e = cudaFuncSetAttribute(" + fn +
            ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + smem + "); e != cudaSuccess)\n" +
            indent + "  return ntc::rt::fail(NTC_ERROR_CUDA, std::string(\"" + kernel +
            ": cudaFuncSetAttribute failed: \") + cudaGetErrorString(e));\n";
  code += indent + fn + "<<<dim3(static_cast<unsigned>(" + blocks + ")), dim3(" +
          std::to_string(threads * programs) + "), " + smem +
          ", static_cast<cudaStream_t>(ntc_stream)>>>(ntc_args);\n";
  code += indent + "if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)\n" + indent +
          "  return ntc::rt::fail(NTC_ERROR_LAUNCH, std::string(\"" + kernel +
          ": kernel launch failed: \") + cudaGetErrorString(e));\n";
  return code + indent + "return NTC_SUCCESS;\n";
}

/// True when a value of `f` has an explicit chunk width (assign-cyclic-layouts ran on it).
bool usesChunkedLayout(const kir::Function &f) {
  bool chunked = false;
  kir::forEachValue(f.body, [&](const kir::Value &v) {
    const kir::LayoutRef &l = v->type.layout;
    chunked = chunked || (l && l->kind == kir::TileLayout::Kind::Blocked && l->chunk > 0);
  });
  return chunked;
}

/// The GPU passes over one specialization for a block of `threads` (layouts, pipelined loads,
/// shared memory), with the IR traced; throws when the block needs more shared memory than
/// the target allows. `elementwiseAccess`: for the program whose accesses are element by
/// element (assign-cyclic-layouts runs).
passes::SharedPlan layOut(const kir::Function &f, const kir::Function &unlaid,
                          const std::string &name, int threads, const GpuTarget &gpu,
                          std::ostream *trace, bool elementwiseAccess) {
  kir::Function laid = passes::markDyingOperands(
      passes::fuseDotAccumulate(passes::assignLayouts(unlaid, threads, gpu)));
  if (elementwiseAccess)
    laid = passes::assignCyclicLayouts(laid, threads);
  passes::SharedPlan shared = passes::allocateShared(
      passes::overlapProducts(passes::keepOperandsResident(
                                  passes::swizzleShared(passes::pipelineLoads(laid, gpu)), gpu),
                              gpu),
      threads, gpu);
  if (trace) {
    *trace << "// -----// IR after assign-layouts, fuse-dot-accumulate, mark-dying-operands, "
           << (elementwiseAccess ? "assign-cyclic-layouts, " : "")
           << "pipeline-loads, swizzle-shared, keep-operands-resident, overlap-products and "
              "allocate-shared ("
           << name << ", " << threads << " threads, scratch " << shared.scratchBytes
           << " bytes, total " << shared.totalBytes << " bytes) //----- //\n"
           << kir::print(shared.function);
  }
  if (shared.totalBytes > gpu.sharedPerBlock())
    throw std::runtime_error(f.spec.name + " needs " + std::to_string(shared.totalBytes) +
                             " bytes of shared memory per block in one variant, more than the " +
                             std::to_string(gpu.sharedPerBlock()) + " that " + gpu.str() +
                             " allow; use smaller tiles");
  return shared;
}

void emitKernel(const passes::CompiledKernel &k, const GpuTarget &baseGpu, std::ostream *trace,
                std::ostringstream &os) {
  const kir::Function &f = k.function;
  // One program per configuration and specialization, in the order of the variants.
  using ProgramKey = std::pair<int, std::map<std::string, int64_t>>;
  std::map<ProgramKey, Program> programs;
  os << "namespace {\n\n";
  emitArgsStruct(f, "cuda", os);
  for (const passes::Variant &v : k.variants) {
    const ProgramKey key{v.config, v.values};
    if (programs.count(key))
      continue;
    const passes::Config &config = k.configs[static_cast<size_t>(v.config)];
    const GpuTarget gpu = passes::configuredTarget(baseGpu, config);
    const kir::Function *found = nullptr;
    for (const auto &[values, fn] : k.specializations)
      found = values == v.values ? &fn : found;
    const kir::Function &unlaid = *found;
    std::ostringstream what;
    what << f.spec.name << " with";
    for (const auto &[name, value] : v.values)
      what << " " << name << "=" << value;
    if (v.values.empty())
      what << " no compile-time parameters";
    if (k.configs.size() > 1)
      what << " (configuration " << passes::configId(f.spec, config) << ")";
    const passes::GridInfo grid = passes::orderPrograms(
        unlaid, passes::specializeGrid(k.grid, v.values), passes::Target::Cuda, gpu);
    if (trace && grid.bandRows > 0)
      *trace << "// order-programs: bands of " << grid.bandRows << " rows\n";
    for (size_t d = 0; trace && d < grid.reversed.size(); ++d)
      if (grid.reversed[d])
        *trace << "// order-programs: grid dimension " << d << " numbered last to first\n";
    Program p{programName(f.spec, programs.size()), passes::blockThreads(unlaid, gpu), 0, {}};
    passes::SharedPlan shared = layOut(f, unlaid, p.name, p.threads, gpu, trace, true);
    p.programs = passes::programsPerBlock(shared.function, p.threads);
    p.smem = p.programs == 1 ? shared.totalBytes : p.programs * perProgramSmem(shared.totalBytes);
    os << "// " << what.str() << "; " << p.threads << " threads, " << shared.totalBytes
       << " bytes of shared memory"
       << (p.programs > 1 ? "; " + std::to_string(p.programs) + " programs per block" : "")
       << ".\n";
    emitProgram(shared.function, grid, p.name,
                CudaDialect(p.threads, gpu, {}, p.programs, perProgramSmem(shared.totalBytes),
                            passes::minBlocksPerMultiprocessor(
                                shared.function, p.threads * p.programs, p.smem, gpu)),
                os);
    // The vector-access twin, when the dispatcher can check its conditions. Its accesses are
    // planned on the blocked layout, which the element-by-element program may have replaced
    // by the cyclic one (then the twin is laid out again, and its shared memory may differ).
    if (usesChunkedLayout(shared.function))
      shared = layOut(f, unlaid, p.name + "_vec", p.threads, gpu, trace, false);
    const passes::VectorPlan vector =
        passes::planVectorChunks(shared.function, grid, p.threads, gpu);
    if (trace)
      *trace << "// -----// IR after plan-vector-chunks (" << p.name << "_vec) //----- //\n"
             << kir::print(vector.function);
    p.vector = vector.conditions;
    if (!p.vector.empty()) {
      p.vectorPrograms = passes::programsPerBlock(shared.function, p.threads);
      p.vectorSmem = p.vectorPrograms == 1 ? shared.totalBytes
                                           : p.vectorPrograms * perProgramSmem(shared.totalBytes);
      os << "// " << what.str() << "; " << p.threads << " threads, " << shared.totalBytes
         << " bytes of shared memory"
         << (p.vectorPrograms > 1 ? "; " + std::to_string(p.vectorPrograms) + " programs per block"
                                  : "")
         << "; vector accesses (the dispatcher checked strides and alignment).\n";
      emitProgram(
          vector.function, grid, p.name + "_vec",
          CudaDialect(p.threads, gpu, p.vector, p.vectorPrograms, perProgramSmem(shared.totalBytes),
                      passes::minBlocksPerMultiprocessor(
                          vector.function, p.threads * p.vectorPrograms, p.vectorSmem, gpu)),
          os);
    }
    programs[key] = p;
  }
  os << "} // namespace\n\n";
  const std::string &name = f.spec.name;
  emitWrapper(
      k, "cuda",
      [&](const passes::Variant &v) {
        const Program &p = programs.at({v.config, v.values});
        std::string index = v.index64 ? "<int64_t>" : "<int32_t>";
        std::string code;
        code += "      if (ntc_grid > 2147483647)\n        return ntc::rt::fail("
                "NTC_ERROR_UNSUPPORTED, \"" +
                name +
                ": the grid of \" + std::to_string(ntc_grid) + \" programs exceeds "
                "2147483647\");\n";
        if (!p.vector.empty()) {
          std::string ready;
          for (const passes::VectorCondition &c : p.vector) {
            // A jagged tensor's values lack its batch dimension (stride 0, never vectorised).
            const ParamSpec &param = f.spec.params[c.param];
            const int dim = param.jaggedDim ? c.dim - 1 : c.dim;
            ready += std::string(ready.empty() ? "" : " && ") +
                     (dim < 0 ? std::string("false")
                              : "ntc::rt::vector_ready(" + param.name + ", " + std::to_string(dim) +
                                    ", " + std::to_string(c.width) + ")");
          }
          code += "      if (" + ready + ") {\n" +
                  launchCode(name, p.name + "_vec" + index, p.threads, p.vectorSmem, "        ",
                             p.vectorPrograms) +
                  "      }\n";
        }
        return code + launchCode(name, p.name + index, p.threads, p.smem, "      ", p.programs);
      },
      os);
  emitInfo(k, "cuda", os);
}

} // namespace

std::vector<GeneratedFile> generateCuda(const std::vector<kir::Function> &kernels,
                                        const std::string &stem, const std::string &sourceName,
                                        std::ostream *trace, const GpuTarget &gpu,
                                        const Tunings &tunings) {
  std::ostringstream os;
  os << "// Generated by ntc from " << sourceName << " (target cuda, " << gpu.str()
     << "). Do not edit.\n";
  os << "#include \"" << stem << ".h\"\n\n";
  os << "#include <cuda_runtime.h>\n\n";
  os << "#include <ntc/device/device.cuh>\n#include <ntc/rt/device_guard.hpp>\n#include "
        "<ntc/rt/index.hpp>\n#include "
        "<ntc/rt/tuning.hpp>\n#include <ntc/rt/validate.hpp>\n\n";
  os << "#include <algorithm>\n#include <cmath>\n#include <cstdint>\n#include <limits>\n#include "
        "<string>\n#include <vector>\n\n";
  for (const kir::Function &f : kernels) {
    auto tuning = tunings.find(f.spec.name);
    emitKernel(passes::runPipeline(f, passes::Target::Cuda, gpu, trace,
                                   tuning == tunings.end() ? nullptr : &tuning->second),
               gpu, trace, os);
  }
  return {{stem + ".h", emitHeader(kernels, stem, sourceName)}, {stem + ".cu", os.str()}};
}

} // namespace ntc::codegen
