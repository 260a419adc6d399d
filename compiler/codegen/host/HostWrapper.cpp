//===- HostWrapper.cpp - C-ABI wrappers, headers and kernel descriptions --===//
#include "codegen/host/HostWrapper.h"

#include "codegen/Codegen.h"
#include "codegen/CppExpr.h"
#include "codegen/Names.h"

#include <algorithm>

namespace ntc::codegen {

namespace {

std::string quote(const std::string &s) { return "\"" + s + "\""; }

/// An integer expression of the wrapper, its symbols named as the wrapper's locals.
std::string int64Expr(const kir::Function &f, const Expr &e) {
  return cppExpr(
      e, [&](const std::string &s) { return wrapperSymbol(f, s); }, "int64_t");
}

bool isTensor(const ParamSpec &p) { return p.kind == ParamSpec::Kind::Tensor; }

std::string constexprType(const ParamSpec &p) {
  return p.dtype == DType::Float64 ? "double" : "int64_t";
}

/// A nt::Constexpr value as a C++ literal of the parameter's type, exactly (a double
/// is printed with the digits that read back as the same double).
std::string formatValue(const ParamSpec &p, double v) {
  if (p.dtype != DType::Float64)
    return cppIntLiteral(static_cast<int64_t>(v));
  return cppDoubleLiteral(v);
}

/// The arguments of a jagged tensor: its values, its offsets and its sizes and strides, the
/// batch's stride 0 and the jagged extent the longest sequence, which the offsets give once
/// checked (read back to the host first on the GPU).
void emitJaggedArgs(const ParamSpec &p, const std::string &k, const std::string &target,
                    std::ostringstream &os) {
  const int j = *p.jaggedDim;
  const std::string offsets = p.offsetsName();
  os << "    // '" << p.name << "' is jagged in dimension " << j << ": '" << offsets
     << "' says where each batch entry starts.\n";
  os << "    ntc_args." << p.name << " = ntc::rt::data<" << elementType(p.dtype, target) << ">("
     << p.name << ");\n";
  os << "    ntc_args." << offsetsName(p) << " = ntc::rt::data<const int64_t>(" << offsets
     << ");\n";
  os << "    ntc_args." << sizeName(p, 0) << " = std::max<int64_t>(0, ntc::rt::size(" << offsets
     << ", 0) - 1);\n";
  os << "    ntc_args." << strideName(p, 0) << " = 0;\n";
  for (int d = 1; d < p.ndim; ++d)
    os << "    ntc_args." << sizeName(p, d) << " = ntc::rt::size(" << p.name << ", " << d - 1
       << ");\n    ntc_args." << strideName(p, d) << " = ntc::rt::stride(" << p.name << ", "
       << d - 1 << ");\n";
  const std::string host = "ntc_" + p.name + "_offsets_copy";
  if (target == "cuda") {
    os << "    std::vector<int64_t> " << host << "(static_cast<std::size_t>(ntc::rt::size("
       << offsets << ", 0)));\n";
    os << "    if (!" << host << ".empty()) {\n";
    os << "      const cudaStream_t ntc_copy_stream = static_cast<cudaStream_t>(ntc_stream);\n";
    os << "      cudaError_t ntc_err = cudaMemcpyAsync(" << host << ".data(), ntc_args."
       << offsetsName(p) << ", " << host
       << ".size() * sizeof(int64_t), cudaMemcpyDeviceToHost, ntc_copy_stream);\n";
    os << "      if (ntc_err == cudaSuccess)\n        ntc_err = "
          "cudaStreamSynchronize(ntc_copy_stream);\n";
    os << "      if (ntc_err != cudaSuccess)\n        return ntc::rt::fail(NTC_ERROR_CUDA, "
       << quote(k + ": reading '" + offsets + "': ")
       << " + std::string(cudaGetErrorString(ntc_err)));\n";
    os << "    }\n";
  }
  const std::string hostData = target == "cuda" ? host + ".data()" : "ntc_args." + offsetsName(p);
  os << "    if ((ntc_status = ntc::rt::check_offsets(" << quote(k) << ", " << offsets << ", "
     << quote(offsets) << ", " << hostData << ", ntc::rt::size(" << p.name << ", " << j - 1
     << "), ntc_args." << sizeName(p, j) << ")))\n      return ntc_status;\n";
}

/// The parameters of the wrapper's prototype, the stream included.
std::string wrapperParams(const kir::Function &f) {
  std::string s;
  for (const CParam &p : cParams(f))
    s += p.type + p.name + ", ";
  return s + "ntc_stream_t ntc_stream";
}

/// The wrapper's parameters passed on, the stream included.
std::string wrapperArgs(const kir::Function &f) {
  std::string s;
  for (const CParam &p : cParams(f))
    s += p.name + ", ";
  return s + "ntc_stream";
}

/// The sizes of every dimension of the tensor parameters, in order, as the wrapper's locals:
/// what the tuning table's buckets describe.
std::vector<std::string> bucketedSizes(const kir::Function &f) {
  std::vector<std::string> sizes;
  for (const ParamSpec &p : f.spec.params)
    if (isTensor(p))
      for (int d = 0; d < p.ndim; ++d)
        sizes.push_back("ntc_args." + sizeName(p, d));
  return sizes;
}

/// The compiled extent of padded tile extent `p` for the call's sizes, as a C++ expression
/// (passes::compiledPaddedExtent; its bound is checked where the variant is chosen).
std::string paddedExtentExpr(const kir::Function &f, const kir::PaddedExtent &p) {
  if (p.pinned)
    return "int64_t{" + std::to_string(*p.pinned) + "}";
  std::string actuals;
  for (size_t i = 0; i < p.actuals.size(); ++i)
    actuals += (i ? ", " : "") + int64Expr(f, p.actuals[i]);
  return "std::max<int64_t>(" + std::to_string(std::min(passes::kMinPaddedExtent, p.upperBound)) +
         ", ntc::rt::next_pow2(std::max<int64_t>({" + actuals + "})))";
}

/// The keys of a tuned shape as an initializer list (kAnyConstexprValue: ntc::rt::any_value).
std::string keyList(const std::vector<int64_t> &keys) {
  std::string list;
  for (size_t k = 0; k < keys.size(); ++k)
    list +=
        (k ? ", " : "") + (keys[k] == passes::kAnyConstexprValue ? std::string("ntc::rt::any_value")
                                                                 : std::to_string(keys[k]));
  return list;
}

/// `ntc_config`: the index of the configuration whose tuned shape bucket is nearest the call's
/// (ntc::rt::pick_config), among those measured on this architecture and alignment class.
void emitConfigChoice(const passes::CompiledKernel &compiled, const std::string &target,
                      std::ostringstream &os) {
  const kir::Function &f = compiled.function;
  const std::vector<std::string> sizes = bucketedSizes(f);
  const std::string dims = std::to_string(sizes.size());
  os << "    // The configuration: the tuning table's for the nearest shape bucket, else the "
        "default (0).\n";
  if (compiled.tuned.empty()) {
    os << "    const int ntc_config = 0;\n";
    return;
  }
  // The integer compile-time scalars: an entry is taken for calls with its values only; the
  // padded tile extents: for calls of extents up to its own.
  std::vector<std::string> keys, extents;
  for (const ParamSpec &p : f.spec.params)
    if (passes::isVariantConstexpr(p))
      keys.push_back("static_cast<int64_t>(" + p.name + ")");
  for (const kir::PaddedExtent &p : f.padded)
    extents.push_back(paddedExtentExpr(f, p));
  const std::string keyCount = std::to_string(keys.size());
  const std::string extentCount = std::to_string(extents.size());
  os << "    static const ntc::rt::tuned_shape<" << dims << ", " << keyCount << ", " << extentCount
     << "> ntc_tuned[] = {\n";
  for (const passes::TunedShape &t : compiled.tuned) {
    os << "        {" << t.arch << ", " << (t.aligned16 ? "true" : "false") << ", " << t.config
       << ", {{";
    for (size_t d = 0; d < t.bucket.size(); ++d)
      os << (d ? ", " : "") << t.bucket[d];
    std::vector<int64_t> padded = t.padded;
    padded.resize(f.padded.size(), passes::kAnyConstexprValue);
    os << "}}, {{" << keyList(t.values) << "}}, {{" << keyList(padded);
    os << "}}},\n";
  }
  os << "    };\n";
  if (target == "cuda") {
    const ParamSpec *first = nullptr;
    for (const ParamSpec &p : f.spec.params)
      first = !first && isTensor(p) ? &p : first;
    os << "    int ntc_major = 0, ntc_minor = 0;\n";
    os << "    if (cudaDeviceGetAttribute(&ntc_major, cudaDevAttrComputeCapabilityMajor, "
       << first->name << "->device.device_id) != cudaSuccess ||\n"
       << "        cudaDeviceGetAttribute(&ntc_minor, cudaDevAttrComputeCapabilityMinor, "
       << first->name << "->device.device_id) != cudaSuccess)\n"
       << "      return ntc::rt::fail(NTC_ERROR_CUDA, "
       << quote(f.spec.name + ": cannot read the device's compute capability") << ");\n";
    os << "    const int ntc_arch = ntc_major * 10 + ntc_minor;\n";
  } else {
    os << "    const int ntc_arch = 0; // the CPU\n";
  }
  std::string aligned = "true";
  for (const ParamSpec &p : f.spec.params)
    if (isTensor(p))
      aligned += " && ntc::rt::aligned16(" + p.name + ")";
  os << "    const std::array<int64_t, " << dims << "> ntc_sizes{{";
  for (size_t d = 0; d < sizes.size(); ++d)
    os << (d ? ", " : "") << sizes[d];
  os << "}};\n";
  auto emitArray = [&](const std::string &name, const std::vector<std::string> &exprs) {
    os << "    const std::array<int64_t, " << exprs.size() << "> " << name << "{{";
    for (size_t k = 0; k < exprs.size(); ++k)
      os << (k ? ", " : "") << exprs[k];
    os << "}};\n";
  };
  emitArray("ntc_constexprs", keys);
  emitArray("ntc_extents", extents);
  os << "    const int ntc_config = ntc::rt::pick_config(ntc_tuned, ntc_arch, " << aligned
     << ", ntc_sizes, ntc_constexprs, ntc_extents);\n";
}

} // namespace

std::string cppElementType(DType t) {
  switch (t) {
  case DType::Float16:
    return "ntc::cpu::float16";
  case DType::BFloat16:
    return "ntc::cpu::bfloat16";
  case DType::Float32:
    return "float";
  case DType::Float64:
    return "double";
  case DType::Int8:
    return "int8_t";
  case DType::Int16:
    return "int16_t";
  case DType::Int32:
    return "int32_t";
  case DType::Int64:
    return "int64_t";
  case DType::UInt8:
    return "uint8_t";
  case DType::UInt16:
    return "uint16_t";
  case DType::UInt32:
    return "uint32_t";
  case DType::UInt64:
    return "uint64_t";
  case DType::Bool:
    return "bool";
  case DType::Float8E4M3:
    return "ntc::cpu::float8_e4m3";
  case DType::Float8E5M2:
    return "ntc::cpu::float8_e5m2";
  }
  return "float";
}

std::string cScalarType(DType t) {
  switch (t) {
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float32:
  case DType::Float8E4M3:
  case DType::Float8E5M2:
    return "float";
  case DType::Float64:
    return "double";
  default:
    return cppElementType(t);
  }
}

std::string dlpackDType(DType t) {
  std::string n = dtypeName(t);
  return "ntc::rt::dtypes::" + (n == "bool" ? std::string("bool_") : n);
}

std::vector<CParam> cParams(const kir::Function &f) {
  std::vector<CParam> params;
  for (const ParamSpec &p : f.spec.params) {
    if (isTensor(p) && p.jaggedDim) {
      params.push_back({"const DLTensor *", p.name, true});
      params.push_back({"const DLTensor *", p.offsetsName(), true});
    } else if (isTensor(p)) {
      params.push_back({"const DLTensor *", p.name, true});
    } else if (p.kind == ParamSpec::Kind::Constexpr) {
      params.push_back({constexprType(p) + " ", p.name, false});
    } else {
      params.push_back({cScalarType(p.dtype) + " ", p.name, false});
    }
  }
  return params;
}

std::string wrapperPrototype(const kir::Function &f) {
  return "ntc_status_t " + f.spec.name + "(" + wrapperParams(f) + ")";
}

std::string elementType(DType t, const std::string &target) {
  if (target != "cuda")
    return cppElementType(t);
  switch (t) {
  case DType::Float16:
    return "ntc::dev::float16";
  case DType::BFloat16:
    return "ntc::dev::bfloat16";
  case DType::Float8E4M3:
    return "ntc::dev::float8_e4m3";
  case DType::Float8E5M2:
    return "ntc::dev::float8_e5m2";
  default:
    return cppElementType(t);
  }
}

void emitArgsStruct(const kir::Function &f, const std::string &target, std::ostringstream &os) {
  os << "/// Arguments of " << f.spec.name
     << ": data pointers, sizes and strides (in elements), scalars.\n";
  os << "struct " << argsStructName(f.spec) << " {\n";
  for (const ParamSpec &p : f.spec.params) {
    if (isTensor(p)) {
      os << "  " << elementType(p.dtype, target) << " *" << p.name << " = nullptr;\n";
      if (p.jaggedDim)
        os << "  const int64_t *" << offsetsName(p) << " = nullptr;\n";
      for (int d = 0; d < p.ndim; ++d)
        os << "  int64_t " << sizeName(p, d) << " = 0;\n  int64_t " << strideName(p, d)
           << " = 0;\n";
    } else if (p.kind == ParamSpec::Kind::Constexpr) {
      os << "  " << constexprType(p) << " " << p.name << " = 0;\n";
    } else {
      os << "  " << cScalarType(p.dtype) << " " << p.name << " = 0;\n";
    }
  }
  os << "};\n\n";
}

void emitWrapper(const passes::CompiledKernel &compiled, const std::string &target,
                 const LaunchEmitter &launch, std::ostringstream &os) {
  const kir::Function &f = compiled.function;
  const passes::GridInfo &grid = compiled.grid;
  const std::vector<passes::Variant> &variants = compiled.variants;
  const bool tuned = compiled.configs.size() > 1;
  const std::string &k = f.spec.name;
  const std::string device = target == "cuda" ? "kDLCUDA" : "kDLCPU";
  os << "static const char *const " << configsTableName(f.spec) << "[] = {\n";
  for (const passes::Config &c : compiled.configs)
    os << "    " << quote(passes::configId(f.spec, c)) << ",\n";
  os << "};\n\n";
  // The body, which can stop before the launch and report the configuration instead.
  os << "static ntc_status_t " << runFunctionName(f.spec) << "(" << wrapperParams(f)
     << ", const char **ntc_chosen) {\n";
  os << "  static_cast<void>(ntc_stream);\n";
  os << "  return ntc::rt::guard(" << quote(k) << ", [&]() -> ntc_status_t {\n";
  os << "    ntc_status_t ntc_status = NTC_SUCCESS;\n";
  for (const ParamSpec &p : f.spec.params) {
    if (!isTensor(p))
      continue;
    // A jagged tensor's values have its batch folded into the jagged dimension.
    os << "    if ((ntc_status = ntc::rt::check_tensor(" << quote(k) << ", " << p.name << ", "
       << quote(p.name) << ", " << (p.jaggedDim ? p.ndim - 1 : p.ndim) << ", "
       << dlpackDType(p.dtype) << ", " << device << ")))\n      return ntc_status;\n";
    if (p.jaggedDim)
      os << "    if ((ntc_status = ntc::rt::check_tensor(" << quote(k) << ", " << p.offsetsName()
         << ", " << quote(p.offsetsName()) << ", 1, ntc::rt::dtypes::int64, " << device
         << ")))\n      return ntc_status;\n";
  }
  for (const passes::AliasCheck &c : passes::aliasChecks(f)) {
    const std::string &w = f.spec.params[c.written].name, &o = f.spec.params[c.other].name;
    os << "    if ((ntc_status = ntc::rt::check_no_overlap(" << quote(k) << ", " << w << ", "
       << quote(w) << ", " << o << ", " << quote(o) << ", "
       << (c.identicalAllowed ? "true" : "false") << ")))\n      return ntc_status;\n";
  }
  const ParamSpec *first = nullptr;
  for (const ParamSpec &p : f.spec.params)
    if (isTensor(p))
      first = first ? first : &p;
  if (target == "cuda" && first) {
    auto sameDevice = [&](const std::string &name) {
      os << "    if ((ntc_status = ntc::rt::check_same_device(" << quote(k) << ", " << first->name
         << ", " << quote(first->name) << ", " << name << ", " << quote(name)
         << ")))\n      return ntc_status;\n";
    };
    for (const ParamSpec &p : f.spec.params) {
      if (isTensor(p) && &p != first)
        sameDevice(p.name);
      if (isTensor(p) && p.jaggedDim) // a jagged tensor's offsets, the first's included
        sameDevice(p.offsetsName());
    }
    os << "    // Launch on the tensors' device; the caller's current device is restored.\n";
    os << "    ntc::rt::device_guard ntc_device(\n"
          "        [](int32_t &ntc_id) {\n"
          "          int ntc_current = 0;\n"
          "          const bool ntc_ok = cudaGetDevice(&ntc_current) == cudaSuccess;\n"
          "          ntc_id = ntc_current;\n"
          "          return ntc_ok;\n"
          "        },\n"
          "        [](int32_t ntc_id) { return cudaSetDevice(ntc_id) == cudaSuccess; });\n";
    os << "    if (!ntc_device.switch_to(" << first->name << "->device.device_id))\n"
       << "      return ntc::rt::fail(NTC_ERROR_CUDA, " << quote(k + ": cannot make CUDA device ")
       << " + std::to_string(" << first->name << "->device.device_id) + " << quote(" current")
       << ");\n";
  }
  os << "    " << argsStructName(f.spec) << " ntc_args;\n";
  for (const ParamSpec &p : f.spec.params) {
    if (isTensor(p) && p.jaggedDim) {
      emitJaggedArgs(p, k, target, os);
      continue;
    }
    if (isTensor(p)) {
      os << "    ntc_args." << p.name << " = ntc::rt::data<" << elementType(p.dtype, target) << ">("
         << p.name << ");\n";
      for (int d = 0; d < p.ndim; ++d)
        os << "    ntc_args." << sizeName(p, d) << " = ntc::rt::size(" << p.name << ", " << d
           << ");\n    ntc_args." << strideName(p, d) << " = ntc::rt::stride(" << p.name << ", "
           << d << ");\n";
      continue;
    }
    if (p.kind == ParamSpec::Kind::Constexpr) {
      std::string cond, allowed;
      for (size_t i = 0; i < p.constexprValues.size(); ++i) {
        cond += (i ? " || " : "") + p.name + " == " + formatValue(p, p.constexprValues[i]);
        allowed += (i ? ", " : "") + formatValue(p, p.constexprValues[i]);
      }
      os << "    if (!(" << cond << "))\n      return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
         << quote(k + ": parameter '" + p.name + "' is ") << " + "
         << (p.dtype == DType::Float64 ? "ntc::rt::exact_string(" : "std::to_string(") << p.name
         << ") + " << quote(", expected one of " + allowed) << ");\n";
    }
    os << "    ntc_args." << p.name << " = " << p.name << ";\n";
  }
  for (const ParamSpec &p : f.spec.params)
    for (int d = 0; d < p.ndim; ++d)
      os << "    [[maybe_unused]] const int64_t " << sizeName(p, d) << " = ntc_args."
         << sizeName(p, d) << ";\n";
  if (tuned)
    emitConfigChoice(compiled, target, os);
  else
    os << "    const int ntc_config = 0;\n";
  for (const MetaParam &m : f.spec.metas) {
    if (!tuned) {
      os << "    const int64_t " << wrapperSymbol(f, m.name) << " = "
         << compiled.configs.front().metas.at(m.name) << "; // meta-parameter (default)\n";
      continue;
    }
    os << "    static constexpr int64_t ntc_values_" << m.name << "[] = {";
    for (size_t c = 0; c < compiled.configs.size(); ++c)
      os << (c ? ", " : "") << compiled.configs[c].metas.at(m.name);
    os << "};\n    const int64_t " << wrapperSymbol(f, m.name) << " = ntc_values_" << m.name
       << "[ntc_config]; // meta-parameter of the configuration\n";
  }
  // Extents the arrangement needs but could not prove, before anything divides by them.
  auto emitCheck = [&](const std::string &what, const ExtentCheck &c) {
    std::string value = int64Expr(f, c.value);
    std::string cond = value + " >= " + cppIntLiteral(c.lo);
    if (c.hi)
      cond += " && " + value + " <= " + cppIntLiteral(*c.hi);
    os << "    if (!(" << cond << "))\n      return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
       << quote(k + ": " + what + c.what + " " + c.value.str() + " is ") << " + std::to_string("
       << value << ") + " << quote("; it " + c.requirement()) << ");\n";
  };
  for (const ArrangedParam &a : f.spec.arranged)
    for (const ExtentCheck &c : a.layout.checks())
      emitCheck("parameter '" + a.name + "': ", c);
  for (const ExtentCheck &c : f.checks)
    emitCheck("", c);
  if (!grid.ties.empty())
    os << "    // Sizes the arrangement ties together.\n";
  for (const passes::ShapeTie &t : grid.ties)
    os << "    if ((ntc_status = ntc::rt::check_equal(" << quote(k) << ", " << quote(t.whatA)
       << ", " << int64Expr(f, t.a) << ", " << quote(t.whatB) << ", " << int64Expr(f, t.b)
       << ")))\n      return ntc_status;\n";
  os << "    // The launch grid: level 0 of '"
     << (grid.anchor >= 0 ? f.spec.arranged[grid.anchor].name : std::string("-")) << "'.\n";
  std::string gridExpr = "1";
  for (const Expr &e : grid.extents)
    gridExpr += " * " + int64Expr(f, e);
  os << "    const int64_t ntc_grid = " << gridExpr << ";\n";
  os << "    if (ntc_grid <= 0 || ntc_chosen) {\n      if (ntc_chosen)\n        *ntc_chosen = "
     << configsTableName(f.spec) << "[ntc_config];\n      return NTC_SUCCESS;\n    }\n";
  for (const kir::PaddedExtent &p : f.padded) {
    std::string actuals, names;
    for (size_t i = 0; i < p.actuals.size(); ++i) {
      actuals += (i ? ", " : "") + int64Expr(f, p.actuals[i]);
      names += (i ? ", " : "") + p.actuals[i].str();
    }
    const std::string local = wrapperSymbol(f, p.symbol);
    if (p.pinned) {
      // Broadcast with a constant extent in the application: each run-time size must be it.
      const std::string value = std::to_string(*p.pinned);
      for (const Expr &actual : p.actuals)
        os << "    if (" << int64Expr(f, actual) << " != " << value
           << ")\n      return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
           << quote(k + ": the run-time extent " + actual.str() + " is ") << " + std::to_string("
           << int64Expr(f, actual) << ") + "
           << quote(", but the application broadcasts it with a tile extent of " + value +
                    ", so it must be " + value)
           << ");\n";
      os << "    const int64_t " << local << " = " << value << ";\n";
      continue;
    }
    os << "    // Tile extent for the run-time size(s) " << names << ".\n";
    os << "    const int64_t " << local << " = " << paddedExtentExpr(f, p) << ";\n";
    os << "    if (" << local << " > " << p.upperBound
       << ")\n      return ntc::rt::fail(NTC_ERROR_UNSUPPORTED, "
       << quote(k + ": a tile extent of ") << " + std::to_string(std::max<int64_t>({" << actuals
       << "})) + "
       << quote(" (" + names + ") exceeds the upper bound " + std::to_string(p.upperBound) +
                "; declare a larger one with .upper_bound(dim, n)")
       << ");\n";
  }
  os << "    const bool ntc_index64 = !(true";
  for (const ParamSpec &p : f.spec.params)
    if (isTensor(p))
      os << " && ntc::rt::index_fits_int32(" << p.name << ", ntc::rt::kIndexHeadroom)";
  os << ");\n";
  for (const passes::Variant &v : variants) {
    std::string cond = v.index64 ? "ntc_index64" : "!ntc_index64";
    if (tuned)
      cond += " && ntc_config == " + std::to_string(v.config);
    for (const auto &[name, value] : v.values)
      cond += " && " + wrapperSymbol(f, name) + " == " + std::to_string(value);
    os << "    if (" << cond << ") {\n" << launch(v) << "    }\n";
  }
  os << "    return ntc::rt::fail(NTC_ERROR_UNSUPPORTED, "
     << quote(k + ": no compiled variant matches these arguments") << ");\n";
  os << "  });\n}\n\n";
  os << "extern \"C\" " << wrapperPrototype(f) << " {\n  return " << runFunctionName(f.spec) << "("
     << wrapperArgs(f) << ", nullptr);\n}\n\n";
}

void emitInfo(const passes::CompiledKernel &compiled, const std::string &target,
              std::ostringstream &os) {
  const kir::Function &f = compiled.function;
  const std::string &k = f.spec.name;
  // Parameters the application stores to (outputs, for generic runners that poison them).
  std::vector<bool> written(f.spec.params.size(), false);
  kir::forEachStmt(f.body, [&](const kir::Stmt &s) {
    if (s->kind == kir::StmtKind::Store)
      written[static_cast<size_t>(f.spec.arranged[s->param].source)] = true;
    return true;
  });
  os << "static const ntc_param_info_t " << paramTableName(f.spec) << "[] = {\n";
  size_t entries = 0;
  for (size_t i = 0; i < f.spec.params.size(); ++i) {
    const ParamSpec &p = f.spec.params[i];
    const char *kind = !isTensor(p)  ? "NTC_PARAM_SCALAR"
                       : p.jaggedDim ? "NTC_PARAM_JAGGED"
                                     : "NTC_PARAM_TENSOR";
    os << "    {" << quote(p.name) << ", " << kind << ", " << (p.jaggedDim ? p.ndim - 1 : p.ndim)
       << ", " << dlpackDType(p.dtype) << ", " << (written[i] ? "NTC_PARAM_WRITTEN" : "0u")
       << "},\n";
    ++entries;
    if (isTensor(p) && p.jaggedDim) {
      os << "    {" << quote(p.offsetsName())
         << ", NTC_PARAM_OFFSETS, 1, ntc::rt::dtypes::int64, 0u},\n";
      ++entries;
    }
  }
  os << "};\n\n";
  // The generic call and the configuration query: the arguments unpacked from an array.
  const std::vector<CParam> params = cParams(f);
  os << "static ntc_status_t " << genericFunctionName(f.spec)
     << "(const void *const *ntc_a, ntc_stream_t ntc_stream, const char **ntc_chosen) {\n";
  os << "  if (!ntc_a)\n    return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
     << quote(k + ": the argument array is null") << ");\n";
  std::string args;
  for (size_t i = 0; i < params.size(); ++i) {
    const CParam &p = params[i];
    const std::string at = "ntc_a[" + std::to_string(i) + "]";
    if (p.tensor) {
      args += "static_cast<const DLTensor *>(" + at + "), ";
      continue;
    }
    os << "  if (!" << at << ")\n    return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
       << quote(k + ": parameter '" + p.name + "': the argument is null") << ");\n";
    std::string type = p.type;
    while (!type.empty() && type.back() == ' ')
      type.pop_back();
    args += "*static_cast<const " + type + " *>(" + at + "), ";
  }
  os << "  return " << runFunctionName(f.spec) << "(" << args << "ntc_stream, ntc_chosen);\n}\n\n";
  os << "static ntc_status_t ntc_" << k
     << "_call(const void *const *ntc_a, ntc_stream_t ntc_stream) {\n  return "
     << genericFunctionName(f.spec) << "(ntc_a, ntc_stream, nullptr);\n}\n\n";
  os << "static ntc_status_t ntc_" << k
     << "_config_for(const void *const *ntc_a, const char **ntc_config) {\n";
  os << "  if (!ntc_config)\n    return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "
     << quote(k + ": the configuration pointer is null") << ");\n";
  os << "  return " << genericFunctionName(f.spec) << "(ntc_a, nullptr, ntc_config);\n}\n\n";
  os << "extern \"C\" const ntc_kernel_info_t *ntc_" << k << "_info(void) {\n";
  os << "  static const ntc_kernel_info_t info = {" << quote(k) << ", " << entries << ", "
     << paramTableName(f.spec) << ", " << quote(target) << ", ntc_" << k << "_call, ntc_" << k
     << "_config_for, " << compiled.configs.size() << ", " << configsTableName(f.spec) << "};\n";
  os << "  return &info;\n}\n\n";
}

std::string emitHeader(const std::vector<kir::Function> &kernels, const std::string &stem,
                       const std::string &sourceName) {
  std::string guard = "NTC_GENERATED_";
  for (char c : stem)
    guard += std::isalnum(static_cast<unsigned char>(c))
                 ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                 : '_';
  guard += "_H";
  std::ostringstream os;
  os << "// Generated by ntc from " << sourceName << ". Do not edit.\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n#include <ntc/runtime.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const kir::Function &f : kernels) {
    os << "/* " << f.spec.name << ": arranged parameters\n";
    for (const ArrangedParam &a : f.spec.arranged)
      os << " *   " << a.name << ": " << a.layout.str() << "\n";
    os << " * Returns NTC_SUCCESS or a status with a message in ntc_last_error(). */\n";
    os << wrapperPrototype(f) << ";\n";
    os << "/* Description of " << f.spec.name << "'s parameters for generic runners. */\n";
    os << "const ntc_kernel_info_t *ntc_" << f.spec.name << "_info(void);\n\n";
  }
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return os.str();
}

} // namespace ntc::codegen
