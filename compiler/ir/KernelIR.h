//===- KernelIR.h - the application as tile operations --------------------===//
//
// The kernel IR is what one program does: statements (local definitions, stores to
// arranged parameters, `for` loops over symbolic extents, `if` on compile-time
// conditions, and after guard-masks on uniform run-time integers) over typed tile values (static
// dtype and shape; shapes are symbolic integers until a variant fixes the meta-parameters). Nodes
// are immutable and shared through cheap handles, in Halide's style.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/DType.h"
#include "ir/Kernel.h"
#include "ir/TileLayout.h"
#include "support/SymExpr.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ntc::kir {

/// The static type of a tile value: element type, shape (rank 0 = scalar) and, on the GPU
/// path after layout assignment, its layout (null: blocked).
struct TileType {
  DType dtype = DType::Float32;
  std::vector<Expr> shape;
  LayoutRef layout = nullptr;
  std::string str() const;
};

/// Kinds of tile values.
enum class ValueKind {
  Load,          ///< load of an arranged parameter's tile (param, subscripts)
  ScalarParam,   ///< a run-time or compile-time scalar parameter
  Constant,      ///< a number (weakly typed: adopts the other operand's dtype)
  Index,         ///< a symbolic integer (loop index, size) as a scalar
  Local,         ///< the current value of a local variable
  Full,          ///< a tile filled with a constant
  Arange,        ///< start, start+1, ..., end-1
  Unary,         ///< elementwise function (op: "neg", "exp", "not", ...)
  Binary,        ///< elementwise operator (op: "add", "lt", "maximum", ...)
  Where,         ///< where(cond, a, b)
  Cast,          ///< element type conversion
  Reduce,        ///< sum/max/min/argmax over an axis or all
  Dot,           ///< matrix product with accumulation type = result dtype (GPU: a third operand
                 ///< is the accumulator it adds to, passes/FuseDotAccumulate.cpp)
  Trans,         ///< 2-D transpose
  ExpandDims,    ///< insert a size-1 axis
  BroadcastTo,   ///< broadcast to a shape
  Offsets,       ///< source coordinates of an access along one source dimension
  Rand,          ///< Philox uniform [0, 1) from (seed, offsets)
  ConvertLayout, ///< GPU: the operand in this value's layout (`transpose`: of its transpose)
  SharedStage,   ///< GPU: views the stage of a pipelined copy (completed by AsyncWait)
};

struct ValueNode;
/// A handle to an immutable tile value.
using Value = std::shared_ptr<const ValueNode>;

/// One tile value.
struct ValueNode {
  ValueKind kind = ValueKind::Constant;
  TileType type;
  std::string op;               ///< Unary/Binary/Reduce operation name
  std::vector<Value> operands;  ///< inputs
  int param = -1;               ///< Load/ScalarParam/Offsets: index into arranged params
  std::vector<Expr> subscripts; ///< Load/Offsets: indices of the middle levels
  Expr integer;      ///< Index: the value; Arange: start; Offsets: source dim; staged ConvertLayout
                     ///< and SharedStage: the loop iteration whose stage is meant
  Expr integer2;     ///< Arange: end; staged ConvertLayout and SharedStage: the loop's first index
  double number = 0; ///< Constant/Full: the value
  bool weak = false; ///< Constant: adopts the other operand's dtype
  int64_t axis = -1; ///< Reduce/ExpandDims: axis; -1 with allAxes = everything
  bool allAxes = false;   ///< Reduce over every axis
  std::string local;      ///< Local: variable name
  bool transpose = false; ///< ConvertLayout: the result is the operand's 2-D transpose
  /// Dot of float32 operands: NineToothed's input precision "tf32" or "tf32x3" (tensor cores on
  /// the GPU; the CPU multiplies in IEEE), or "" for IEEE.
  std::string precision;
  /// Dot on the GPU: its A operand is a temporary that this product alone reads
  /// (mark-dying-operands), so the tensor cores may take its registers as they are.
  bool aDies = false;
  /// Load on the GPU path: elements per vector instruction of the program with vector
  /// accesses (plan-vector-chunks), 0 when it is read element by element.
  int vectorChunk = 0;
  /// Cast on the GPU path from float32 to a 16-bit float: every NaN its operand can hold is the
  /// GPU's canonical one (mark-canonical-nans), so the narrowing needs no test for NaN payloads.
  bool canonicalNaN = false;
  /// Binary maximum/minimum of floats on the GPU: compiled to one max.NaN/min.NaN instruction
  /// (select-min-max, knob minmax=1) rather than NaN tests and branches.
  bool oneInstruction = false;
  /// Dot on the GPU: the program's warpgroups issue this product each in turn, warpgroup 0
  /// first, through named barriers `turn`, `turn` + 1, ... (take-turns); -1: whenever they get
  /// there.
  int turn = -1;
  /// With `turn`: this product opens the warpgroup's turn (waits for it) and closes it (passes
  /// it on); a turn spanning several products issued one after the other is opened by the first
  /// and closed by the last.
  bool turnOpens = true;
  bool turnCloses = true;
  /// Binary mul on the GPU of a loop-carried tile by a broadcast factor (the second operand):
  /// a warp whose factors are all exactly one keeps the tile without multiplying
  /// (skip-unit-factors).
  bool unlessOne = false;
};

/// Kinds of statements. The last eight exist on the GPU path only (passes/PipelineLoads.cpp,
/// passes/OverlapProducts.cpp, passes/ReleaseStages.cpp, passes/SpecializeProducer.cpp).
enum class StmtKind {
  Define,
  Assign,
  Store,
  For,
  If,
  AsyncCopy,    ///< if begin < end: start copying `value` (a staged ConvertLayout) to its stage
  AsyncCommit,  ///< closes the group of copies started since the last commit
  AsyncWait,    ///< waits until at most `begin` committed groups are in flight (the copies of
                ///< iteration `end` of a loop starting at `step` have landed), then a barrier
  DotIssue,     ///< starts `var <- value` (a Dot) on the tensor cores
  DotWait,      ///< completes the product that DotIssue started into `var` while `begin`
                ///< products issued after it stay in flight
  Barrier,      ///< every thread of the program reaches this point before any goes on
  StageRelease, ///< every warp is done reading the stage of iteration `end` (of a loop from
                ///< `step`) of TMA ring `group`; the warp that releases it last refills it
                ///< (`body`: its copies), or, with an empty body, the producer does
  StageAcquire, ///< the producer warpgroup waits until every consumer warp has released the
                ///< stage of iteration `end` (of a loop from `step`) of TMA ring `group`, then
                ///< refills it (`body`: its copies), once it has acquired the stage's last
                ///< fill (a stage filled and not acquired since)
  /// every warp releases each stage of TMA ring `group` that it has waited for and not
  /// released (a persistent program's last stages)
  StageReleaseHeld,
};

/// A condition on integers: compile-time in the translated IR (meta-parameters and constexpr
/// scalars; specialize folds it), or, once guard-masks has run, on integers uniform over the
/// program (the loop index, program coordinates, sizes).
struct Cond {
  enum class Kind { True, False, NonZero, Less, LessEqual, Equal, Not, And, Or };
  Kind kind = Kind::True;
  Expr a, b;
  std::vector<Cond> operands;
  /// The condition with the given symbol values; Kind::True/False when decided.
  Cond substitute(const std::map<std::string, Expr> &values) const;
  std::string str() const;
};

struct StmtNode;
/// A handle to an immutable statement.
using Stmt = std::shared_ptr<const StmtNode>;

/// One statement.
struct StmtNode {
  StmtKind kind = StmtKind::Define;
  std::string var;              ///< Define/Assign: local name; For: loop index symbol name
  Value value;                  ///< Define/Assign/Store: the value
  int param = -1;               ///< Store: arranged parameter
  std::vector<Expr> subscripts; ///< Store: indices of the middle levels
  Expr begin, end, step;        ///< For; AsyncWait: begin, the groups that may stay in flight
  Cond cond;                    ///< If
  std::vector<Stmt> body;       ///< For body, If then-branch
  std::vector<Stmt> orelse;     ///< If else-branch
  int vectorChunk = 0;          ///< Store: as ValueNode::vectorChunk
  /// AsyncCopy, AsyncWait: the pipelined loop they belong to (numbered by pipeline-loads; the
  /// copies of one loop share its stages and waits). For: a GEMM main loop whose operands go
  /// by TMA, the Function::tmaRings entry of its copies (use-tensor-maps).
  int group = -1;
  /// AsyncCopy: the Function::tensorMaps entry it copies through (TMA), or -1 (cp.async);
  /// Store: the entry it stores through (TMA, staged in the scratch region at offset 0), or -1.
  int tensorMap = -1;
  /// DotIssue, DotWait: the product's A operand is in registers, which the tensor cores read
  /// until the wait (ntc::dev::dot_in_flight keeps them); false: A is in shared memory.
  bool registerOperand = false;
};

/// A padded tile extent: run-time sizes used as tile extents are compiled for powers of
/// two up to `upperBound` and masked down to the real size. All run-time extents with the
/// same upper bound share one stand-in symbol, chosen at launch as the next power of two
/// of the largest of them (masks use each real extent, so sharing is always correct and
/// keeps tiles of tied sizes, such as a softmax's input and output rows, the same shape).
struct PaddedExtent {
  std::string symbol;        ///< the compile-time stand-in used in tile shapes
  std::vector<Expr> actuals; ///< the run-time extents it stands for
  int64_t upperBound;        ///< a power of two
  int64_t value = 0;         ///< the compiled extent, once a variant is specialized
  /// Set by passes::pinPaddedExtents when a tile of this extent is broadcast with a tile of a
  /// constant extent: the only compiled extent, and every actual must equal it at run time.
  std::optional<int64_t> pinned;
};

/// The prefix of the stand-in symbols of padded extents (`NP2_<upper bound>`).
inline constexpr const char *kPaddedPrefix = "NP2_";

/// True when `e` is the stand-in symbol of a padded extent.
bool isPaddedExtent(const Expr &e);

/// A tensor map (TMA) through which pipelined copies read a parameter: the box is one column
/// block of their Swizzled<swizzleBytes> stage layout (see passes/UseTensorMaps.cpp).
struct TensorMapUse {
  int param = -1;           ///< the source parameter (KernelSpec::params)
  std::vector<int64_t> box; ///< elements per dimension of the parameter, outermost first
  int swizzleBytes = 0;     ///< 32, 64 or 128
};

/// The mbarriers of the TMA copies of one pipelined loop (ntc::dev::tma_ring).
struct TmaRing {
  int group = -1;   ///< the loop (StmtNode::group)
  int stages = 0;   ///< its stages: one barrier each
  int arrivals = 0; ///< TMA copies per iteration
  /// Warps that release stages once they no longer read them (a GEMM main loop's: every
  /// warp of the program), each stage then with a second barrier; 0: none.
  int releasers = 0;
  /// With releasers: the stage's copies are issued by the warp that releases it last (a
  /// StageRelease's body) rather than by thread 0 after acquiring it; each stage then has a
  /// release counter instead of a second barrier (passes/ReleaseStages.cpp).
  bool lastReleaserRefills = false;
  int64_t byteOffset = 0;      ///< where the barriers lie in the program's shared memory
  bool asyncCopiesToo = false; ///< the loop keeps cp.async copies (its waits wait for both)
  /// The program reads its stages through descriptors of wgmma alone (no thread loads or stores
  /// them), so a thread's wait needs no fence.proxy.async to order its own accesses before the
  /// stage's next copy (passes/UseTensorMaps.cpp).
  bool tensorCoreReadsOnly = false;
  /// A GEMM main loop's ring (the For statement's group): the maps of its A and B operands.
  std::vector<int> operandMaps;
  /// > 1: the program runs in clusters of this many (consecutive program numbers), whose rings
  /// share the copies of operand `multicastOperand` (0: A, 1: B) of the GEMM main loop.
  int cluster = 1;
  int multicastOperand = -1;
};

/// A warp-specialized program: `consumerThreads` threads run the body and a producer warpgroup
/// of `producerThreads` after them issues the TMA copies; each side sets its registers per
/// thread (setmaxnreg). Persistent (passes/SpecializeWarps.cpp): each block runs program ids
/// blockIdx.x, blockIdx.x + gridDim.x, ... and the producer issues the copies of their GEMM
/// main loops ahead, across programs. Otherwise (passes/SpecializeProducer.cpp) a block runs
/// one program, whose producer runs `producerBody`: the copies of its released loop, each
/// stage's once its consumers have released it.
struct WarpSpecialization {
  bool persistent = true; ///< the block loops over programs (a grid of one block per SM)
  /// The producer's statements (per program where persistent: specialize-producer); empty: the
  /// producer issues the copies of the GEMM main loop (specialize-warps).
  std::vector<Stmt> producerBody;
  int consumerThreads = 0;
  int producerThreads = 128;
  int consumerRegisters = 0;
  int producerRegisters = 0;
  /// Where the TMA stores stage their tiles: a region of their own after the ring's barriers, so
  /// that a store's reads overlap the next program's main loop.
  int64_t storeStaging = 0;
  /// The rounds in which a TMA store stages its tile (the region holds 1 / storeRounds of it).
  int storeRounds = 1;
  int64_t totalBytes = 0; ///< the block's shared memory, staging included
};

/// The application of one kernel in kernel IR.
struct Function {
  KernelSpec spec;
  std::vector<Stmt> body;
  std::vector<PaddedExtent> padded;
  /// Conditions on run-time sizes that the application needs (a constant subscript within
  /// an inner level whose extent is a run-time size); the wrapper checks them.
  std::vector<ExtentCheck> checks;
  /// GPU, once use-tensor-maps has run: the tensor maps the program reads through and the
  /// barriers of its TMA copies.
  std::vector<TensorMapUse> tensorMaps;
  std::vector<TmaRing> tmaRings;
  /// GPU, once specialize-warps has run: the program is persistent and warp-specialized.
  std::optional<WarpSpecialization> warpSpecialization;
  /// GPU, once take-turns has run: the first named barrier of each turn (a product, or a run of
  /// products issued back to back, that the warpgroups issue in turn: ValueNode::turn); the
  /// program gives warpgroup 0 each first turn at its start and takes back each last one at
  /// its end.
  std::vector<int> turnBarriers;
};

// ---- constructors (type inference and checks live in these) -------------------------------

/// Thrown for type and shape errors; the front end adds the source location.
struct TypeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Value makeLoad(int param, std::vector<Expr> subscripts, TileType type);
Value makeScalarParam(int param, DType dtype);
Value makeConstant(double value, DType dtype, bool weak);
Value makeIndex(Expr value);
Value makeLocal(const std::string &name, TileType type);
Value makeFull(std::vector<Expr> shape, double value, DType dtype);
Value makeArange(Expr begin, Expr end);
Value makeUnary(const std::string &op, Value x);
Value makeBinary(const std::string &op, Value a, Value b);
Value makeWhere(Value cond, Value a, Value b);
Value makeCast(Value x, DType dtype);
Value makeReduce(const std::string &op, Value x, std::optional<int64_t> axis);
/// dot(a, b); `precision` ("ieee", "tf32", "tf32x3" or "") is kept for float32 operands only.
Value makeDot(Value a, Value b, const std::string &precision = "");
/// GPU: `acc + dot(a, b)` as one product that accumulates into acc (which has the product's
/// type, layout included).
Value makeDotAccumulate(Value a, Value b, Value acc, const std::string &precision = "");
Value makeTrans(Value x);
Value makeExpandDims(Value x, int64_t axis);
Value makeBroadcastTo(Value x, std::vector<Expr> shape);
/// Source coordinates along source dimension `dim` of the access (type computed by the caller
/// from the layout).
Value makeOffsets(int param, std::vector<Expr> subscripts, int64_t dim, TileType type);
Value makeRand(Value seed, Value offsets);
/// `x` in `layout` (GPU path; `transpose` swaps the two dimensions on the way).
Value makeConvertLayout(Value x, LayoutRef layout, bool transpose);
/// `load` copied into a pipelined shared buffer (`staged`) for `iteration` of a loop starting
/// at `first` (`transpose`: the shared tile is the load's transpose).
Value makeStagedCopy(Value load, LayoutRef staged, bool transpose, Expr iteration, Expr first);
/// `v` with its layout replaced (GPU path: a value materialized directly in a layout).
Value withLayout(const Value &v, LayoutRef layout, std::vector<Value> operands);

/// `v` (a load) with ValueNode::vectorChunk set to `chunk`.
Value withVectorChunk(const Value &v, int chunk);
/// `s` (a store) with StmtNode::vectorChunk set to `chunk`.
Stmt withVectorChunk(const Stmt &s, int chunk);
/// `s` with its value replaced by `v` (everything else kept).
Stmt withValue(const Stmt &s, Value v);
/// `s` (an AsyncCopy or a Store) going through tensor map `map` (Function::tensorMaps).
Stmt withTensorMap(const Stmt &s, int map);
/// `s` with StmtNode::group set to `group`.
Stmt withGroup(const Stmt &s, int group);

Stmt makeDefine(const std::string &name, Value v);
Stmt makeAssign(const std::string &name, Value v);
Stmt makeStore(int param, std::vector<Expr> subscripts, Value v);
Stmt makeFor(const std::string &index, Expr begin, Expr end, Expr step, std::vector<Stmt> body);
Stmt makeIf(Cond cond, std::vector<Stmt> then, std::vector<Stmt> orelse);
/// GPU: when `iteration < end`, start the copy `staged` (a ConvertLayout of a load into a
/// pipelined shared buffer, for that iteration) of pipelined loop `group`.
Stmt makeAsyncCopy(Value staged, Expr iteration, Expr end, int group);
/// GPU: close the group of asynchronous copies started since the last commit.
Stmt makeAsyncCommit();
/// GPU: wait until at most `pending` committed groups of copies are in flight, then a barrier
/// that makes the completed copies visible to every thread (and to the tensor cores). The
/// copies completed are those of `iteration` of pipelined loop `group`, which starts at `first`.
Stmt makeAsyncWait(int64_t pending, Expr iteration, Expr first, int group);
/// GPU: start `name <- product` without waiting for it: a Dot with an accumulator operand and
/// A in registers (the tensor cores hold those registers until the wait), or a Dot without one
/// whose A lies in shared memory. `name` must not be read before the DotWait of the same name.
Stmt makeDotIssue(const std::string &name, Value product);
/// GPU: complete the product that the DotIssue of `name` started, while the `pending` products
/// issued after it may stay in flight; `registerOperand`: that DotIssue's A is in registers.
Stmt makeDotWait(const std::string &name, int64_t pending = 0, bool registerOperand = true);
/// GPU: a barrier of every thread of the program.
Stmt makeBarrier();
/// GPU: every warp is done reading the stage that holds the copies of `iteration` of the
/// pipelined loop `group` (starting at `first`), whose TMA ring refills stages by their last
/// releaser; that warp then issues `refill` (the stage's next copies).
Stmt makeStageRelease(Expr iteration, Expr first, int group, std::vector<Stmt> refill);
/// StageAcquire of the stage of iteration `iteration` (of a loop from `first`) of ring `group`,
/// then its `refill` (TMA copies of that ring).
Stmt makeStageAcquire(Expr iteration, Expr first, int group, std::vector<Stmt> refill);
/// StageReleaseHeld of ring `group`.
Stmt makeStageReleaseHeld(int group);
/// GPU: the stage of a pipelined shared buffer (`layout`) holding the copy for `iteration` of
/// a loop starting at `first`, once that copy has completed.
Value makeSharedStage(TileType type, Expr iteration, Expr first);

/// NumPy broadcasting of two shapes; throws TypeError when they are incompatible.
std::vector<Expr> broadcastShapes(const std::vector<Expr> &a, const std::vector<Expr> &b);
/// The dtype two operands are promoted to (see docs/kernel-ir.md).
DType promote(const Value &a, const Value &b);

/// Readable listing of a function (`--emit ir`).
std::string print(const Function &f);

/// Rewritten values by original node (see mapValue).
using ValueMemo = std::unordered_map<const ValueNode *, Value>;

/// `v` rebuilt bottom-up: the operands of each node are mapped first, then
/// `replace(node, mappedOperands)` gives the node's replacement, or null to keep the node (rebuilt
/// with the mapped operands when one of them changed). Each distinct node is mapped once per
/// `memo`, so the rewrite is linear in the number of nodes.
Value mapValue(const Value &v,
               const std::function<Value(const Value &, const std::vector<Value> &)> &replace,
               ValueMemo &memo);

/// Calls `f` once on `v` and on every distinct value below it (operands after their first
/// user): shared operands are visited once, so the walk is linear in the number of nodes.
void forEachValue(const Value &v, const std::function<void(const Value &)> &f);

/// True when `v` or a value below it reads local `name`.
bool readsLocal(const Value &v, const std::string &name);

/// `body` rebuilt with `f` applied to the value of every statement that has one (definitions,
/// assignments, stores, asynchronous copies), nested bodies included; the others are kept.
std::vector<Stmt> mapStmtValues(const std::vector<Stmt> &body,
                                const std::function<Value(const Value &)> &f);

/// `body` with every value node for which `marks(node)` holds replaced by a copy (its operands
/// rewritten likewise) that `mark` changes: how a pass sets a flag of ValueNode.
std::vector<Stmt> markValues(const std::vector<Stmt> &body,
                             const std::function<bool(const Value &)> &marks,
                             const std::function<void(ValueNode &)> &mark);

/// `body` with symbol `name` (a loop index) replaced by `by` in every expression of its
/// statements and values: bounds, conditions, subscripts, stage iterations.
std::vector<Stmt> substituteSymbol(const std::string &name, const Expr &by,
                                   const std::vector<Stmt> &body);

/// `body` rebuilt loop by loop, innermost first: each For, with its body rebuilt first, goes to
/// `rewrite` with the number of loops around it; `rewrite` appends the loop's replacement to
/// `out` and returns true, or returns false to keep the loop. Ifs are rebuilt around theirs.
std::vector<Stmt> rewriteLoops(
    const std::vector<Stmt> &body,
    const std::function<bool(const Stmt &loop, int depth, std::vector<Stmt> &out)> &rewrite,
    int depth = 0);

/// Calls `f` on every statement of `body`, outermost first; when `f` returns false the
/// statement's nested bodies are skipped.
void forEachStmt(const std::vector<Stmt> &body, const std::function<bool(const Stmt &)> &f);

/// How many values and statements read each value node of `body` (a node shared by two readers
/// counts twice).
std::unordered_map<const ValueNode *, int> useCounts(const std::vector<Stmt> &body);

/// Calls `f` once on every distinct value of every statement of `body`, nested bodies
/// included.
void forEachValue(const std::vector<Stmt> &body, const std::function<void(const Value &)> &f);

} // namespace ntc::kir
