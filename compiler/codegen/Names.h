//===- Names.h - C++ identifiers of generated code ------------------------===//
//
// Hygiene by construction. Every identifier that generated code derives from a user's name
// has a form that no other generated identifier can take:
//
//   * user names that appear unchanged are C parameters and argument-struct members of
//     the kernel's parameters, and the exported kernel function; the front end rejects
//     user names that begin with `ntc_`, so they never meet a generated name;
//   * every other derived name is `ntc_` + user name + a suffix that ends differently for
//     every kind (`_size_<d>`, `_stride_<d>`, `_meta`, `_args`, `_info`, `_params`,
//     `_program<n>`, `_offsets`, `_seq_start`, `_seq_len`, `_offsets_copy`), so two kinds never
//     produce the same identifier;
//   * locals and loop indices of the application are `t_<name>` and `l_<name>`, program
//     coordinates and lanes `pid<d>` and `lane<d>`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/KernelIR.h"

#include <string>

namespace ntc::codegen {

/// The local (and argument member) holding the size of `p` in dimension `d`.
std::string sizeName(const ParamSpec &p, int d);
/// The local (and argument member) holding the stride of `p` in dimension `d` (elements).
std::string strideName(const ParamSpec &p, int d);
/// The argument member holding the offsets of jagged tensor `p`.
std::string offsetsName(const ParamSpec &p);
/// The local holding the first row of the batch entry a program reads of jagged tensor `p`.
std::string seqStartName(const ParamSpec &p);
/// The local holding the length of the batch entry a program reads of jagged tensor `p`.
std::string seqLenName(const ParamSpec &p);
/// The struct of a kernel's arguments.
std::string argsStructName(const KernelSpec &k);
/// The program function of a kernel's `n`-th specialization.
std::string programName(const KernelSpec &k, size_t n);
/// The table describing a kernel's parameters (behind `ntc_<kernel>_info()`).
std::string paramTableName(const KernelSpec &k);

/// The static table of a kernel's configuration ids ("ntc_<kernel>_configs").
std::string configsTableName(const KernelSpec &k);

/// The static function with the wrapper's body ("ntc_<kernel>_run").
std::string runFunctionName(const KernelSpec &k);

/// The static function behind the generic call and the configuration query
/// ("ntc_<kernel>_generic").
std::string genericFunctionName(const KernelSpec &k);
/// The C++ name a symbol of the wrapper's integer expressions has in the wrapper: sizes,
/// meta-parameters and padded extents are locals with generated names; nt::Constexpr
/// integers are the wrapper's C parameters.
std::string wrapperSymbol(const kir::Function &f, const std::string &symbol);

} // namespace ntc::codegen
