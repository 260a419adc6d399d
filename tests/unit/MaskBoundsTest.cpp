// Unit tests of mask-bounds (compiler/passes/MaskBounds.cpp): the loop index from which a
// comparison fails for every element, and before which it holds for every element, checked
// against brute-force evaluation for scalar operands (one element each).
#include "AccessTestHelpers.h"
#include "passes/Passes.h"

#include <catch2/catch.hpp>

#include <map>

using namespace ntc;
using test::sym;

namespace {

/// `op(a, b)` of two index scalars.
kir::Value compare(const std::string &op, const Expr &a, const Expr &b) {
  return kir::makeBinary(op, kir::makeIndex(a), kir::makeIndex(b));
}

/// Whether `op` holds for the two values.
bool holds(const std::string &op, int64_t a, int64_t b) {
  if (op == "ge")
    return a >= b;
  if (op == "gt")
    return a > b;
  if (op == "le")
    return a <= b;
  return a < b; // lt
}

/// Which bound of mask-bounds a check asks for.
enum class Bound { FalseFrom, TrueBefore, TrueFrom };

/// For program coordinates 0..12 and loop indices 0..40: `op(a, b)` holds exactly before the
/// bound (maskFalseFrom's: it fails at and after; maskTrueBefore's) or exactly from it on
/// (maskTrueFrom's); the bounds are exact for scalars, one element each.
void checkExact(const std::string &op, const Expr &a, const Expr &b, Bound which) {
  const kir::Function f;
  const kir::Value cond = compare(op, a, b);
  std::optional<Expr> bound = which == Bound::FalseFrom    ? passes::maskFalseFrom(f, cond, "i")
                              : which == Bound::TrueBefore ? passes::maskTrueBefore(f, cond, "i")
                                                           : passes::maskTrueFrom(f, cond, "i");
  REQUIRE(bound);
  for (int64_t pid = 0; pid <= 12; ++pid) {
    const int64_t at = *bound->evaluate({{"pid0", pid}});
    for (int64_t i = 0; i <= 40; ++i) {
      const std::map<std::string, int64_t> values{{"pid0", pid}, {"i", i}};
      const bool value = holds(op, *a.evaluate(values), *b.evaluate(values));
      INFO(op << " pid0 = " << pid << ", i = " << i << ", bound " << bound->str());
      CHECK(value == (which == Bound::TrueFrom ? i >= at : i < at));
    }
  }
}

/// checkExact for x >= y and x > y, and for the same comparisons written y <= x and y < x.
void checkSpellings(const Expr &x, const Expr &y, Bound which) {
  for (const char *op : {"ge", "gt"})
    checkExact(op, x, y, which);
  for (const char *op : {"le", "lt"})
    checkExact(op, y, x, which);
}

} // namespace

TEST_CASE("a causal comparison fails from the block after the last query", "[mask-bounds]") {
  // Query 16·pid0 + 15 against key 32·i: q >= k fails once 32·i > 16·pid0 + 15.
  const Expr q = Expr(16) * sym("pid0") + Expr(15), k = Expr(32) * sym("i");
  checkSpellings(q, k, Bound::FalseFrom);
}

TEST_CASE("a sequence mask holds before the block that reaches the end", "[mask-bounds]") {
  // Key 32·i + 31 < 100 + 3·pid0 (a size that varies with the program here, to test the bound's
  // symbols) holds for the first blocks only.
  const Expr last = Expr(32) * sym("i") + Expr(31), size = Expr(100) + Expr(3) * sym("pid0");
  checkSpellings(size, last, Bound::TrueBefore);
}

TEST_CASE("keys at or after the query hold from the block past the query", "[mask-bounds]") {
  // Key 32·i >= query 16·pid0 + 15 (anti-causal) holds from some block on.
  const Expr q = Expr(16) * sym("pid0") + Expr(15), k = Expr(32) * sym("i");
  checkSpellings(k, q, Bound::TrueFrom);
}

TEST_CASE("bounds that do not exist are not derived", "[mask-bounds]") {
  const kir::Function f;
  const Expr i = sym("i"), pid = sym("pid0");
  // q >= k with keys walking backwards holds more and more: it never starts failing.
  CHECK_FALSE(passes::maskFalseFrom(f, compare("ge", pid, Expr(-4) * i), "i"));
  // ... and never fails before an index; it holds from one on.
  CHECK_FALSE(passes::maskTrueBefore(f, compare("ge", pid, Expr(-4) * i), "i"));
  CHECK(passes::maskTrueFrom(f, compare("ge", pid, Expr(-4) * i), "i"));
  // Keys walking forwards against a fixed query never hold from an index on.
  CHECK_FALSE(passes::maskTrueFrom(f, compare("ge", pid, Expr(4) * i), "i"));
  // Not affine in the index.
  CHECK_FALSE(passes::maskFalseFrom(f, compare("ge", pid, i * i), "i"));
  // Not a comparison.
  CHECK_FALSE(passes::maskFalseFrom(
      f, kir::makeBinary("add", kir::makeIndex(pid), kir::makeIndex(i)), "i"));
  // Independent of the index.
  CHECK_FALSE(passes::maskFalseFrom(f, compare("lt", pid, Expr(7)), "i"));
}

TEST_CASE("a conjunction fails where either side fails, holds where both hold", "[mask-bounds]") {
  const kir::Function f;
  const Expr i = sym("i");
  const kir::Value early = compare("lt", Expr(8) * i, Expr(40)); // holds for i < 5
  const kir::Value late = compare("lt", Expr(8) * i, Expr(80));  // holds for i < 10
  const kir::Value both = kir::makeBinary("and", early, late);
  CHECK(*passes::maskFalseFrom(f, both, "i") == Expr(5));
  CHECK(*passes::maskTrueBefore(f, both, "i") == Expr(5));
  const kir::Value after3 = compare("ge", Expr(8) * i, Expr(24)); // holds for i >= 3
  const kir::Value after6 = compare("ge", Expr(8) * i, Expr(48)); // holds for i >= 6
  CHECK(*passes::maskTrueFrom(f, kir::makeBinary("and", after3, after6), "i") == Expr(6));
  const kir::Value unknown = compare("lt", i * i, Expr(80));
  CHECK(*passes::maskFalseFrom(f, kir::makeBinary("and", early, unknown), "i") == Expr(5));
  CHECK_FALSE(passes::maskTrueBefore(f, kir::makeBinary("and", early, unknown), "i"));
}
