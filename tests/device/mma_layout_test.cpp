// Host check of the mma.sync m16n8k16 / ldmatrix fragment mappings in ntc/device/mma_layout.cuh
// (plain C++, no GPU): a CPU model of ldmatrix (x4 and x2.trans) fed with the library's lane
// addresses must deliver exactly the fragments the mappings claim; the A, B and C/D mappings
// must each cover their tile once; the tensor-core dot's tile assignment must cover an M×N
// output once. Prints "mma layout: N checks failed" and exits nonzero on failure.
#include <ntc/device/mma_layout.cuh>

#include <cstdio>
#include <vector>

namespace mma = ntc::dev::mma;

static int failures = 0;

static void expect(bool ok, const char *what, int a = 0, int b = 0) {
  if (!ok) {
    if (failures < 10)
      std::printf("FAIL %s (%d, %d)\n", what, a, b);
    ++failures;
  }
}

// Compile-time spot checks against the PTX ISA figures.
static_assert(mma::a_coord(0, 0).row == 0 && mma::a_coord(0, 0).col == 0);
static_assert(mma::a_coord(5, 3).row == 9 &&
              mma::a_coord(5, 3).col == 3); // g=1,q=1: reg1 = row g+8
static_assert(mma::a_coord(31, 7).row == 15 && mma::a_coord(31, 7).col == 15);
static_assert(mma::b_coord(6, 3).row == 13 && mma::b_coord(6, 3).col == 1); // q=2: k=2q+1+8, n=g
static_assert(mma::c_coord(7, 2).row == 9 && mma::c_coord(7, 2).col == 6);

int main() {
  // Coverage: every position of the tile exactly once.
  {
    std::vector<int> a(16 * 16), b(16 * 8), c(16 * 8);
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 8; ++i) {
        const auto p = mma::a_coord(lane, i);
        expect(p.row >= 0 && p.row < 16 && p.col >= 0 && p.col < 16, "A in range", lane, i);
        ++a[p.row * 16 + p.col];
      }
      for (int i = 0; i < 4; ++i) {
        const auto p = mma::b_coord(lane, i);
        expect(p.row >= 0 && p.row < 16 && p.col >= 0 && p.col < 8, "B in range", lane, i);
        ++b[p.row * 8 + p.col];
        const auto q = mma::c_coord(lane, i);
        expect(q.row >= 0 && q.row < 16 && q.col >= 0 && q.col < 8, "C in range", lane, i);
        ++c[q.row * 8 + q.col];
      }
    }
    for (int x : a)
      expect(x == 1, "A covers 16x16 once");
    for (int x : b)
      expect(x == 1, "B covers 16x8 once");
    for (int x : c)
      expect(x == 1, "C covers 16x8 once");
  }
  // ldmatrix.x4 on a row-major 16×16 A tile inside a wider matrix (leading dimension 40).
  {
    const int ld = 40;
    std::vector<int> A(16 * ld);
    for (int i = 0; i < int(A.size()); ++i)
      A[i] = 1000 + i;
    // Row r of matrix m is the 8 values at the address lane 8m + r supplies.
    int matrix[4][8][8];
    for (int m = 0; m < 4; ++m)
      for (int r = 0; r < 8; ++r) {
        const auto p = mma::ldmatrix_a_address(8 * m + r);
        for (int j = 0; j < 8; ++j)
          matrix[m][r][j] = A[p.row * ld + p.col + j];
      }
    for (int lane = 0; lane < 32; ++lane)
      for (int m = 0; m < 4; ++m)
        for (int h = 0; h < 2; ++h) {
          const auto e = mma::ldmatrix_element(lane, h, false);
          const auto want = mma::a_coord(lane, 2 * m + h);
          expect(matrix[m][e.row][e.col] == A[want.row * ld + want.col],
                 "ldmatrix.x4 -> A fragment", lane, 2 * m + h);
        }
  }
  // ldmatrix.x2.trans on a row-major (k-major) 16×8 B tile inside a K×N matrix (N = 24).
  {
    const int ld = 24;
    std::vector<int> B(16 * ld);
    for (int i = 0; i < int(B.size()); ++i)
      B[i] = 5000 + i;
    int matrix[2][8][8];
    for (int m = 0; m < 2; ++m)
      for (int r = 0; r < 8; ++r) {
        const auto p = mma::ldmatrix_b_trans_address(8 * m + r);
        const auto repeat = mma::ldmatrix_b_trans_address(16 + 8 * m + r);
        expect(p.row == repeat.row && p.col == repeat.col, "ldmatrix.x2 upper lanes repeat", m, r);
        for (int j = 0; j < 8; ++j)
          matrix[m][r][j] = B[p.row * ld + p.col + j];
      }
    for (int lane = 0; lane < 32; ++lane)
      for (int m = 0; m < 2; ++m)
        for (int h = 0; h < 2; ++h) {
          const auto e = mma::ldmatrix_element(lane, h, true);
          const auto want = mma::b_coord(lane, 2 * m + h);
          expect(matrix[m][e.row][e.col] == B[want.row * ld + want.col],
                 "ldmatrix.x2.trans -> B fragment", lane, 2 * m + h);
        }
  }
  // The m16n8k16 product computed through the fragments equals the matrix product.
  {
    int A[16][16], B[16][8], D[16][8] = {};
    for (int i = 0; i < 16; ++i)
      for (int k = 0; k < 16; ++k)
        A[i][k] = (i * 7 + k * 3) % 11 - 5;
    for (int k = 0; k < 16; ++k)
      for (int j = 0; j < 8; ++j)
        B[k][j] = (k * 5 + j * 2) % 9 - 4;
    // Register contents per lane, then the warp-wide product as the ISA defines it.
    int fa[32][8], fb[32][4];
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 8; ++i)
        fa[lane][i] = A[mma::a_coord(lane, i).row][mma::a_coord(lane, i).col];
      for (int i = 0; i < 4; ++i)
        fb[lane][i] = B[mma::b_coord(lane, i).row][mma::b_coord(lane, i).col];
    }
    int Ar[16][16], Br[16][8];
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 8; ++i)
        Ar[mma::a_coord(lane, i).row][mma::a_coord(lane, i).col] = fa[lane][i];
      for (int i = 0; i < 4; ++i)
        Br[mma::b_coord(lane, i).row][mma::b_coord(lane, i).col] = fb[lane][i];
    }
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 4; ++i) {
        const auto p = mma::c_coord(lane, i);
        int sum = 0;
        for (int k = 0; k < 16; ++k)
          sum += Ar[p.row][k] * Br[k][p.col];
        D[p.row][p.col] = sum;
      }
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        int want = 0;
        for (int k = 0; k < 16; ++k)
          want += A[i][k] * B[k][j];
        expect(D[i][j] == want, "m16n8k16 product", i, j);
      }
  }
  // The tile assignment of the tensor-core dot (16×8 tiles round-robin over the warps) covers
  // the output once, for the shapes and block sizes the code generator uses.
  for (int threads : {128, 256})
    for (int M : {16, 32, 48, 64, 128})
      for (int N : {8, 16, 24, 64, 128}) {
        const int TN = N / 8, tiles = (M / 16) * TN, W = threads / 32;
        const int per_warp = (tiles + W - 1) / W;
        std::vector<int> seen(M * N);
        for (int warp = 0; warp < W; ++warp)
          for (int j = 0; j < per_warp; ++j) {
            const int t = warp + j * W;
            if (t >= tiles)
              continue;
            for (int lane = 0; lane < 32; ++lane)
              for (int i = 0; i < 4; ++i) {
                const auto p = mma::c_coord(lane, i);
                ++seen[((t / TN) * 16 + p.row) * N + (t % TN) * 8 + p.col];
              }
          }
        for (int x : seen)
          expect(x == 1, "tile assignment covers the output once", M, N);
      }
  std::printf("mma layout: %d checks failed\n", failures);
  return failures ? 1 : 0;
}
