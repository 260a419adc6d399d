//===- Commands.cpp - what the ntc driver does ----------------------------===//
#include "Commands.h"

#include "codegen/Codegen.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace ntc {

namespace {

constexpr int kUserError = 1;
constexpr int kUsageError = 2;

/// Concrete values from --shape and --define.
struct Bindings {
  std::map<std::string, std::vector<int64_t>> shapes; ///< by parameter name
  std::map<std::string, int64_t> defines;             ///< by symbol name
};

bool parseInt(const std::string &s, int64_t &v) {
  if (s.empty())
    return false;
  try {
    size_t used = 0;
    v = std::stoll(s, &used);
    return used == s.size();
  } catch (...) {
    return false;
  }
}

bool parseBindings(const DriverOptions &o, Bindings &b, std::ostream &err) {
  for (const std::string &s : o.shapes) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      err << "ntc: error: --shape expects NAME=AxB, got '" << s << "'\n";
      return false;
    }
    std::vector<int64_t> dims;
    std::string rest = s.substr(eq + 1);
    size_t start = 0;
    while (true) {
      size_t x = rest.find('x', start);
      int64_t v;
      std::string part = rest.substr(start, x == std::string::npos ? std::string::npos : x - start);
      if (!parseInt(part, v) || v < 0) {
        err << "ntc: error: --shape " << s << ": '" << part << "' is not a size\n";
        return false;
      }
      dims.push_back(v);
      if (x == std::string::npos)
        break;
      start = x + 1;
    }
    b.shapes[s.substr(0, eq)] = dims;
  }
  for (const std::string &s : o.defines) {
    auto eq = s.find('=');
    int64_t v;
    if (eq == std::string::npos || eq == 0 || !parseInt(s.substr(eq + 1), v)) {
      err << "ntc: error: --define expects SYMBOL=INTEGER, got '" << s << "'\n";
      return false;
    }
    b.defines[s.substr(0, eq)] = v;
  }
  return true;
}

/// Symbol values for one kernel; reports bindings that do not fit the kernel.
bool kernelValues(const KernelSpec &k, const Bindings &b, std::map<std::string, Expr> &values,
                  std::ostream &err) {
  for (const auto &[name, dims] : b.shapes) {
    auto p = std::find_if(k.params.begin(), k.params.end(),
                          [&](const ParamSpec &ps) { return ps.name == name; });
    if (p == k.params.end())
      continue;
    if (static_cast<int>(dims.size()) != p->ndim) {
      err << "ntc: error: --shape " << name << " gives " << dims.size() << " sizes but parameter '"
          << name << "' of kernel '" << k.name << "' has rank " << p->ndim << "\n";
      return false;
    }
    for (int d = 0; d < p->ndim; ++d)
      values[p->sizeSymbol(d)] = Expr(dims[d]);
  }
  for (const auto &[name, v] : b.defines) {
    auto m = std::find_if(k.metas.begin(), k.metas.end(),
                          [&](const MetaParam &mp) { return mp.name == name; });
    if (m == k.metas.end())
      continue;
    if (v < m->lo || v > m->hi || (v & (v - 1)) != 0) {
      err << "ntc: error: --define " << name << "=" << v << " is not one of its values "
          << "(powers of two in [" << m->lo << ", " << m->hi << "])\n";
      return false;
    }
    values[name] = Expr(v);
  }
  return true;
}

/// Every --shape and --define must name something in at least one kernel.
bool checkBindingsUsed(const std::vector<KernelSpec> &kernels, const Bindings &b,
                       std::ostream &err) {
  for (const auto &[name, dims] : b.shapes)
    if (std::none_of(kernels.begin(), kernels.end(), [&](const KernelSpec &k) {
          return std::any_of(k.params.begin(), k.params.end(),
                             [&](const ParamSpec &p) { return p.name == name; });
        })) {
      err << "ntc: error: --shape names '" << name << "', which is no kernel's parameter\n";
      return false;
    }
  for (const auto &[name, v] : b.defines)
    if (std::none_of(kernels.begin(), kernels.end(), [&](const KernelSpec &k) {
          return std::any_of(k.metas.begin(), k.metas.end(),
                             [&](const MetaParam &m) { return m.name == name; });
        })) {
      err << "ntc: error: --define names '" << name << "', which is no kernel's meta-parameter\n";
      return false;
    }
  return true;
}

int dumpLayouts(const std::vector<KernelSpec> &kernels, const Bindings &b, std::ostream &out,
                std::ostream &err) {
  for (const KernelSpec &k : kernels) {
    std::map<std::string, Expr> values;
    if (!kernelValues(k, b, values, err))
      return kUserError;
    if (kernels.size() > 1)
      out << k.name << ":\n";
    for (const ArrangedParam &a : k.arranged)
      out << (kernels.size() > 1 ? "  " : "") << a.name << ": " << a.layout.substitute(values).str()
          << "\n";
  }
  return 0;
}

int evalParam(const std::vector<KernelSpec> &kernels, const std::string &name, const Bindings &b,
              std::ostream &out, std::ostream &err) {
  const KernelSpec *kernel = nullptr;
  const ArrangedParam *param = nullptr;
  for (const KernelSpec &k : kernels)
    for (const ArrangedParam &a : k.arranged)
      if (a.name == name) {
        if (kernel) {
          err << "ntc: error: --eval " << name << " is ambiguous: kernels '" << kernel->name
              << "' and '" << k.name << "' both have it; select one with --kernel\n";
          return kUserError;
        }
        kernel = &k;
        param = &a;
      }
  if (!param) {
    err << "ntc: error: --eval " << name << ": no arranged parameter of that name\n";
    return kUserError;
  }
  std::map<std::string, Expr> values;
  if (!kernelValues(*kernel, b, values, err))
    return kUserError;
  std::map<std::string, int64_t> concrete;
  for (const auto &[sym, e] : values)
    concrete[sym] = e.constValue();
  try {
    std::vector<int64_t> shape;
    std::vector<int64_t> array = param->layout.eval(concrete, shape);
    out << jsonNestedList(array, shape) << "\n";
  } catch (const LayoutError &e) {
    err << "ntc: error: --eval " << name << ": " << e.what()
        << " (give sizes with --shape NAME=AxB and meta-parameters with --define SYMBOL=V)\n";
    return kUserError;
  }
  return 0;
}

/// Write `contents` to `path` unless it already holds exactly that (so builds that depend on
/// the file are not redone); through a temporary file, so a failure leaves no partial file.
bool writeIfChanged(const std::filesystem::path &path, const std::string &contents,
                    std::ostream &err) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream old;
      old << in.rdbuf();
      if (old.str() == contents)
        return true;
    }
  }
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << contents;
    if (!out) {
      err << "ntc: error: cannot write '" << tmp.string() << "'\n";
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    err << "ntc: error: cannot write '" << path.string() << "': " << ec.message() << "\n";
    return false;
  }
  return true;
}

/// Generate the files of one kernel source into the output directory.
int generate(const DriverOptions &o, const std::string &input,
             const std::vector<kir::Function> &kernels, std::ostream &err) {
  std::filesystem::path source(input);
  std::string stem = source.stem().string();
  std::vector<codegen::GeneratedFile> files;
  try {
    if (o.target == "cpu") {
      files = codegen::generateCpu(kernels, stem, source.filename().string(),
                                   o.printIrAfterAll ? &err : nullptr);
    } else {
      files = codegen::generateCuda(kernels, stem, source.filename().string(),
                                    o.printIrAfterAll ? &err : nullptr);
    }
  } catch (const std::exception &e) {
    err << "ntc: error: " << input << ": " << e.what() << "\n";
    return kUserError;
  }
  auto wants = [&](const std::string &what) {
    return o.emit.empty() || std::find(o.emit.begin(), o.emit.end(), what) != o.emit.end();
  };
  std::vector<codegen::GeneratedFile> selected;
  for (codegen::GeneratedFile &f : files) {
    std::string ext = std::filesystem::path(f.name).extension().string().substr(1);
    if (wants(ext))
      selected.push_back(std::move(f));
  }
  if (std::find(o.emit.begin(), o.emit.end(), "ir") != o.emit.end()) {
    std::string ir;
    for (const kir::Function &f : kernels)
      ir += kir::print(f);
    selected.push_back({stem + ".ir", ir});
  }
  if (std::find(o.emit.begin(), o.emit.end(), "layout") != o.emit.end()) {
    std::string layout;
    for (const kir::Function &f : kernels)
      for (const ArrangedParam &a : f.spec.arranged)
        layout += f.spec.name + "." + a.name + ": " + a.layout.str() + "\n";
    selected.push_back({stem + ".layout", layout});
  }
  std::error_code ec;
  std::filesystem::create_directories(o.outputDir, ec);
  for (const codegen::GeneratedFile &f : selected)
    if (!writeIfChanged(std::filesystem::path(o.outputDir) / f.name, f.contents, err))
      return kUserError;
  return 0;
}

} // namespace

int runDriver(const DriverOptions &o, std::ostream &out, std::ostream &err) {
  Bindings bindings;
  if (!parseBindings(o, bindings, err))
    return kUsageError;
  if (o.frontend.depfile.size() && o.inputs.size() != 1) {
    err << "ntc: error: --depfile needs exactly one input\n";
    return kUsageError;
  }
  std::vector<KernelSpec> kernels;
  std::vector<kir::Function> functions;
  std::vector<std::pair<std::string, std::vector<kir::Function>>> perInput;
  bool ok = true;
  for (const std::string &input : o.inputs) {
    FrontendOptions frontend = o.frontend;
    if (!frontend.depfile.empty() && !o.outputDir.empty())
      frontend.depTarget = (std::filesystem::path(o.outputDir) /
                            (std::filesystem::path(input).stem().string() + ".h"))
                               .string();
    FrontendResult r = runFrontend(input, frontend);
    ok = ok && r.ok;
    perInput.emplace_back(input, r.kernels);
    for (kir::Function &k : r.kernels)
      if (o.kernels.empty() ||
          std::find(o.kernels.begin(), o.kernels.end(), k.spec.name) != o.kernels.end()) {
        kernels.push_back(k.spec);
        functions.push_back(std::move(k));
      }
  }
  if (!ok)
    return kUserError;
  for (const std::string &name : o.kernels)
    if (std::none_of(kernels.begin(), kernels.end(),
                     [&](const KernelSpec &k) { return k.name == name; })) {
      err << "ntc: error: --kernel " << name << ": no kernel of that name\n";
      return kUserError;
    }
  if (!checkBindingsUsed(kernels, bindings, err))
    return kUserError;
  if (o.dumpLayout) {
    int rc = dumpLayouts(kernels, bindings, out, err);
    if (rc)
      return rc;
  }
  if (!o.evalName.empty())
    return evalParam(kernels, o.evalName, bindings, out, err);
  if (o.outputDir.empty() && std::find(o.emit.begin(), o.emit.end(), "ir") != o.emit.end())
    for (const kir::Function &f : functions)
      out << kir::print(f);
  if (!o.outputDir.empty())
    for (auto &[input, all] : perInput) {
      std::vector<kir::Function> selected;
      for (kir::Function &f : all)
        if (o.kernels.empty() ||
            std::find(o.kernels.begin(), o.kernels.end(), f.spec.name) != o.kernels.end())
          selected.push_back(std::move(f));
      if (int rc = generate(o, input, selected, err))
        return rc;
    }
  return 0;
}

} // namespace ntc
