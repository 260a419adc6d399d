// Numerics of loops whose masks skip-masked-iterations and guard-masks rewrite: the kernels of
// tests/filecheck/masked_loops.cpp (16 query rows per program, key blocks of 32) against plain
// references, at sequence lengths that are not multiples of either block and with more and with
// fewer keys than queries.
#include "Common.hpp"

#include "masked_loops.h"

#include <tuple>
#include <vector>

using namespace ntc_test;

namespace {

using Kernel = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *,
                                const DLTensor *, ntc_stream_t);

/// Which keys a query row sees, and how the kernel combines them.
enum class Combine { CausalSoftmax2, All, Causal, AntiCausal };

/// o[i] for queries (Sq, D), keys and values (Sk, D): a base-2 softmax over the keys j <= i
/// weighting v (CausalSoftmax2), or Σ_j (q_i · k_j) v_j over every key, the keys j <= i, or the
/// keys j >= i; `extra` is added to every element.
std::vector<double> reference(const Tensor<float> &q, const Tensor<float> &k,
                              const Tensor<float> &v, Combine combine, double extra) {
  const int64_t Sq = q.shape[0], Sk = k.shape[0], D = q.shape[1];
  std::vector<double> out(size_t(Sq * D), 0.0);
  for (int64_t i = 0; i < Sq; ++i) {
    std::vector<double> score(size_t(Sk), 0.0), weight(size_t(Sk), 0.0);
    for (int64_t j = 0; j < Sk; ++j)
      for (int64_t d = 0; d < D; ++d)
        score[size_t(j)] += q.get({i, d}) * k.get({j, d});
    const auto sees = [&](int64_t j) {
      return combine == Combine::All || (combine == Combine::AntiCausal ? j >= i : j <= i);
    };
    if (combine == Combine::CausalSoftmax2) {
      double max = -INFINITY, sum = 0;
      for (int64_t j = 0; j < Sk && sees(j); ++j)
        max = std::max(max, score[size_t(j)]);
      for (int64_t j = 0; j < Sk && sees(j); ++j)
        sum += weight[size_t(j)] = std::exp2(score[size_t(j)] - max);
      for (double &w : weight)
        w /= sum;
    } else {
      for (int64_t j = 0; j < Sk; ++j)
        weight[size_t(j)] = sees(j) ? score[size_t(j)] : 0.0;
    }
    for (int64_t d = 0; d < D; ++d) {
      double acc = extra;
      for (int64_t j = 0; j < Sk; ++j)
        acc += weight[size_t(j)] * v.get({j, d});
      out[size_t(i * D + d)] = acc;
    }
  }
  return out;
}

/// Query and key counts with a seed.
using Shapes = std::vector<std::tuple<int64_t, int64_t, uint64_t>>;

void check(Kernel kernel, Combine combine, int64_t Sq, int64_t Sk, int64_t D, uint64_t seed,
           bool countsBlocks = false) {
  INFO("Sq = " << Sq << ", Sk = " << Sk << ", D = " << D);
  std::mt19937_64 rng(seed);
  Tensor<float> q({Sq, D}), k({Sk, D}), v({Sk, D}), o({Sq, D});
  q.randomize(rng);
  k.randomize(rng);
  v.randomize(rng);
  REQUIRE_NTC_OK(kernel(&q, &k, &v, &o, nullptr));
  // counted_product adds 1 per key block of 32, every block of every program.
  const double extra = countsBlocks ? double((Sk + 31) / 32) : 0.0;
  CHECK_CLOSE(compare(o, reference(q, k, v, combine, extra), 1e-4, 1e-4));
}

} // namespace

TEST_CASE("masked loops: causal softmax skips the key blocks after a program's queries",
          "[cpu][masked-loops]") {
  // More keys than queries (programs stop early), fewer (later programs see every key), one.
  for (auto [Sq, Sk, seed] : Shapes{{100, 100, 1}, {37, 150, 2}, {150, 37, 3}, {1, 1, 4}})
    check(causal_attention, Combine::CausalSoftmax2, Sq, Sk, 16, seed);
  check(causal_attention, Combine::CausalSoftmax2, 70, 90, 5, 5); // a padded head dimension
}

TEST_CASE("masked loops: the sequence mask only in the last key block", "[cpu][masked-loops]") {
  for (auto [Sq, Sk, seed] : Shapes{{100, 100, 6}, {33, 64, 7}, {20, 65, 8}})
    check(unmasked_product, Combine::All, Sq, Sk, 16, seed);
}

TEST_CASE("masked loops: a state that changes anyway runs every block", "[cpu][masked-loops]") {
  for (auto [Sq, Sk, seed] : Shapes{{100, 100, 9}, {40, 130, 10}})
    check(counted_product, Combine::Causal, Sq, Sk, 16, seed, true);
}

TEST_CASE("masked loops: keys at or after the query mask only the first blocks",
          "[cpu][masked-loops]") {
  for (auto [Sq, Sk, seed] : Shapes{{100, 100, 11}, {37, 150, 12}, {150, 37, 13}})
    check(anticausal_product, Combine::AntiCausal, Sq, Sk, 16, seed);
}
