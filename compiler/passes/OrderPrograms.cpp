//===- OrderPrograms.cpp - the order in which GPU programs are numbered ---===//
//
// Programs are independent, so the order in which the launch numbers them is free; it decides
// which operand tiles the programs running at the same time share in L2. A GEMM-like program
// grid numbered row by row has the programs of one wave read a few row bands of A and the
// whole of B; numbered in bands of G rows, column after column inside a band (Triton's grouped
// order), one wave of W programs reads G row tiles of A and W / G column tiles of B. The pass
// picks G so that both are about the same number of bytes: G·bm = (W / G)·bn.
//
// Programs whose loops run longer as a coordinate grows are numbered longest first along it.
// A persistent block runs every gridDim-th program; numbered longest first within each row of
// the grid alone (a head of causal attention), the programs one block takes would all come
// from a few length classes (with 132 blocks and 32 query blocks per head, those of one
// residue modulo 4), so the blocks would end far apart. There the longest-first dimension
// becomes the columns of bands over all slower dimensions: the longest programs of G rows run
// first, then their next longest, and every block takes programs of every length.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <cmath>

namespace ntc::passes {

namespace {

/// The largest band the pass chooses.
constexpr int64_t kMaxBandRows = 64;

/// Rows per band of a persistent grid numbered longest first, unless the configuration says
/// (`group`): eight heads' keys and values of causal attention at 4096 × 128 fit in L2 (16 MiB).
constexpr int64_t kLongestFirstBandRows = 8;

/// `a` and `b` together: the same direction, or Unknown when they disagree.
Monotonicity merged(Monotonicity a, Monotonicity b) {
  if (a == Monotonicity::Constant || a == b)
    return b;
  return b == Monotonicity::Constant ? a : Monotonicity::Unknown;
}

/// How the trip counts of the loops of `body` move as the program coordinate `pid` grows:
/// Nondecreasing when some loop's trip count grows with it and none shrinks or moves otherwise.
Monotonicity tripCountsIn(const std::vector<kir::Stmt> &body, const std::string &pid) {
  Monotonicity m = Monotonicity::Constant;
  for (const kir::Stmt &s : body) {
    if (s->kind == kir::StmtKind::For) {
      const bool fixedStart = monotonicityIn(s->begin, pid) == Monotonicity::Constant;
      const bool steps = s->step.isConst() && s->step.constValue() > 0;
      m = merged(m, fixedStart && steps ? monotonicityIn(s->end, pid) : Monotonicity::Unknown);
    }
    m = merged(m, tripCountsIn(s->body, pid));
    m = merged(m, tripCountsIn(s->orelse, pid));
  }
  return m;
}

/// Marks the grid dimensions along which the programs' loops only grow.
void numberLongestFirst(const kir::Function &specialized, GridInfo &grid) {
  grid.reversed.assign(grid.extents.size(), false);
  bool any = false;
  for (size_t d = 0; d < grid.extents.size(); ++d) {
    const bool banded = grid.bandRows > 0 && d + 2 >= grid.extents.size();
    if (!banded &&
        tripCountsIn(specialized.body, programCoordinate(d)) == Monotonicity::Nondecreasing) {
      grid.reversed[d] = true;
      any = true;
    }
  }
  if (!any)
    grid.reversed.clear();
}

/// Numbers the programs of a GEMM-like grid in bands (GridInfo::bandRows).
GridInfo bandGemmPrograms(const kir::Function &specialized, GridInfo grid, const GpuTarget &gpu) {
  if (grid.extents.size() < 2)
    return grid;
  const std::vector<DotLoop> loops = gemmLoops(specialized, blockThreads(specialized, gpu), gpu);
  const std::optional<DotLoop> loop =
      loops.empty() ? std::nullopt : std::optional<DotLoop>(loops.front());
  const int waves = gpu.tuning().multiprocessors;
  if (!loop || waves <= 0)
    return grid;
  grid.bandRowsFirst = grid.extents.size() - 2;
  grid.bandColumn = grid.extents.size() - 1;
  if (gpu.knobs.bandRows > 0) { // a configuration's choice; 1 is row order
    grid.bandRows = gpu.knobs.bandRows > 1 ? gpu.knobs.bandRows : 0;
    return grid;
  }
  // The power of two nearest to sqrt(W · bn / bm).
  const double ideal = std::sqrt(double(waves) * double(loop->bn) / double(loop->bm));
  int64_t band = 1;
  while (band < kMaxBandRows && 2.0 * band <= ideal * std::sqrt(2.0))
    band *= 2;
  if (band >= 2)
    grid.bandRows = band;
  return grid;
}

/// In a persistent configuration, bands the grid's dimensions before its one longest-first
/// dimension (taken together as rows) with that dimension as the columns, so that the programs
/// are numbered longest first across a band of rows rather than within each row.
void bandLongestFirst(GridInfo &grid, const GpuTarget &gpu) {
  if (gpu.knobs.persistent != 1 || grid.bandRows > 0 || gpu.knobs.bandRows == 1)
    return;
  const auto count = std::count(grid.reversed.begin(), grid.reversed.end(), true);
  const auto first = std::find(grid.reversed.begin(), grid.reversed.end(), true);
  if (count != 1 || first == grid.reversed.begin())
    return;
  grid.bandRows = gpu.knobs.bandRows > 1 ? gpu.knobs.bandRows : kLongestFirstBandRows;
  grid.bandRowsFirst = 0;
  grid.bandColumn = size_t(first - grid.reversed.begin());
}

} // namespace

GridInfo orderPrograms(const kir::Function &specialized, GridInfo grid, Target target,
                       const GpuTarget &gpu) {
  grid.bandRows = 0;
  grid.reversed.clear();
  if (target != Target::Cuda)
    return grid;
  grid = bandGemmPrograms(specialized, grid, gpu);
  numberLongestFirst(specialized, grid);
  bandLongestFirst(grid, gpu);
  return grid;
}

} // namespace ntc::passes
