// Layout-typed register tiles: LTile<T, Shape, Layout>, where the layout says which thread holds
// which element. The compiler's layout-assignment pass (compiler/passes/AssignLayouts.cpp)
// chooses the layouts; the blocked tiles of tile.cuh (Tile<T, S, Threads>, the Blocked<Threads>
// layout) remain the default. The layouts here are those of the tensor cores:
//
// * Mma<WM, WN>: the accumulator of mma.sync.m16n8k16 over a WM × WN grid of warps (warp w is
//   (w / WN, w % WN)); an M × N tile gives each warp an (M/WM) × (N/WN) block of 16 × 8
//   fragments, slot (mi, ni, i) holding mma::c_coord(lane, i) of fragment (mi, ni).
// * DotA<P> / DotB<P>: the A (M × K) and B (K × N) operands of a product whose result has layout
//   P = Mma<WM, WN>, in mma::a_coord / mma::b_coord fragments (A replicated over the WN warps of
//   a warp row, B over the WM warps of a warp column).
// * Slice<P, D>: P with dimension D reduced away (row statistics such as max(qk, 1) have
//   Slice<Mma, 1>); the tile may have rank(P) − 1 dimensions or extent 1 at D. Its elements are
//   replicated over the lanes and warps that share them in P.
// * SharedTile<T, S, Transposed>: a tile resident in shared memory (rows padded by 16 bytes so
//   that ldmatrix reads are conflict-free); the B operand of dot comes from there. Transposed
//   means the buffer holds the tile's transpose row-major (trans(k) of attention is free).
//
// Elementwise operations take operands of one layout (plus elements and replicated tiles);
// broadcast_to turns a Slice<P, D> tile into P; convert_layout moves between any two layouts
// (registers only where every element stays in its thread, shared memory otherwise).
#pragma once

#include <ntc/device/dot.cuh>
#include <ntc/device/gemm.cuh>
#include <ntc/device/mma_layout.cuh>
#include <ntc/device/reduce.cuh>
#include <ntc/device/tile.cuh>
#include <ntc/device/wgmma.cuh>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ntc::dev {

// --- layouts ------------------------------------------------------------------------------------

/// The blocked layout of tile.cuh, as a layout type (the target of convert_layout).
template <int Threads> struct Blocked {
  /// Threads of the block.
  static constexpr int threads = Threads;
};

/// The blocked layout with an explicit chunk width V: element e of a tile (row-major) is slot
/// (e / V) / Threads · V + e % V of thread (e / V) % Threads. With V = 1 (cyclic) a warp's
/// element-by-element accesses touch 32 consecutive elements, which the compiler chooses for
/// programs whose accesses cannot be vectors (passes/AssignCyclicLayouts.cpp); tile.cuh's
/// Tile derives V from the tile size instead. The tile's size must be a multiple of
/// V · Threads, so every slot holds an element.
template <int Threads, int V> struct Chunked {
  static_assert(Threads > 0 && Threads % 32 == 0 && V > 0, "ntc::dev::Chunked: bad parameters");
  /// Threads of the block.
  static constexpr int threads = Threads;
  /// The layout on shape S.
  template <class S> struct on {
    static_assert(S::numel % (V * Threads) == 0,
                  "ntc::dev::Chunked: the tile size is not a multiple of V * Threads");
    /// Register slots per thread.
    static constexpr int slots = S::numel / Threads;
    /// The row-major linear index of slot s in the calling thread.
    __device__ static int element(int s) {
      return ((s / V) * Threads + program_thread<Threads>()) * V + s % V;
    }
    /// The multi-index of slot s in the calling thread.
    __device__ static void coord(int s, int *index) { S::unravel(element(s), index); }
    /// Every slot holds an element of its own.
    __device__ static bool owns(int) { return true; }
  };
};

/// mma.sync m16n8k16 accumulators over WM × WN warps (see the top of this file).
template <int WM, int WN> struct Mma {
  static_assert(WM > 0 && WN > 0, "ntc::dev::Mma: warps must be positive");
  /// Threads of the block.
  static constexpr int threads = 32 * WM * WN;
  /// Warps along the columns.
  static constexpr int warps_n = WN;
  /// The layout on an M × N shape S.
  template <class S> struct on {
    static_assert(S::rank == 2, "ntc::dev::Mma: 2-D tiles only");
    static constexpr int M = S::dim(0), N = S::dim(1);
    static_assert(M % (16 * WM) == 0 && N % (8 * WN) == 0,
                  "ntc::dev::Mma: the tile does not divide into the warps' 16x8 fragments");
    /// Fragments per warp along M and N.
    static constexpr int MT = M / (16 * WM), NT = N / (8 * WN);
    /// Register slots per thread.
    static constexpr int slots = MT * NT * 4;
    /// The (row, column) of slot s in the calling thread.
    __device__ static void coord(int s, int *index) {
      const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
      const mma::Coord c = mma::c_coord(lane, s % 4);
      const int f = s / 4, mi = f / NT, ni = f % NT;
      index[0] = (w / WN) * (M / WM) + mi * 16 + c.row;
      index[1] = (w % WN) * (N / WN) + ni * 8 + c.col;
    }
    /// True when the calling thread is the one that writes slot s (every element once).
    __device__ static bool owns(int) { return true; }
  };
};

/// Operand A (M × K) of a product with result layout P.
template <class P> struct DotA;
/// Operand A of a product with result layout Mma<WM, WN>.
template <int WM, int WN> struct DotA<Mma<WM, WN>> {
  /// Threads of the block.
  static constexpr int threads = 32 * WM * WN;
  /// The layout on an M × K shape S.
  template <class S> struct on {
    static_assert(S::rank == 2, "ntc::dev::DotA: 2-D tiles only");
    static constexpr int M = S::dim(0), K = S::dim(1);
    static_assert(M % (16 * WM) == 0 && K % 16 == 0,
                  "ntc::dev::DotA: the tile does not divide into 16x16 fragments");
    /// Fragments per warp along M and K.
    static constexpr int MT = M / (16 * WM), KT = K / 16;
    /// Register slots per thread.
    static constexpr int slots = MT * KT * 8;
    /// The (row, column) of slot s in the calling thread.
    __device__ static void coord(int s, int *index) {
      const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
      const mma::Coord c = mma::a_coord(lane, s % 8);
      const int f = s / 8, mi = f / KT, kk = f % KT;
      index[0] = (w / WN) * (M / WM) + mi * 16 + c.row;
      index[1] = kk * 16 + c.col;
    }
    /// The warps of one warp row hold the same elements; the first writes them.
    __device__ static bool owns(int) { return int(threadIdx.x) / 32 % WN == 0; }
  };
};

/// Operand B (K × N) of a product with result layout P.
template <class P> struct DotB;
/// Operand B of a product with result layout Mma<WM, WN>.
template <int WM, int WN> struct DotB<Mma<WM, WN>> {
  /// Threads of the block.
  static constexpr int threads = 32 * WM * WN;
  /// The layout on a K × N shape S.
  template <class S> struct on {
    static_assert(S::rank == 2, "ntc::dev::DotB: 2-D tiles only");
    static constexpr int K = S::dim(0), N = S::dim(1);
    static_assert(K % 16 == 0 && N % (8 * WN) == 0,
                  "ntc::dev::DotB: the tile does not divide into 16x8 fragments");
    /// Fragments per warp along K and N.
    static constexpr int KT = K / 16, NT = N / (8 * WN);
    /// Register slots per thread.
    static constexpr int slots = KT * NT * 4;
    /// The (k, n) of slot s in the calling thread.
    __device__ static void coord(int s, int *index) {
      const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
      const mma::Coord c = mma::b_coord(lane, s % 4);
      const int f = s / 4, kk = f / NT, ni = f % NT;
      index[0] = kk * 16 + c.row;
      index[1] = (w % WN) * (N / WN) + ni * 8 + c.col;
    }
    /// The warps of one warp column hold the same elements; the first writes them.
    __device__ static bool owns(int) { return int(threadIdx.x) / 32 / WN == 0; }
  };
};

/// P with dimension D reduced away.
template <class P, int D> struct Slice;
/// An Mma layout with dimension D (0: rows, 1: columns) reduced away.
template <int WM, int WN, int D> struct Slice<Mma<WM, WN>, D> {
  static_assert(D == 0 || D == 1, "ntc::dev::Slice: dimension of a 2-D layout");
  /// Threads of the block.
  static constexpr int threads = 32 * WM * WN;
  /// The layout on S: rank 1 (the kept dimension) or rank 2 with extent 1 at D.
  template <class S> struct on {
    static_assert(S::rank == 1 || (S::rank == 2 && S::dim(D) == 1),
                  "ntc::dev::Slice: rank 1, or rank 2 with extent 1 at the sliced dimension");
    /// Extent of the kept dimension and its index in S.
    static constexpr int E = S::rank == 1 ? S::dim(0) : S::dim(1 - D);
    static constexpr int kept = S::rank == 1 ? 0 : 1 - D;
    /// Warps along the kept dimension.
    static constexpr int W = D == 1 ? WM : WN;
    static_assert(E % ((D == 1 ? 16 : 8) * W) == 0,
                  "ntc::dev::Slice: the tile does not divide into the parent's fragments");
    /// Fragments per warp along the kept dimension.
    static constexpr int F = E / ((D == 1 ? 16 : 8) * W);
    /// Register slots per thread: two rows (columns) per fragment.
    static constexpr int slots = F * 2;
    /// The coordinates of slot s in the calling thread.
    __device__ static void coord(int s, int *index) {
      const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
      const int f = s / 2, h = s % 2;
      if constexpr (S::rank == 2)
        index[D] = 0;
      if constexpr (D == 1)
        index[kept] = (w / WN) * (E / WM) + f * 16 + lane / 4 + 8 * h;
      else
        index[kept] = (w % WN) * (E / WN) + f * 8 + 2 * (lane % 4) + h;
    }
    /// One lane of one warp writes each element.
    __device__ static bool owns(int) {
      const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
      return D == 1 ? lane % 4 == 0 && w % WN == 0 : lane / 4 == 0 && w / WN == 0;
    }
    /// The slot holding the element of parent slot s (broadcasting back to the parent).
    NTC_DEV_HD static constexpr int from_parent(int s, int parent_nt) {
      const int f = s / 4, i = s % 4;
      return D == 1 ? (f / parent_nt) * 2 + (i >> 1) : (f % parent_nt) * 2 + (i & 1);
    }
  };
};

/// Shares of the values of layout P (a Slice of an Mma layout whose reduced dimension lies
/// within each warp): the lanes that hold an element of P (four along a row, eight along a
/// column) each hold a share, and the element is the sum of the shares. A sum reduction leaves
/// its lanes' partial sums so (sum_lane_partial), and a loop can carry them, scaled and added to,
/// without the shuffles of every iteration; convert_layout to P adds them up. Elementwise
/// operations take such tiles only where they distribute over the shares (tile.cuh's arith),
/// and nothing stores them (the layout has no owner of an element).
template <class P> struct LanePartial;
template <int WM, int WN, int D> struct LanePartial<Slice<Mma<WM, WN>, D>> {
  static_assert(D == 1 ? WN == 1 : WM == 1,
                "ntc::dev::LanePartial: the reduced dimension must lie within each warp");
  /// Threads of the block.
  static constexpr int threads = 32 * WM * WN;
  /// The layout on S: P's slots, coordinates included.
  template <class S> struct on {
    using Whole = typename Slice<Mma<WM, WN>, D>::template on<S>;
    /// Register slots per thread.
    static constexpr int slots = Whole::slots;
    /// The coordinates of slot s in the calling thread.
    __device__ static void coord(int s, int *index) { Whole::coord(s, index); }
    /// True for the lane that holds the first share of each element (lane % 4 == 0 along a row,
    /// lane / 4 == 0 along a column).
    __device__ static bool first_share() {
      const int lane = int(threadIdx.x) % 32;
      return D == 1 ? lane % 4 == 0 : lane / 4 == 0;
    }
  };
};

namespace detail {
template <class P> struct partial_parent<LanePartial<P>> { using type = P; };
} // namespace detail

// --- tiles --------------------------------------------------------------------------------------

/// A CTA-wide tile of T with shape S in layout L (see the top of this file).
template <class T, class S, class L> struct LTile {
  static_assert(is_element_v<T>, "ntc::dev::LTile: not an element type");
  static_assert(is_shape_v<S>, "ntc::dev::LTile: S must be a Shape");
  /// Element type.
  using element_type = T;
  /// Shape type.
  using shape = S;
  /// Layout type.
  using layout = L;
  /// The layout on this shape.
  using map_type = typename L::template on<S>;
  /// Threads of the block.
  static constexpr int threads = L::threads;
  /// Number of elements.
  static constexpr int N = S::numel;
  /// Never replicated as a whole (elements may be held by several threads).
  static constexpr bool replicated = false;
  /// Register slots per thread.
  static constexpr int Slots = map_type::slots;
  /// This thread's elements.
  T v[Slots];
  /// The multi-index of slot s in the calling thread.
  __device__ static void coord(int s, int *index) { map_type::coord(s, index); }
  /// True when the calling thread writes slot s (each element is written once).
  __device__ static bool owns(int s) { return map_type::owns(s); }
  /// Row-major linear index of slot s.
  __device__ static int linear(int s) {
    int index[S::rank > 0 ? S::rank : 1] = {};
    coord(s, index);
    return S::ravel(index);
  }
  /// The tile converted to element type U (see cast()).
  template <class U> __device__ LTile<U, S, L> to() const { return ::ntc::dev::cast<U>(*this); }
};

/// True for LTile<...>.
template <class X> inline constexpr bool is_ltile_v = false;
/// True for LTile<...>.
template <class T, class S, class L> inline constexpr bool is_ltile_v<LTile<T, S, L>> = true;

/// −a element-wise.
template <class T, class S, class L>
__device__ inline LTile<T, S, L> operator-(const LTile<T, S, L> &a) {
  return ::ntc::dev::map(a, detail::negate_fn{});
}
/// Logical not element-wise.
template <class T, class S, class L>
__device__ inline LTile<bool, S, L> operator!(const LTile<T, S, L> &a) {
  return ::ntc::dev::map(a, [](T x) { return !::ntc::dev::convert<bool>(x); });
}
/// |a| element-wise.
template <class T, class S, class L> __device__ inline LTile<T, S, L> abs(const LTile<T, S, L> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::abs(value); });
}
/// floor(a) element-wise.
template <class T, class S, class L>
__device__ inline LTile<T, S, L> floor(const LTile<T, S, L> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::floor(value); });
}
/// ceil(a) element-wise.
template <class T, class S, class L>
__device__ inline LTile<T, S, L> ceil(const LTile<T, S, L> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::ceil(value); });
}

// --- creation, memory ---------------------------------------------------------------------------

/// A tile of shape S in layout L filled with `value`.
template <class T, class S, class L, class V = T> __device__ inline LTile<T, S, L> full(V value) {
  const T x = ::ntc::dev::convert<T>(value);
  LTile<T, S, L> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s)
    r.v[s] = x;
  return r;
}

/// The tile whose element at index I is f(I) (see memory.cuh).
template <class T, class S, class L, class F> __device__ inline LTile<T, S, L> generate(F f) {
  LTile<T, S, L> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s) {
    int index[S::rank > 0 ? S::rank : 1] = {};
    r.coord(s, index);
    r.v[s] = ::ntc::dev::convert<T>(f(static_cast<const int *>(index)));
  }
  return r;
}

/// [start, start + n) in layout L.
template <class S, class L, class T = int32_t> __device__ inline LTile<T, S, L> arange(int start) {
  return ::ntc::dev::generate<T, S, L>([start](const int *index) { return start + index[0]; });
}

/// Loads a tile in layout L (see memory.cuh's load).
template <class T, class S, class L, class O, class F>
__device__ inline LTile<T, S, L> load(const T *base, O other, F offset) {
  const T fill = ::ntc::dev::convert<T>(other);
  LTile<T, S, L> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s) {
    int index[S::rank > 0 ? S::rank : 1] = {};
    r.coord(s, index);
    const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
    r.v[s] = off != masked ? base[off] : fill;
  }
  return r;
}

/// Stores a tile of any layout (each element once; see memory.cuh's store).
template <class T, class U, class S, class L, class F>
__device__ inline void store(T *base, const LTile<U, S, L> &value, F offset) {
#pragma unroll
  for (int s = 0; s < value.Slots; ++s) {
    if (value.owns(s)) {
      int index[S::rank > 0 ? S::rank : 1] = {};
      value.coord(s, index);
      const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
      if (off != masked)
        base[off] = ::ntc::dev::convert<T>(value.v[s]);
    }
  }
}

namespace detail {

/// The 4 × 4 transpose of 32-bit words across the four threads of each quad: word r of quad
/// thread q becomes word q of quad thread r (two rounds of pairwise exchanges).
__device__ inline void quad_transpose(uint32_t (&w)[4]) {
  const int q = int(threadIdx.x) % 4;
#pragma unroll
  for (int bit = 1; bit <= 2; bit <<= 1) {
    // Swap the words whose index differs from q in this bit with the partner q ^ bit.
    const bool high = (q & bit) != 0;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      if (r & bit)
        continue; // each pair (r, r | bit) once
      const uint32_t send = high ? w[r] : w[r | bit];
      const uint32_t got = __shfl_xor_sync(0xffffffffu, send, bit);
      if (high)
        w[r] = got;
      else
        w[r | bit] = got;
    }
  }
}

} // namespace detail

/// store() of an Mma tile, each access as wide as layout::mma_store_chunk says: 16-bit elements
/// in chunks of 8 where every warp's columns are whole groups of four fragments (the quad's
/// threads exchange their column pairs so that thread q writes all of fragment 4j + q's row),
/// else the two consecutive columns of each fragment row that a thread holds. Under the
/// contract of load_vec: chunk(index) is the offset of the chunk that starts at index when all
/// of it is in bounds (the dispatcher checked that such chunks are contiguous and aligned),
/// `masked` otherwise; the chunk's elements are then stored one by one through offset.
template <class T, class U, class S, int WM, int WN, class F, class C>
__device__ inline void store_vec(T *base, const LTile<U, S, Mma<WM, WN>> &value, F offset,
                                 C chunk) {
  using Map = typename Mma<WM, WN>::template on<S>;
  constexpr int V = layout::mma_store_chunk(Map::N, WN, int(sizeof(T)));
  using Word = typename detail::vector_word<int(sizeof(T)) * V>::type;
  // Stores the V elements `packed` from index (a row and its first column).
  auto put = [&](int *index, const T *packed) {
    const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
    if (first != masked) {
      Word word;
      std::memcpy(&word, packed, sizeof(word));
      *reinterpret_cast<Word *>(base + first) = word;
      return;
    }
#pragma unroll
    for (int k = 0; k < V; ++k, ++index[1]) {
      const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
      if (off != masked)
        base[off] = packed[k];
    }
  };
  if constexpr (V == 8) {
    // Slot (fragment f, element i) is value.v[4f + i]; rows i / 2 of the 16-row fragment.
    const int q = int(threadIdx.x) % 4;
#pragma unroll
    for (int mi = 0; mi < Map::MT; ++mi)
#pragma unroll
      for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int group = 0; group < Map::NT / 4; ++group) {
          uint32_t w[4];
#pragma unroll
          for (int r = 0; r < 4; ++r) {
            const int s = 4 * (mi * Map::NT + 4 * group + r) + 2 * half;
            T pair[2] = {::ntc::dev::convert<T>(value.v[s]),
                         ::ntc::dev::convert<T>(value.v[s + 1])};
            std::memcpy(&w[r], pair, sizeof(uint32_t));
          }
          detail::quad_transpose(w); // w[r]: columns 2r, 2r + 1 of fragment 4·group + q
          T packed[8];
          std::memcpy(packed, w, sizeof(packed));
          int index[2];
          value.coord(4 * (mi * Map::NT + 4 * group + q) + 2 * half, index);
          index[1] -= 2 * q; // the fragment row's first column
          put(index, packed);
        }
  } else {
#pragma unroll
    for (int s = 0; s < value.Slots; s += 2) {
      int index[2];
      value.coord(s, index);
      T packed[2] = {::ntc::dev::convert<T>(value.v[s]), ::ntc::dev::convert<T>(value.v[s + 1])};
      put(index, packed);
    }
  }
}

namespace detail {

/// True for Slice<Mma<WM, WN>, 0>: the columns of an Mma layout, a thread holding two
/// consecutive ones per fragment.
template <class L> inline constexpr bool column_slice_v = false;
template <int WM, int WN> inline constexpr bool column_slice_v<Slice<Mma<WM, WN>, 0>> = true;

/// Reads the V consecutive elements from `index` (its last coordinate advancing) into
/// `packed`: one access of V elements where chunk(index) is not `masked`, else element by
/// element through offset, `fill` where that is masked (load_vec's contract, memory.cuh).
template <int V, int Rank, class T, class F, class C>
__device__ inline void load_chunk(const T *base, T fill, F &offset, C &chunk, int *index,
                                  T *packed) {
  using Word = typename vector_word<int(sizeof(T)) * V>::type;
  const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
  if (first != masked) {
    const Word word = *reinterpret_cast<const Word *>(base + first);
    std::memcpy(packed, &word, sizeof(word));
    return;
  }
#pragma unroll
  for (int k = 0; k < V; ++k, ++index[Rank - 1]) {
    const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
    packed[k] = off != masked ? base[off] : fill;
  }
}

} // namespace detail

/// load() of an Mma tile, or of a Slice of its columns, with vector accesses: an Mma tile as
/// store_vec stores it, mirrored (16-bit elements in chunks of 8 where every warp's columns
/// are whole groups of four fragments: thread q reads all of fragment 4j + q's row, then the
/// quad's threads exchange column pairs so that each holds its own; else the two consecutive
/// columns of each fragment row that a thread holds), a column Slice by the two consecutive
/// columns of each fragment. Under the contract of load_vec (memory.cuh): chunk(index) is the
/// offset of the chunk that starts at index when all of it is in bounds, `masked` otherwise;
/// such a chunk is read element by element through offset, with `other` where that is masked.
template <class T, class S, class L, class O, class F, class C>
__device__ inline LTile<T, S, L> load_vec(const T *base, O other, F offset, C chunk) {
  const T fill = ::ntc::dev::convert<T>(other);
  LTile<T, S, L> r;
  if constexpr (detail::column_slice_v<L>) {
#pragma unroll
    for (int s = 0; s < r.Slots; s += 2) {
      int index[S::rank] = {};
      r.coord(s, index);
      detail::load_chunk<2, S::rank>(base, fill, offset, chunk, index, &r.v[s]);
    }
  } else {
    static_assert(S::rank == 2, "ntc::dev::load_vec: an Mma tile is 2-D");
    using Map = typename L::template on<S>;
    constexpr int V = layout::mma_store_chunk(Map::N, L::warps_n, int(sizeof(T)));
    if constexpr (V == 8) {
      const int q = int(threadIdx.x) % 4;
#pragma unroll
      for (int mi = 0; mi < Map::MT; ++mi)
#pragma unroll
        for (int half = 0; half < 2; ++half)
#pragma unroll
          for (int group = 0; group < Map::NT / 4; ++group) {
            int index[2];
            r.coord(4 * (mi * Map::NT + 4 * group + q) + 2 * half, index);
            index[1] -= 2 * q; // the fragment row's first column
            T packed[8];
            detail::load_chunk<8, 2>(base, fill, offset, chunk, index, packed);
            uint32_t w[4]; // w[j]: columns 2j, 2j + 1 of fragment 4·group + q
            std::memcpy(w, packed, sizeof(w));
            detail::quad_transpose(w); // w[j]: this thread's columns of fragment 4·group + j
#pragma unroll
            for (int j = 0; j < 4; ++j)
              std::memcpy(&r.v[4 * (mi * Map::NT + 4 * group + j) + 2 * half], &w[j],
                          sizeof(uint32_t));
          }
    } else {
#pragma unroll
      for (int s = 0; s < r.Slots; s += 2) {
        int index[2];
        r.coord(s, index);
        detail::load_chunk<2, 2>(base, fill, offset, chunk, index, &r.v[s]);
      }
    }
  }
  return r;
}

// --- shape operations ---------------------------------------------------------------------------

/// Inserts an extent-1 axis into a Slice tile at its sliced dimension (registers unchanged).
template <int Axis, class T, class S, class P, int D>
__device__ inline auto expand_dims(const LTile<T, S, Slice<P, D>> &t) {
  static_assert(S::rank == 1 && (Axis == D || Axis == D - 2),
                "ntc::dev::expand_dims: a Slice tile gains its sliced dimension back");
  using S2 = typename detail::insert_axis<S, D>::type;
  LTile<T, S2, Slice<P, D>> r;
#pragma unroll
  for (int s = 0; s < t.Slots; ++s)
    r.v[s] = t.v[s];
  return r;
}

/// A Slice<P, D> tile broadcast along D to the parent layout P (registers only).
template <class S2, class T, class S, class P, int D>
__device__ inline LTile<T, S2, P> broadcast_to(const LTile<T, S, Slice<P, D>> &t, Smem = {}) {
  using Src = typename Slice<P, D>::template on<S>;
  using Dst = typename P::template on<S2>;
  static_assert(Src::E == S2::dim(1 - D), "ntc::dev::broadcast_to: extents differ");
  LTile<T, S2, P> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s)
    r.v[s] = t.v[Src::from_parent(s, Dst::NT)];
  return r;
}

/// x · y element-wise, except that a warp whose elements of y are all exactly one returns x
/// itself without multiplying (x · 1 is x; a NaN element keeps its payload rather than becoming
/// the canonical NaN). Every lane of the warp must call it. For a carried tile rescaled by
/// broadcast factors (the compiler's skip-unit-factors): y's registers repeat a few factors, so
/// the test costs a comparison per factor, a vote and a branch.
template <class T, class S, class L>
__device__ inline LTile<T, S, L> mul_unless_one(const LTile<T, S, L> &x, const LTile<T, S, L> &y) {
  bool one = true;
#pragma unroll
  for (int s = 0; s < y.Slots; ++s)
    one = one && y.v[s] == ::ntc::dev::convert<T>(1.0);
  if (__all_sync(0xffffffffu, one))
    return x;
  return x * y;
}

/// A tile broadcast to its own shape (no-op).
template <class S2, class T, class L>
__device__ inline LTile<T, S2, L> broadcast_to(const LTile<T, S2, L> &t, Smem = {}) {
  return t;
}

// --- conversions --------------------------------------------------------------------------------

/// Shared-memory bytes of convert_layout of a T tile of shape S.
template <class T, class S> NTC_DEV_HD constexpr std::size_t convert_smem_bytes() {
  return smem_align(sizeof(T) * std::size_t(S::numel));
}

namespace detail {

/// Calls f(index, value) for each element the calling thread owns of tile x (blocked or
/// layout-typed; `index` its coordinates), each once.
template <class X, class F> __device__ inline void for_each_owned(const X &x, F f) {
  using S = typename X::shape;
#pragma unroll
  for (int s = 0; s < x.Slots; ++s)
    if (x.owns(s)) {
      int index[S::rank > 0 ? S::rank : 1] = {};
      if constexpr (is_ltile_v<X>)
        x.coord(s, index);
      else
        S::unravel(x.linear(s), index);
      f(static_cast<const int *>(index), x.v[s]);
    }
}

/// The tile's elements (blocked or layout-typed) written to buffer[at(index)], each once.
template <class X, class At>
__device__ inline void scatter(const X &x, element_t<X> *buffer, At at) {
  for_each_owned(x, [&](const int *index, element_t<X> v) { buffer[at(index)] = v; });
}

/// scatter of the elements for which `at` gives an offset of 0 or more (the others are skipped).
template <class X, class At>
__device__ inline void scatter_some(const X &x, element_t<X> *buffer, At at) {
  for_each_owned(x, [&](const int *index, element_t<X> v) {
    if (const int o = at(index); o >= 0)
      buffer[o] = v;
  });
}

/// True when a blocked tile is written a whole chunk of V consecutive elements at a time (one
/// store of 4, 8 or 16 bytes): it is full and no element is replicated.
template <class X>
inline constexpr bool whole_chunks_v =
    X::full && !X::replicated &&
    (X::V * sizeof(element_t<X>) == 4 || X::V * sizeof(element_t<X>) == 8 ||
     X::V * sizeof(element_t<X>) == 16);

/// A blocked tile (whole_chunks_v) written chunk by chunk: the chunk starting at linear index l
/// goes to buffer + place(l), computed once per chunk, without unravelling l into coordinates.
template <class X, class Place>
__device__ inline void scatter_chunks(const X &x, element_t<X> *buffer, Place place) {
  constexpr int bytes = X::V * int(sizeof(element_t<X>));
  using Word =
      std::conditional_t<bytes == 4, uint32_t, std::conditional_t<bytes == 8, uint2, uint4>>;
#pragma unroll
  for (int c = 0; c < x.Slots / X::V; ++c) {
    Word word;
    memcpy(&word, &x.v[c * X::V], bytes);
    *reinterpret_cast<Word *>(buffer + place(x.linear(c * X::V))) = word;
  }
}

/// A blocked tile's elements written to buffer[linear index], each once: whole chunks where
/// whole_chunks_v allows (see scatter_chunks), else element by element.
template <class X> __device__ inline void scatter_blocked(const X &x, element_t<X> *buffer) {
  if constexpr (whole_chunks_v<X>) {
    scatter_chunks(x, buffer, [](int linear) { return linear; });
  } else {
#pragma unroll
    for (int s = 0; s < x.Slots; ++s)
      if (x.owns(s))
        buffer[x.linear(s)] = x.v[s];
  }
}

/// The sum of the shares that the lanes holding one element of Slice layout P have in `share`
/// (LanePartial<P>), in every such lane: a butterfly of shuffles over the lanes of a row
/// (lane % 4) or of a column (lane / 4). Each lane adds the same pairs, so all get the same bits.
template <class P> struct slice_dim;
template <int WM, int WN, int D>
struct slice_dim<Slice<Mma<WM, WN>, D>> : std::integral_constant<int, D> {};
template <class P, class T> __device__ inline T add_lane_shares(T share) {
  constexpr bool row = slice_dim<P>::value == 1; // the lanes of a row hold the shares
#pragma unroll
  for (int mask = row ? 1 : 4; mask < (row ? 4 : 32); mask <<= 1)
    share = share + shfl_xor_bits(share, mask);
  return share;
}

/// True when the conversion from an Mma<WM, 1> tile to DotA keeps every element in its thread:
/// fragment (mi, 2kk + j) of the accumulator is half j of A fragment (mi, kk).
template <class From, class To> inline constexpr bool in_registers_v = false;
template <int WM> inline constexpr bool in_registers_v<Mma<WM, 1>, DotA<Mma<WM, 1>>> = true;

} // namespace detail

/// x in layout L2 (a layout type, or Blocked<Threads> for the tiles of tile.cuh); Transpose
/// swaps the dimensions of a 2-D tile on the way. Through shared memory (convert_smem_bytes)
/// unless every element stays in its thread.
template <class L2, bool Transpose = false, class X>
__device__ inline auto convert_layout(const X &x, Smem smem) {
  using T = element_t<X>;
  using S = typename X::shape;
  using S2 = std::conditional_t<Transpose, Shape<S::dim(1), S::dim(0)>, S>;
  using L1 = typename detail::layout_of<X>::type;
  if constexpr (!Transpose && is_ltile_v<X> && std::is_same_v<L2, LanePartial<L1>>) {
    // Whole values to shares: the first lane of each element holds it, the others zero.
    LTile<T, S, L2> r;
    const bool first = LTile<T, S, L2>::map_type::first_share();
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      r.v[s] = first ? x.v[s] : ::ntc::dev::convert<T>(0);
    return r;
  } else if constexpr (!Transpose && is_ltile_v<X> &&
                       std::is_same_v<typename detail::partial_parent<L1>::type, L2>) {
    // Shares to whole values: the lanes of each element add theirs (a butterfly of shuffles).
    LTile<T, S, L2> r;
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      r.v[s] = detail::add_lane_shares<L2>(x.v[s]);
    return r;
  } else if constexpr (!Transpose && is_ltile_v<X> && detail::in_registers_v<L1, L2>) {
    using From = typename detail::layout_of<X>::type::template on<S>;
    LTile<T, S, L2> r;
    constexpr int KT = S::dim(1) / 16;
#pragma unroll
    for (int mi = 0; mi < From::MT; ++mi)
#pragma unroll
      for (int kk = 0; kk < KT; ++kk)
#pragma unroll
        for (int e = 0; e < 8; ++e) // A element e: fragment 2kk + e / 4, accumulator e % 4
          r.v[(mi * KT + kk) * 8 + e] = x.v[(mi * From::NT + 2 * kk + e / 4) * 4 + e % 4];
    return r;
  } else {
    T *buffer = smem.as<T>();
    smem.sync();
    if constexpr (!Transpose && !is_ltile_v<X>) {
      detail::scatter_blocked(x, buffer);
    } else {
      detail::scatter(x, buffer, [](const int *i) {
        if constexpr (Transpose)
          return i[1] * S::dim(0) + i[0];
        else
          return S::ravel(i);
      });
    }
    smem.sync();
    if constexpr (std::is_same_v<L2, Blocked<L2::threads>>) {
      Tile<T, S2, L2::threads> r;
#pragma unroll
      for (int s = 0; s < r.Slots; ++s)
        r.v[s] = buffer[r.owns(s) ? r.linear(s) : 0];
      smem.sync();
      return r;
    } else {
      LTile<T, S2, L2> r;
#pragma unroll
      for (int s = 0; s < r.Slots; ++s) {
        int index[S2::rank > 0 ? S2::rank : 1] = {};
        r.coord(s, index);
        r.v[s] = buffer[S2::ravel(index)];
      }
      smem.sync();
      return r;
    }
  }
}

// --- shared-memory tiles ------------------------------------------------------------------------

/// The shared-memory layout of the padded SharedTile: row-major, each row followed by 16 bytes,
/// so that eight consecutive rows start in different banks (ldmatrix reads are conflict-free).
struct Padded {};

/// The swizzled shared-memory layout (Hopper's wgmma and TMA read it; ldmatrix reads it without
/// bank conflicts): the buffer's columns are cut into blocks of RowBytes bytes (128, 64 or 32),
/// stored one after another, each block all rows of its columns, row after row; then, in a
/// 1024-byte aligned buffer, the 16-byte unit at byte a moves to unit u ^ ((a >> 7) mod
/// RowBytes / 16) of its row. Rows must come in multiples of eight.
template <int RowBytes> struct Swizzled {
  static_assert(RowBytes == 128 || RowBytes == 64 || RowBytes == 32,
                "ntc::dev::Swizzled: rows of 32, 64 or 128 bytes");
  /// Bytes of one row of a column block.
  static constexpr int row_bytes = RowBytes;
};

/// True for Swizzled<...>.
template <class L> inline constexpr bool is_swizzled_v = false;
/// True for Swizzled<...>.
template <int B> inline constexpr bool is_swizzled_v<Swizzled<B>> = true;

namespace detail {

/// Element offsets and sizes of a rows × cols buffer of T in shared layout L.
template <class T, int Rows, int Cols, class L> struct shared_map;

template <class T, int Rows, int Cols> struct shared_map<T, Rows, Cols, Padded> {
  static constexpr int pitch = Cols + 16 / int(sizeof(T));
  static constexpr std::size_t bytes = smem_align(sizeof(T) * std::size_t(Rows) * pitch);
  /// offset(r + k · row_period, c) = offset(r, c) + k · row_period · row_stride.
  static constexpr int row_period = 1, row_stride = pitch;
  NTC_DEV_HD static constexpr int offset(int r, int c) { return r * pitch + c; }
};

template <class T, int Rows, int Cols, int B> struct shared_map<T, Rows, Cols, Swizzled<B>> {
  static_assert(Cols * int(sizeof(T)) % B == 0 && Rows % 8 == 0,
                "ntc::dev::Swizzled: whole column blocks and rows in multiples of 8");
  /// Elements of one row of a column block.
  static constexpr int block_cols = B / int(sizeof(T));
  static constexpr std::size_t bytes = sizeof(T) * std::size_t(Rows) * Cols;
  /// offset(r + k · row_period, c) = offset(r, c) + k · row_period · row_stride: the swizzle
  /// repeats every eight rows (1024 bytes of a column block).
  static constexpr int row_period = 8, row_stride = block_cols;
  NTC_DEV_HD static constexpr int offset(int r, int c) {
    return layout::block_swizzled_offset(r, c, Rows, B, int(sizeof(T)));
  }
};

} // namespace detail

/// A tile of shape S resident in shared memory at `ptr` in shared layout L (Padded or
/// Swizzled); Transposed: the buffer holds the transpose (S::dim(1) rows of S::dim(0)).
template <class T, class S, bool Transposed, class L = Padded> struct SharedTile {
  static_assert(S::rank == 2, "ntc::dev::SharedTile: 2-D tiles only");
  /// Element type.
  using element_type = T;
  /// Shape type.
  using shape = S;
  /// Shared layout type.
  using layout = L;
  /// Rows and columns of the buffer.
  static constexpr int rows = Transposed ? S::dim(1) : S::dim(0);
  static constexpr int cols = Transposed ? S::dim(0) : S::dim(1);
  /// Element offsets of the buffer.
  using map = detail::shared_map<T, rows, cols, L>;
  /// Bytes of the buffer.
  static constexpr std::size_t bytes = map::bytes;
  /// The buffer.
  T *ptr;
  /// The element at row r, column c of the buffer (a 16-byte unit for c a multiple of 8 / 16
  /// bytes' worth of elements stays contiguous).
  __device__ T *at(int r, int c) const { return ptr + map::offset(r, c); }
};

/// Bytes of a SharedTile of T with shape S.
template <class T, class S> NTC_DEV_HD constexpr std::size_t shared_tile_bytes() {
  return SharedTile<T, S, false>::bytes > SharedTile<T, S, true>::bytes
             ? SharedTile<T, S, false>::bytes
             : SharedTile<T, S, true>::bytes;
}

namespace detail {

/// A blocked tile's elements written to their places in a swizzled buffer (Map: its
/// shared_map): whole chunks of a row where the tile allows (a chunk of at most 16 bytes stays
/// within one 16-byte unit, which the swizzle moves whole), else element by element.
template <class Map, class X>
__device__ inline void scatter_swizzled(const X &x, element_t<X> *buffer) {
  constexpr int C = X::shape::dim(1);
  if constexpr (whole_chunks_v<X> && C % X::V == 0)
    scatter_chunks(x, buffer, [](int linear) { return Map::offset(linear / C, linear % C); });
  else
    scatter(x, buffer, [](const int *i) { return Map::offset(i[0], i[1]); });
}

/// True when tile type X can be written into a Swizzled<B> buffer by scatter_mma_swizzled: an
/// Mma-layout tile of 16-bit elements whose warps' columns start at whole column blocks.
template <class X, int B> inline constexpr bool mma_swizzled_pairs_v = false;
/// True when tile type X can be written into a Swizzled<B> buffer by scatter_mma_swizzled.
template <class T, class S, int WM, int WN, int B>
inline constexpr bool
    mma_swizzled_pairs_v<LTile<T, S, Mma<WM, WN>>, B> = sizeof(T) == 2 && S::rank == 2 &&
                                                        (S::dim(1) / WN) % (B / 2) == 0;

/// The column blocks [first_block, first_block + blocks) of x (an Mma-layout tile,
/// mma_swizzled_pairs_v) written into `buffer`, the Swizzled<B> layout of x's shape less
/// first_block's blocks (a round of tma_store), two adjacent columns of a row (one 32-bit word)
/// per store. A thread's rows are equal modulo 8 (fragment rows g and g + 8, warps and fragments
/// 16 rows apart), so the swizzle's XOR of the unit index (layout::block_swizzle_xor) is the same
/// for all its slots: each store's address is a per-thread base, a constant, and the swizzled
/// unit of its columns, one of at most 8 values (layout::block_swizzled_byte).
template <int B, class T, class S, int WM, int WN>
__device__ inline void scatter_mma_swizzled(const LTile<T, S, Mma<WM, WN>> &x, T *buffer,
                                            int first_block, int blocks) {
  using Map = typename Mma<WM, WN>::template on<S>;
  constexpr int M = S::dim(0), N = S::dim(1), block_cols = B / 2;
  const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
  const int row0 = (w / WN) * (M / WM) + lane / 4; // the thread's first row
  const int first_col = (w % WN) * (N / WN);       // its warp's first column: a whole block
  const int swizzle_xor = layout::block_swizzle_xor(row0, B);     // every row of the thread's
  char *base = reinterpret_cast<char *>(buffer) + 4 * (lane % 4); // its two columns of a unit
#pragma unroll
  for (int f = 0; f < Map::MT * Map::NT; ++f) {
    const int mi = f / Map::NT;
    // The fragment's columns col..col + 7, counted from this round's first column block.
    const int col = first_col + (f % Map::NT) * 8 - first_block * block_cols;
    if (col < 0 || col >= blocks * block_cols)
      continue; // another round's
#pragma unroll
    for (int h = 0; h < 2; ++h) // rows g and g + 8
      *reinterpret_cast<uint32_t *>(
          base + layout::block_swizzled_byte(row0 + mi * 16 + h * 8, col, M, B, swizzle_xor)) =
          join_pair<T>(x.v[4 * f + 2 * h], x.v[4 * f + 2 * h + 1]);
  }
}

} // namespace detail

/// x written to shared memory at byte `Offset` of smem in shared layout L (Transpose: the result
/// is x's transpose, with x's rows as the buffer's rows). Waits for earlier readers of the region
/// first; a swizzled tile is then ready for wgmma too (the async proxy's fence).
template <std::size_t Offset, bool Transpose = false, class L = Padded, class X>
__device__ inline auto to_shared(const X &x, Smem smem) {
  using T = element_t<X>;
  using S = typename X::shape;
  static_assert(S::rank == 2, "ntc::dev::to_shared: 2-D tiles only");
  using S2 = std::conditional_t<Transpose, Shape<S::dim(1), S::dim(0)>, S>;
  SharedTile<T, S2, Transpose, L> r{smem.as<T>(Offset)};
  using Map = typename SharedTile<T, S2, Transpose, L>::map;
  smem.sync();
  if constexpr (is_swizzled_v<L> && !Transpose && !is_ltile_v<X>)
    detail::scatter_swizzled<Map>(x, r.ptr);
  else
    detail::scatter(x, r.ptr, [](const int *i) { return Map::offset(i[0], i[1]); });
#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (is_swizzled_v<L>)
    detail::fence_proxy_async();
#endif
  smem.sync();
  return r;
}

/// A barrier of the block's first Threads threads (named barrier 1: the consumer warps of a
/// warp-specialized program, persistent.cuh); of every thread (__syncthreads) when Threads is 0.
template <int Threads> __device__ inline void sync_threads() {
  static_assert(Threads % 32 == 0 && Threads >= 0, "ntc::dev::sync_threads: whole warps");
  if constexpr (Threads == 0)
    __syncthreads();
  else
    asm volatile("bar.sync 1, %0;" ::"n"(Threads) : "memory");
}

// --- stores through TMA
// ------------------------------------------------------------------------------

/// Stores the R × C tile x (16-bit elements, any layout) to the tensor of `map` with its element
/// (0, 0) at `coords` (the tensor's dimensions innermost first; RowDim is the dimension of its
/// rows): the program writes x into shared memory at byte Offset (1024-byte aligned) in the
/// Swizzled<BlockBytes> layout, then thread 0 stores it by TMA, one cp.async.bulk.tensor per
/// column block; the copy engine writes no element outside the tensor. Nothing is stored unless
/// `in_bounds`. Waits for earlier users of the staging memory first and until the copy engine
/// has read it before returning, so the memory can be reused at once.
/// SyncThreads > 0: only the block's first SyncThreads threads store (a warp-specialized
/// program's consumers), synchronizing through named barrier 1. Deferred: the staging memory
/// is the store's own; thread 0 returns once the store is issued and waits for its reads at the
/// next tma_store (tma_store_drain before the block exits). Rounds > 1: the staging memory holds
/// 1 / Rounds of the column blocks (R · C / Rounds elements), and the tile goes in that many
/// rounds, each waiting until the copy engine has read the last. In a device pass without TMA it
/// traps.
template <std::size_t Offset, int BlockBytes, int RowDim, int Rank, int SyncThreads = 0,
          bool Deferred = false, int Rounds = 1, class X>
__device__ inline void tma_store(const X &x, const tensor_map &map, Smem smem,
                                 const int (&coords)[Rank], bool in_bounds) {
  using T = element_t<X>;
  using S = typename X::shape;
  static_assert(S::rank == 2 && sizeof(T) == 2 && Offset % 1024 == 0,
                "ntc::dev::tma_store: 2-D tiles of 16-bit elements, staged 1024-byte aligned");
  static_assert(Rank >= 2 && Rank <= 5 && RowDim > 0 && RowDim < Rank,
                "ntc::dev::tma_store: 2 to 5 dimensions, rows outside the innermost");
  constexpr int R = S::dim(0), C = S::dim(1), block_cols = BlockBytes / 2;
  constexpr int blocks = C / block_cols, per_round = blocks / Rounds;
  static_assert(Rounds >= 1 && blocks % Rounds == 0,
                "ntc::dev::tma_store: rounds of whole column blocks, as many in each");
  using Map = detail::shared_map<T, R, C, Swizzled<BlockBytes>>;
  T *buffer = smem.as<T>(Offset);
#pragma unroll
  for (int round = 0; round < Rounds; ++round) {
#if defined(NTC_DEV_HAS_TMA)
    if (Deferred || round > 0)
      if (threadIdx.x == 0) // the last store has read the staging memory
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
    sync_threads<SyncThreads>();
    if constexpr (detail::mma_swizzled_pairs_v<X, BlockBytes>) {
      detail::scatter_mma_swizzled<BlockBytes>(x, buffer, round * per_round, per_round);
    } else if constexpr (Rounds == 1 && !is_ltile_v<X>) {
      detail::scatter_swizzled<Map>(x, buffer);
    } else {
      // The elements of this round's column blocks, at their places in the staged blocks.
      const int first = round * per_round * block_cols;
      constexpr int staged = R * C / Rounds;
      detail::scatter_some(x, buffer, [&](const int *i) {
        return i[1] >= first && i[1] < first + per_round * block_cols
                   ? Map::offset(i[0], i[1]) - round * staged
                   : -1; // another round's
      });
    }
#if defined(NTC_DEV_HAS_TMA)
    // Every thread's writes, to the copy engine's proxy, before the barrier.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    sync_threads<SyncThreads>();
    if (threadIdx.x == 0 && in_bounds) {
      int c[Rank];
#pragma unroll
      for (int d = 0; d < Rank; ++d)
        c[d] = coords[d];
      c[0] += round * per_round * block_cols;
      const unsigned src = detail::shared_address(buffer);
#pragma unroll
      for (int b = 0; b < per_round; ++b) {
        detail::tma_store_block<Rank>(&map, src + unsigned(b * R * BlockBytes), c);
        c[0] += block_cols;
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
#else
    (void)map, (void)coords, (void)in_bounds;
#if defined(__CUDA_ARCH__)
    __trap(); // a device pass without TMA: stop rather than leave the tile unstored
#endif
#endif
  }
#if defined(NTC_DEV_HAS_TMA)
  if constexpr (!Deferred) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    sync_threads<SyncThreads>();
  }
#endif
}

// --- pipelined copies
// -----------------------------------------------------------------------------

/// Closes the group of asynchronous copies started since the last commit (sm_80+).
__device__ inline void async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  ::ntc::dev::detail::cp_async_commit();
#endif
}

/// The width (elements) of the chunks async_copy moves at once; 0: element by element.
template <int W> struct chunk_width {};

namespace detail {

/// One chunk of async_copy: the Chunk elements from `index` along the row, to `dst`. By cp.async
/// when chunk(index) reports them in bounds, else element by element at once.
template <class T, int Chunk, class F, class G>
__device__ inline void copy_chunk(T *dst, const T *base, T fill, F &offset, G &chunk,
                                  int (&index)[2]) {
  const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (first != masked) {
    ::ntc::dev::detail::cp_async_16(dst, base + first);
    return;
  }
#else
  (void)first;
#endif
  const int col = index[1];
#pragma unroll
  for (int j = 0; j < Chunk; ++j) {
    index[1] = col + j;
    const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
    dst[j] = off != masked ? base[off] : fill;
  }
}

} // namespace detail

/// Starts copying the R×C tile of shape S whose element at index I is base[offset(I)] (`fill`
/// where masked) into the shared buffer at byte `byte_offset`, in shared layout L (that of
/// SharedTile<T, S, false, L>: a buffer written row by row; Padded or Swizzled). With Chunk > 0,
/// chunks of Chunk elements (16 bytes) that chunk(I) reports in bounds go by cp.async (the
/// dispatcher checked they are contiguous and aligned); everything else is copied by the calling
/// threads at once. Complete it with async_commit and async_wait; read it through stage_view.
template <class T, class S, int Th, class L = Padded, int Chunk, class F, class G>
__device__ inline void async_copy(Smem smem, std::size_t byte_offset, const T *base, T fill,
                                  chunk_width<Chunk>, F offset, G chunk) {
  static_assert(S::rank == 2, "ntc::dev::async_copy: 2-D tiles only");
  constexpr int R = S::dim(0), C = S::dim(1);
  using Map = typename SharedTile<T, S, false, L>::map;
  T *buffer = smem.as<T>(byte_offset);
  const int tid = int(threadIdx.x);
  if constexpr (Chunk > 0) {
    static_assert(Chunk * int(sizeof(T)) == 16 && C % Chunk == 0,
                  "ntc::dev::async_copy: 16-byte chunks that divide the rows");
    constexpr int per_row = C / Chunk, chunks = R * per_row;
#pragma unroll
    for (int i = 0; i < (chunks + Th - 1) / Th; ++i) {
      const int c = i * Th + tid;
      if (chunks % Th != 0 && c >= chunks)
        break;
      const int row = c / per_row, col = (c % per_row) * Chunk;
      int index[2] = {row, col};
      detail::copy_chunk<T, Chunk>(buffer + Map::offset(row, col), base, fill, offset, chunk,
                                   index);
    }
  } else {
    (void)chunk;
    for (int e = tid; e < R * C; e += Th) {
      int index[2] = {e / C, e % C};
      const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
      buffer[Map::offset(index[0], index[1])] = off != masked ? base[off] : fill;
    }
  }
}

/// async_copy of a tile with an affine form (vector chunks only): when affine.full() holds,
/// every chunk goes by cp.async from affine.origin() and the lane strides, without evaluating
/// its mask and offset; otherwise as async_copy above.
template <class T, class S, int Th, class L = Padded, int Chunk, class F, class G, class Full,
          class Origin>
__device__ inline void async_copy(Smem smem, std::size_t byte_offset, const T *base, T fill,
                                  chunk_width<Chunk> width, F offset, G chunk,
                                  affine_tile<Full, Origin> affine) {
  static_assert(S::rank == 2 && Chunk > 0, "ntc::dev::async_copy: affine forms of 16-byte chunks");
  constexpr int R = S::dim(0), C = S::dim(1);
  constexpr int per_row = C / Chunk, chunks = R * per_row;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Map = typename SharedTile<T, S, false, L>::map;
  T *buffer = smem.as<T>(byte_offset);
  if constexpr (Th % per_row == 0) {
    // Each thread keeps its column, and its rows are Th / per_row apart: one source address per
    // thread, advanced by a fixed step (the global side of a chunk is one add); when the step is
    // a whole number of the layout's row periods, the destination too (one offset computed per
    // thread, not one per chunk). The fallback walks the same chunks from the same row, column
    // and destination: with indices of its own, derived from the thread index anew, ptxas
    // recomputed them in every iteration of a pipelined loop, ahead of the test of full().
    constexpr int rows_per_step = Th / per_row;
    const int row0 = int(threadIdx.x / unsigned(per_row));
    const int col = int(threadIdx.x % unsigned(per_row)) * Chunk;
    T *const destination = buffer + Map::offset(row0, col);
    const auto chunk_destination = [&](int i) {
      return rows_per_step % Map::row_period == 0
                 ? destination + i * rows_per_step * Map::row_stride
                 : buffer + Map::offset(row0 + i * rows_per_step, col);
    };
    if (affine.full()) {
      const T *source = base + affine.origin() + row0 * affine.stride0 + col * affine.stride1;
      const long long step = rows_per_step * affine.stride0;
#pragma unroll
      for (int i = 0; i < (chunks + Th - 1) / Th; ++i) {
        if (chunks % Th != 0 && i * Th + int(threadIdx.x) >= chunks)
          break;
        ::ntc::dev::detail::cp_async_16(chunk_destination(i), source + i * step);
      }
      return;
    }
#pragma unroll
    for (int i = 0; i < (chunks + Th - 1) / Th; ++i) {
      if (chunks % Th != 0 && i * Th + int(threadIdx.x) >= chunks)
        break;
      int index[2] = {row0 + i * rows_per_step, col};
      detail::copy_chunk<T, Chunk>(chunk_destination(i), base, fill, offset, chunk, index);
    }
    return;
  } else if (affine.full()) {
    const T *origin = base + affine.origin();
#pragma unroll
    for (int i = 0; i < (chunks + Th - 1) / Th; ++i) {
      const int c = i * Th + int(threadIdx.x);
      if (chunks % Th != 0 && c >= chunks)
        break;
      const int row = c / per_row, col = (c % per_row) * Chunk;
      ::ntc::dev::detail::cp_async_16(buffer + Map::offset(row, col),
                                      origin + row * affine.stride0 + col * affine.stride1);
    }
    return;
  }
#endif
  async_copy<T, S, Th, L>(smem, byte_offset, base, fill, width, offset, chunk);
}

/// Waits until at most Pending committed groups of this thread's asynchronous copies are still
/// in flight, then a barrier: afterwards every thread's completed copies are visible to the
/// block, and to the tensor cores' asynchronous reads (wgmma) on sm_90a. A pipelined loop
/// starts each iteration with it.
template <int Pending> __device__ inline void async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  ::ntc::dev::detail::cp_async_wait<Pending>();
#endif
#if defined(NTC_DEV_HAS_WGMMA)
  ::ntc::dev::detail::fence_proxy_async();
#endif
  __syncthreads();
}

/// The stage at byte `byte_offset`, whose copies async_wait has completed: a SharedTile of shape
/// S in shared layout L (Transposed: the buffer holds its transpose).
template <class T, class S, bool Transposed, class L = Padded>
__device__ inline SharedTile<T, S, Transposed, L> stage_view(Smem smem, std::size_t byte_offset) {
  return SharedTile<T, S, Transposed, L>{smem.as<T>(byte_offset)};
}

// --- reductions ---------------------------------------------------------------------------------

namespace detail {

/// Reduction of an Mma tile over dimension Axis with operation Op: in registers, then across
/// the lanes that share a row (column) with shuffles, then across warps through shared memory.
/// Shares: stop after the registers, each lane's result a share (LanePartial; the dimension
/// within each warp).
template <int Axis, class Op, bool Shares = false, class T, class S, int WM, int WN>
__device__ inline auto reduce_mma(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  using Map = typename Mma<WM, WN>::template on<S>;
  using R = typename Op::R;
  using State = typename Op::State;
  using S2 = typename remove_axis<S, Axis>::type;
  constexpr int Keep = Axis == 1 ? Map::MT : Map::NT; // fragments along the kept dimension
  constexpr int Cross = Axis == 1 ? WN : WM;          // warps along the reduced dimension
  const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
  // In registers: kept row (column) j of the thread has Along slots; slot(j, q) is its q-th in
  // slot order (fragments along the reduced dimension, then the two slots of a fragment's row
  // (column)). They combine as a pairwise tree, earlier slots on the left: log2(Along) dependent
  // steps where a chain from the first slot to the last took Along - 1 (the row statistics of
  // attention's softmax waited on such chains).
  constexpr int Along = Axis == 1 ? 2 * Map::NT : 2 * Map::MT;
  auto slot = [](int j, int q) {
    return Axis == 1 ? ((j / 2) * Map::NT + q / 2) * 4 + 2 * (j % 2) + q % 2
                     : ((q / 2) * Map::NT + j / 2) * 4 + j % 2 + 2 * (q % 2);
  };
  State part[t.Slots];
#pragma unroll
  for (int s = 0; s < t.Slots; ++s) {
    int index[2];
    t.coord(s, index);
    part[s] = Op::init(Op::stage(t.v[s]), index[Axis]);
  }
#pragma unroll
  for (int stride = 1; stride < Along; stride *= 2)
#pragma unroll
    for (int j = 0; j < Keep * 2; ++j)
#pragma unroll
      for (int q = 0; q + stride < Along; q += 2 * stride)
        part[slot(j, q)] = Op::combine(part[slot(j, q)], part[slot(j, q + stride)]);
  State st[Keep * 2];
#pragma unroll
  for (int j = 0; j < Keep * 2; ++j) {
    st[j] = part[slot(j, 0)];
  }
  if constexpr (Shares) {
    static_assert(Cross == 1, "ntc::dev: lane shares of a reduction across warps");
    LTile<R, S2, LanePartial<Slice<Mma<WM, WN>, Axis>>> r;
#pragma unroll
    for (int j = 0; j < Keep * 2; ++j)
      r.v[j] = Op::result(st[j]);
    return r;
  } else {
    // Lanes sharing a row differ in lane % 4; lanes sharing a column differ in lane / 4.
#pragma unroll
    for (int j = 0; j < Keep * 2; ++j) {
      if constexpr (Axis == 1) {
        st[j] = Op::combine(st[j], Op::shfl(st[j], 1));
        st[j] = Op::combine(st[j], Op::shfl(st[j], 2));
      } else {
        for (int mask = 4; mask < 32; mask <<= 1)
          st[j] = Op::combine(st[j], Op::shfl(st[j], mask));
      }
    }
    LTile<R, S2, Slice<Mma<WM, WN>, Axis>> r;
    if constexpr (Cross == 1) {
#pragma unroll
      for (int j = 0; j < Keep * 2; ++j)
        r.v[j] = Op::result(st[j]);
    } else {
      constexpr int E = S::dim(1 - Axis);
      State *partial = smem.as<State>();
      const int part = Axis == 1 ? w % WN : w / WN;
      smem.sync();
      if (Axis == 1 ? lane % 4 == 0 : lane / 4 == 0) {
#pragma unroll
        for (int j = 0; j < Keep * 2; ++j) {
          int index[1];
          r.coord(j, index);
          partial[part * E + index[0]] = st[j];
        }
      }
      smem.sync();
#pragma unroll
      for (int j = 0; j < Keep * 2; ++j) {
        int index[1];
        r.coord(j, index);
        State acc = partial[index[0]];
        for (int p = 1; p < Cross; ++p)
          acc = Op::combine(acc, partial[p * E + index[0]]);
        r.v[j] = Op::result(acc);
      }
      smem.sync();
    }
    return r;
  }
}

} // namespace detail

/// Sum of all elements of a Chunked tile, as a replicated rank-0 tile (the scratch of
/// reduce_smem_bytes for a blocked tile of the same type, shape and threads).
template <class T, class S, int Th, int V>
__device__ inline Tile<sum_t<T>, Shape<>, Th> sum(const LTile<T, S, Chunked<Th, V>> &t, Smem smem) {
  return detail::reduce_replicated<sum_t<T>, detail::sum_reduce<T>>(t, smem);
}
/// Largest element of a Chunked tile (NaN wins), as a replicated rank-0 tile.
template <class T, class S, int Th, int V>
__device__ inline Tile<T, Shape<>, Th> max(const LTile<T, S, Chunked<Th, V>> &t, Smem smem) {
  return detail::reduce_replicated<T, detail::extreme_value_t<T, true>>(t, smem);
}
/// Smallest element of a Chunked tile (NaN wins), as a replicated rank-0 tile.
template <class T, class S, int Th, int V>
__device__ inline Tile<T, Shape<>, Th> min(const LTile<T, S, Chunked<Th, V>> &t, Smem smem) {
  return detail::reduce_replicated<T, detail::extreme_value_t<T, false>>(t, smem);
}
/// Row-major index of the first largest element of a Chunked tile (first NaN if any).
template <class T, class S, int Th, int V>
__device__ inline Tile<int32_t, Shape<>, Th> argmax(const LTile<T, S, Chunked<Th, V>> &t,
                                                    Smem smem) {
  return detail::reduce_replicated<int32_t, detail::extreme_reduce<T, true, true>>(t, smem);
}
/// Row-major index of the first smallest element of a Chunked tile (first NaN if any).
template <class T, class S, int Th, int V>
__device__ inline Tile<int32_t, Shape<>, Th> argmin(const LTile<T, S, Chunked<Th, V>> &t,
                                                    Smem smem) {
  return detail::reduce_replicated<int32_t, detail::extreme_reduce<T, false, true>>(t, smem);
}

/// Shared-memory bytes of an axis reduction of an Mma tile (partials of the warps along it).
template <class T, class S, int WM, int WN, int Axis>
NTC_DEV_HD constexpr std::size_t mma_reduce_smem_bytes() {
  return smem_align(16 * std::size_t(Axis == 1 ? WN : WM) * S::dim(1 - Axis));
}

/// Sum over Axis of an Mma tile, in the Slice layout.
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto sum(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::sum_reduce<T>>(t, smem);
}
/// This lane's share of the sum over Axis of an Mma tile, in the LanePartial layout of the
/// Slice (no shuffles; convert_layout to the Slice adds the shares). The warps of the block
/// must not split the dimension (Mma<WM, 1> for rows, Mma<1, WN> for columns).
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto sum_lane_partial(const LTile<T, S, Mma<WM, WN>> &t) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::sum_reduce<T>, true>(t, Smem{nullptr});
}
/// Maximum over Axis of an Mma tile (NaN wins), in the Slice layout.
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto max(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::extreme_value_t<T, true>>(t, smem);
}
/// Minimum over Axis of an Mma tile (NaN wins), in the Slice layout.
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto min(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::extreme_value_t<T, false>>(t, smem);
}
/// Index of the maximum over Axis of an Mma tile.
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto argmax(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::extreme_reduce<T, true, true>>(t, smem);
}
/// Index of the minimum over Axis of an Mma tile.
template <int Axis, class T, class S, int WM, int WN>
__device__ inline auto argmin(const LTile<T, S, Mma<WM, WN>> &t, Smem smem) {
  constexpr int a = detail::normalize_axis<Axis, 2>();
  return detail::reduce_mma<a, detail::extreme_reduce<T, false, true>>(t, smem);
}

// --- products -----------------------------------------------------------------------------------

namespace detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// ldmatrix.sync.aligned.m8n8.x2.shared.b16 from the row addressed by this lane.
__device__ inline void ldmatrix_x2(uint32_t (&r)[2], const void *row) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(address)
               : "memory");
}
#endif

/// True when a product with result layout Mma<WM, WN> on shape S, B in shared layout L, runs as
/// wgmma on sm_90a: B swizzled, warps along M only, each warp one 16-row slab (WM / 4
/// warpgroups of 64 rows), and N one instruction wide.
template <class S, int WM, int WN, class L>
inline constexpr bool wgmma_product_v = is_swizzled_v<L> &&WN == 1 && WM % 4 == 0 &&
                                        S::dim(0) == 16 * WM &&wgmma_n_v<S::dim(1)>;

} // namespace detail

/// A product that the warpgroups of the program issue each in turn (the compiler's take-turns
/// pass, FlashAttention-3's ping-pong): warpgroup w issues its wgmma chain only once warpgroup
/// w - 1 has issued its own (warpgroup 0 once the last one has issued its previous chain),
/// through named barrier Barrier + w, so the tensor cores run the warpgroups' chains one after
/// the other instead of interleaved, and the first warpgroup's next statements (attention's
/// softmax) overlap the second one's product. The turns are symmetric: no warpgroup gets more
/// than one turn ahead of another, so the warpgroups need no other barrier to stay in step.
/// turns_begin gives warpgroup 0 its first turn; turns_end takes back the last warpgroup's last
/// pass, so that every barrier ends with as many arrivals as waits. A turn may span several
/// products issued one after the other (FlashAttention-3 issues the next QK and the current PV
/// in one turn): the first opens it (Closes false), the last closes it (Opens false), any
/// between does neither.
template <int Barrier, bool Opens = true, bool Closes = true> struct turn {
  static_assert(Barrier >= 2 && Barrier < 16,
                "ntc::dev::turn: named barriers 2 to 15 (0 is __syncthreads, 1 the consumers')");
};
/// The default of the products below: issued whenever the warpgroup gets there.
struct no_turn {};

namespace detail {

/// The first named barrier of Turn (turn<Barrier, …>), and whether the product opens and closes
/// its turn.
template <class Turn> struct turn_traits {
  static constexpr int barrier = -1;
  static constexpr bool opens = false, closes = false;
};
template <int Barrier, bool Opens, bool Closes> struct turn_traits<turn<Barrier, Opens, Closes>> {
  static constexpr int barrier = Barrier;
  static constexpr bool opens = Opens, closes = Closes;
};
template <class Turn> inline constexpr int turn_barrier_v = turn_traits<Turn>::barrier;

/// Named barrier Barrier + w of the two warpgroups that meet there, 256 threads: waits on it
/// (Sync) or arrives without waiting. The barrier's number is an immediate of each branch, so
/// ptxas counts the barriers the program uses (Barrier + Warpgroups) instead of all 16, as it
/// must for a number held in a register. w is the same in every thread of a warp.
template <int Barrier, int Warpgroups, bool Sync, int W = 0>
__device__ inline void warpgroup_barrier(int w) {
  if constexpr (W < Warpgroups) {
    if (w != W) {
      warpgroup_barrier<Barrier, Warpgroups, Sync, W + 1>(w);
      return;
    }
    if constexpr (Sync)
      asm volatile("bar.sync %0, 256;" ::"n"(Barrier + W) : "memory");
    else
      asm volatile("bar.arrive %0, 256;" ::"n"(Barrier + W) : "memory");
  }
}

/// Before a product's wgmma chain of a program of Warpgroups warpgroups: warpgroup w waits for
/// its turn on barrier Barrier + w (nothing for no_turn or a product that does not open it).
template <class Turn, int Warpgroups> __device__ inline void turn_wait() {
  if constexpr (turn_traits<Turn>::opens && Warpgroups > 1)
    warpgroup_barrier<turn_barrier_v<Turn>, Warpgroups, true>(int(threadIdx.x) / 128);
}

/// After the chain is issued: warpgroup w passes the turn to warpgroup w + 1 (the last one to
/// warpgroup 0), unless the product does not close it.
template <class Turn, int Warpgroups> __device__ inline void turn_pass() {
  if constexpr (turn_traits<Turn>::closes && Warpgroups > 1)
    warpgroup_barrier<turn_barrier_v<Turn>, Warpgroups, false>((int(threadIdx.x) / 128 + 1) %
                                                               Warpgroups);
}

} // namespace detail

/// At the start of a program of Warpgroups warpgroups whose products take turns through
/// barriers from Barrier on: the last warpgroup gives warpgroup 0 its first turn.
template <int Barrier, int Warpgroups> __device__ inline void turns_begin() {
  static_assert(Barrier >= 2 && Barrier + Warpgroups <= 16, "ntc::dev::turns_begin: barriers");
  if (Warpgroups > 1 && int(threadIdx.x) / 128 == Warpgroups - 1)
    asm volatile("bar.arrive %0, 256;" ::"n"(Barrier) : "memory");
}

/// At the end of such a program: warpgroup 0 takes the turn the last warpgroup passed it last.
template <int Barrier, int Warpgroups> __device__ inline void turns_end() {
  static_assert(Barrier >= 2 && Barrier + Warpgroups <= 16, "ntc::dev::turns_end: barriers");
  if (Warpgroups > 1 && int(threadIdx.x) / 128 == 0)
    asm volatile("bar.sync %0, 256;" ::"n"(Barrier) : "memory");
}

namespace detail {

/// r (+)= a · b on the tensor cores (see dot below); `fresh`: r holds nothing yet; ADies: a is
/// a temporary that no one reads after this product (dying_operand); Turn: turn<B> where the
/// warpgroups issue it in turn (on wgmma; no_turn otherwise).
template <bool ADies, class Turn = no_turn, class T, class SA, class SB, bool Tr, class L, int WM,
          int WN, class S>
__device__ inline void dot_into(LTile<float, S, Mma<WM, WN>> &r,
                                const LTile<T, SA, DotA<Mma<WM, WN>>> &a,
                                const SharedTile<T, SB, Tr, L> &b, bool fresh) {
  using Map = typename Mma<WM, WN>::template on<S>;
  constexpr int KT = SA::dim(1) / 16, N = SB::dim(1);
#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (wgmma_product_v<S, WM, WN, L>) {
    // B K-major (Tr: buffer rows are n) or MN-major (buffer rows are k): see
    // wgmma_operand_descriptor.
    constexpr int B = L::row_bytes, rows = SharedTile<T, SB, Tr, L>::rows;
    // Every A fragment is packed before the first wgmma and kept until the wait: the tensor
    // cores read these registers while the chain runs. An operand that lives on is copied into
    // them through wgmma_fragment; a dying one is handed over as it is.
    const char *base = reinterpret_cast<const char *>(b.ptr);
    const uint32_t zero = ADies ? 0u : opaque_zero();
    uint32_t af[KT][4];
#pragma unroll
    for (int kk = 0; kk < KT; ++kk)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const uint32_t packed = join_pair(a.v[kk * 8 + 2 * q], a.v[kk * 8 + 2 * q + 1]);
        af[kk][q] = ADies ? packed : wgmma_fragment(packed, zero);
      }
    fence_operands(r.v);
    fence_operands(af);
    turn_wait<Turn, WM / 4>();
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk) {
      const uint64_t desc = wgmma_operand_descriptor<B, Tr>(base, rows, kk);
      wgmma_rs<T, N, Tr ? 0 : 1>(r.v, af[kk], desc, fresh && kk == 0 ? 0 : 1);
    }
    wgmma_commit();
    turn_pass<Turn, WM / 4>();
    wgmma_wait<0>();
    fence_operands(r.v);
    fence_operands(af);
    return;
  }
#endif
  if (fresh) {
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      r.v[s] = 0.0f;
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const int lane = int(threadIdx.x) % 32, wn = int(threadIdx.x) / 32 % WN;
#pragma unroll
  for (int kk = 0; kk < KT; ++kk) {
    uint32_t af[Map::MT][4];
#pragma unroll
    for (int mi = 0; mi < Map::MT; ++mi)
#pragma unroll
      for (int q = 0; q < 4; ++q)
        af[mi][q] = join_pair(a.v[(mi * KT + kk) * 8 + 2 * q], a.v[(mi * KT + kk) * 8 + 2 * q + 1]);
        // B fragments two at a time (ldmatrix.x4: fragments ni and ni + 1), the last one alone.
#pragma unroll
    for (int ni = 0; ni < Map::NT; ni += 2) {
      const int n0 = wn * (N / WN) + ni * 8;
      uint32_t bf[2][2];
      if (ni + 1 < Map::NT) {
        uint32_t r4[4];
        if constexpr (Tr) { // buffer rows are n: matrices (n, k), (n, k + 8), (n + 8, k), ...
          ldmatrix_x4(r4, b.at(n0 + lane % 8 + 8 * (lane / 16), kk * 16 + 8 * (lane / 8 % 2)));
        } else { // buffer rows are k: transposing, matrices (k, n), (k + 8, n), (k, n + 8), ...
          ldmatrix_x4_trans(r4, b.at(kk * 16 + lane % 16, n0 + 8 * (lane / 16)));
        }
        bf[0][0] = r4[0], bf[0][1] = r4[1], bf[1][0] = r4[2], bf[1][1] = r4[3];
      } else if constexpr (Tr) { // buffer rows are n: plain ldmatrix, matrices at k and k + 8
        const int l = lane % 16;
        ldmatrix_x2(bf[0], b.at(n0 + l % 8, kk * 16 + 8 * (l / 8)));
      } else { // buffer rows are k: transposing ldmatrix
        ldmatrix_x2_trans(bf[0], b.at(kk * 16 + lane % 16, n0));
      }
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        if (ni + j >= Map::NT)
          break;
#pragma unroll
        for (int mi = 0; mi < Map::MT; ++mi) {
          float *acc = &r.v[(mi * Map::NT + ni + j) * 4];
          float c[4] = {acc[0], acc[1], acc[2], acc[3]};
          mma_m16n8k16<T>(c, af[mi], bf[j]);
#pragma unroll
          for (int i = 0; i < 4; ++i)
            acc[i] = c[i];
        }
      }
    }
  }
#endif
}

/// The A operand fragments (layout DotA<Mma<WM, WN>>) of an M × K tile resident in shared
/// memory with K contiguous in its rows, by ldmatrix: the four 8×8 matrices of each 16×16
/// fragment are its registers 0-3 (rows g and g + 8, columns k and k + 8).
template <int WM, int WN, class T, class SA, class LA>
__device__ inline LTile<T, SA, DotA<Mma<WM, WN>>>
load_operand_a(const SharedTile<T, SA, false, LA> &a) {
  LTile<T, SA, DotA<Mma<WM, WN>>> r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Map = typename DotA<Mma<WM, WN>>::template on<SA>;
  const int lane = int(threadIdx.x) % 32, w = int(threadIdx.x) / 32;
#pragma unroll
  for (int mi = 0; mi < Map::MT; ++mi)
#pragma unroll
    for (int kk = 0; kk < Map::KT; ++kk) {
      uint32_t f[4];
      const mma::Coord ra = mma::ldmatrix_a_address(lane);
      ldmatrix_x4(f, a.at((w / WN) * (Map::M / WM) + mi * 16 + ra.row, kk * 16 + ra.col));
#pragma unroll
      for (int q = 0; q < 4; ++q)
        split_pair(f[q], r.v[(mi * Map::KT + kk) * 8 + 2 * q],
                   r.v[(mi * Map::KT + kk) * 8 + 2 * q + 1]);
    }
#endif
  return r;
}

/// True when dot_into_shared multiplies by wgmma: sm_90a, both operands swizzled and a wgmma
/// accumulator layout.
template <class S, int WM, int WN, class L, class LA>
inline constexpr bool wgmma_shared_product_v =
#if defined(NTC_DEV_HAS_WGMMA)
    wgmma_product_v<S, WM, WN, L> &&is_swizzled_v<LA>;
#else
    false;
#endif

/// r (+)= a · b with A resident in shared memory (K contiguous in its rows): on sm_90a with
/// both operands swizzled and a wgmma layout, a chain of wgmma reading both through
/// descriptors (warpgroup g takes A's rows 64g …); else A's fragments by ldmatrix and dot_into.
/// Wait: complete the wgmma chain here; false leaves it in flight (committed as one group).
/// Turn: as dot_into's.
template <bool Wait = true, class Turn = no_turn, class T, class SA, class LA, class SB, bool Tr,
          class L, int WM, int WN, class S>
__device__ inline void dot_into_shared(LTile<float, S, Mma<WM, WN>> &r,
                                       const SharedTile<T, SA, false, LA> &a,
                                       const SharedTile<T, SB, Tr, L> &b, bool fresh) {
#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (wgmma_shared_product_v<S, WM, WN, L, LA>) {
    constexpr int KT = SA::dim(1) / 16, N = SB::dim(1);
    constexpr int B = L::row_bytes, rows = SharedTile<T, SB, Tr, L>::rows;
    constexpr int BA = LA::row_bytes, rows_a = SharedTile<T, SA, false, LA>::rows;
    const char *base = reinterpret_cast<const char *>(b.ptr);
    const char *base_a = reinterpret_cast<const char *>(a.ptr) + int(threadIdx.x) / 128 * 64 * BA;
    fence_operands(r.v);
    turn_wait<Turn, WM / 4>();
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk) {
      const uint64_t desc_a = wgmma_operand_descriptor<BA, true>(base_a, rows_a, kk);
      const uint64_t desc_b = wgmma_operand_descriptor<B, Tr>(base, rows, kk);
      wgmma_ss<T, N, Tr ? 0 : 1>(r.v, desc_a, desc_b, fresh && kk == 0 ? 0 : 1);
    }
    wgmma_commit();
    turn_pass<Turn, WM / 4>();
    if constexpr (Wait) {
      wgmma_wait<0>();
      fence_operands(r.v);
    }
    return;
  }
#endif
  dot_into<true>(r, load_operand_a<WM, WN>(a), b, fresh);
}

} // namespace detail

/// Marks a tensor-core product whose A operand is a temporary read by that product alone (the
/// compiler's mark-dying-operands pass decides it): on sm_90a its registers go to the tensor
/// cores as they are, without the copy (wgmma_fragment) that protects an operand living on.
struct dying_operand {};
/// The default of the products below: the A operand may be read again.
struct living_operand {};

/// a · b on the tensor cores: A in registers (DotA<P>), B in shared memory; the result is a fresh
/// Acc tile in layout P. On sm_90a with B swizzled and P = Mma<WM, 1> of one 16-row slab per warp
/// it is a chain of wgmma (A from registers, B through descriptors), else mma.sync m16n8k16 with
/// B read by ldmatrix (sm_80+). Operand: living_operand or dying_operand; Turn: no_turn or
/// turn<Barrier> (the warpgroups issue the wgmma chain in turn).
template <class Acc, class T, class SA, class SB, bool Tr, class L, int WM, int WN,
          class Operand = living_operand, class Turn = no_turn>
__device__ inline LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>>
dot(const LTile<T, SA, DotA<Mma<WM, WN>>> &a, const SharedTile<T, SB, Tr, L> &b, Smem = {},
    Operand = {}, Turn = {}) {
  static_assert(is_half_v<T> && std::is_same_v<Acc, float>,
                "ntc::dev::dot: tensor-core products take float16/bfloat16 and accumulate float");
  static_assert(SA::dim(1) == SB::dim(0), "ntc::dev::dot: inner dimensions differ");
  LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>> r;
  detail::dot_into<std::is_same_v<Operand, dying_operand>, Turn>(r, a, b, true);
  return r;
}

/// acc + a · b on the tensor cores (Triton's dot(a, b, acc)), accumulating into acc's registers
/// (see dot above).
template <class Acc, class T, class SA, class SB, bool Tr, class L, int WM, int WN,
          class Operand = living_operand, class Turn = no_turn>
__device__ inline LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>>
dot(const LTile<T, SA, DotA<Mma<WM, WN>>> &a, const SharedTile<T, SB, Tr, L> &b,
    LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>> acc, Smem = {}, Operand = {},
    Turn = {}) {
  static_assert(is_half_v<T> && std::is_same_v<Acc, float>,
                "ntc::dev::dot: tensor-core products take float16/bfloat16 and accumulate float");
  static_assert(SA::dim(1) == SB::dim(0), "ntc::dev::dot: inner dimensions differ");
  detail::dot_into<std::is_same_v<Operand, dying_operand>, Turn>(acc, a, b, false);
  return acc;
}

/// a · b on the tensor cores with A resident in shared memory (an M × K SharedTile, K contiguous
/// in its rows: the compiler's keep-operands-resident pass puts loop-invariant A operands
/// there), B in shared memory; the result is a fresh Acc tile in layout P = Mma<WM, WN>, given
/// explicitly. On sm_90a with both operands swizzled, wgmma reads both through descriptors.
/// Turn: as above.
template <class Acc, class P, class T, class SA, class LA, class SB, bool Tr, class L,
          class Operand = living_operand, class Turn = no_turn>
__device__ inline LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, P>
dot(const SharedTile<T, SA, false, LA> &a, const SharedTile<T, SB, Tr, L> &b, Smem = {},
    Operand = {}, Turn = {}) {
  static_assert(is_half_v<T> && std::is_same_v<Acc, float>,
                "ntc::dev::dot: tensor-core products take float16/bfloat16 and accumulate float");
  static_assert(SA::dim(1) == SB::dim(0), "ntc::dev::dot: inner dimensions differ");
  LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, P> r;
  detail::dot_into_shared<true, Turn>(r, a, b, true);
  return r;
}

/// acc + a · b with A resident in shared memory (see dot above).
template <class Acc, class P, class T, class SA, class LA, class SB, bool Tr, class L,
          class Operand = living_operand, class Turn = no_turn>
__device__ inline LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, P>
dot(const SharedTile<T, SA, false, LA> &a, const SharedTile<T, SB, Tr, L> &b,
    LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, P> acc, Smem = {}, Operand = {}, Turn = {}) {
  static_assert(is_half_v<T> && std::is_same_v<Acc, float>,
                "ntc::dev::dot: tensor-core products take float16/bfloat16 and accumulate float");
  static_assert(SA::dim(1) == SB::dim(0), "ntc::dev::dot: inner dimensions differ");
  detail::dot_into_shared<true, Turn>(acc, a, b, false);
  return acc;
}

/// What a product that dot_issue started still holds until dot_wait: on sm_90a, when it runs
/// as wgmma, the A fragments the tensor cores read (K16 of four registers); nothing where the
/// product completed inside dot_issue.
template <int K16> struct dot_in_flight {
  uint32_t a[K16][4]; ///< the A operand's fragments, k16 slice by slice
};
/// The product completed inside dot_issue: nothing to keep.
template <> struct dot_in_flight<0> {};

/// Starts r = acc + a · b (A in registers, B in shared memory) on the tensor cores and returns
/// without waiting for it, when it runs as wgmma (sm_90a, see dot); otherwise the product
/// completes here. Until dot_wait(r, the result), r, the tiles read by the product and B's
/// shared memory belong to the tensor cores: nothing may read or write them (the compiler's
/// overlap-products pass places the wait). Operand: living_operand or dying_operand, as dot;
/// Turn: no_turn or turn<…> (the warpgroups issue it in turn, see turn).
template <class Acc, class T, class SA, class SB, bool Tr, class L, int WM, int WN,
          class Operand = living_operand, class Turn = no_turn>
__device__ inline auto dot_issue(LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>> &r,
                                 const LTile<T, SA, DotA<Mma<WM, WN>>> &a,
                                 const SharedTile<T, SB, Tr, L> &b,
                                 const LTile<Acc, Shape<SA::dim(0), SB::dim(1)>, Mma<WM, WN>> &acc,
                                 Smem smem = {}, Operand operand = {}, Turn = {}) {
  using S = Shape<SA::dim(0), SB::dim(1)>;
  constexpr int KT = SA::dim(1) / 16;
  (void)smem;
  (void)operand;
#if defined(NTC_DEV_HAS_WGMMA)
  constexpr bool async = detail::wgmma_product_v<S, WM, WN, L>;
#else
  constexpr bool async = false;
#endif
  dot_in_flight<async ? KT : 0> in_flight;
  if constexpr (async) {
#if defined(NTC_DEV_HAS_WGMMA)
    static_assert(std::is_same_v<Acc, float>, "ntc::dev::dot_issue: wgmma accumulates float");
    constexpr bool dies = std::is_same_v<Operand, dying_operand>;
    constexpr int B = L::row_bytes, rows = SharedTile<T, SB, Tr, L>::rows, N = SB::dim(1);
    r = acc;
    const char *base = reinterpret_cast<const char *>(b.ptr);
    const uint32_t zero = dies ? 0u : detail::opaque_zero();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const uint32_t packed = detail::join_pair(a.v[kk * 8 + 2 * q], a.v[kk * 8 + 2 * q + 1]);
        in_flight.a[kk][q] = dies ? packed : detail::wgmma_fragment(packed, zero);
      }
    detail::fence_operands(r.v);
    detail::fence_operands(in_flight.a);
    detail::turn_wait<Turn, WM / 4>();
    detail::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < KT; ++kk)
      detail::wgmma_rs<T, N, Tr ? 0 : 1>(
          r.v, in_flight.a[kk], detail::wgmma_operand_descriptor<B, Tr>(base, rows, kk), 1);
    detail::wgmma_commit();
    detail::turn_pass<Turn, WM / 4>();
#endif
  } else {
    r = dot<Acc>(a, b, acc, smem, operand);
  }
  return in_flight;
}

/// Starts r = a · b with A resident in shared memory (see the shared-A dot above) on the tensor
/// cores and returns without waiting for it, when it runs as wgmma; otherwise the product
/// completes here. Until dot_wait<Pending>(r), r and both operands' shared memory belong to the
/// tensor cores (the compiler's overlap-products pass places the wait). Nothing else is held:
/// there is no in-flight record to keep. Turn: as the register-A dot_issue's.
template <class Acc, class S, int WM, int WN, class T, class SA, class LA, class SB, bool Tr,
          class L, class Operand = living_operand, class Turn = no_turn>
__device__ inline void
dot_issue(LTile<Acc, S, Mma<WM, WN>> &r, const SharedTile<T, SA, false, LA> &a,
          const SharedTile<T, SB, Tr, L> &b, Smem = {}, Operand = {}, Turn = {}) {
  static_assert(is_half_v<T> && std::is_same_v<Acc, float>,
                "ntc::dev::dot_issue: tensor-core products take float16/bfloat16 and accumulate "
                "float");
  static_assert(SA::dim(1) == SB::dim(0) && SA::dim(0) == S::dim(0) && SB::dim(1) == S::dim(1),
                "ntc::dev::dot_issue: operand and result shapes differ");
  detail::dot_into_shared<false, Turn>(r, a, b, true);
}

/// Completes the shared-A product that dot_issue started into r while the Pending products
/// issued after it stay in flight (wgmma.wait_group Pending). Every product issued after r's must
/// run as wgmma too, or the wait would let r's go on: the compiler issues them in that order
/// only when all of them do. A no-op where products complete as they are issued.
template <int Pending, class Acc, class S, int WM, int WN>
__device__ inline void dot_wait(LTile<Acc, S, Mma<WM, WN>> &r) {
  static_assert(Pending >= 0 && Pending <= 7, "ntc::dev::dot_wait: wgmma keeps 0 to 7 groups");
#if defined(NTC_DEV_HAS_WGMMA)
  detail::wgmma_wait<Pending>();
  detail::fence_operands(r.v);
#else
  (void)r;
#endif
}

/// Completes the product that dot_issue started into r (a no-op where it completed there).
template <class Acc, class S, int WM, int WN, int K16>
__device__ inline void dot_wait(LTile<Acc, S, Mma<WM, WN>> &r, dot_in_flight<K16> &in_flight) {
#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (K16 > 0) {
    detail::wgmma_wait<0>();
    detail::fence_operands(r.v);
    detail::fence_operands(in_flight.a);
  }
#else
  (void)r;
  (void)in_flight;
#endif
}

/// Every thread of the program reaches this point before any goes on (__syncthreads).
__device__ inline void barrier() { __syncthreads(); }

/// dot_loop (gemm.cuh) on an accumulator in layout Mma<WM, WN>: when that is the warp grid of
/// this pass's loop (layout::gemm_accumulator_warp_rows, which the compiler chose it by), the
/// loop multiplies into acc's registers and the epilogue continues from them: no trip through
/// shared memory before or after the loop, and no second copy of the accumulator in registers.
/// A pass whose loop tiles the block otherwise (the sm_80 pass of a layout chosen for sm_90a's
/// wgmma) exchanges the elements through the ring's memory, as for a blocked accumulator.
template <int Stages, bool VecA, bool VecB, bool AccZero, class T, int BM, int BK, int BN, int Th,
          int WM, int WN, class Index, class FA, class CA, class AA, class FB, class CB, class AB>
__device__ inline void dot_loop(LTile<float, Shape<BM, BN>, Mma<WM, WN>> &acc, Index begin,
                                Index end, const T *base_a, T fill_a, FA a_offset, CA a_chunk,
                                AA a_affine, const T *base_b, T fill_b, FB b_offset, CB b_chunk,
                                AB b_affine, Smem smem) {
  static_assert(Stages >= 2, "ntc::dev::dot_loop: at least two stages");
  static_assert(32 * WM * WN == Th,
                "ntc::dev::dot_loop: the accumulator's warps are not the block's");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (dot_loop_eligible_v<T, BM, BK, BN, Th> &&
                WM == detail::dot_loop_warp_rows<T, BM, BK, BN, Th, Stages>()) {
    auto &c = reinterpret_cast<detail::gemm_fragments_t<BM, BN, Th, WM> &>(acc.v);
    if constexpr (AccZero) {
#pragma unroll
      for (int s = 0; s < acc.Slots; ++s)
        acc.v[s] = 0.0f;
    }
    detail::gemm_fragments_loop<Stages, VecA, VecB, T, BM, BK, BN, Th, WM>(
        c, begin, end, base_a, fill_a, a_offset, a_chunk, a_affine, base_b, fill_b, b_offset,
        b_chunk, b_affine, smem);
    smem.sync(); // the ring's memory is the scratch of the statements that follow
  } else if constexpr (dot_loop_eligible_v<T, BM, BK, BN, Th>) {
    detail::dot_loop_exchanged<Stages, VecA, VecB, AccZero, T, BM, BK, BN, Th>(
        acc, begin, end, base_a, fill_a, a_offset, a_chunk, a_affine, base_b, fill_b, b_offset,
        b_chunk, b_affine, smem);
  } else
#endif
  {
    // Never planned (the compiler gives Mma accumulators only to loops that dot_loop runs on
    // the tensor cores); kept so that the host pass and other shapes compile: the blocked loop.
    Tile<float, Shape<BM, BN>, Th> blocked = convert_layout<Blocked<Th>>(acc, smem);
    dot_loop<Stages, VecA, VecB, false, T, BM, BK, BN, Th>(
        blocked, begin, end, base_a, fill_a, a_offset, a_chunk, a_affine, base_b, fill_b, b_offset,
        b_chunk, b_affine, smem);
    acc = convert_layout<Mma<WM, WN>>(blocked, smem);
  }
}

} // namespace ntc::dev
