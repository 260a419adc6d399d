//===- CudaDialect.cpp - how the device tile library spells things --------===//
#include "codegen/cuda/CudaDialect.h"

#include "codegen/Codegen.h"
#include "codegen/Names.h"
#include "codegen/host/HostWrapper.h"

#include <algorithm>
#include <stdexcept>

namespace ntc::codegen {

std::string CudaDialect::ns() const { return "ntc::dev"; }
std::string CudaDialect::element(DType t) const { return elementType(t, "cuda"); }
std::string CudaDialect::laneIndexType() const { return "int"; }

std::string CudaDialect::shapeType(const std::vector<int64_t> &shape) const {
  std::string s = "ntc::dev::Shape<";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ">";
}

std::string CudaDialect::layoutType(const kir::LayoutRef &layout) const {
  return layout ? layout->deviceType() : "ntc::dev::Blocked<" + std::to_string(threads_) + ">";
}

std::string CudaDialect::creation(const std::string &fn, const std::string &element,
                                  const std::vector<int64_t> &shape,
                                  const kir::LayoutRef &layout) const {
  std::string threads = layout ? layout->deviceType() : std::to_string(threads_);
  if (fn == "scalar")
    return "<" + element + ", " + threads + ">(";
  if (fn == "arange")
    return "<" + shapeType(shape) + ", " + threads + ">(";
  return "<" + element + ", " + shapeType(shape) + ", " + threads + ">(";
}

std::string CudaDialect::scratch() const { return ", ntc_smem"; }
bool CudaDialect::explicitBroadcast() const { return true; }

std::string CudaDialect::withAxis(const std::string &op, const std::string &x, int64_t axis,
                                  bool communicates) const {
  return "ntc::dev::" + op + "<" + std::to_string(axis) + ">(" + x +
         (communicates ? ", ntc_smem" : "") + ")";
}

std::string CudaDialect::broadcastTo(const std::string &x,
                                     const std::vector<int64_t> &shape) const {
  return "ntc::dev::broadcast_to<" + shapeType(shape) + ">(" + x + ", ntc_smem)";
}

std::string tensorMapsStructName(const std::string &program) { return program + "_maps"; }

std::string CudaDialect::prologue(const kir::Function &f, const std::string &name) const {
  // A program with TMA copies (use-tensor-maps) takes their tensor maps, which the dispatcher
  // encodes, as one __grid_constant__ parameter, and sets up the barriers of their rings.
  std::string maps, mapsParameter, rings;
  if (!f.tensorMaps.empty()) {
    maps = "/// The tensor maps of " + name + " (the dispatcher encodes them).\nstruct " +
           tensorMapsStructName(name) + " {\n";
    for (size_t m = 0; m < f.tensorMaps.size(); ++m) {
      const kir::TensorMapUse &use = f.tensorMaps[m];
      std::string box;
      for (int64_t b : use.box)
        box += (box.empty() ? "" : "x") + std::to_string(b);
      maps += "  ntc::dev::tensor_map m" + std::to_string(m) + "; // " +
              f.spec.params[static_cast<size_t>(use.param)].name + ", box " + box + ", swizzle " +
              std::to_string(use.swizzleBytes) + "\n";
    }
    maps += "};\n\n";
    mapsParameter = ", const __grid_constant__ " + tensorMapsStructName(name) + " ntc_maps";
    // A warp-specialized program's copies are issued by its producer's first thread (the
    // ring's Issuer, after the consumer threads).
    // A ring refilled by its last releaser (release-stages) says so in its last argument.
    for (const kir::TmaRing &ring : f.tmaRings) {
      const bool issuer = f.warpSpecialization || ring.lastReleaserRefills;
      rings +=
          "  ntc::dev::tma_ring<" + std::to_string(ring.stages) + ", " +
          std::to_string(ring.arrivals) +
          (ring.releasers > 0 ? ", " + std::to_string(ring.releasers) : std::string()) +
          (ring.cluster > 1 || issuer ? ", " + std::to_string(ring.cluster) : std::string()) +
          (issuer ? ", " + std::to_string(
                               f.warpSpecialization ? f.warpSpecialization->consumerThreads : 0)
                  : std::string()) +
          (ring.lastReleaserRefills ? ", true" : "") + "> ntc_ring" + std::to_string(ring.group) +
          "{ntc_smem, " + std::to_string(ring.byteOffset) + "};\n";
    }
  }
  // A ring shared by a cluster (use-tensor-maps' cluster=2): the kernel launches in clusters.
  const int cluster = passes::clusterSize(f);
  const std::string clusterDims =
      cluster > 1 ? "NTC_DEV_CLUSTER_DIMS(" + std::to_string(cluster) + ", 1, 1) " : std::string();
  // A warp-specialized program's block: its consumers and its producer warpgroup, one per SM.
  const kir::WarpSpecialization *warps = f.warpSpecialization ? &*f.warpSpecialization : nullptr;
  const std::string bounds =
      warps ? std::to_string(warps->consumerThreads + warps->producerThreads) + ", 1"
            : std::to_string(threads_ * programs_) +
                  (minBlocks_ > 0 ? ", sizeof(Index) == 4 ? " + std::to_string(minBlocks_) + " : 1"
                                  : "");
  const std::string head = maps + "template <class Index>\n__global__ void __launch_bounds__(" +
                           bounds + ") " + clusterDims + name + "(const " + argsStructName(f.spec) +
                           " ntc_args" + mapsParameter +
                           ") {\n  extern __shared__ __align__(1024) unsigned char "
                           "ntc_smem_buffer[];\n";
  // The consumers of a warp-specialized program meet at barriers of their own (Smem::sync).
  if (programs_ == 1)
    return head + "  [[maybe_unused]] const ntc::dev::Smem ntc_smem{ntc_smem_buffer" +
           (warps ? ", " + std::to_string(warps->consumerThreads) : std::string()) + "};\n" +
           rings +
           (warps && warps->persistent
                ? std::string() // each side loops over its program ids (TileProgram)
                : "  const int64_t ntc_program = static_cast<int64_t>(blockIdx.x);\n");
  if (!rings.empty())
    throw std::logic_error(name + ": TMA copies in a block of several programs");
  const std::string n = std::to_string(programs_);
  return head + "  // " + n + " one-warp programs per block: warp w runs program blockIdx.x * " +
         n + " + w.\n  [[maybe_unused]] const ntc::dev::Smem ntc_smem{ntc_smem_buffer + " +
         "threadIdx.x / 32 * " + std::to_string(smemPerProgram_) +
         "};\n  const int64_t ntc_program = static_cast<int64_t>(blockIdx.x) * " + n +
         " + threadIdx.x / 32;\n";
}

std::string CudaDialect::epilogue() const { return "}\n\n"; }

std::string CudaDialect::dotPrecision(const std::string &precision) const {
  if (precision == "tf32")
    return ", ntc::dev::tf32_inputs<1>{}";
  if (precision == "tf32x3")
    return ", ntc::dev::tf32_inputs<3>{}";
  return "";
}

std::string CudaDialect::dyingOperand() const { return ", ntc::dev::dying_operand{}"; }

std::string CudaDialect::turnsBegin(int barrier) const {
  return "ntc::dev::turns_begin<" + std::to_string(barrier) + ", " +
         std::to_string(threads_ / 128) + ">();";
}

std::string CudaDialect::turnsEnd(int barrier) const {
  return "ntc::dev::turns_end<" + std::to_string(barrier) + ", " + std::to_string(threads_ / 128) +
         ">();";
}

std::string CudaDialect::turnArguments(bool dying, int barrier, bool opens, bool closes) const {
  const std::string part =
      opens && closes ? std::string()
                      : std::string(opens ? ", true" : ", false") + (closes ? ", true" : ", false");
  return std::string(dying ? ", ntc::dev::dying_operand{}" : ", ntc::dev::living_operand{}") +
         ", ntc::dev::turn<" + std::to_string(barrier) + part + ">{}";
}

int CudaDialect::dotLoopThreads() const { return threads_; }

bool CudaDialect::unitStride(int param, int dim) const {
  for (const passes::VectorCondition &c : vectorConditions_)
    if (c.param == param && c.dim == dim)
      return true;
  return false;
}

} // namespace ntc::codegen
