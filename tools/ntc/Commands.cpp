//===- Commands.cpp - what the ntc driver does ----------------------------===//
#include "Commands.h"

#include "Visualize.h"
#include "codegen/Codegen.h"
#include "tuning/TuningTable.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
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
    // The names infer-axes derived for tensors arranged with axes(nt::inferred).
    std::string inferred;
    for (const ArrangedParam &a : k.arranged) {
      if (a.inferredAxes.empty())
        continue;
      inferred += (inferred.empty() ? "" : ", ") + a.name + " (";
      for (size_t d = 0; d < a.inferredAxes.size(); ++d)
        inferred += (d ? ", " : "") + a.inferredAxes[d];
      inferred += ")";
    }
    if (!inferred.empty())
      out << (kernels.size() > 1 ? "  " : "") << "inferred axes: " << inferred << "\n";
  }
  return 0;
}

/// The arranged parameter `name` of the selected kernels and its kernel, for `option` (--eval,
/// --visualize); nullptr after an error message when there is none or more than one.
const ArrangedParam *findParam(const std::vector<KernelSpec> &kernels, const std::string &name,
                               const char *option, const KernelSpec *&kernel, std::ostream &err) {
  const ArrangedParam *param = nullptr;
  kernel = nullptr;
  for (const KernelSpec &k : kernels)
    for (const ArrangedParam &a : k.arranged)
      if (a.name == name) {
        if (kernel) {
          err << "ntc: error: " << option << " " << name << " is ambiguous: kernels '"
              << kernel->name << "' and '" << k.name
              << "' both have it; select one with --kernel\n";
          return nullptr;
        }
        kernel = &k;
        param = &a;
      }
  if (!param)
    err << "ntc: error: " << option << " " << name << ": no arranged parameter of that name\n";
  return param;
}

/// False after an error message when `param`'s source is a jagged tensor: its index array
/// depends on the offsets, which the command line does not give.
bool notJagged(const KernelSpec &kernel, const ArrangedParam &param, const std::string &option,
               std::ostream &err) {
  const ParamSpec &source = kernel.params[param.source];
  if (!source.jaggedDim)
    return true;
  err << "ntc: error: " << option << " " << param.name << ": '" << source.name
      << "' is jagged (jagged_dim(" << *source.jaggedDim
      << ")): its tiles depend on the offsets of its sequences, which " << option
      << " does not take\n";
  return false;
}

/// The values of every bound symbol of `kernel`, as integers (false after an error message).
bool concreteValues(const KernelSpec &kernel, const Bindings &b,
                    std::map<std::string, int64_t> &concrete, std::ostream &err) {
  std::map<std::string, Expr> values;
  if (!kernelValues(kernel, b, values, err))
    return false;
  for (const auto &[sym, e] : values)
    concrete[sym] = e.constValue();
  return true;
}

int evalParam(const std::vector<KernelSpec> &kernels, const std::string &name, const Bindings &b,
              std::ostream &out, std::ostream &err) {
  const KernelSpec *kernel = nullptr;
  const ArrangedParam *param = findParam(kernels, name, "--eval", kernel, err);
  std::map<std::string, int64_t> concrete;
  if (!param || !notJagged(*kernel, *param, "--eval", err) ||
      !concreteValues(*kernel, b, concrete, err))
    return kUserError;
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

/// --visualize: the SVG picture of one parameter, to the file -o names or to `out`.
int visualizeParam(const std::vector<KernelSpec> &kernels, const DriverOptions &o,
                   const Bindings &b, std::ostream &out, std::ostream &err) {
  const KernelSpec *kernel = nullptr;
  const ArrangedParam *param = findParam(kernels, o.visualizeName, "--visualize", kernel, err);
  std::map<std::string, int64_t> concrete;
  if (!param || !notJagged(*kernel, *param, "--visualize", err) ||
      !concreteValues(*kernel, b, concrete, err))
    return kUserError;
  std::string svg;
  try {
    svg = visualizeArrangement(param->name, param->layout, concrete);
  } catch (const LayoutError &e) {
    err << "ntc: error: --visualize " << o.visualizeName << ": " << e.what()
        << " (give sizes with --shape NAME=AxB and meta-parameters with --define SYMBOL=V)\n";
    return kUserError;
  } catch (const std::invalid_argument &e) {
    err << "ntc: error: " << e.what() << "\n";
    return kUserError;
  }
  if (!o.outputDirGiven) {
    out << svg;
    return 0;
  }
  return writeIfChanged(o.outputDir, svg, err) ? 0 : kUserError;
}

/// The kernel with each meta-parameter that --define binds narrowed to that one value, so that
/// code generation compiles it (and picks the others around it) instead of its default.
kir::Function pinDefines(kir::Function f, const Bindings &b) {
  for (MetaParam &m : f.spec.metas)
    if (auto it = b.defines.find(m.name); it != b.defines.end())
      m.lo = m.hi = it->second;
  return f;
}

passes::Target targetOf(const DriverOptions &o) {
  return o.target == "cpu" ? passes::Target::Cpu : passes::Target::Cuda;
}

/// The configurations to compile for `kernels`: --config's, or those of --tuning-table's
/// entries (the table's warnings printed); false after an error.
bool chosenConfigs(const DriverOptions &o, const std::vector<kir::Function> &kernels,
                   codegen::Tunings &tunings, std::ostream &err) {
  const GpuTarget gpu = parseGpuTarget(o.cudaArchs);
  if (!o.config.empty()) {
    for (const kir::Function &f : kernels)
      try {
        tunings[f.spec.name].configs = {passes::parseConfigId(f.spec, o.config)};
      } catch (const std::invalid_argument &e) {
        err << "ntc: error: --config '" << o.config << "': " << e.what()
            << " (ntc --list-configs prints the configurations of " << f.spec.name << ")\n";
        return false;
      }
    return true;
  }
  if (o.tuningTable.empty())
    return true;
  std::vector<tuning::TableProblem> problems;
  tunings = tuning::readTuningTable(o.tuningTable, kernels, targetOf(o), gpu, problems);
  bool ok = true;
  for (const tuning::TableProblem &p : problems) {
    err << "ntc: " << (p.error ? "error: " : "warning: ") << p.message << "\n";
    ok = ok && !p.error;
  }
  return ok;
}

/// --list-configs: per kernel, a line with its hash, then one line per configuration.
void listConfigs(const DriverOptions &o, const std::vector<kir::Function> &kernels,
                 std::ostream &out) {
  const GpuTarget gpu = parseGpuTarget(o.cudaArchs);
  std::string archs = "cpu";
  if (o.target != "cpu") {
    archs.clear();
    for (const GpuArch &a : gpu.archs)
      archs += (archs.empty() ? "sm_" : ",sm_") + std::to_string(a.major) +
               std::to_string(a.minor) + (a.archSpecific ? "a" : "");
  }
  for (const kir::Function &f : kernels) {
    const std::vector<passes::Config> space = passes::configSpace(f, targetOf(o), gpu);
    out << "# " << f.spec.name << ": " << space.size() << " configuration"
        << (space.size() == 1 ? "" : "s") << " for " << archs << ", the default first\n";
    out << "kernel " << f.spec.name << " hash " << passes::kernelHash(f) << " target " << o.target
        << " arch " << archs << "\n";
    for (size_t i = 0; i < space.size(); ++i)
      out << f.spec.name << " " << passes::configId(f.spec, space[i]) << (i ? "" : " default")
          << "\n";
  }
}

/// The files of one kernel source (nothing is written here); false after a diagnostic.
bool generate(const DriverOptions &o, const std::string &input,
              const std::vector<kir::Function> &kernels,
              std::vector<codegen::GeneratedFile> &selected, std::ostream &err) {
  std::filesystem::path source(input);
  std::string stem = source.stem().string();
  std::vector<codegen::GeneratedFile> files;
  codegen::Tunings tunings;
  if (!chosenConfigs(o, kernels, tunings, err))
    return false;
  try {
    if (o.target == "cpu") {
      files = codegen::generateCpu(kernels, stem, source.filename().string(),
                                   o.printIrAfterAll ? &err : nullptr, tunings);
    } else {
      files = codegen::generateCuda(kernels, stem, source.filename().string(),
                                    o.printIrAfterAll ? &err : nullptr, parseGpuTarget(o.cudaArchs),
                                    tunings);
    }
  } catch (const std::exception &e) {
    err << "ntc: error: " << input << ": " << e.what() << "\n";
    return false;
  }
  auto wants = [&](const std::string &what) {
    return o.emit.empty() || std::find(o.emit.begin(), o.emit.end(), what) != o.emit.end();
  };
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
  return true;
}

bool emits(const DriverOptions &o, const std::string &what) {
  return std::find(o.emit.begin(), o.emit.end(), what) != o.emit.end();
}

/// Errors in the command line itself (status 2), found before any input is read.
bool checkUsage(const DriverOptions &o, std::ostream &err) {
  try {
    parseGpuTarget(o.cudaArchs);
  } catch (const std::invalid_argument &e) {
    err << "ntc: error: " << e.what() << "\n";
    return false;
  }
  static const std::vector<std::string> kinds = {"h", "cpp", "cu", "ir", "layout"};
  if (!o.visualizeName.empty()) {
    // -o names the picture; nothing else is printed or generated alongside it.
    if (!o.emit.empty() || o.targetGiven || o.dumpLayout || !o.evalName.empty() ||
        !o.frontend.depfile.empty()) {
      err << "ntc: error: --visualize draws a picture only; it takes --shape, --define, "
             "--kernel and -o FILE.svg, not --emit, --target, --dump-layout, --eval or "
             "--depfile\n";
      return false;
    }
    if (o.outputDirGiven && o.outputDir.empty()) {
      err << "ntc: error: -o needs the name of the SVG file, got ''\n";
      return false;
    }
    return true;
  }
  if (o.listConfigs && (o.outputDirGiven || !o.config.empty() || !o.tuningTable.empty() ||
                        !o.emit.empty() || o.dumpLayout || !o.evalName.empty())) {
    err << "ntc: error: --list-configs prints the configurations only; it takes --target, "
           "--cuda-arch, --kernel and --define, not -o, --config, --tuning-table, --emit, "
           "--dump-layout or --eval\n";
    return false;
  }
  if (!o.config.empty() && !o.tuningTable.empty()) {
    err << "ntc: error: --config and --tuning-table both choose the configurations; give one\n";
    return false;
  }
  if (!o.config.empty() && !o.defines.empty()) {
    err << "ntc: error: --config gives every meta-parameter; it cannot be combined with --define\n";
    return false;
  }
  if ((!o.config.empty() || !o.tuningTable.empty()) && !o.outputDirGiven) {
    err << "ntc: error: " << (o.config.empty() ? "--tuning-table" : "--config")
        << " generates code: give the output directory with -o DIR\n";
    return false;
  }
  if (o.outputDirGiven && o.outputDir.empty()) {
    err << "ntc: error: -o needs the name of a directory, got ''\n";
    return false;
  }
  for (const std::string &e : o.emit)
    if (std::find(kinds.begin(), kinds.end(), e) == kinds.end()) {
      err << "ntc: error: --emit '" << e
          << "' is not an output of ntc (h, cpp, cu, ir or layout, comma-separated)\n";
      return false;
    }
  const bool prints = o.dumpLayout || !o.evalName.empty() || emits(o, "ir") || o.listConfigs;
  if (!o.outputDirGiven) {
    for (const std::string &e : o.emit)
      if (e != "ir") {
        err << "ntc: error: --emit " << e
            << " writes a file: give the output directory with -o DIR\n";
        return false;
      }
    if (o.targetGiven && !prints) {
      err << "ntc: error: --target " << o.target
          << " generates code: give the output directory with -o DIR\n";
      return false;
    }
  } else {
    const std::string source = o.target == "cpu" ? "cpp" : "cu";
    const std::string other = o.target == "cpu" ? "cu" : "cpp";
    if (emits(o, other)) {
      err << "ntc: error: --emit " << other << ": --target " << o.target << " writes ." << source
          << " sources, not ." << other << "\n";
      return false;
    }
  }
  if (!o.frontend.depfile.empty() && o.inputs.size() != 1) {
    err << "ntc: error: --depfile needs exactly one input\n";
    return false;
  }
  std::map<std::string, std::string> seen; // canonical path -> the input as given
  std::map<std::string, std::string> stems;
  for (const std::string &input : o.inputs) {
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(input, ec).string();
    if (ec)
      key = input;
    if (!seen.emplace(key, input).second) {
      err << "ntc: error: input '" << input << "' is given twice\n";
      return false;
    }
    std::string stem = std::filesystem::path(input).stem().string();
    if (o.outputDirGiven && !stems.emplace(stem, input).second) {
      err << "ntc: error: inputs '" << stems[stem] << "' and '" << input << "' would both write "
          << stem << ".h (rename one, or run ntc once for each)\n";
      return false;
    }
  }
  return true;
}

/// Every input can be read (status 1 otherwise).
bool checkInputs(const DriverOptions &o, std::ostream &err) {
  bool ok = true;
  for (const std::string &input : o.inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(input, ec)) {
      err << "ntc: error: cannot read '" << input << "': it is a directory\n";
      ok = false;
      continue;
    }
    std::FILE *f = std::fopen(input.c_str(), "rb");
    if (!f) {
      err << "ntc: error: cannot read '" << input << "': " << std::strerror(errno) << "\n";
      ok = false;
      continue;
    }
    std::fclose(f);
  }
  return ok;
}

std::string joinNames(const std::vector<kir::Function> &kernels) {
  std::string s;
  for (const kir::Function &k : kernels)
    s += (s.empty() ? "" : ", ") + k.spec.name;
  return s;
}

} // namespace

int runDriver(const DriverOptions &o, std::ostream &out, std::ostream &err) {
  Bindings bindings;
  if (!parseBindings(o, bindings, err) || !checkUsage(o, err))
    return kUsageError;
  if (!checkInputs(o, err))
    return kUserError;
  const bool generating = o.outputDirGiven && o.visualizeName.empty();
  // Clang writes the depfile beside the requested one; it is moved into place only when
  // everything succeeded, so a failed run leaves the output paths alone.
  const std::string depfile = o.frontend.depfile;
  const std::string depfileTmp = depfile.empty() ? "" : depfile + ".ntc-tmp";
  auto fail = [&](int rc) {
    if (!depfileTmp.empty()) {
      std::error_code ec;
      std::filesystem::remove(depfileTmp, ec);
    }
    return rc;
  };
  auto selected = [&](const std::string &name) {
    return o.kernels.empty() ||
           std::find(o.kernels.begin(), o.kernels.end(), name) != o.kernels.end();
  };

  std::vector<std::pair<std::string, FrontendResult>> perInput;
  bool ok = true;
  for (const std::string &input : o.inputs) {
    FrontendOptions frontend = o.frontend;
    frontend.depfile = depfileTmp;
    if (!depfile.empty() && generating)
      frontend.depTarget = (std::filesystem::path(o.outputDir) /
                            (std::filesystem::path(input).stem().string() + ".h"))
                               .string();
    else if (!depfile.empty())
      frontend.depTarget = input;
    FrontendResult r = runFrontend(input, frontend);
    ok = ok && r.ok;
    perInput.emplace_back(input, std::move(r));
  }
  if (!ok)
    return fail(kUserError);

  // A file without kernels: nothing to generate is an error, nothing to print a warning.
  for (const auto &[input, r] : perInput)
    if (r.declared == 0) {
      err << input << (generating ? ": error: " : ": warning: ") << "no NT_KERNEL in this file\n";
      ok = ok && !generating;
    }
  // Kernel names are C functions: one definition per name in all inputs together (one
  // translation unit has reported its own duplicates).
  std::map<std::string, std::pair<std::string, std::string>> defined; // name -> input, location
  for (const auto &[input, r] : perInput)
    for (size_t i = 0; i < r.kernels.size(); ++i) {
      const std::string &name = r.kernels[i].spec.name;
      const std::string &where = r.kernelLocations[i];
      auto [first, inserted] = defined.emplace(name, std::make_pair(input, where));
      if (!inserted) {
        err << where << ": error: kernel '" << name << "' is defined twice: here and in "
            << first->second.first << "\n"
            << first->second.second << ": note: first defined here\n";
        ok = false;
      }
    }
  if (!ok)
    return fail(kUserError);

  std::vector<KernelSpec> kernels;
  std::vector<kir::Function> functions;
  for (const auto &[input, r] : perInput)
    for (const kir::Function &k : r.kernels)
      if (selected(k.spec.name)) {
        kernels.push_back(k.spec);
        functions.push_back(k);
      }
  for (const std::string &name : o.kernels)
    if (std::none_of(kernels.begin(), kernels.end(),
                     [&](const KernelSpec &k) { return k.name == name; })) {
      std::string all;
      for (const auto &[input, r] : perInput)
        all += (all.empty() || r.kernels.empty() ? "" : ", ") + joinNames(r.kernels);
      err << "ntc: error: --kernel " << name << ": no kernel of that name (the inputs declare "
          << all << ")\n";
      return fail(kUserError);
    }
  if (!checkBindingsUsed(kernels, bindings, err))
    return fail(kUserError);
  for (const KernelSpec &k : kernels) { // --shape ranks and --define values, whatever the action
    std::map<std::string, Expr> values;
    if (!kernelValues(k, bindings, values, err))
      return fail(kUserError);
  }

  if (!o.config.empty() && kernels.size() != 1) {
    err << "ntc: error: --config names the configuration of one kernel, but "
        << (kernels.empty() ? std::string("no kernel") : joinNames(functions))
        << " would be compiled; select one with --kernel NAME\n";
    return fail(kUserError);
  }
  if (o.listConfigs) {
    std::vector<kir::Function> pinned;
    for (const kir::Function &f : functions)
      pinned.push_back(pinDefines(f, bindings));
    try {
      listConfigs(o, pinned, out);
    } catch (const std::exception &e) {
      err << "ntc: error: " << e.what() << "\n";
      return fail(kUserError);
    }
  }

  // Generate every file before writing any, so that an error leaves no output behind.
  std::vector<codegen::GeneratedFile> files;
  if (generating)
    for (auto &[input, r] : perInput) {
      if (r.kernels.empty())
        continue; // only under -Xclang -verify: every kernel had its expected error
      std::vector<kir::Function> chosen;
      for (kir::Function &f : r.kernels)
        if (selected(f.spec.name))
          chosen.push_back(pinDefines(std::move(f), bindings));
      if (chosen.empty()) {
        err << input << ": error: none of its kernels is selected by --kernel (it declares "
            << joinNames(r.kernels) << ")\n";
        return fail(kUserError);
      }
      if (!generate(o, input, chosen, files, err))
        return fail(kUserError);
    }

  if (o.dumpLayout)
    if (int rc = dumpLayouts(kernels, bindings, out, err))
      return fail(rc);
  if (!o.evalName.empty())
    if (int rc = evalParam(kernels, o.evalName, bindings, out, err))
      return fail(rc);
  if (!o.visualizeName.empty())
    if (int rc = visualizeParam(kernels, o, bindings, out, err))
      return fail(rc);
  if (!generating && emits(o, "ir"))
    for (const kir::Function &f : functions)
      out << kir::print(f);

  if (generating) {
    std::error_code ec;
    if (std::filesystem::exists(o.outputDir, ec) &&
        !std::filesystem::is_directory(o.outputDir, ec)) {
      err << "ntc: error: cannot create the output directory '" << o.outputDir
          << "': a file of that name exists\n";
      return fail(kUserError);
    }
    std::filesystem::create_directories(o.outputDir, ec);
    if (ec || !std::filesystem::is_directory(o.outputDir, ec)) {
      err << "ntc: error: cannot create the output directory '" << o.outputDir
          << "': " << ec.message() << "\n";
      return fail(kUserError);
    }
    for (const codegen::GeneratedFile &f : files)
      if (!writeIfChanged(std::filesystem::path(o.outputDir) / f.name, f.contents, err))
        return fail(kUserError);
  }
  if (!depfileTmp.empty()) {
    std::error_code ec;
    std::filesystem::rename(depfileTmp, depfile, ec);
    if (ec) {
      err << "ntc: error: cannot write '" << depfile << "': " << ec.message() << "\n";
      return fail(kUserError);
    }
  }
  return 0;
}

} // namespace ntc
