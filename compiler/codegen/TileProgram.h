//===- TileProgram.h - one program of a specialized kernel ----------------===//
//
// The program body is the same for every target: it unravels the program id into the
// grid coordinates and runs the kernel IR's statements on tile values of a tile library
// (ntc::cpu on the host, ntc::dev on the GPU). A Dialect says how one library spells
// tile types, creation, memory access and the operations that need shared memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/KernelIR.h"
#include "passes/Passes.h"

#include <sstream>
#include <string>

namespace ntc::codegen {

/// How a tile library spells what the program emitter needs.
class Dialect {
public:
  virtual ~Dialect() = default;
  /// The library namespace ("ntc::cpu").
  virtual std::string ns() const = 0;
  /// The element type of a dtype.
  virtual std::string element(DType t) const = 0;
  /// Integer type of the multi-index handed to access lambdas ("int64_t").
  virtual std::string laneIndexType() const = 0;
  /// Template arguments and leading call arguments that give a tile of this element type
  /// and shape to the creation function `fn` (scalar, full, arange, load, generate):
  /// `<T>(Shape{...}, ` on the CPU, `<T, Shape<...>, kThreads>(` on the GPU.
  /// `layout`: the value's layout (GPU; null for blocked).
  virtual std::string creation(const std::string &fn, const std::string &element,
                               const std::vector<int64_t> &shape,
                               const kir::LayoutRef &layout) const = 0;
  /// The library's spelling of a layout (null: the blocked layout); empty where the library
  /// has only one layout.
  virtual std::string layoutType(const kir::LayoutRef &) const { return ""; }
  /// The library's compile-time shape type (`ntc::dev::Shape<64, 128>`); only libraries with
  /// shared-memory tiles (the GPU) have one.
  virtual std::string shapeType(const std::vector<int64_t> &shape) const;
  /// Extra trailing argument of operations that communicate between threads.
  virtual std::string scratch() const = 0;
  /// True when operands of elementwise operations must be broadcast explicitly.
  virtual bool explicitBroadcast() const = 0;
  /// `op(x, axis)` or `op<axis>(x, scratch)` for a reduction or expand_dims.
  virtual std::string withAxis(const std::string &op, const std::string &x, int64_t axis,
                               bool communicates) const = 0;
  /// `broadcast_to(x, shape)` in the library's spelling.
  virtual std::string broadcastTo(const std::string &x,
                                  const std::vector<int64_t> &shape) const = 0;
  /// The function header and prologue of the program `name` (up to the program id in
  /// `ntc_program`).
  virtual std::string prologue(const kir::Function &f, const std::string &name) const = 0;
  /// Closing of the program function.
  virtual std::string epilogue() const = 0;
  /// Threads of the block when GEMM main loops (passes::planDotLoop) are emitted as one
  /// `dot_loop` call; 0 when loops always run statement by statement.
  virtual int dotLoopThreads() const { return 0; }
  /// The extra argument of a dot call for a Dot's input precision ("tf32", "tf32x3"; "" for
  /// IEEE), with its leading comma; "" where the target has no choice (the CPU).
  virtual std::string dotPrecision(const std::string & /*precision*/) const { return ""; }
  /// The trailing argument of a product whose A operand dies there (ValueNode::aDies).
  virtual std::string dyingOperand() const { return ""; }
  /// The statement that gives warpgroup 0 the first turn of products taking turns through
  /// named barriers from `barrier` on (Function::turnBarriers; none on the CPU).
  virtual std::string turnsBegin(int /*barrier*/) const { return ""; }
  /// The statement that takes back the last turn of those products at the program's end.
  virtual std::string turnsEnd(int /*barrier*/) const { return ""; }
  /// The trailing arguments of a product that the warpgroups issue in turn through named
  /// barriers from `barrier` on (take-turns): the operand mark (`dying`) and the turn, which the
  /// product `opens` (waits for) and `closes` (passes on).
  virtual std::string turnArguments(bool dying, int barrier, bool opens, bool closes) const {
    (void)barrier;
    (void)opens;
    (void)closes;
    return dying ? dyingOperand() : std::string();
  }
  /// The GPU target model of the programs (null on the CPU).
  virtual const GpuTarget *gpuTarget() const { return nullptr; }
  /// How many programs one block runs (passes::programsPerBlock; 1 on the CPU).
  virtual int programsPerBlock() const { return 1; }
  /// True when every launch of the program has stride 1 in dimension `dim` of parameter
  /// `param` (the dispatcher checked it), so the prologue makes that stride the constant 1.
  virtual bool unitStride(int /*param*/, int /*dim*/) const { return false; }
};

/// Emit the program `name` of a specialized function with the given dialect.
void emitProgram(const kir::Function &specialized, const passes::GridInfo &grid,
                 const std::string &name, const Dialect &dialect, std::ostringstream &os);

} // namespace ntc::codegen
