// Host check of the layouts in ntc/device/layout.cuh (plain C++, no GPU), against a CPU model:
// * blocked register layout: every element of a tile is held by exactly one (thread, slot);
//   owner()/slot_of() invert element(); a chunk is V consecutive elements in consecutive
//   slots of one thread; V = 1 is the cyclic layout; chunks fill every thread;
// * shared-memory swizzle: a bijection on each row's 16-byte units, and the eight rows that
//   one ldmatrix phase reads at the same logical unit fall in eight different bank groups;
// * the column-block swizzle (wgmma's shared layout): a bijection keeping 16-byte units whole;
// * the ldmatrix.x4.trans addresses of dot_loop's B operand deliver two B fragments;
// * dot_loop's warp grid tiles the block exactly with 16×16-multiple warp tiles.
// Prints "layouts: N checks failed" and exits nonzero on failure.
#include <ntc/device/layout.cuh>
#include <ntc/device/mma_layout.cuh>

#include <cstdio>
#include <set>
#include <vector>

namespace layout = ntc::dev::layout;
namespace mma = ntc::dev::mma;

static int failures = 0;

static void expect(bool ok, const char *what, int a = 0, int b = 0) {
  if (!ok) {
    if (failures < 10)
      std::printf("FAIL %s (%d, %d)\n", what, a, b);
    ++failures;
  }
}

// Compile-time spot checks.
static_assert(layout::chunk_width(4096, 256) == 4);
static_assert(layout::chunk_width(4096, 512) == 4);
static_assert(layout::chunk_width(512, 128) == 4);
static_assert(layout::chunk_width(1024, 256) == 4);
static_assert(layout::chunk_width(100, 32) == 1);
static_assert(layout::chunk_width(1, 128) == 1);
static_assert(layout::slots(4096, 256) == 16 && layout::slots(100, 32) == 4);
static_assert(layout::element(4096, 256, 1, 0) == 4 && layout::element(4096, 256, 0, 8) == 2048);
static_assert(layout::swizzle_unit(3, 0, 16) == 3 && layout::swizzle_unit(3, 0, 4) == 1);
static_assert(layout::gemm_warp_rows(128, 128, 8) == 2 && layout::gemm_warp_rows(16, 16, 8) == 0);

static void blocked_layout() {
  for (int threads : {32, 64, 128, 256})
    for (int n : {1, 2, 7, 32, 33, 100, 256, 512, 1024, 2048, 4096, 8192, 16384, 3 * 256 * 8}) {
      const int v = layout::chunk_width(n, threads), slots = layout::slots(n, threads);
      expect(v == 1 || n % (v * threads) == 0, "chunks fill every thread", n, threads);
      std::vector<int> seen(n);
      for (int t = 0; t < (n == 1 ? 1 : threads); ++t)
        for (int s = 0; s < slots; ++s) {
          const int e = layout::element(n, threads, t, s);
          if (v == 1 && n > 1)
            expect(e == s * threads + t, "V = 1 is the cyclic layout", n, threads);
          if (e >= n)
            continue;
          ++seen[e];
          expect(layout::owner(n, threads, e) == t && layout::slot_of(n, threads, e) == s,
                 "owner/slot_of invert element", n, e);
          if (s % v != 0)
            expect(e == layout::element(n, threads, t, s - 1) + 1, "chunks are consecutive", n, s);
        }
      for (int e = 0; e < n; ++e)
        expect(seen[e] == 1, "every element held once", n, e);
    }
}

static void swizzle() {
  for (int units : {1, 2, 4, 8, 16, 32})
    for (int row = 0; row < 64; ++row) {
      std::set<int> image;
      for (int u = 0; u < units; ++u)
        image.insert(layout::swizzle_unit(row, u, units));
      expect(int(image.size()) == units && *image.rbegin() == units - 1,
             "swizzle permutes a row's units", units, row);
    }
  // One ldmatrix phase: 8 consecutive rows at the same logical unit; bank group = the 16-byte
  // unit's position modulo 128 bytes.
  for (int units : {2, 4, 8, 16, 32})
    for (int row0 = 0; row0 < 64; row0 += 8)
      for (int u = 0; u < units; ++u) {
        std::set<int> groups;
        for (int r = row0; r < row0 + 8; ++r)
          groups.insert((r * units + layout::swizzle_unit(r, u, units)) % 8);
        expect(groups.size() == 8, "ldmatrix phase free of bank conflicts", units, u);
      }
  // Element offsets stay inside their row and are distinct.
  for (int cols : {16, 32, 64, 128, 256}) {
    std::set<int> offsets;
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < cols; ++c) {
        const int o = layout::swizzled_offset(r, c, cols, 2);
        expect(o / cols == r, "swizzled offset stays in its row", cols, c);
        offsets.insert(o);
      }
    expect(int(offsets.size()) == 16 * cols, "swizzled offsets are distinct", cols);
  }
}

static void block_swizzle() {
  // The column-block swizzled layout (wgmma's): a bijection onto the buffer; a 16-byte unit
  // (8 half elements from a column multiple of 8) stays contiguous; and, rows of one column block
  // being `block` bytes apart, eight consecutive rows at one logical unit fall in eight bank
  // groups when the block is 128 bytes wide (fewer blocks share the 128-byte line otherwise).
  for (int block : {32, 64, 128})
    for (int cols : {16, 32, 64, 128, 256}) {
      if (cols * 2 % block != 0)
        continue;
      const int rows = 32;
      std::set<int> offsets;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          const int o = layout::block_swizzled_offset(r, c, rows, block, 2);
          expect(o >= 0 && o < rows * cols, "block swizzle stays in the buffer", block, cols);
          offsets.insert(o);
          if (c % 8 != 0)
            expect(o == layout::block_swizzled_offset(r, c - c % 8, rows, block, 2) + c % 8,
                   "block swizzle keeps 16-byte units whole", block, c);
        }
      expect(int(offsets.size()) == rows * cols, "block swizzled offsets are distinct", block,
             cols);
    }
  for (int u = 0; u < 8; ++u) {
    std::set<int> groups;
    for (int r = 0; r < 8; ++r)
      groups.insert(layout::block_swizzled_offset(r, 8 * u, 8, 128, 2) / 8 % 8);
    expect(groups.size() == 8, "128-byte block swizzle: eight rows in eight bank groups", u);
  }
  // The split that scatter_mma_swizzled stores by: a per-row XOR of the unit index, equal for
  // rows equal modulo 8, and the same offsets as block_swizzled_offset.
  for (int block : {32, 64, 128})
    for (int r = 0; r < 64; ++r) {
      expect(layout::block_swizzle_xor(r, block) == layout::block_swizzle_xor(r % 8, block),
             "the swizzle's XOR repeats every 8 rows", block, r);
      for (int c = 0; c < 256; ++c)
        expect(layout::block_swizzled_byte(r, c, 64, block, layout::block_swizzle_xor(r, block)) ==
                   2 * layout::block_swizzled_offset(r, c, 64, block, 2),
               "block_swizzled_byte is block_swizzled_offset in bytes", block, r * 256 + c);
    }
  // The 128-byte block of rows of exactly 128 bytes is the row swizzle of dot_loop's ring.
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 64; ++c)
      expect(layout::block_swizzled_offset(r, c, 16, 128, 2) ==
                 layout::swizzled_offset(r, c, 64, 2),
             "one 128-byte block is the row swizzle", r, c);
  static_assert(layout::block_row_bytes(512) == 128 && layout::block_row_bytes(64) == 64 &&
                layout::block_row_bytes(96) == 32 && layout::block_row_bytes(48) == 0);
}

static void ldmatrix_b_x4_trans() {
  // B stored k-major (16 × 16 block at k0 = 0, n0 = 0). Lane l supplies row (k) l % 16, column
  // 8·(l / 16); register m of every lane receives matrix m = the 8×8 block at
  // (8·(m % 2), 8·(m / 2)), transposed. Registers 0, 1 must be the B fragment of the 16×8
  // tile at n0 and registers 2, 3 that of the tile at n0 + 8.
  for (int lane = 0; lane < 32; ++lane)
    for (int m = 0; m < 4; ++m)
      for (int h = 0; h < 2; ++h) {
        const mma::Coord in = mma::ldmatrix_element(lane, h, true); // (row, col) in matrix m
        // Row r of matrix m is the 8 values at the address of lane 8m + r.
        const int address_lane = 8 * m + in.row;
        const int k = address_lane % 16, n = 8 * (address_lane / 16) + in.col;
        const mma::Coord want = mma::b_coord(lane, 2 * (m % 2) + h);
        expect(k == want.row && n == want.col + 8 * (m / 2), "x4.trans B fragments", lane, m);
      }
}

static void warp_grid() {
  for (int warps : {4, 8})
    for (int bm : {16, 32, 64, 128, 256})
      for (int bn : {16, 32, 64, 128, 256}) {
        const int wm = layout::gemm_warp_rows(bm, bn, warps);
        if (wm == 0)
          continue;
        const int wn = warps / wm;
        expect(wm * wn == warps && bm % (16 * wm) == 0 && bn % (16 * wn) == 0,
               "warp tiles are 16x16 multiples covering the block", bm, bn);
      }
  expect(layout::gemm_warp_rows(64, 32, 8) == 4, "64x32 over 8 warps: 4 rows", 0, 0);
}

int main() {
  blocked_layout();
  swizzle();
  block_swizzle();
  ldmatrix_b_x4_trans();
  warp_grid();
  std::printf("layouts: %d checks failed\n", failures);
  return failures ? 1 : 0;
}
