//===- Passes.h - the compiler's passes -----------------------------------===//
//
// Each pass is one function in one file of this folder; Pipeline.cpp runs them in order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/KernelIR.h"
#include "target/GpuTarget.h"

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ntc::passes {

/// A run-time check that two extents agree (sizes the arrangement ties together).
struct ShapeTie {
  Expr a, b;
  std::string whatA, whatB; ///< how to name each side in a message ("lhs.shape[0]")
};

/// The launch grid and the size checks the wrapper performs before launching.
struct GridInfo {
  int anchor = -1;            ///< arranged parameter whose level 0 defines the grid (-1: none)
  std::vector<Expr> extents;  ///< level-0 extents of the anchor, outermost first
  std::vector<ShapeTie> ties; ///< extents that must be equal at run time
  /// > 0: the programs of each plane of the last two grid dimensions are numbered in bands of
  /// this many rows, column after column inside a band (grouped order, for L2 reuse of the
  /// operands of GEMM-like programs); 0: row-major, the last dimension fastest.
  int64_t bandRows = 0;
  /// With bandRows > 0, the banded plane: its rows are grid dimensions [bandRowsFirst,
  /// bandColumn) taken together, its columns dimension bandColumn; the dimensions after
  /// bandColumn are numbered fastest and those before bandRowsFirst slowest. GEMM-like grids
  /// band their last two dimensions.
  size_t bandRowsFirst = 0;
  size_t bandColumn = 0;
  /// True when the banded plane is the grid's last two dimensions (GEMM-like grids).
  bool bandsLastTwo() const {
    return bandRowsFirst + 2 == extents.size() && bandColumn == bandRowsFirst + 1;
  }
  /// Grid dimensions numbered last to first (empty: none): the program with the largest
  /// coordinate along such a dimension runs first, because its loops run longest.
  std::vector<bool> reversed;
};

/// Problems that make a kernel invalid at compile time.
struct VerifyError {
  std::string message;
};

/// verify: the outermost levels of all arranged tensors must agree. Returns the
/// problems it can prove at compile time (e.g. ranks or constant extents differ).
std::vector<VerifyError> verifyLaunchGrid(const KernelSpec &spec);

/// infer-grid: the grid (level 0 of the first tensor parameter) and the run-time ties:
/// level-0 extents of every tensor against the anchor, and the extents of inner levels
/// walked by one loop index (`for k < lhs.shape(0)` ... `rhs[k]` ties lhs's and rhs's K).
GridInfo inferGrid(const kir::Function &f);

/// The grid with a variant's values (meta-parameters, nt::Constexpr scalars, padded extents)
/// substituted: what one specialized program sees (an arrangement may use a Constexpr as a tile
/// stride, so the extents of the grid depend on it).
GridInfo specializeGrid(GridInfo grid, const std::map<std::string, int64_t> &values);

/// A compiled variant: values of meta-parameters, padded extents and constexpr scalars,
/// and the index width.
/// Which target the variants are built for.
enum class Target { Cpu, Cuda };

struct Variant {
  std::map<std::string, int64_t> values;
  bool index64 = false;
  std::string suffix; ///< unique, readable name part ("v3")
  int config = 0;     ///< the configuration it compiles (an index into the kernel's configs)
};

/// A tuning configuration: values of the meta-parameters and the launch knobs of the GPU that
/// it fixes (0 in `knobs`: the planner decides, as without a configuration).
struct Config {
  std::map<std::string, int64_t> metas;
  LaunchKnobs knobs;
  /// The compute capabilities × 10 the dispatcher runs it on (a tuning table's entries that
  /// chose it, measured there): it is planned for those of the target's architectures alone.
  /// Empty: every architecture of the target (the default, `--config`).
  std::vector<int> archs;
};

/// Every allowed combination of meta-parameter values (powers of two within each one's bounds).
std::vector<std::map<std::string, int64_t>> metaCombinations(const KernelSpec &spec);

/// Meta-parameter values with what specialize needs besides them, to plan one configuration
/// before the sizes are known: padded extents at their smallest compiled value, constexpr
/// scalars at their first.
std::map<std::string, int64_t> probeValues(const kir::Function &f,
                                           std::map<std::string, int64_t> values);

/// A configuration's stable id: `NAME=V` per meta-parameter in declaration order, then
/// `warps=W`, `stages=S`, `group=G`, `overlap=1` (or 2), `tma=1`, `cluster=2`, `persistent=1`
/// and `release=1` for the knobs it fixes,
/// comma-separated; `none` when it fixes nothing.
std::string configId(const KernelSpec &spec, const Config &config);

/// The configuration of an id (configId's format); throws std::invalid_argument saying what is
/// wrong (an unknown name, a missing meta-parameter, a value outside its bounds).
Config parseConfigId(const KernelSpec &spec, const std::string &id);

/// The configuration compiled without a tuning table: the default meta-parameters
/// (defaultMetaValues) with every knob left to the planner.
Config defaultConfig(const kir::Function &f, Target target, const GpuTarget &gpu);

/// One shape bucket of a tuning table, as the generated dispatcher matches it
/// (ntc::rt::tuned_shape).
struct TunedShape {
  int arch = 0;                ///< compute capability × 10 of the GPU measured (90); 0: the CPU
  bool aligned16 = true;       ///< alignment class of the call (ntc::rt::aligned16 of every tensor)
  std::vector<int64_t> bucket; ///< size buckets of every tensor dimension, parameters in order
  int config = 0;              ///< the winner: an index into KernelTuning::configs
  /// The values of the integer nt::Constexpr parameters it was measured with (parameters in
  /// order; kAnyConstexprValue where the entry names none).
  std::vector<int64_t> values;
  /// The compiled extent of each padded tile extent (kir::Function::padded, in order) at the
  /// call it was measured with (compiledPaddedExtent; kAnyConstexprValue where the entry's
  /// sizes do not determine it). The dispatcher takes the entry for calls of extents up to
  /// these.
  std::vector<int64_t> padded;
};

/// TunedShape::values of a parameter the entry does not name (ntc::rt::any_value).
inline constexpr int64_t kAnyConstexprValue = std::numeric_limits<int64_t>::min();

/// True for a parameter whose values the variants are compiled for (an integer nt::Constexpr):
/// the keys of TunedShape::values.
bool isVariantConstexpr(const ParamSpec &p);

/// The smallest padded tile extent compiled (smaller run-time extents use it, masked), unless
/// the extent's upper bound is smaller.
inline constexpr int64_t kMinPaddedExtent = 16;

/// The extent a padded tile extent is compiled at for a run-time extent of `largest` (the
/// largest of its actuals): the next power of two, at least 16 (or the upper bound when that
/// is smaller). The dispatcher computes the same; a value above the upper bound is an error
/// of the call.
int64_t compiledPaddedExtent(const kir::PaddedExtent &p, int64_t largest);

/// What a tuning table gives one kernel.
struct KernelTuning {
  std::vector<Config> configs;    ///< the configurations to compile, the default first
  std::vector<TunedShape> shapes; ///< the buckets the dispatcher matches
};

/// `gpu` compiling `config`: its knobs set, and its architectures those of `config.archs` when
/// the target has some of them.
GpuTarget configuredTarget(const GpuTarget &gpu, const Config &config);

/// config-space: the configurations a tuner may try, the default first. The allowed
/// meta-parameter values (powers of two within the bounds), crossed on the GPU with warps per
/// program, ring stages and the grouped order's band for kernels with a GEMM main loop, with
/// ring stages for kernels whose loops pipeline their loads, and with warps per program (1, 2, 4
/// or 8) for kernels that reduce without multiplying; pruned by a static resource model
/// (the kernel must specialize, its GEMM loops must be planned with 32 to 128 accumulators per
/// thread, and its shared memory must fit every compiled architecture).
std::vector<Config> configSpace(const kir::Function &f, Target target, const GpuTarget &gpu);

/// Whether `config` passes config-space's static resource model for `f` on the target (always
/// on the CPU once the kernel specializes with its meta-parameters).
bool configFits(const kir::Function &f, const Config &config, Target target, const GpuTarget &gpu);

/// A 64-bit hash of what a kernel computes (its IR, parameters and meta-parameter bounds), as
/// 16 hex digits: tuning tables record it to notice a kernel that changed since it was tuned.
std::string kernelHash(const kir::Function &f);

/// build-variants: per configuration compiled (its meta-parameter values), the cross product of
/// padded tile extents (powers of two), constexpr scalar values and index widths. A tuned
/// configuration (not the first, the default) is compiled only for the constexpr values of the
/// entries of `tuned` that chose it and the padded extents up to theirs, as the dispatcher picks
/// it for no other call.
std::vector<Variant> buildVariants(const kir::Function &f, const std::vector<Config> &configs,
                                   const std::vector<TunedShape> &tuned = {});

/// The shared memory a block of `f` (padded extents pinned) needs at meta-parameter values
/// `metas` in its largest variant (every padded extent at its upper bound), with the planner's
/// knobs; nullopt when the GPU passes reject those values.
std::optional<int64_t> largestVariantSharedBytes(const kir::Function &f,
                                                 const std::map<std::string, int64_t> &metas,
                                                 const GpuTarget &gpu);

/// default-metas: the meta-parameter values used without a tuning table. On the CPU the lower
/// bounds. On the GPU, a kernel with GEMM main loops (planDotLoop) gets the allowed values
/// whose loops have the most arithmetic per byte (bm·bn / (bm + bn)), then the deepest ring
/// and the larger k step, among those whose accumulator fits 128 registers per thread; a kernel
/// with float16/bfloat16 products outside such loops (attention) the values that give its
/// shortest product 64 rows (one warpgroup per program), the largest such whose largest variant
/// fits a block's shared memory (largestVariantSharedBytes); otherwise every block size grows
/// towards 128.
std::map<std::string, int64_t> defaultMetaValues(const kir::Function &f, Target target,
                                                 const GpuTarget &gpu);

/// The number of elements of a specialized tile shape (every extent a constant).
int64_t shapeElements(const std::vector<Expr> &shape);

/// True when `f` reduces tiles and multiplies none: a memory-bound reduction such as a row-wise
/// softmax (more elements per thread by default, and a `warps` tuning knob).
bool reducesWithoutProducts(const kir::Function &f);

/// Threads of the block that runs one program on the GPU: from the largest tile, 32 to 256
/// (4 elements per thread; 8 for programs that reduce tiles and multiply none), at most one warp
/// per 16 rows of the shortest float16/bfloat16 product outside GEMM loops; a program with a
/// GEMM main loop (planDotLoop) up to 512, one warp per 4096 accumulator elements.
int blockThreads(const kir::Function &specialized, const GpuTarget &gpu);

/// order-programs: on the GPU, a kernel whose program (at the default meta-parameters) runs a
/// GEMM main loop over a grid of two dimensions or more numbers its programs in bands
/// (GridInfo::bandRows) whose rows × columns of tiles, for the programs that run at once, read
/// about as many bytes of one operand as of the other; every other grid stays row-major.
/// A grid dimension along which some loop's trip count only grows (causal attention's key
/// loop, which ends at the program's last query) is numbered last to first, so the longest
/// programs start first and the short ones fill the end of the launch. In a persistent
/// configuration (`persistent=1`) that dimension becomes the columns of bands of the grid's
/// slower dimensions (8 rows, or the configuration's `group`), so that the programs each block
/// takes in turn mix long and short ones.
GridInfo orderPrograms(const kir::Function &specialized, GridInfo grid, Target target,
                       const GpuTarget &gpu);

/// specialize: substitute a variant's values everywhere, fold compile-time `if`s and
/// check that every tile shape became a constant. Throws std::runtime_error otherwise.
kir::Function specialize(const kir::Function &f, const std::map<std::string, int64_t> &values);

/// mask-bounds (MaskBounds.cpp): the least value of loop index `index` from which the boolean
/// tile `cond` (comparisons of offsets, sizes and the index, joined by `&`) is false for every
/// element, when it can be derived.
std::optional<Expr> maskFalseFrom(const kir::Function &specialized, const kir::Value &cond,
                                  const std::string &index);

/// mask-bounds: the value of loop index `index` before which `cond` is true for every element,
/// when it can be derived.
std::optional<Expr> maskTrueBefore(const kir::Function &specialized, const kir::Value &cond,
                                   const std::string &index);

/// mask-bounds: the value of loop index `index` from which `cond` is true for every element,
/// when it can be derived.
std::optional<Expr> maskTrueFrom(const kir::Function &specialized, const kir::Value &cond,
                                 const std::string &index);

/// guard-masks: in a loop, a definition `x = where(cond, a, c)` whose condition holds for every
/// element before some index T becomes `x = a` followed by `if (T <= index) x = where(cond, x,
/// c)` (and `if (index < T)` when it holds from T on): the mask of a key block that is entirely
/// inside the sequence (and before the diagonal) is not computed.
kir::Function guardMasks(const kir::Function &specialized);

/// skip-masked-iterations: every `for` loop whose iterations from some index on provably leave
/// its state unchanged, because a `where` of the body replaces a value by a constant for every
/// element there (causal attention's key blocks past the program's last query), ends at that
/// index; its first iteration always runs. See SkipMaskedIterations.cpp for what is assumed.
kir::Function skipMaskedIterations(const kir::Function &specialized);

/// One bound check of an access mask: lo <= value (when checkLower) and value < extent
/// (when checkUpper).
struct MaskTerm {
  Expr value, extent;
  bool checkLower = true, checkUpper = true;
};

/// Source coordinates and mask of an access, in terms of the program coordinates
/// `pid0, pid1...` (the anchor's level 0), the subscripts and the lane indices
/// `lane0, lane1...` of the tile.
struct Access {
  std::vector<Expr> coords;
  std::vector<MaskTerm> mask;
  std::vector<Expr> laneExtents; ///< the tile's (compile-time) extents
};

/// The program coordinates that the level-0 index variables of arranged parameter `param`
/// stand for (`pid<d>` of the grid, or 0 for a dimension of extent 1).
std::map<std::string, Expr> programSubstitution(const KernelSpec &spec, int param);

/// resolve-access: coordinates and mask of param[subscripts] in a specialized function.
Access resolveAccess(const kir::Function &f, int param, const std::vector<Expr> &subscripts);

/// simplify-mask: drop the mask terms that always hold (a lane below a full tile's
/// extent, non-negative coordinates, program coordinates inside the grid or inside an extent
/// that the wrapper checks equal to the grid's).
void simplifyMask(Access &access, const GridInfo &grid, const kir::Function &f, int param);

/// The affine form of an access (see AffineAccess.cpp): its coordinates are
/// origin[d] + Σ_j lane_j · laneSteps[j][d], and every element of its tile is in bounds when
/// every term of `full` holds (terms as in Access::mask, free of lanes).
struct AffineAccess {
  std::vector<Expr> origin;                 ///< the source coordinates of lane (0, 0, ...)
  std::vector<std::vector<Expr>> laneSteps; ///< per lane, the step of every coordinate
  std::vector<MaskTerm> full;               ///< all hold: the whole tile is in bounds
};

/// affine-access: the affine form of `access`, or nullopt when a coordinate or a mask value
/// is not affine in the lanes (mask values with constant coefficients) or a lane extent is not
/// a compile-time constant.
std::optional<AffineAccess> affineAccess(const Access &access);

/// How an access can use vector instructions: source dimension `dim` is walked by the
/// innermost lane with unit step, `width` elements per instruction.
struct VectorAccess {
  int dim = -1;
  int width = 1;
};

/// vector-access: whether an access of elements of `elementBytes` bytes whose tile is read or
/// written in chunks of `chunk` consecutive elements of a row (the blocked layout of
/// ntc/device/layout.cuh, or dot_loop's copies) can move whole chunks with vector instructions once
/// the dispatcher has checked the strides and the pointer (ntc::rt::vector_ready): the innermost
/// lane must walk exactly one coordinate with step 1 from a multiple of the access width, and any
/// mask on that lane must be an interval.
std::optional<VectorAccess> planVectorAccess(const Access &access, int elementBytes, int chunk);

/// The chunk width of an access's tile in the blocked register layout over `threads` threads.
int registerChunk(const Access &access, int threads);

/// The chunk width of a load (`load`) or store of a register tile in layout `layout` (null:
/// blocked) from or to elements of `elementBytes` bytes: the blocked layout's chunk
/// (registerChunk), an Mma tile's dev::layout::mma_store_chunk (ntc::dev::load_vec,
/// ntc::dev::store_vec), 2 for a load of a Slice of an Mma layout's columns, 0 for layouts
/// accessed element by element.
int tileChunk(const kir::LayoutRef &layout, const Access &access, int threads, int elementBytes,
              bool load);

/// Elements per chunk of dot_loop's operand copies (16 bytes of float16/bfloat16).
inline constexpr int kDotLoopChunk = 8;

/// Elements of the 16-byte chunks that pipelined copies (AsyncCopy) move at once.
inline int asyncCopyChunk(DType t) { return 16 / dtypeBytes(t); }

/// A launch-time condition of the vector variant: parameter `param` (an index into
/// spec.params) must pass ntc::rt::vector_ready(dim, width).
struct VectorCondition {
  int param = -1;
  int dim = -1;
  int width = 1;
};

/// The program with vector accesses: its IR with the chunks recorded, and what the
/// dispatcher checks before it launches it.
struct VectorPlan {
  kir::Function function;
  /// One per parameter and dimension that a chunked access walks (empty: no access benefits).
  std::vector<VectorCondition> conditions;
};

/// plan-vector-chunks: the laid-out function of the program with vector accesses, with the
/// chunk of every access that moves whole chunks with vector instructions recorded
/// (ValueNode/StmtNode::vectorChunk): register loads and stores of blocked and Mma tiles
/// (tileChunk), a GEMM main loop's operand loads (kDotLoopChunk) and pipelined copies
/// (asyncCopyChunk), each where planVectorAccess accepts it.
VectorPlan planVectorChunks(const kir::Function &laid, const GridInfo &grid, int threads,
                            const GpuTarget &gpu);

/// A GEMM main loop `for k: acc = acc + dot(load a[..k..], load b[..k..])` over
/// float16/bfloat16 operands with a float32 accumulator, planned for ntc::dev::dot_loop.
struct DotLoop {
  std::string acc; ///< the accumulator variable
  kir::Value a, b; ///< the operand loads (bm×bk and bk×bn)
  int64_t bm = 0, bk = 0, bn = 0;
  int stages = 2;        ///< shared buffers in the ring
  int64_t smemBytes = 0; ///< shared memory of the ring
  /// The accumulator's layout: the Mma layout of the fragments of the loop on the newest
  /// architecture of the target (one 16-row slab per warp where it multiplies with wgmma), so
  /// that the epilogue continues from the loop's registers.
  kir::LayoutRef accumulator;
};

/// plan-dot-loop: the plan for running loop `s` as one dot_loop in a block of `threads`
/// threads, or nullopt when `s` is not such a loop or the shapes do not fit the tensor-core
/// tiling (the loop then runs statement by statement).
std::optional<DotLoop> planDotLoop(const kir::Stmt &s, int threads, const GpuTarget &gpu);

/// The GEMM main loops of a specialized function planned for a block of `threads` (planDotLoop),
/// in statement order.
std::vector<DotLoop> gemmLoops(const kir::Function &specialized, int threads, const GpuTarget &gpu);

/// True when the statement before a planned loop (`previous`, null for none) sets the loop's
/// accumulator to zeros: dot_loop then starts its fragments at zero without reading it.
bool accumulatorStartsAtZero(const kir::Stmt &previous, const DotLoop &loop);

/// assign-layouts (GPU): every tile value of a specialized function gets a layout in its type,
/// anchored on the products that run on the tensor cores (see AssignLayouts.cpp); layout
/// conversions are explicit ConvertLayout values. Without such a product the function is
/// returned unchanged (everything blocked).
kir::Function assignLayouts(const kir::Function &specialized, int threads, const GpuTarget &gpu);

/// assign-cyclic-layouts (GPU): a straight-line program of loads, elementwise operations, full
/// reductions and stores, for a block of `threads`, gets the cyclic layout (element e in thread
/// e % threads) in every tile value, so that element-by-element accesses are coalesced (see
/// AssignCyclicLayouts.cpp); other functions are returned unchanged. For the program without
/// vector accesses.
kir::Function assignCyclicLayouts(const kir::Function &laidOut, int threads);

/// fuse-dot-accumulate (GPU): `x + dot(a, b)` (either order), where the tensor-core product has
/// no other user and x has its type and layout, becomes the accumulating three-operand Dot
/// (see FuseDotAccumulate.cpp).
kir::Function fuseDotAccumulate(const kir::Function &laidOut);

/// defer-lane-sums (GPU): a float32 row (column) sum that a loop carries as
/// `l = l * alpha + sum(p, 1)` and nothing reads before the loop ends is carried as lane shares
/// (TileLayout::Kind::LanePartial) and added across the lanes once after the loop (see
/// DeferLaneSums.cpp). After fuse-dot-accumulate.
kir::Function deferLaneSums(const kir::Function &laidOut);

/// skip-unit-factors (GPU): a float product of a loop-carried Mma tile by the register broadcast
/// of per-row (per-column) factors, in the loop's update of that tile, is marked
/// ValueNode::unlessOne: a warp whose factors are all one skips it (see SkipUnitFactors.cpp).
/// After defer-lane-sums.
kir::Function skipUnitFactors(const kir::Function &laidOut);

/// select-min-max (GPU): with knob minmax=1, every elementwise maximum/minimum of floats is
/// marked ValueNode::oneInstruction (one max.NaN/min.NaN instruction; see SelectMinMax.cpp).
kir::Function selectMinMax(const kir::Function &laidOut, const GpuTarget &gpu);
/// True for an elementwise maximum or minimum of floats: what select-min-max marks.
bool isFloatMinMax(const kir::Value &v);

/// mark-dying-operands (GPU): tensor-core products whose A operand is a conversion from another
/// element type that no other value reads get ValueNode::aDies (see MarkDyingOperands.cpp).
kir::Function markDyingOperands(const kir::Function &laidOut);

/// mark-canonical-nans (GPU): casts from float32 to float16/bfloat16 whose operand can hold no
/// NaN but the GPU's canonical one (a result of exp2, constants, selections among such values)
/// get ValueNode::canonicalNaN (see MarkCanonicalNaNs.cpp).
kir::Function markCanonicalNaNs(const kir::Function &laidOut);

/// pipeline-loads (GPU): in loops of step 1, the copies of loads into shared memory run ahead
/// through a ring of stages, as deep as `gpu`'s shared memory allows without fewer programs per
/// SM, with one wait per iteration (asynchronous copies; see PipelineLoads.cpp).
kir::Function pipelineLoads(const kir::Function &laidOut, const GpuTarget &gpu);

/// swizzle-shared (GPU): the stage buffers of pipelined copies of 16-bit tiles whose buffer rows
/// come in eights and span whole 32/64/128-byte blocks get the swizzled shared layout that wgmma
/// reads (TileLayout::swizzle; see SwizzleShared.cpp), in whole kilobytes per stage.
kir::Function swizzleShared(const kir::Function &pipelined);

/// The row width (32, 64 or 128 bytes) of the swizzled shared layout of a buffer of `dtype` with
/// rows × cols elements (16-bit elements, rows in eights, rows of whole blocks), or 0 when it
/// has none.
int sharedSwizzle(DType dtype, int64_t rows, int64_t cols);

/// keep-operands-resident (GPU, sm_90a): a loop-invariant A operand of tensor-core products in
/// loops, converted once before the loop, stays in its own swizzled shared buffer instead of
/// registers, and the products read it there (wgmma with both operands in shared memory; see
/// KeepOperandsResident.cpp). After swizzle-shared, before allocate-shared.
kir::Function keepOperandsResident(const kir::Function &swizzled, const GpuTarget &gpu);

/// True when a product (a Dot with a layout) runs as a chain of wgmma reading B through
/// descriptors on sm_90a (ntc::dev::detail::wgmma_product_v): warps along M only, each a
/// 16-row slab, N one instruction wide, B swizzled in shared memory.
bool wgmmaProduct(const kir::Value &dot);

/// overlap-products (GPU, sm_90a, configuration knob `overlap=1`): a pipelined loop whose last
/// product is a wgmma chain into a local is rotated by its head (the statements up to its first
/// product), so that the last product stays in flight while the next iteration's copies and
/// first product are issued (dot_issue/dot_wait; see OverlapProducts.cpp). With `overlap=2`,
/// where it applies, the next first product is issued before the last one and the statements
/// between the two run while the last is in flight. After keep-operands-resident, before
/// allocate-shared.
kir::Function overlapProducts(const kir::Function &resident, const GpuTarget &gpu);

/// A pipelined copy as TMA makes it (see UseTensorMaps.cpp).
struct TensorMapCopy {
  kir::TensorMapUse map;          ///< the parameter, box and swizzle of its tensor map
  int rowDim = -1;                ///< the parameter's dimension along the tile's rows
  std::vector<Expr> origin;       ///< the coordinates of the tile's element (0, 0)
  std::vector<MaskTerm> residual; ///< lane-free mask terms left: unless all hold, zeros
};

/// The TMA form of reading `load` (a 2-D tile) into shared memory in the Swizzled<blockBytes>
/// layout, or nullopt when TMA cannot make it exactly (see UseTensorMaps.cpp).
std::optional<TensorMapCopy> tensorMapLoad(const kir::Function &f, const GridInfo &grid,
                                           const kir::Value &load, int blockBytes);

/// Store `store` of `f` with its value converted to the stored parameter's element type (an
/// explicit Cast in the value's layout) where the two differ; `store` itself otherwise.
kir::Stmt withStoredElementType(const kir::Function &f, const kir::Stmt &store);

/// The TMA form of store `store` (its tile staged in the Swizzled layout of its shape), or
/// nullopt when TMA cannot make it exactly.
std::optional<TensorMapCopy> tensorMapStore(const kir::Function &f, const GridInfo &grid,
                                            const kir::StmtNode &store);

/// The TMA form of pipelined copy `copy` (an AsyncCopy) of a specialized, laid-out program, or
/// nullopt when TMA cannot make it exactly.
std::optional<TensorMapCopy> tensorMapCopy(const kir::Function &f, const GridInfo &grid,
                                           const kir::StmtNode &copy);

/// The TMA forms of the operand copies of GEMM main loop `loop` (planned for `threads`), when it
/// multiplies with wgmma (whose swizzled column blocks TMA writes) and TMA makes both exactly.
std::optional<std::pair<TensorMapCopy, TensorMapCopy>>
dotLoopTensorMaps(const kir::Function &f, const GridInfo &grid, const DotLoop &loop, int threads);

/// A program with its pipelined copies through TMA, and its shared memory, barriers included.
struct TensorMapPlan {
  kir::Function function;
  int64_t totalBytes = 0;
};

/// use-tensor-maps (GPU, sm_90a, configuration knob `tma=1`): marks every pipelined copy and
/// store that TMA makes exactly (StmtNode::tensorMap; a store only when its tile fits the
/// scratch region of `scratchBytes` at offset 0, where it is staged)
/// and every GEMM main loop of a block of `threads` whose operands it makes exactly
/// (StmtNode::group), and records the tensor maps and the barrier rings (Function::tensorMaps,
/// tmaRings; the barriers after everything else). Without the knob or such accesses, the
/// function unchanged (no maps).
TensorMapPlan useTensorMaps(const kir::Function &laid, const GridInfo &grid, int threads,
                            int64_t scratchBytes, int64_t sharedBytes, const GpuTarget &gpu);

/// Places the barriers of `f`'s TMA rings, in order, from the first 8-byte boundary at or after
/// `sharedBytes` (8 bytes a stage, 16 with releases); returns the end of the last.
int64_t placeRingBarriers(kir::Function &f, int64_t sharedBytes);

/// release-stages (GPU, after use-tensor-maps, for a block of `threads`; configuration knob
/// `release=1`, else `plan` unchanged): every pipelined loop
/// whose copies all go by TMA (not a GEMM main loop) refills each stage from the warp that
/// releases it last, after the loop's last read of it, instead of thread 0 after a barrier of
/// the program at the top of the next iteration (see ReleaseStages.cpp). `plan.totalBytes`
/// grows by the rings' release counters.
TensorMapPlan releaseStages(const TensorMapPlan &plan, int threads, const GpuTarget &gpu);

/// take-turns (GPU, sm_90a, configuration knob `turns=1`, for a block of `threads`): the wgmma
/// products at the top level of a top-level loop are issued by its warpgroups each in turn,
/// round and round, through named barriers of their own (ValueNode::turn,
/// Function::turnBarriers; see TakeTurns.cpp). Without the knob or such a loop, `f` unchanged.
kir::Function takeTurns(const kir::Function &f, int threads, const GpuTarget &gpu);

/// The programs per cluster of `f` after use-tensor-maps: the largest cluster of its TMA rings
/// (1: the program does not run in clusters).
int clusterSize(const kir::Function &f);

/// The symbols a producer warpgroup knows without running the program's body: the program
/// coordinates of `grid`, the loop index `index` and the sizes and strides of the parameters of
/// `spec` (specialize-warps, specialize-producer).
std::set<std::string> producerSymbols(const KernelSpec &spec, const GridInfo &grid,
                                      const std::string &index);

/// True when every symbol of `e` is in `known`.
bool producerComputes(const Expr &e, const std::set<std::string> &known);

/// True when a thread that knows `known` alone can issue TMA copy `copy` (its coordinates and
/// residual conditions use symbols of `known` only).
bool producerComputes(const TensorMapCopy &copy, const std::set<std::string> &known);

/// The threads and registers of a warp-specialized block of `threads` consumer threads and a
/// producer warpgroup (setmaxnreg: the producer lowers its registers to 40, the consumers take
/// what it gives back), as specialize-warps and specialize-producer plan them.
kir::WarpSpecialization warpRoles(int threads);

/// True when the top level of `f`'s body is one loop and statements that compute on registers
/// and global loads alone (no reductions, layout conversions or products, no shared memory;
/// stores into 16-bit parameters), no parameter being jagged: the shape of program
/// specialize-warps can make persistent. `laidOut`: `f` has its layouts (broadcasts must then
/// be of Slice tiles); before layout assignment they are taken on trust.
bool warpSpecializable(const kir::Function &f, bool laidOut);

/// specialize-warps (GPU, sm_90a, knobs `tma=1,persistent=1`): `tma` (after use-tensor-maps, for
/// a block of `threads` consumer threads and `totalBytes` of shared memory) as a persistent,
/// warp-specialized program (Function::warpSpecialization), or nullopt when its GEMM main loop,
/// stores or statements do not allow it (see SpecializeWarps.cpp).
std::optional<kir::Function> specializeWarps(const kir::Function &tma, const GridInfo &grid,
                                             int threads, int64_t totalBytes, const GpuTarget &gpu);

/// specialize-producer (GPU, sm_90a, knobs `tma=1,release=1,producer=1`): `tma` (after
/// release-stages and take-turns, for a block of `threads` threads and `totalBytes` of shared
/// memory) with a producer warpgroup after its threads that issues the copies of its released
/// loop (Function::warpSpecialization, not persistent), or nullopt when its ring, loop or
/// statements do not allow it (see SpecializeProducer.cpp).
std::optional<kir::Function> specializeProducer(const kir::Function &tma, const GridInfo &grid,
                                                int threads, int64_t totalBytes,
                                                const GpuTarget &gpu);

/// pack-programs (GPU): how many programs one block runs, warp w taking program
/// blockIdx.x · n + w: 4 for a one-warp program (`threads` = 32) none of whose operations
/// communicates through shared memory or block barriers (see PackPrograms.cpp), else 1.
int programsPerBlock(const kir::Function &laidOut, int threads);

/// choose-min-blocks (GPU): the resident blocks per SM that `__launch_bounds__` asks ptxas to
/// keep registers for: as many as `sharedBytes` of shared memory per block allow while each of
/// the `blockThreads` threads keeps at least 128 registers and room for its loop-carried and
/// loop-invariant tiles plus the largest local of an iteration (or its largest tile) and 24
/// scalars; 0: no request, and always for a program without tensor-core products (see
/// ChooseMinBlocks.cpp).
int minBlocksPerMultiprocessor(const kir::Function &laidOut, int blockThreads, int64_t sharedBytes,
                               const GpuTarget &gpu);

/// The shared memory of one program on the GPU.
struct SharedPlan {
  kir::Function function;   ///< the function with every shared-memory tile at its offset
  int64_t scratchBytes = 0; ///< the region at offset 0 that communicating operations share
  int64_t totalBytes = 0;   ///< dynamic shared memory of the block
};

/// allocate-shared (GPU): sizes the scratch region of the operations that communicate through
/// shared memory (the largest one), then places the stage buffers of pipelined copies after it
/// (each its own region, live across its loop; swizzled ones 1024-byte aligned), then the tiles
/// that live in shared memory within one statement (statements reuse the same addresses).
SharedPlan allocateShared(const kir::Function &laidOut, int threads, const GpuTarget &gpu);

/// Bytes of a tile of `dtype` and 2-D `shape` resident in shared memory (rows padded by 16
/// bytes; `transposed`: the buffer holds the transpose).
int64_t sharedTileBytes(DType dtype, const std::vector<Expr> &shape, bool transposed);

/// Positions of the level-0 dimensions that are not the constant 1. Level-0 shapes of all
/// tensors must agree on these (NineToothed unravels the program id over each tensor's own
/// level 0, so `(n, 1)` and `(n,)` launch the same programs).
std::vector<size_t> gridDims(const std::vector<Expr> &level0);

/// The pairs of level-0 dimensions of two tensors that must agree: their gridDims in order, or,
/// when those differ in number but the levels have the same rank, every dimension with its
/// namesake (a run-time extent may be 1 where the other has a 1: `y.tile({1, x.shape(1)})`);
/// nullopt when neither applies.
std::optional<std::vector<std::pair<size_t, size_t>>> matchedGridDims(const std::vector<Expr> &x,
                                                                      const std::vector<Expr> &y);

/// The arranged parameter whose level 0 is the launch grid: the first tensor (-1 when the
/// kernel has only scalars).
int gridAnchor(const KernelSpec &spec);

/// pin-padded-extents: padded extents broadcast with a constant extent c are pinned to c
/// (PaddedExtent::pinned); throws std::runtime_error when one meets two different constants.
kir::Function pinPaddedExtents(const kir::Function &f);

/// A written tensor parameter and another tensor parameter that must not share memory with it
/// (indices into KernelSpec::params).
struct AliasCheck {
  int written = -1;
  int other = -1;
  /// Exact aliasing is harmless: `other` is only read, through an arrangement that walks its
  /// source exactly as `written`'s does, so every program reads only what it writes.
  bool identicalAllowed = false;
};

/// alias-checks: the overlap checks of a kernel's wrapper, one per pair of a written tensor
/// and another tensor (pairs of written tensors once).
std::vector<AliasCheck> aliasChecks(const kir::Function &f);

/// The batch entry of a jagged tensor (ParamSpec::jaggedDim) that a program reads: the
/// program binds the entry's first row and length (ParamSpec::seqStartSymbol/seqLenSymbol)
/// from the offsets before its body.
struct JaggedBatch {
  int param = -1;    ///< the jagged tensor (an index into KernelSpec::params)
  int arranged = -1; ///< its arranged parameter
  Expr batch;        ///< its batch coordinate, in the program coordinates `pid<d>`
};

/// resolve-jagged: the batch entry of every jagged tensor, in program coordinates. A batch
/// coordinate that depends on anything else than the program (an inner level or a lane: the
/// batch dimension tiled by more than 1) is a VerifyError in `errors` (and that tensor is left
/// out).
std::vector<JaggedBatch> resolveJagged(const KernelSpec &spec,
                                       std::vector<VerifyError> *errors = nullptr);

/// Name of the program coordinate symbol of grid dimension d.
std::string programCoordinate(size_t d);
/// Name of the lane index symbol of tile dimension d.
std::string laneIndex(size_t d);
/// True for the names programCoordinate and laneIndex give (`pid<d>`, `lane<d>`).
bool isGeneratedIndex(const std::string &symbol);

} // namespace ntc::passes
