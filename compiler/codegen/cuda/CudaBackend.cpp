//===- CudaBackend.cpp - the CUDA backend: <stem>.h and <stem>.cu ---------===//
//
// Stage 1 (SIMT): one thread block per program, tiles spread over the block's threads by
// the device tile library (ntc/device), the same program body as the CPU backend. The
// wrapper validates like the CPU one, then launches the chosen variant on the caller's
// stream and maps a launch failure to NTC_ERROR_LAUNCH with CUDA's message.
//
//===----------------------------------------------------------------------===//
#include "codegen/Codegen.h"
#include "codegen/CppExpr.h"
#include "codegen/Names.h"
#include "codegen/cuda/CudaDialect.h"
#include "codegen/host/HostWrapper.h"
#include "passes/Pipeline.h"

#include <algorithm>
#include <sstream>

namespace ntc::codegen {

namespace {

struct Program {
  std::string name;
  int threads = 0;
  int64_t smem = 0;
  /// Launch conditions of the vector-access twin `name + "_vec"` (empty: no twin).
  std::vector<passes::VectorCondition> vector;
  /// Shared memory of the twin (it may differ: the element-by-element program's layout may be
  /// cyclic).
  int64_t vectorSmem = 0;
  /// Programs per block of the program and of its twin (passes::programsPerBlock); `smem` and
  /// `vectorSmem` are then a block's, for all of them.
  int programs = 1, vectorPrograms = 1;
  /// The TMA twin `name + "_tma"` (use-tensor-maps; none when `tensorMaps` is empty): the
  /// vector program with its pipelined copies by TMA, launched, with 32-bit indices, when the
  /// vector conditions hold and the dispatcher encodes every tensor map.
  std::vector<kir::TensorMapUse> tensorMaps;
  int64_t tmaSmem = 0;
  /// Programs per cluster of the TMA twin (1: none) and the wrapper's expression of the grid's
  /// rows of the grouped order, which must divide into clusters for the twin to launch.
  int cluster = 1;
  std::string gridRows;
  /// The TMA twin is persistent and warp-specialized (specialize-warps): a block of
  /// `tmaThreads` (consumers and producer) per SM at most, each looping over program ids.
  bool persistent = false;
  int tmaThreads = 0;
};

/// A program's shared memory rounded up so that the programs of a block each start aligned.
int64_t perProgramSmem(int64_t bytes) { return (bytes + 127) / 128 * 128; }

/// The launch of one program (after the grid check), returning from the wrapper.
/// `blocks` overrides the number of blocks (else one per `programs` programs of the grid).
std::string launchCode(const std::string &kernel, const std::string &fn, int threads,
                       int64_t smemBytes, const std::string &indent, int programs = 1,
                       const std::string &arguments = "ntc_args",
                       const std::string &blocksOverride = "") {
  std::string smem = std::to_string(smemBytes), code;
  const std::string blocks = !blocksOverride.empty() ? blocksOverride
                             : programs == 1         ? std::string("ntc_grid")
                                             : "(ntc_grid + " + std::to_string(programs - 1) +
                                                   ") / " + std::to_string(programs);
  if (smemBytes > 48 * 1024)
    code += indent + "if (cudaError_t e = cudaFuncSetAttribute(" + fn +
            ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + smem + "); e != cudaSuccess)\n" +
            indent + "  return ntc::rt::fail(NTC_ERROR_CUDA, std::string(\"" + kernel +
            ": cudaFuncSetAttribute failed: \") + cudaGetErrorString(e));\n";
  code += indent + fn + "<<<dim3(static_cast<unsigned>(" + blocks + ")), dim3(" +
          std::to_string(threads * programs) + "), " + smem +
          ", static_cast<cudaStream_t>(ntc_stream)>>>(" + arguments + ");\n";
  code += indent + "if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)\n" + indent +
          "  return ntc::rt::fail(NTC_ERROR_LAUNCH, std::string(\"" + kernel +
          ": kernel launch failed: \") + cudaGetErrorString(e));\n";
  return code + indent + "return NTC_SUCCESS;\n";
}

/// The dispatcher's check of the vector `conditions` of a program, joined by `separator`.
std::string vectorReady(const kir::Function &f,
                        const std::vector<passes::VectorCondition> &conditions,
                        const std::string &separator) {
  std::string ready;
  for (const passes::VectorCondition &c : conditions) {
    // A jagged tensor's values lack its batch dimension (stride 0, never vectorised).
    const ParamSpec &param = f.spec.params[c.param];
    const int dim = param.jaggedDim ? c.dim - 1 : c.dim;
    ready += std::string(ready.empty() ? "" : separator) +
             (dim < 0 ? std::string("false")
                      : "ntc::rt::vector_ready(" + param.name + ", " + std::to_string(dim) + ", " +
                            std::to_string(c.width) + ")");
  }
  return ready;
}

/// The dispatcher's launch of a program's TMA twin (32-bit indices): when the device runs the
/// sm_90a code (compute capability 9.0, NTC_NO_TMA unset), the vector conditions hold, the grid's
/// rows divide into its clusters (if it has any) and every tensor map encodes, it launches and
/// returns; otherwise the code falls through to the other programs.
std::string tmaLaunch(const kir::Function &f, const Program &p, const std::string &kernel) {
  const std::string separator = " &&\n            ";
  const ParamSpec &mapped = f.spec.params[static_cast<size_t>(p.tensorMaps.front().param)];
  std::string ready = "ntc::rt::tma_device(" + mapped.name + "->device.device_id)";
  auto require = [&](const std::string &condition) { ready += separator + condition; };
  const std::string vector = vectorReady(f, p.vector, separator);
  if (!vector.empty())
    require(vector);
  if (p.cluster > 1)
    require(p.gridRows + " % " + std::to_string(p.cluster) + " == 0");
  for (size_t m = 0; m < p.tensorMaps.size(); ++m) {
    const kir::TensorMapUse &use = p.tensorMaps[m];
    std::string box;
    for (int64_t b : use.box)
      box += (box.empty() ? "" : ", ") + std::to_string(b);
    const char *swizzle = use.swizzleBytes == 128  ? "span128"
                          : use.swizzleBytes == 64 ? "span64"
                                                   : "span32";
    require("ntc::rt::encode_tma(" + f.spec.params[static_cast<size_t>(use.param)].name + ", {" +
            box + "}, ntc::rt::tma_swizzle::" + swizzle + ", ntc_maps.m" + std::to_string(m) +
            ".bytes)");
  }
  return "      {\n        " + tensorMapsStructName(p.name + "_tma") + " ntc_maps;\n        if (" +
         ready + ") {\n" +
         launchCode(kernel, p.name + "_tma<int32_t>", p.tmaThreads, p.tmaSmem, "          ", 1,
                    "ntc_args, ntc_maps",
                    p.persistent
                        ? "std::min<int64_t>(ntc_grid, ntc::rt::persistent_blocks(" + mapped.name +
                              "->device.device_id" +
                              (p.cluster > 1 ? ", " + std::to_string(p.cluster) : "") + "))"
                        : "") +
         "        }\n      }\n";
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
  kir::Function laid = passes::selectMinMax(
      passes::markCanonicalNaNs(
          passes::markDyingOperands(passes::skipUnitFactors(passes::deferLaneSums(
              passes::fuseDotAccumulate(passes::assignLayouts(unlaid, threads, gpu)))))),
      gpu);
  if (elementwiseAccess)
    laid = passes::assignCyclicLayouts(laid, threads);
  passes::SharedPlan shared = passes::allocateShared(
      passes::overlapProducts(passes::keepOperandsResident(
                                  passes::swizzleShared(passes::pipelineLoads(laid, gpu)), gpu),
                              gpu),
      threads, gpu);
  if (trace) {
    *trace << "// -----// IR after assign-layouts, fuse-dot-accumulate, defer-lane-sums, "
              "skip-unit-factors, mark-dying-operands, mark-canonical-nans, select-min-max, "
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
    if (trace && grid.bandRows > 0) {
      *trace << "// order-programs: bands of " << grid.bandRows << " rows";
      if (!grid.bandsLastTwo())
        *trace << " (dimensions " << grid.bandRowsFirst << " to " << grid.bandColumn - 1
               << "), dimension " << grid.bandColumn << " the columns";
      *trace << "\n";
    }
    for (size_t d = 0; trace && d < grid.reversed.size(); ++d)
      if (grid.reversed[d])
        *trace << "// order-programs: grid dimension " << d << " numbered last to first\n";
    Program p;
    p.name = programName(f.spec, programs.size());
    p.threads = passes::blockThreads(unlaid, gpu);
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
    // The TMA twin (configuration knob tma=1 on sm_90a).
    const passes::TensorMapPlan mapped = passes::useTensorMaps(
        vector.function, grid, p.threads, shared.scratchBytes, shared.totalBytes, gpu);
    // Its loops' stages refilled by the warp that releases them last (knob release=1).
    const passes::TensorMapPlan released = passes::releaseStages(mapped, p.threads, gpu);
    // Its warpgroups issuing the loops' products each in turn (knob turns=1).
    const passes::TensorMapPlan tma{passes::takeTurns(released.function, p.threads, gpu),
                                    released.totalBytes};
    if (!tma.function.tensorMaps.empty() &&
        passes::programsPerBlock(tma.function, p.threads) == 1 &&
        tma.totalBytes <= gpu.sharedPerBlock()) {
      if (trace)
        *trace << "// -----// IR after use-tensor-maps (" << p.name << "_tma, total "
               << mapped.totalBytes << " bytes) //----- //\n"
               << kir::print(mapped.function);
      if (trace && released.totalBytes != mapped.totalBytes)
        *trace << "// -----// IR after release-stages (" << p.name << "_tma, total "
               << released.totalBytes << " bytes) //----- //\n"
               << kir::print(released.function);
      if (trace && gpu.knobs.turns == 1)
        *trace << "// -----// IR after take-turns (" << p.name << "_tma) //----- //\n"
               << kir::print(tma.function);
      // Persistent and warp-specialized where knob persistent=1 and specialize-warps allow.
      // Or with a producer warpgroup for its released loop where knob producer=1 allows.
      std::optional<kir::Function> specialized =
          passes::specializeWarps(tma.function, grid, p.threads, tma.totalBytes, gpu);
      if (!specialized)
        specialized =
            passes::specializeProducer(tma.function, grid, p.threads, tma.totalBytes, gpu);
      const kir::Function &twin = specialized ? *specialized : tma.function;
      if (trace && specialized)
        *trace << "// -----// IR after "
               << (specialized->warpSpecialization->producerBody.empty() ? "specialize-warps"
                                                                         : "specialize-producer")
               << " (" << p.name << "_tma) //----- //\n"
               << kir::print(twin);
      p.tensorMaps = tma.function.tensorMaps;
      p.persistent = specialized && specialized->warpSpecialization->persistent;
      p.tmaSmem = specialized ? specialized->warpSpecialization->totalBytes : tma.totalBytes;
      p.tmaThreads =
          specialized ? p.threads + specialized->warpSpecialization->producerThreads : p.threads;
      p.cluster = passes::clusterSize(tma.function);
      if (p.cluster > 1) // (use-tensor-maps clusters only grids of two dimensions or more)
        p.gridRows = "(" +
                     cppExpr(
                         grid.extents[grid.extents.size() - 2],
                         [&](const std::string &s) { return wrapperSymbol(f, s); }, "int64_t") +
                     ")";
      os << "// " << what.str() << "; " << p.tmaThreads << " threads, " << p.tmaSmem
         << " bytes of shared memory; pipelined copies by TMA (the dispatcher encoded the tensor "
            "maps)"
         << (p.persistent  ? "; persistent, a producer warpgroup copying ahead"
             : specialized ? "; a producer warpgroup copying ahead"
                           : "")
         << ".\n";
      emitProgram(twin, grid, p.name + "_tma",
                  CudaDialect(p.threads, gpu, p.vector, 1, perProgramSmem(p.tmaSmem),
                              specialized ? 1
                                          : passes::minBlocksPerMultiprocessor(
                                                tma.function, p.threads, tma.totalBytes, gpu)),
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
        if (!p.tensorMaps.empty() && !v.index64)
          code += tmaLaunch(f, p, name);
        if (!p.vector.empty()) {
          code += "      if (" + vectorReady(f, p.vector, " && ") + ") {\n" +
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
  // The tensor-map encoder, for the dispatchers of programs with TMA copies (knob tma=1).
  const auto tmaConfig = [](const passes::Config &c) { return c.knobs.tma == 1; };
  const bool tmaTuned = std::any_of(tunings.begin(), tunings.end(), [&](const auto &t) {
    return std::any_of(t.second.configs.begin(), t.second.configs.end(), tmaConfig);
  });
  if (gpu.hasHopper() && (gpu.knobs.tma == 1 || tmaTuned))
    os << "#include <ntc/rt/tensor_map_driver.hpp>\n\n";
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
