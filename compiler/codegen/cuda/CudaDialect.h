//===- CudaDialect.h - how the device tile library spells things ----------===//
#pragma once

#include "codegen/TileProgram.h"

namespace ntc::codegen {

/// The struct of the tensor maps a program with TMA copies takes (`<program>_maps`).
std::string tensorMapsStructName(const std::string &program);

/// ntc::dev: statically shaped tiles spread over the `threads` threads of a block (in the
/// layouts of their types); a program is a __global__ function template over the index type,
/// one block per grid element, with the dynamic shared memory (1024-byte aligned, as swizzled
/// stage buffers need) that passes::allocateShared planned for the operations that communicate
/// between threads.
class CudaDialect : public Dialect {
public:
  /// A dialect for programs of `threads` threads (their dynamic shared memory is placed by
  /// passes::allocateShared). `vectorConditions` are those of passes::planVectorChunks, which
  /// the dispatcher checks before the launch of the program with vector accesses: each implies
  /// stride 1 in its dimension.
  /// `programs` > 1 (passes::programsPerBlock): a block runs that many one-warp programs,
  /// each with `smemPerProgram` bytes of the dynamic shared memory. `minBlocks` > 0: the
  /// resident blocks per SM that __launch_bounds__ asks registers for
  /// (passes::minBlocksPerMultiprocessor), in the program of 32-bit indices only: 64-bit index
  /// arithmetic takes registers that the request does not count.
  CudaDialect(int threads, const GpuTarget &gpu,
              std::vector<passes::VectorCondition> vectorConditions = {}, int programs = 1,
              int64_t smemPerProgram = 0, int minBlocks = 0)
      : threads_(threads), gpu_(gpu), vectorConditions_(std::move(vectorConditions)),
        programs_(programs), smemPerProgram_(smemPerProgram), minBlocks_(minBlocks) {}
  std::string ns() const override;
  std::string element(DType t) const override;
  std::string laneIndexType() const override;
  std::string creation(const std::string &fn, const std::string &element,
                       const std::vector<int64_t> &shape,
                       const kir::LayoutRef &layout) const override;
  std::string layoutType(const kir::LayoutRef &layout) const override;
  std::string shapeType(const std::vector<int64_t> &shape) const override;
  std::string scratch() const override;
  bool explicitBroadcast() const override;
  std::string withAxis(const std::string &op, const std::string &x, int64_t axis,
                       bool communicates) const override;
  std::string broadcastTo(const std::string &x, const std::vector<int64_t> &shape) const override;
  std::string prologue(const kir::Function &f, const std::string &name) const override;
  std::string epilogue() const override;
  int dotLoopThreads() const override;
  std::string dotPrecision(const std::string &precision) const override;
  std::string dyingOperand() const override;
  std::string turnsBegin(int barrier) const override;
  std::string turnsEnd(int barrier) const override;
  std::string turnArguments(bool dying, int barrier, bool opens, bool closes) const override;
  const GpuTarget *gpuTarget() const override { return &gpu_; }
  bool unitStride(int param, int dim) const override;
  int programsPerBlock() const override { return programs_; }

private:
  int threads_;
  GpuTarget gpu_;
  std::vector<passes::VectorCondition> vectorConditions_;
  int programs_;
  int64_t smemPerProgram_;
  int minBlocks_;
};

} // namespace ntc::codegen
