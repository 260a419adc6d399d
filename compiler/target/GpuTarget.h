//===- GpuTarget.h - what the CUDA backend may assume of its GPUs ---------===//
//
// A target model: the architectures one generated .cu file is compiled for (`--cuda-arch`,
// add_nt_kernel's CUDA_ARCHITECTURES), with the limits every one of them honours and the
// architecture the planner tunes for. Passes take it instead of hard-coding one chip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ntc {

/// One CUDA architecture ntc can compile for (sm_80 and newer: cp.async, ldmatrix and
/// mma.sync m16n8k16).
struct GpuArch {
  std::string name;                    ///< as given: "80", "90a", "120"
  int major = 8, minor = 0;            ///< compute capability
  bool archSpecific = false;           ///< the `a` suffix: Hopper's wgmma and setmaxnreg (sm_90a)
  int64_t sharedPerBlock = 0;          ///< dynamic shared memory one block may opt in to (bytes)
  int64_t sharedPerMultiprocessor = 0; ///< shared memory of one SM (bytes)
  int multiprocessors = 0;             ///< SMs of the architecture's flagship part (tuning only)

  /// True when the architecture has Hopper's warpgroup MMA (wgmma: sm_90a).
  bool wgmma() const { return major == 9 && archSpecific; }
};

/// Launch choices of a tuning configuration that override the planner's analytic ones; 0
/// leaves a choice to the planner.
struct LaunchKnobs {
  int threads = 0;      ///< threads per program (blockThreads)
  int stages = 0;       ///< shared-memory stages of GEMM rings and pipelined loops
  int64_t bandRows = 0; ///< rows per band of the grouped program order (1: row order)
  /// 1: a pipelined loop's last product stays in flight while the next iteration's first one
  /// is issued (passes/OverlapProducts.cpp); 2: besides, the next first product is issued
  /// before the last one and the statements between them run while the last is in flight;
  /// 0: every product completes where it stands.
  int overlap = 0;
  /// 1 (sm_90a only): a program whose pipelined copies TMA can make gets a twin that makes them
  /// so, launched when the dispatcher can describe the tensors (passes/UseTensorMaps.cpp).
  int tma = 0;
  /// 2 (with tma=1): a GEMM main loop by TMA runs in clusters of two programs, numbered one
  /// after the other, that share the operand tile both read: each copies half of it into both
  /// (multicast), which halves that operand's traffic from L2 (passes/UseTensorMaps.cpp).
  /// 0 or 1: no cluster.
  int cluster = 0;
  /// 1 (with tma=1): a program whose only GEMM main loop goes by TMA runs persistent and
  /// warp-specialized: a grid of one block per SM, each looping over program ids, a producer
  /// warpgroup copying the operands ahead across programs while the consumer warps multiply and
  /// store (passes/SpecializeWarps.cpp). 0: one block per program.
  int persistent = 0;
  /// 1 (with tma=1): a pipelined loop whose copies all go by TMA refills each stage from the
  /// warp that releases it last instead of after a barrier of the program at the top of the
  /// next iteration (passes/ReleaseStages.cpp). 0: the barrier.
  int release = 0;
  /// 1: float maximum/minimum compile to one max.NaN/min.NaN instruction (IEEE 754-2019: a NaN
  /// operand gives the canonical NaN, +0 is above −0) instead of NaN tests and branches that
  /// return the NaN operand itself (passes/SelectMinMax.cpp). Which form leaves ptxas fewer
  /// registers to spill depends on the program, so the tuner measures both.
  int minmax = 0;
  /// 1 (sm_90a): the warpgroups of a program issue the wgmma products of its pipelined loops
  /// each in turn, the first warpgroup first (passes/TakeTurns.cpp; FlashAttention-3's
  /// ping-pong). 0: each warpgroup issues whenever it gets there.
  int turns = 0;
  /// 1 (sm_90a, with tma=1 and release=1): a producer warpgroup after the program's threads
  /// issues the copies of its released loop, each stage's once every consumer warp has
  /// released it (passes/SpecializeProducer.cpp); with persistent=1 too, in a persistent
  /// grid, across the block's programs. 0: the warp that releases a stage last refills it.
  int producer = 0;
};

/// The architectures of one compilation.
struct GpuTarget {
  std::vector<GpuArch> archs;
  /// The configuration being compiled (a tuning table's or `--config`'s); none by default.
  LaunchKnobs knobs;

  /// Shared memory a block may use on every architecture (the smallest opt-in limit).
  int64_t sharedPerBlock() const;
  /// The architecture performance heuristics tune for: the newest one compiled.
  const GpuArch &tuning() const;
  /// True when some architecture has Hopper's wgmma and TMA (sm_90a): programs with TMA copies
  /// are then built too, and dispatched on devices that run that architecture's code.
  bool hasHopper() const;
  /// "sm_80, sm_90a".
  std::string str() const;
};

/// The model of architecture `name` ("80", "sm_90a", "90a-real", "compute_86"); nullopt for
/// an architecture ntc does not know or cannot compile for (before sm_80).
std::optional<GpuArch> gpuArch(const std::string &name);

/// The default target of a CUDA build: sm_80 and sm_90a, as add_nt_kernel's default.
GpuTarget defaultGpuTarget();

/// The target of a list of architectures (comma- or semicolon-separated entries allowed);
/// throws std::invalid_argument naming an unknown or unsupported entry. `native`, `all` and
/// `all-major` mean the default target.
GpuTarget parseGpuTarget(const std::vector<std::string> &names);

} // namespace ntc
