//===- ReservedNames.h - names a kernel may not use -----------------------===//
//
// The names of a kernel end up in generated C and C++ code: the kernel name is an extern "C"
// function, parameter names are C parameters, struct members and locals, meta-parameter names
// are constants of the generated programs. These functions say why a name cannot be used (an
// empty string when it can). Plain C++ (no Clang), so the rules are unit-tested on their own;
// the front end reports them at the declaration (frontend/NameChecks.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ntc {

/// A tensor parameter of a kernel: the generated code names its sizes and strides
/// `<name>_size_<d>` and `<name>_stride_<d>` for d < rank.
struct TensorName {
  std::string name;
  int rank = 0;
  bool jagged = false; ///< has a jagged dimension (ParamSpec::jaggedDim)
};

/// Why `name` cannot be a kernel name (the C function ntc generates), or "".
/// Reasons: not a C identifier, a C or C++ keyword, `main`, a function, macro or type of the
/// C standard library or a common POSIX function, a name the generated code relies on (`std`,
/// `ntc`, `DLTensor`, CUDA built-ins...), a prefix reserved for ntc (`ntc_`, `NTC_`) or for
/// the implementation (`__`, `_` and an upper-case letter).
std::string reservedKernelName(std::string_view name);

/// Why `name` cannot name a parameter of a kernel (an arrangement or application parameter),
/// or "": a C keyword, a macro or type of the C standard library, a name the generated code
/// relies on, or a reserved prefix. Library *functions* are fine (a parameter only shadows
/// them), and so are the names of generated symbols (pid0, x_size_0...): generated code keeps
/// parameters and its own symbols apart (compiler/codegen/Names.h). `tensors` is unused.
std::string reservedParameterName(std::string_view name, const std::vector<TensorName> &tensors);

/// Why `name` cannot name a meta-parameter (nt::block_size) or an nt::Constexpr, or "": the
/// parameter rules plus "not a C identifier" and C++ keywords (these names are strings).
std::string reservedSymbolName(std::string_view name, const std::vector<TensorName> &tensors);

/// When `name` is a symbol ntc generates (pid<d>, lane<d>, NP2_<n>, and `<x>_size_<d>` /
/// `<x>_stride_<d>` for a tensor x of `tensors`), what it stands for ("'x_size_0' is the name
/// ntc gives to the size of 'x' in dimension 0"); else "".
std::string generatedSymbol(std::string_view name, const std::vector<TensorName> &tensors);

/// True when `name` is a C identifier ([A-Za-z_][A-Za-z0-9_]*).
bool isIdentifier(std::string_view name);

} // namespace ntc
