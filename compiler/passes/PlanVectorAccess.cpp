//===- PlanVectorAccess.cpp - which accesses can use vector instructions --===//
//
// A tile access can read or write each chunk of V consecutive tile elements (the blocked
// layout of ntc/device/layout.cuh) with one vector instruction when the chunk is consecutive
// and aligned in memory. The compiler proves what it can from the access's coordinates; the
// rest (unit stride, aligned strides and pointer) becomes a launch-time condition that the
// dispatcher checks before it picks the variant compiled with vector accesses
// (plan-vector-chunks decides which accesses use them and collects the conditions).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <ntc/device/layout.cuh>

#include <algorithm>

namespace ntc::passes {

namespace {

bool mentions(const Expr &e, const std::string &symbol) {
  std::vector<std::string> names;
  e.collectSymbols(names);
  return std::find(names.begin(), names.end(), symbol) != names.end();
}

/// True when e == rest + lane with `rest` free of lane.
bool unitStep(const Expr &e, const Expr &lane) { return !mentions(e - lane, lane.symbolName()); }

} // namespace

int registerChunk(const Access &access, int threads) {
  int64_t numel = 1;
  for (const Expr &e : access.laneExtents) {
    if (!e.isConst())
      return 1;
    numel *= e.constValue();
  }
  return dev::layout::chunk_width(static_cast<int>(numel), threads);
}

int tileChunk(const kir::LayoutRef &layout, const Access &access, int threads, int elementBytes,
              bool load) {
  if (!layout)
    return registerChunk(access, threads);
  // A Slice of an Mma layout's columns: two consecutive columns per fragment (load_vec only).
  if (load && layout->kind == kir::TileLayout::Kind::Slice && layout->dim == 0 &&
      layout->parent->kind == kir::TileLayout::Kind::Mma)
    return 2;
  if (layout->kind != kir::TileLayout::Kind::Mma)
    return 0;
  const Expr &columns = access.laneExtents.back();
  if (access.laneExtents.size() != 2 || !columns.isConst())
    return 0;
  return dev::layout::mma_store_chunk(static_cast<int>(columns.constValue()), layout->warpsN,
                                      elementBytes);
}

std::optional<VectorAccess> planVectorAccess(const Access &access, int elementBytes, int chunk) {
  size_t rank = access.laneExtents.size();
  if (rank == 0 || elementBytes <= 0 || elementBytes > 16 || chunk < 2 ||
      !access.laneExtents.back().isConst() || access.laneExtents.back().constValue() % chunk != 0)
    return std::nullopt;
  int width = chunk;
  while (width > 1 && width * elementBytes > 16)
    width /= 2;
  const std::string name = laneIndex(rank - 1);
  Expr lane = Expr::symbol(name);
  // Exactly one source coordinate walks the innermost lane, with step 1 ...
  int dim = -1;
  for (size_t d = 0; d < access.coords.size(); ++d) {
    if (!mentions(access.coords[d], name))
      continue;
    if (dim >= 0 || !unitStep(access.coords[d], lane))
      return std::nullopt;
    dim = static_cast<int>(d);
  }
  if (dim < 0)
    return std::nullopt;
  // ... from a start that is a multiple of the access width (chunks start at lanes that are
  // multiples of the chunk width, itself a multiple of the access width) ...
  Expr start = access.coords[dim] - lane;
  if (mod(start, Expr(int64_t{width})).asConst() != std::optional<int64_t>(0))
    return std::nullopt;
  // ... and every mask term on the lane is an interval of it, so that a chunk whose first and
  // last elements are in bounds is in bounds everywhere.
  for (const MaskTerm &t : access.mask)
    if (mentions(t.extent, name) || (mentions(t.value, name) && !unitStep(t.value, lane)))
      return std::nullopt;
  return VectorAccess{dim, width};
}

} // namespace ntc::passes
