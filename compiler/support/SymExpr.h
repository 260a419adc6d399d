//===- SymExpr.h - symbolic integer expressions ---------------------------===//
//
// Immutable integer expressions over named symbols (tensor sizes, meta-parameters,
// loop and lane indices). Every constructor simplifies: sums and products are kept as
// a canonical polynomial, and divisions extract the terms that are exact multiples of
// the divisor, so NineToothed's tile-count formula (N - 63 - 1 + 63) // 64 + 1 comes
// out as ceil(N/64).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ntc {

/// Thrown when arithmetic on integer constants (folding, coefficients, evaluation) would
/// overflow int64: the compiler reports it instead of wrapping.
struct ArithmeticOverflow : std::overflow_error {
  using std::overflow_error::overflow_error;
};

/// a + b and a * b, throwing ArithmeticOverflow instead of wrapping.
int64_t checkedAdd(int64_t a, int64_t b);
int64_t checkedMul(int64_t a, int64_t b);

/// The kinds of expression nodes.
enum class ExprKind { Const, Symbol, Add, Mul, FloorDiv, CeilDiv, Mod, Min, Max };

/// Closed integer interval; `lo`/`hi` are absent when unbounded.
struct Interval {
  std::optional<int64_t> lo, hi;
};

struct ExprNode;

/// A handle to an immutable, simplified integer expression. Cheap to copy.
class Expr {
public:
  /// The constant 0.
  Expr();
  /// An integer constant.
  Expr(int64_t value);
  Expr(int value) : Expr(static_cast<int64_t>(value)) {}

  /// A named symbol with an optional known range (used by the simplifier).
  static Expr symbol(const std::string &name, Interval range = {});

  ExprKind kind() const;
  /// True when this is an integer constant.
  bool isConst() const { return kind() == ExprKind::Const; }
  /// The value of a constant; only valid when isConst().
  int64_t constValue() const;
  /// The constant value, if this is one.
  std::optional<int64_t> asConst() const;
  /// Name of a Symbol node.
  const std::string &symbolName() const;
  /// Coefficient of a product (Mul) node.
  int64_t coefficient() const;
  /// Operands of a compound node (sum terms, product factors, division operands...).
  const std::vector<Expr> &operands() const;

  /// Canonical structural key: equal keys mean equal expressions.
  const std::string &key() const;
  bool operator==(const Expr &o) const { return key() == o.key(); }
  bool operator!=(const Expr &o) const { return !(*this == o); }
  bool operator<(const Expr &o) const { return key() < o.key(); }

  /// Human-readable form, e.g. "⌈lhs_size_0/64⌉".
  std::string str() const;

  /// Evaluate with the given symbol values; nullopt when a symbol is unbound or a
  /// division by zero occurs.
  std::optional<int64_t> evaluate(const std::map<std::string, int64_t> &values) const;
  /// Replace symbols by expressions (and re-simplify).
  Expr substitute(const std::map<std::string, Expr> &replacements) const;
  /// Names of all symbols occurring in the expression.
  void collectSymbols(std::vector<std::string> &names) const;

  /// Conservative interval of all values this expression can take.
  Interval range() const;

  const ExprNode *node() const { return node_.get(); }

private:
  explicit Expr(std::shared_ptr<const ExprNode> n) : node_(std::move(n)) {}
  std::shared_ptr<const ExprNode> node_;
  friend struct ExprBuilder;
};

Expr operator+(const Expr &a, const Expr &b);
Expr operator-(const Expr &a, const Expr &b);
Expr operator-(const Expr &a);
Expr operator*(const Expr &a, const Expr &b);
/// Floor division (rounds toward negative infinity, as Python's //).
Expr floorDiv(const Expr &a, const Expr &b);
/// Ceiling division.
Expr ceilDiv(const Expr &a, const Expr &b);
/// Floor modulo (result has the sign of the divisor, as Python's %).
Expr mod(const Expr &a, const Expr &b);
Expr min(const Expr &a, const Expr &b);
Expr max(const Expr &a, const Expr &b);

/// True when a <= b holds for every value of the symbols (by interval reasoning).
bool provablyLessEqual(const Expr &a, const Expr &b);
/// True when a < b provably.
bool provablyLess(const Expr &a, const Expr &b);

/// How an expression changes as one of its symbols grows while the others stay fixed.
enum class Monotonicity { Constant, Nondecreasing, Nonincreasing, Unknown };

/// The direction in which `e` moves as `symbol` grows, by the structure of `e` (sums, products
/// with factors that are never negative, divisions by positive divisors that do not depend on
/// the symbol, min and max); Unknown where that structure does not tell.
Monotonicity monotonicityIn(const Expr &e, const std::string &symbol);

/// Integer floor division and modulo on plain values (Python semantics).
int64_t floorDivInt(int64_t a, int64_t b);
int64_t ceilDivInt(int64_t a, int64_t b);
int64_t floorModInt(int64_t a, int64_t b);

} // namespace ntc
