// Unit tests of the symbolic integers.
#include "support/SymExpr.h"

#include <catch2/catch.hpp>

using namespace ntc;

namespace {
Expr size(const char *n) { return Expr::symbol(n, {0, std::nullopt}); }
Expr block(const char *n, int64_t lo, int64_t hi) { return Expr::symbol(n, {lo, hi}); }
} // namespace

TEST_CASE("constants fold", "[symexpr]") {
  CHECK((Expr(3) + Expr(4)).str() == "7");
  CHECK((Expr(3) * Expr(-4)).str() == "-12");
  CHECK(floorDiv(Expr(-7), Expr(2)).str() == "-4");
  CHECK(ceilDiv(Expr(-7), Expr(2)).str() == "-3");
  CHECK(mod(Expr(-7), Expr(3)).str() == "2");
  CHECK(min(Expr(2), Expr(5)).str() == "2");
  CHECK(max(Expr(2), Expr(5)).str() == "5");
}

TEST_CASE("sums and products are canonical", "[symexpr]") {
  Expr n = size("N"), m = size("M");
  CHECK((n + m) == (m + n));
  CHECK((n + n).str() == "2*N");
  CHECK((n - n).str() == "0");
  CHECK((n * m) == (m * n));
  CHECK(((n + 1) * 2).str() == "2*N + 2");
  CHECK((n - 63 - 1 + 63).str() == "N - 1");
  CHECK((-n).str() == "-N");
  CHECK((m - n).str() == "M - N");
}

TEST_CASE("NineToothed's tile count simplifies to a ceiling division", "[symexpr]") {
  Expr n = size("K");
  // (N - D*(T-1) - 1) ceildiv S + 1 with T = S = 64, D = 1.
  Expr count = ceilDiv(n - Expr(1) * (Expr(64) - 1) - 1, Expr(64)) + 1;
  CHECK(count.str() == "⌈K/64⌉");
  Expr bk = block("BLOCK_SIZE_K", 32, 64);
  Expr symbolic = ceilDiv(n - (bk - 1) - 1, bk) + 1;
  CHECK(symbolic.str() == "⌈K/BLOCK_SIZE_K⌉");
  // Tiling by the whole extent gives one tile.
  CHECK((ceilDiv(n - (n - 1) - 1, n) + 1).str() == "1");
  CHECK((ceilDiv(symbolic - (symbolic - 1) - 1, symbolic) + 1).str() == "1");
}

TEST_CASE("floor mode and multiples", "[symexpr]") {
  Expr n = size("N");
  CHECK(floorDiv(n * 4 + 8, Expr(4)).str() == "N + 2");
  CHECK(floorDiv(n * 4 + 3, Expr(4)).str() == "N");
  CHECK(floorDiv(floorDiv(n, Expr(2)), Expr(3)).str() == "⌊N/6⌋");
  CHECK(mod(n * 4 + 6, Expr(4)).str() == "2");
  CHECK(mod(n * 4 + 6, Expr(4)).str() == "2");
  CHECK(mod(n, n).str() == "0");
}

TEST_CASE("interval facts", "[symexpr]") {
  Expr b = block("B", 32, 64);
  Expr i = Expr::symbol("i", {0, 31});
  CHECK(provablyLess(i, b));
  CHECK(floorDiv(i, b).str() == "0");
  CHECK(mod(i, b).str() == "i");
  CHECK(min(i, b).str() == "i");
  CHECK(max(i, b).str() == "B");
  Expr n = size("N");
  CHECK_FALSE(provablyLess(n, b));
  CHECK(min(n, b).str() == "min(B, N)");
}

TEST_CASE("evaluation and substitution", "[symexpr]") {
  Expr n = size("N"), b = block("B", 1, 1024);
  Expr e = ceilDiv(n, b) * 2 + mod(n, Expr(5));
  CHECK(e.evaluate({{"N", 130}, {"B", 64}}) == 3 * 2 + 0);
  CHECK_FALSE(e.evaluate({{"N", 130}}).has_value());
  CHECK(e.substitute({{"B", Expr(64)}}).str() == "2*⌈N/64⌉ + N % 5");
  CHECK(e.substitute({{"B", Expr(64)}, {"N", Expr(65)}}).str() == "4");
  CHECK(floorDiv(n, Expr(0)).evaluate({{"N", 3}}) == std::nullopt);
  std::vector<std::string> names;
  e.collectSymbols(names);
  CHECK(names.size() == 2);
}

TEST_CASE("integer helpers follow Python semantics", "[symexpr]") {
  CHECK(floorDivInt(7, 2) == 3);
  CHECK(floorDivInt(-7, 2) == -4);
  CHECK(ceilDivInt(7, 2) == 4);
  CHECK(ceilDivInt(-7, 2) == -3);
  CHECK(floorModInt(-7, 3) == 2);
  CHECK(floorModInt(7, -3) == -2);
}

TEST_CASE("integer overflow is an error, never a wrapped value", "[symexpr][overflow]") {
  const Expr big(int64_t(1) << 62);
  CHECK_THROWS_AS(big * Expr(4), ArithmeticOverflow);
  CHECK_THROWS_AS(big + big, ArithmeticOverflow);
  const Expr n = Expr::symbol("n", {0, std::nullopt});
  CHECK_THROWS_AS((n * big) * Expr(2), ArithmeticOverflow);
  CHECK_THROWS_AS(floorDiv(Expr(std::numeric_limits<int64_t>::min()), Expr(-1)),
                  ArithmeticOverflow);
  CHECK_THROWS_AS((n * big + n * big).evaluate({}), ArithmeticOverflow);
  std::map<std::string, int64_t> values{{"n", 4}};
  CHECK_THROWS_AS((n * big).evaluate(values), ArithmeticOverflow);
  // Ranges that would overflow are unbounded, so nothing false is proven.
  const Expr wide = Expr::symbol("w", {0, int64_t(1) << 62});
  CHECK_FALSE((wide * Expr(4)).range().hi.has_value());
  CHECK_FALSE(provablyLessEqual(wide * Expr(4), Expr(0)));
}

TEST_CASE("monotonicity in one symbol follows the expression's structure", "[symexpr]") {
  const Expr pid = size("pid0"), n = size("N"), shift = Expr::symbol("s", {});
  const auto in = [](const Expr &e) { return monotonicityIn(e, "pid0"); };
  CHECK(in(n + 3) == Monotonicity::Constant);
  CHECK(in(pid) == Monotonicity::Nondecreasing);
  CHECK(in(-pid + n) == Monotonicity::Nonincreasing);
  // Causal attention's key loop: min(⌈S/64⌉, max(1, ⌊(64·pid + 63)/64⌋ + 1)).
  const Expr causalEnd =
      min(ceilDiv(n, Expr(64)), max(Expr(1), floorDiv(pid * 64 + 63, Expr(64)) + 1));
  CHECK(in(causalEnd) == Monotonicity::Nondecreasing);
  CHECK(in(ceilDiv(n - pid * 16, Expr(32))) == Monotonicity::Nonincreasing);
  CHECK(in(pid * n) == Monotonicity::Nondecreasing); // N is never negative
  CHECK(in(pid * shift) == Monotonicity::Unknown);   // s may be negative
  CHECK(in(mod(pid, Expr(4))) == Monotonicity::Unknown);    // wraps around
  CHECK(in(floorDiv(n, pid + 1)) == Monotonicity::Unknown); // a divisor that moves
  CHECK(in(max(pid, n - pid)) == Monotonicity::Unknown);    // one way, then the other
  CHECK(in(floorDiv(pid, shift)) == Monotonicity::Unknown); // a divisor of either sign
}
