//===- TileLayout.h - how a tile value is spread over a GPU block ---------===//
//
// On the GPU a tile value's type includes its layout: which thread (or which shared-memory
// address) holds which element. The kernel IR leaves layouts unset (null: the blocked layout
// of the device tile library, and the only one the CPU backend knows); the layout-assignment
// pass (passes/AssignLayouts.cpp) sets them on the GPU path. Each layout is data, printed in
// the IR (`#mma<8x1>`) and spelled as a template argument of the device library
// (`ntc::dev::Mma<8, 1>`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ntc::kir {

struct TileLayout;
/// A shared, immutable layout (null means blocked).
using LayoutRef = std::shared_ptr<const TileLayout>;

/// One layout (see the device library's ntc/device/layouts.cuh for the element maps).
struct TileLayout {
  enum class Kind {
    Blocked, ///< chunks of consecutive elements round-robin over the threads (tile.cuh)
    Mma,     ///< mma.sync m16n8k16 accumulators over warpsM × warpsN warps
    DotA,    ///< operand A of a product whose result has layout `parent`
    DotB,    ///< operand B of a product whose result has layout `parent`
    Slice,   ///< `parent` with dimension `dim` reduced away
    Shared,  ///< resident in shared memory at `offset`, rows padded or swizzled; maybe transposed
    /// shares of the values of `parent` (a Slice of an Mma layout whose reduced dimension lies
    /// within each warp): each lane that holds an element holds a share, the element is their
    /// sum (passes/DeferLaneSums.cpp)
    LanePartial,
  };
  Kind kind = Kind::Blocked;
  int threads = 0;         ///< Blocked: threads of the block
  int chunk = 0;           ///< Blocked: consecutive elements per thread (0: tile.cuh's rule)
  int warpsM = 0;          ///< Mma: warps along rows
  int warpsN = 0;          ///< Mma: warps along columns
  LayoutRef parent;        ///< DotA/DotB/Slice/LanePartial: the parent layout
  int dim = -1;            ///< Slice: the reduced dimension
  int kWidth = 0;          ///< DotA/DotB: consecutive k elements per register
  int64_t offset = -1;     ///< Shared: byte offset in the block's buffer (-1: not allocated yet)
  bool transposed = false; ///< Shared: the buffer holds the tile's transpose
  int buffer = -1;         ///< Shared: a pipelined buffer's id (-1: one statement's tile)
  int stages = 1;          ///< Shared: stages of a pipelined buffer
  int64_t stageBytes = 0;  ///< Shared: bytes of one stage
  /// Shared: 0 for rows padded by 16 bytes; else the swizzled layout whose column blocks have
  /// rows of this many bytes (32, 64 or 128; ntc::dev::Swizzled, 1024-byte aligned)
  int swizzle = 0;

  /// IR notation: `#blocked<256>`, `#blocked<256, chunk=1>`, `#mma<8x1>`, `#dot_a<#mma<8x1>, k=2>`,
  /// `#slice<#mma<8x1>, dim=1>`, `#lane_partial<#slice<#mma<8x1>, dim=1>>`,
  /// `#shared<offset=0, pad=16B>` or `#shared<offset=0, swizzle=128B>` (`, transposed`).
  std::string str() const;
  /// The device library's layout type (`ntc::dev::Mma<8, 1>`; for Shared its shared layout,
  /// `ntc::dev::Padded` or `ntc::dev::Swizzled<128>`).
  std::string deviceType() const;
  /// True for the layouts of the tensor-core family (Mma and those derived from it).
  bool tensorCore() const;
};

/// Structural equality of two layouts (null equals null).
bool sameLayout(const LayoutRef &a, const LayoutRef &b);
/// `#blocked` for null, else the layout's notation.
std::string layoutString(const LayoutRef &l);

LayoutRef blockedLayout(int threads);
/// The blocked layout with `chunk` consecutive elements per thread (1: cyclic), for tiles whose
/// size is a multiple of chunk × threads (ntc::dev::Chunked).
LayoutRef chunkedLayout(int threads, int chunk);
LayoutRef mmaLayout(int warpsM, int warpsN);
LayoutRef dotOperandLayout(const LayoutRef &parent, int operand, int kWidth);
LayoutRef sliceLayout(const LayoutRef &parent, int dim);
/// Shares of the values of `slice` over the lanes that hold each of them (see Kind::LanePartial).
LayoutRef lanePartialLayout(const LayoutRef &slice);
/// True for a Slice of an Mma layout whose reduced dimension lies within each warp (rows of
/// Mma<WM, 1>, columns of Mma<1, WN>): its sums can be left as lane shares.
bool lanesOnlySlice(const LayoutRef &l);
LayoutRef sharedLayout(int64_t offset, bool transposed);
/// Stage buffers of a pipelined copy: `stages` × `stageBytes` at `offset` (-1 until allocated),
/// rows padded (`swizzle` 0) or swizzled.
LayoutRef pipelinedLayout(int buffer, int stages, int64_t stageBytes, int64_t offset,
                          bool transposed, int swizzle = 0);

} // namespace ntc::kir
