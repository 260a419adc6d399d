// Fragment layouts of mma.sync.aligned.m16n8k16 (f16/bf16 inputs, f32 accumulators) and of the
// ldmatrix loads that produce them, as __host__ __device__ constexpr functions: the device tile
// library's tensor-core dot uses them, and a host test (tests/device/mma_layout_test.cpp,
// compiled by g++) checks them against a CPU model of the instructions. This header includes
// no CUDA header, so plain C++ can use it.
//
// Per warp, with g = lane / 4 and q = lane % 4 (PTX ISA, "Matrix Fragments for mma.m16n8k16"):
// * A (16×16, row-major; 4 .b32 registers of two 16-bit values): register r holds row
//   g + 8·(r & 1), columns 2q + 8·(r >> 1) and the next one.
// * B (16×8, k × n; 2 registers): register r holds rows (k) 2q + 8·r and the next one, column g.
// * C/D (16×8; 4 floats): value i holds row g + 8·(i >> 1), column 2q + (i & 1).
// ldmatrix.m8n8.x4 (.x2) loads four (two) 8×8 matrices of 16-bit values; lane l supplies the
// address of row l % 8 of matrix l / 8 (lanes 0–15 for .x2), and register m of every lane
// receives matrix m: without .trans lane l gets row l / 4, columns 2(l % 4) and +1; with .trans
// it gets rows 2(l % 4) and +1 of column l / 4.
#pragma once

#include <ntc/device/layout.cuh> // NTC_DEV_HD

namespace ntc::dev::mma {

/// A (row, column) position in a fragment's matrix.
struct Coord {
  int row; ///< row (k for the B operand)
  int col; ///< column (n for the B operand)
};

/// Element `i` (0–7: register i / 2, half i % 2) of `lane`'s A fragment: its position in the
/// 16×16 A tile.
NTC_DEV_HD constexpr Coord a_coord(int lane, int i) {
  const int g = lane / 4, q = lane % 4, r = i / 2;
  return {g + 8 * (r & 1), 2 * q + (i & 1) + 8 * (r >> 1)};
}

/// Element `i` (0–3: register i / 2, half i % 2) of `lane`'s B fragment: its (k, n) in the
/// 16×8 B tile.
NTC_DEV_HD constexpr Coord b_coord(int lane, int i) {
  const int g = lane / 4, q = lane % 4, r = i / 2;
  return {2 * q + (i & 1) + 8 * r, g};
}

/// Accumulator `i` (0–3) of `lane`'s C/D fragment: its position in the 16×8 tile.
NTC_DEV_HD constexpr Coord c_coord(int lane, int i) {
  const int g = lane / 4, q = lane % 4;
  return {g + 8 * (i >> 1), 2 * q + (i & 1)};
}

/// The row of the 16×16 A tile (and its first column, 0 or 8) whose 16-byte segment `lane`
/// addresses for ldmatrix.x4, so that the four registers come out as the A fragment.
NTC_DEV_HD constexpr Coord ldmatrix_a_address(int lane) {
  const int m = lane / 8, r = lane % 8;
  return {r + 8 * (m & 1), 8 * (m >> 1)};
}

/// The row (k) of the 16×8 B tile, stored k-major (row-major K×N), whose 16-byte segment `lane`
/// addresses for ldmatrix.x2.trans, so that the two registers come out as the B fragment
/// (lanes 16–31 repeat lanes 0–15; their addresses are ignored).
NTC_DEV_HD constexpr Coord ldmatrix_b_trans_address(int lane) { return {lane % 16, 0}; }

/// What ldmatrix delivers: half `h` (0/1) of the register for matrix m, in `lane`, is the
/// element at this (row, column) of matrix m (row r of matrix m being the 8 values at the
/// address supplied by lane 8m + r).
NTC_DEV_HD constexpr Coord ldmatrix_element(int lane, int h, bool trans) {
  return trans ? Coord{2 * (lane % 4) + h, lane / 4} : Coord{lane / 4, 2 * (lane % 4) + h};
}

} // namespace ntc::dev::mma
