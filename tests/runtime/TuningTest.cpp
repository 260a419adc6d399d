// The dispatcher's choice of a tuned configuration (ntc/rt/tuning.hpp; its buckets are tested
// with ntc-tune's, tests/tune/TableTest.cpp): the nearest entry of the call's architecture and
// alignment class, the values of the compile-time scalars an entry was measured with and the
// padded tile extents up to its own.
#include <ntc/rt/tuning.hpp>

#include <catch2/catch.hpp>

using namespace ntc::rt;

TEST_CASE("pick_config: the nearest bucket of the same architecture and alignment", "[tuning]") {
  static const tuned_shape<2> table[] = {
      {90, true, 1, {{1024, 1024}}, {}, {}},
      {90, true, 2, {{4096, 4096}}, {}, {}},
      {80, true, 3, {{2048, 2048}}, {}, {}},
      {90, false, 4, {{2048, 2048}}, {}, {}},
  };
  CHECK(pick_config(table, 90, true, {{1000, 1000}}) == 1);
  CHECK(pick_config(table, 90, true, {{3000, 4096}}) == 2);
  CHECK(pick_config(table, 90, true, {{2048, 2048}}) == 1); // equals: the first
  CHECK(pick_config(table, 80, true, {{64, 64}}) == 3);
  CHECK(pick_config(table, 90, false, {{64, 64}}) == 4);
  CHECK(pick_config(table, 86, true, {{1024, 1024}}) == 0); // no entry: the default
}

TEST_CASE("pick_config: entries of other compile-time scalar values are never taken", "[tuning]") {
  // Attention's is_causal: the d = 128 shape tuned both ways, d = 64 without the mask only.
  static const tuned_shape<2, 1> table[] = {
      {90, true, 1, {{4096, 128}}, {{0}}, {}},
      {90, true, 2, {{4096, 128}}, {{1}}, {}},
      {90, true, 3, {{4096, 64}}, {{0}}, {}},
  };
  CHECK(pick_config(table, 90, true, {{4096, 128}}, {{0}}) == 1);
  CHECK(pick_config(table, 90, true, {{4096, 128}}, {{1}}) == 2);
  CHECK(pick_config(table, 90, true, {{4096, 64}}, {{0}}) == 3);
  // The causal call at d = 64 takes the nearest causal entry, not the nearer one without mask.
  CHECK(pick_config(table, 90, true, {{4096, 64}}, {{1}}) == 2);
  // A value no entry was measured with gets the default, which is compiled for every value.
  static const tuned_shape<1, 1> causalOnly[] = {{90, true, 5, {{4096}}, {{1}}, {}}};
  CHECK(pick_config(causalOnly, 90, true, {{4096}}, {{0}}) == 0);
  // An entry written without the scalar stands for every value.
  static const tuned_shape<1, 1> any[] = {{90, true, 6, {{4096}}, {{any_value}}, {}}};
  CHECK(pick_config(any, 90, true, {{4096}}, {{0}}) == 6);
  CHECK(pick_config(any, 90, true, {{4096}}, {{1}}) == 6);
}

TEST_CASE("pick_config: an entry is taken for padded tile extents up to its own", "[tuning]") {
  // A row-wise softmax tuned on rows of 781 (extent 1024) and 4000 (extent 4096) elements.
  static const tuned_shape<2, 0, 1> table[] = {
      {90, true, 1, {{2048, 1024}}, {}, {{1024}}},
      {90, true, 2, {{64, 4096}}, {}, {{4096}}},
  };
  CHECK(pick_config(table, 90, true, {{2048, 1000}}, {}, {{1024}}) == 1);
  CHECK(pick_config(table, 90, true, {{2048, 100}}, {}, {{128}}) == 1);   // shorter rows: nearest
  CHECK(pick_config(table, 90, true, {{2048, 2000}}, {}, {{2048}}) == 2); // not the nearer 1024
  CHECK(pick_config(table, 90, true, {{64, 16384}}, {}, {{16384}}) == 0); // longer: the default
  static const tuned_shape<1, 0, 1> any[] = {{90, true, 3, {{4096}}, {}, {{any_value}}}};
  CHECK(pick_config(any, 90, true, {{4096}}, {}, {{16384}}) == 3);
}

TEST_CASE("pick_config: each key is compared with its own value", "[tuning]") {
  // The first key stands for every value; the second must match.
  static const tuned_shape<1, 2> table[] = {{90, true, 1, {{4096}}, {{any_value, 1}}, {}}};
  CHECK(pick_config(table, 90, true, {{4096}}, {{0, 1}}) == 1);
  CHECK(pick_config(table, 90, true, {{4096}}, {{1, 0}}) == 0);
}
