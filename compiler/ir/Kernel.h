//===- Kernel.h - a kernel as the front end sees it -----------------------===//
//
// The result of reading one NT_KERNEL declaration: its parameters (the source tensors
// and scalars), the meta-parameters it uses and the arranged tensors the application
// receives.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/DType.h"
#include "ir/Layout.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ntc {

/// One parameter of a kernel, as declared in NT_KERNEL.
struct ParamSpec {
  enum class Kind { Tensor, Scalar, Constexpr };
  std::string name; ///< the arrangement's parameter name
  Kind kind = Kind::Tensor;
  int ndim = 0;
  DType dtype = DType::Float32;
  std::optional<double> other;                     ///< value read where a load is masked
  std::vector<std::optional<int64_t>> upperBounds; ///< per dimension
  std::vector<bool> constexprDims;                 ///< per dimension
  std::vector<double> constexprValues;             ///< nt::Constexpr's allowed values
  /// jagged_dim(j): dimension j's extent varies with the batch entry (dimension 0). The
  /// caller passes the values (rank ndim - 1: the batch folded into dimension j) and the
  /// offsets of each batch entry's first row; size j is then the longest sequence.
  std::optional<int> jaggedDim;

  /// The symbol naming the size of dimension d ("lhs_size_1").
  std::string sizeSymbol(int d) const { return name + "_size_" + std::to_string(d); }
  /// The symbolic extents of the tensor: `<name>_size_d`, bounded by upper_bound where declared.
  std::vector<Expr> shape() const {
    std::vector<Expr> extents;
    for (int d = 0; d < ndim; ++d) {
      Interval range{0, std::nullopt};
      if (upperBounds[d])
        range.hi = *upperBounds[d];
      extents.push_back(Expr::symbol(sizeSymbol(d), range));
    }
    return extents;
  }
  /// The symbol naming the stride of dimension d ("lhs_stride_1").
  std::string strideSymbol(int d) const { return name + "_stride_" + std::to_string(d); }
  /// The C parameter holding the offsets of a jagged tensor ("x_offsets").
  std::string offsetsName() const { return name + "_offsets"; }
  /// The symbol of a jagged tensor's first row in the values for one batch entry.
  std::string seqStartSymbol() const { return name + "_seq_start"; }
  /// The symbol of a jagged tensor's sequence length for one batch entry.
  std::string seqLenSymbol() const { return name + "_seq_len"; }
  /// True for an nt::Constexpr whose values are all integers: it stands for an integer symbol.
  bool isIntegerConstexpr() const { return kind == Kind::Constexpr && dtype == DType::Int64; }
  /// The symbol an integer nt::Constexpr stands for: its name, ranging over its values.
  Expr constexprSymbol() const {
    int64_t lo = static_cast<int64_t>(constexprValues.front()), hi = lo;
    for (double v : constexprValues) {
      lo = std::min(lo, static_cast<int64_t>(v));
      hi = std::max(hi, static_cast<int64_t>(v));
    }
    return Expr::symbol(name, {lo, hi});
  }
};

/// A tuned or fixed meta-parameter (nt::block_size).
struct MetaParam {
  std::string name;
  int64_t lo = 0, hi = 0; ///< allowed values: powers of two in [lo, hi]; fixed when lo == hi
};

/// One arranged parameter of the application.
struct ArrangedParam {
  std::string name; ///< the application's parameter name
  int source = -1;  ///< index into KernelSpec::params
  Layout layout;
  /// The names infer-axes gave the outer dimensions of a tensor arranged with
  /// `axes(nt::inferred)` (frontend/InferAxes.h); empty otherwise.
  std::vector<std::string> inferredAxes;
};

/// Everything the front end knows about one kernel.
struct KernelSpec {
  std::string name;
  std::string arrangementName, applicationName;
  std::vector<ParamSpec> params;
  std::vector<MetaParam> metas;
  std::vector<ArrangedParam> arranged;
};

} // namespace ntc
