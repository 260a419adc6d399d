// A jagged tensor whose jagged dimension is the last (tests/cpu/kernels/jagged_dim2.cpp:
// NineToothed's test_to_padded_tensor with jagged_dim=2 and other=-1): the values hold
// (channels, all sequences' columns), a strided view; masked elements read -1.
#include "Common.hpp"

#include <jagged_dim2.h>

using namespace ntc_test;

TEST_CASE("jagged_dim 2 with other(-1): to_padded of sequences along the last dimension",
          "[jagged]") {
  std::mt19937_64 rng(21);
  const std::vector<int64_t> lengths = {5, 0, 33, 16, 1};
  const int64_t channels = 11, batch = 5, longest = 33, first = 3;
  Tensor<int64_t> offsets({batch + 1});
  int64_t column = first;
  for (int64_t b = 0; b <= batch; ++b) {
    offsets(b) = column;
    if (b < batch)
      column += lengths[size_t(b)];
  }
  Tensor<float> values({channels, column + 2}, {1, channels}); // column-major: a strided view
  values.randomize(rng);
  Tensor<float> output({batch, channels, longest});
  REQUIRE_NTC_OK(to_padded_dim2(&values, &offsets, &output, nullptr));
  std::vector<double> ref;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t i = 0; i < longest; ++i)
        ref.push_back(i < lengths[size_t(b)] ? values.get({c, offsets(b) + i}) : -1.0);
  CHECK_CLOSE(compare(output, ref, 0, 0));
}
