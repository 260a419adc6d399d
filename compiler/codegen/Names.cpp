//===- Names.cpp - C++ identifiers of generated code ----------------------===//
#include "codegen/Names.h"

namespace ntc::codegen {

std::string sizeName(const ParamSpec &p, int d) { return "ntc_" + p.sizeSymbol(d); }

std::string strideName(const ParamSpec &p, int d) { return "ntc_" + p.strideSymbol(d); }

std::string offsetsName(const ParamSpec &p) { return "ntc_" + p.offsetsName(); }
std::string seqStartName(const ParamSpec &p) { return "ntc_" + p.seqStartSymbol(); }
std::string seqLenName(const ParamSpec &p) { return "ntc_" + p.seqLenSymbol(); }
std::string argsStructName(const KernelSpec &k) { return "ntc_" + k.name + "_args"; }

std::string programName(const KernelSpec &k, size_t n) {
  return "ntc_" + k.name + "_program" + std::to_string(n);
}

std::string paramTableName(const KernelSpec &k) { return "ntc_" + k.name + "_params"; }

std::string configsTableName(const KernelSpec &k) { return "ntc_" + k.name + "_configs"; }

std::string runFunctionName(const KernelSpec &k) { return "ntc_" + k.name + "_run"; }

std::string genericFunctionName(const KernelSpec &k) { return "ntc_" + k.name + "_generic"; }

std::string wrapperSymbol(const kir::Function &f, const std::string &symbol) {
  for (const ParamSpec &p : f.spec.params)
    for (int d = 0; d < p.ndim; ++d)
      if (p.sizeSymbol(d) == symbol)
        return sizeName(p, d);
  for (const MetaParam &m : f.spec.metas)
    if (m.name == symbol)
      return "ntc_" + symbol + "_meta";
  for (const kir::PaddedExtent &p : f.padded)
    if (p.symbol == symbol)
      return "ntc_" + symbol;
  return symbol;
}

} // namespace ntc::codegen
