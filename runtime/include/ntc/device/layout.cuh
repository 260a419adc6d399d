// Register and shared-memory layouts of the device tile library, as constexpr functions that
// include no CUDA header: the tiles (tile.cuh), the memory accesses (memory.cuh) and the GEMM
// main loop (gemm.cuh) use them, and a host test (tests/device/layout_test.cpp, compiled by
// g++) checks them against a CPU model.
//
// * Blocked register layout: a tile of N elements (row-major linear order) is cut into chunks
//   of V consecutive elements; chunk c lives in thread c % Threads, and element e of the tile is
//   slot (c / Threads)·V + e % V of its thread, where c = e / V. V (the chunk width) is the
//   largest of 4, 2 for which N is a multiple of V·Threads (every thread then holds whole
//   chunks), else 1; with V = 1 this is the plain cyclic layout (thread e % Threads). A warp
//   covers 32·V consecutive elements, so a chunk that lies in one row of a contiguous tensor is
//   one vector access, 16 bytes of float32, and the 32 lanes' accesses are consecutive (512
//   bytes of float32 per warp instruction; chunks of 8 floats were two 16-byte accesses whose
//   lanes lay 32 bytes apart, so each instruction touched twice the cache lines: measured on
//   the H200, softmax rows of 4096 floats ran 12% faster with V = 4). V depends only on N and
//   Threads, so reshapes (same N) and casts keep the ownership.
// * Shared-memory swizzle: a row-major shared tile whose rows are U 16-byte units long stores
//   unit u of row r at unit u ^ h(r), h(r) = (r / (8 / U')) % U' with U' = min(U, 8). The eight
//   16-byte rows that one ldmatrix phase (or one column of cp.async writes) touches then fall in
//   eight different 16-byte bank groups, without padding.
#pragma once

#ifndef NTC_DEV_HD
#if defined(__CUDACC__)
#define NTC_DEV_HD __host__ __device__
#else
#define NTC_DEV_HD
#endif
#endif

namespace ntc::dev::layout {

/// Chunk width V of the blocked layout of a tile of `n` elements over `threads` threads.
NTC_DEV_HD constexpr int chunk_width(int n, int threads) {
  if (n <= 1)
    return 1;
  for (int v = 4; v >= 2; v /= 2)
    if (n % (v * threads) == 0)
      return v;
  return 1;
}

/// Register slots per thread of a tile of `n` elements (1 for a replicated one-element tile).
NTC_DEV_HD constexpr int slots(int n, int threads) {
  if (n <= 1)
    return 1;
  const int v = chunk_width(n, threads);
  return (n + v * threads - 1) / (v * threads) * v;
}

/// Linear index of the element in `slot` of thread `thread` (may be ≥ n in the last chunk row
/// of a tile whose threads do not all hold an element).
NTC_DEV_HD constexpr int element(int n, int threads, int thread, int slot) {
  if (n <= 1)
    return 0;
  const int v = chunk_width(n, threads);
  return ((slot / v) * threads + thread) * v + slot % v;
}

/// The thread that holds element `e` (0 for a one-element tile, which every thread holds).
NTC_DEV_HD constexpr int owner(int n, int threads, int e) {
  return n <= 1 ? 0 : (e / chunk_width(n, threads)) % threads;
}

/// The slot of element `e` in its owner thread.
NTC_DEV_HD constexpr int slot_of(int n, int threads, int e) {
  if (n <= 1)
    return 0;
  const int v = chunk_width(n, threads);
  return (e / v) / threads * v + e % v;
}

/// The 16-byte unit at which unit `unit` of row `row` is stored in a swizzled shared tile whose
/// rows are `units_per_row` units long (a power of two).
NTC_DEV_HD constexpr int swizzle_unit(int row, int unit, int units_per_row) {
  const int u = units_per_row < 8 ? units_per_row : 8;
  return unit ^ ((row / (8 / u)) % u);
}

/// True when rows of `cols` elements of `bytes` bytes are a power-of-two number of 16-byte
/// units, the condition of the swizzle (with 3 or 6 units, say, `unit ^ h(row)` would leave
/// the row).
NTC_DEV_HD constexpr bool swizzles(int cols, int bytes) {
  const int units = cols * bytes / 16;
  return cols * bytes % 16 == 0 && units > 0 && (units & (units - 1)) == 0;
}

/// Element offset in a swizzled row-major shared tile of `cols` elements of `bytes` bytes per
/// row (cols·bytes a multiple of 16) of element (row, col).
NTC_DEV_HD constexpr int swizzled_offset(int row, int col, int cols, int bytes) {
  const int per_unit = 16 / bytes, units = cols / per_unit;
  return row * cols + swizzle_unit(row, col / per_unit, units) * per_unit + col % per_unit;
}

/// Bytes of one row of a column block of the column-block swizzled layout (Swizzled<RowBytes> in
/// layouts.cuh, wgmma's and TMA's canonical layout) for rows of `row_bytes` bytes: the widest of
/// 128, 64, 32 that divides them; 0 when none does.
NTC_DEV_HD constexpr int block_row_bytes(int row_bytes) {
  for (int b = 128; b >= 32; b /= 2)
    if (row_bytes % b == 0)
      return b;
  return 0;
}

/// Element offset of element (row, col) in a column-block swizzled shared buffer of `rows` rows
/// of elements of `bytes` bytes: the columns are cut into blocks of `block` bytes (128, 64 or
/// 32) stored one after another, each block all rows of its columns, row after row; in a
/// 1024-byte aligned buffer the 16-byte unit at byte a then moves to unit u ^ ((a >> 7) mod
/// block / 16) of its row.
NTC_DEV_HD constexpr int block_swizzled_offset(int row, int col, int rows, int block, int bytes) {
  const int block_cols = block / bytes;
  const int a = (col / block_cols) * rows * block + row * block + (col % block_cols) * bytes;
  return (a ^ (((a >> 7) & (block / 16 - 1)) << 4)) / bytes;
}

/// The XOR that the column-block swizzle (block_swizzled_offset, `block` bytes wide) applies to
/// the 16-byte unit index of every element of row `row`: a function of the row modulo 8 alone.
NTC_DEV_HD constexpr int block_swizzle_xor(int row, int block) {
  return ((row * block) >> 7) & (block / 16 - 1);
}

/// Byte offset of element (row, col) (2-byte elements) in the column-block swizzled buffer of
/// `rows` rows and `block`-byte blocks, split as the stores of a thread whose rows are equal
/// modulo 8 compute it: the block's and the row's offsets, plus the element's 16-byte unit XOR
/// `swizzle_xor` (block_swizzle_xor of the row), plus its place in the unit. Equal to
/// 2 · block_swizzled_offset(row, col, rows, block, 2).
NTC_DEV_HD constexpr int block_swizzled_byte(int row, int col, int rows, int block,
                                             int swizzle_xor) {
  const int block_cols = block / 2;
  return (col / block_cols) * rows * block + row * block +
         (((col % block_cols) / 8 ^ swizzle_xor) << 4) + (col % 8) * 2;
}

/// Rows of the warp grid with which dot_loop (gemm.cuh) tiles a bm×bn block over `warps` warps:
/// every warp's tile a multiple of 16×16 and as square as possible (fewest fragment loads per
/// mma); 0 when no grid fits.
NTC_DEV_HD constexpr int gemm_warp_rows(int bm, int bn, int warps) {
  int best = 0, best_cost = 1 << 30;
  for (int wm = 1; wm <= warps; wm *= 2) {
    const int wn = warps / wm;
    if (wm * wn != warps || bm % (wm * 16) != 0 || bn % (wn * 16) != 0)
      continue;
    const int cost = bm / wm + bn / wn;
    if (cost < best_cost) {
      best = wm;
      best_cost = cost;
    }
  }
  return best;
}

/// True when dot_loop (gemm.cuh) multiplies a bm×bk by bk×bn step of 16-bit elements with
/// Hopper's wgmma in a block of `threads` threads and a ring of `stages` stages: one warpgroup per
/// 64 rows (every warp one 16-row slab), bn one instruction wide, the stage tiles whole
/// 1024-byte swizzle atoms, and three stages or more (one being copied while the wgmmas of two
/// are in flight). Only the sm_90a pass of the device library issues wgmma.
NTC_DEV_HD constexpr bool gemm_wgmma_shape(int bm, int bk, int bn, int threads, int stages) {
  const bool n_ok = bn == 16 || bn == 32 || bn == 64 || bn == 128 || bn == 256;
  return n_ok && stages >= 3 && threads % 128 == 0 && bm == 16 * (threads / 32) && bk % 16 == 0 &&
         block_row_bytes(bk * 2) > 0 && (2 * bm * bk) % 1024 == 0 && (2 * bk * bn) % 1024 == 0;
}

/// Rows of the warp grid of dot_loop's accumulator fragments on an architecture with (`wgmma`)
/// or without Hopper's wgmma: one 16-row slab per warp where the loop runs on wgmma
/// (gemm_wgmma_shape), gemm_warp_rows otherwise; 0 when no grid fits.
NTC_DEV_HD constexpr int gemm_accumulator_warp_rows(int bm, int bk, int bn, int threads, int stages,
                                                    bool wgmma) {
  return wgmma && gemm_wgmma_shape(bm, bk, bn, threads, stages)
             ? threads / 32
             : gemm_warp_rows(bm, bn, threads / 32);
}

/// Elements per store access of an Mma<·, warps_n> tile with n columns of `element_bytes`-byte
/// elements (ntc::dev::store_vec): 8 when the elements are 16-bit and every warp's columns are
/// whole groups of four 16×8 fragments, whose rows the four threads of a quad then exchange so
/// that each writes 16 contiguous bytes; 2 otherwise (the two columns of a fragment row that a
/// thread holds).
NTC_DEV_HD constexpr int mma_store_chunk(int n, int warps_n, int element_bytes) {
  return element_bytes == 2 && n % (32 * warps_n) == 0 ? 8 : 2;
}

} // namespace ntc::dev::layout
