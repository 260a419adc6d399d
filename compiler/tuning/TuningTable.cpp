//===- TuningTable.cpp - reading a tuning table for code generation -------===//
#include "tuning/TuningTable.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <map>

namespace ntc::tuning {

namespace {

namespace json = llvm::json;

/// The compute capability × 10 of an architecture name of a table ("sm_90a" → 90, "cpu" → 0),
/// or -1.
int tableArch(const std::string &name) {
  if (name == "cpu")
    return 0;
  if (name.rfind("sm_", 0) != 0)
    return -1;
  std::string digits = name.substr(3);
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f'))
    digits.pop_back();
  if (digits.size() < 2 || digits.size() > 3 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoi(digits);
}

/// Reads one table entry into `tuning` (for kernel `f`); an error message or "".
class EntryReader {
public:
  EntryReader(const std::string &where, const kir::Function &f, passes::Target target,
              const GpuTarget &gpu, std::vector<TableProblem> &problems)
      : where_(where), f_(f), target_(target), gpu_(gpu), problems_(problems) {}

  /// Adds the entry to `tuning`; false after an error.
  bool read(const json::Object &entry, passes::KernelTuning &tuning) {
    passes::TunedShape shape;
    const std::optional<llvm::StringRef> arch = entry.getString("arch");
    const std::optional<llvm::StringRef> alignment = entry.getString("alignment");
    const std::optional<llvm::StringRef> config = entry.getString("config");
    if (!arch || !alignment || !config)
      return error("needs the strings \"arch\", \"alignment\" and \"config\"");
    shape.arch = tableArch(arch->str());
    if (shape.arch < 0)
      return error("arch \"" + arch->str() + "\" is neither cpu nor a CUDA architecture");
    if (!measuredHere(shape.arch))
      return true; // another architecture's entry
    if (*alignment != "aligned16" && *alignment != "any")
      return error("alignment \"" + alignment->str() + "\" is neither aligned16 nor any");
    shape.aligned16 = *alignment == "aligned16";
    if (!dtypesMatch(entry.getObject("dtypes")))
      return true;
    const json::Object *bucket = entry.getObject("bucket");
    if (!bucket)
      return error("needs the object \"bucket\"");
    for (const ParamSpec &p : f_.spec.params) {
      if (p.kind != ParamSpec::Kind::Tensor)
        continue;
      const json::Array *sizes = bucket->getArray(p.name);
      if (!sizes || sizes->size() != static_cast<size_t>(p.ndim))
        return error("\"bucket\" needs " + std::to_string(p.ndim) + " sizes for '" + p.name + "'");
      for (const json::Value &v : *sizes) {
        std::optional<int64_t> n = v.getAsInteger();
        if (!n || *n < 0)
          return error("\"bucket\" of '" + p.name + "' holds something that is not a size");
        shape.bucket.push_back(*n);
      }
    }
    // The integer compile-time scalars it was measured with: the dispatcher takes the entry for
    // calls with the same values only (a table written without "scalars" stands for every value).
    const json::Object *scalars = entry.getObject("scalars");
    for (const ParamSpec &p : f_.spec.params) {
      if (!passes::isVariantConstexpr(p))
        continue;
      const json::Value *value = scalars ? scalars->get(p.name) : nullptr;
      if (!value) {
        shape.values.push_back(passes::kAnyConstexprValue);
        continue;
      }
      const std::optional<double> number = value->getAsNumber();
      if (!number || std::find(p.constexprValues.begin(), p.constexprValues.end(), *number) ==
                         p.constexprValues.end())
        return error("\"scalars\" gives '" + p.name + "' a value that is not one of its own");
      shape.values.push_back(static_cast<int64_t>(*number));
    }
    if (!readPaddedExtents(entry, shape))
      return false;
    passes::Config parsed;
    try {
      parsed = passes::parseConfigId(f_.spec, config->str());
    } catch (const std::invalid_argument &e) {
      return error("configuration \"" + config->str() + "\": " + e.what());
    }
    // The dispatcher runs the entry's configuration on the architecture it was measured on
    // alone: it needs to fit that one (e.g. sm_90a's shared memory in a fatbin with sm_80).
    if (target_ == passes::Target::Cuda)
      parsed.archs = {shape.arch};
    if (!passes::configFits(f_, parsed, target_, gpu_)) {
      problems_.push_back({false, where_ + ": configuration \"" + config->str() +
                                      "\" does not fit " + targetName(parsed) +
                                      "; its shapes take the default configuration"});
      return true;
    }
    const std::string id = passes::configId(f_.spec, parsed);
    size_t index = 0;
    while (index < tuning.configs.size() && passes::configId(f_.spec, tuning.configs[index]) != id)
      ++index;
    if (index == tuning.configs.size())
      tuning.configs.push_back(parsed);
    else if (index > 0 &&
             std::find(tuning.configs[index].archs.begin(), tuning.configs[index].archs.end(),
                       shape.arch) == tuning.configs[index].archs.end())
      tuning.configs[index].archs.push_back(shape.arch); // chosen on another architecture too
    shape.config = static_cast<int>(index);
    tuning.shapes.push_back(shape);
    return true;
  }

private:
  /// The entry's padded tile extents (TunedShape::padded): each padded extent's actuals
  /// evaluated on the sizes measured ("shape"; the buckets where the entry has none), as the
  /// dispatcher compiles them. The dispatcher takes the entry for calls of extents up to these
  /// only: a configuration measured with rows of 1024 elements says nothing about rows of 16384,
  /// which the same threads would hold 16 times as many registers of.
  bool readPaddedExtents(const json::Object &entry, passes::TunedShape &shape) {
    const json::Object *measured = entry.getObject("shape");
    std::map<std::string, int64_t> sizes;
    size_t next = 0; // the next bucket, parameters and dimensions in order
    for (const ParamSpec &p : f_.spec.params) {
      if (p.kind != ParamSpec::Kind::Tensor)
        continue;
      const json::Array *exact = measured ? measured->getArray(p.name) : nullptr;
      if (exact && exact->size() != static_cast<size_t>(p.ndim))
        exact = nullptr;
      for (int d = 0; d < p.ndim; ++d, ++next) {
        std::optional<int64_t> size = exact ? (*exact)[d].getAsInteger() : std::nullopt;
        sizes[p.sizeSymbol(d)] = size && *size >= 0 ? *size : shape.bucket[next];
      }
    }
    for (const kir::PaddedExtent &p : f_.padded) {
      std::optional<int64_t> largest;
      for (const Expr &actual : p.actuals) {
        const std::optional<int64_t> value = actual.evaluate(sizes);
        if (!value) {
          largest.reset();
          break;
        }
        largest = std::max(largest.value_or(*value), *value);
      }
      if (largest && *largest > p.upperBound)
        return error("its shape gives the tile extent " + p.symbol + " the run-time size " +
                     std::to_string(*largest) + ", above its upper bound " +
                     std::to_string(p.upperBound));
      shape.padded.push_back(largest ? passes::compiledPaddedExtent(p, *largest)
                                     : passes::kAnyConstexprValue);
    }
    return true;
  }

  bool error(const std::string &message) {
    problems_.push_back({true, where_ + ": " + message});
    return false;
  }

  /// What `config` is planned for: the CPU, or the target's architectures it runs on.
  std::string targetName(const passes::Config &config) const {
    return target_ == passes::Target::Cpu ? "the CPU"
                                          : passes::configuredTarget(gpu_, config).str();
  }

  /// True when code compiled for the target runs on the architecture the entry was measured on.
  bool measuredHere(int arch) const {
    if (target_ == passes::Target::Cpu)
      return arch == 0;
    return std::any_of(gpu_.archs.begin(), gpu_.archs.end(),
                       [&](const GpuArch &a) { return a.major * 10 + a.minor == arch; });
  }

  /// The entry's dtypes against the kernel's (a warning when they differ).
  bool dtypesMatch(const json::Object *dtypes) {
    if (!dtypes)
      return true;
    for (const ParamSpec &p : f_.spec.params) {
      std::optional<llvm::StringRef> d = dtypes->getString(p.name);
      if (d && *d != dtypeName(p.dtype)) {
        problems_.push_back({false, where_ + ": '" + p.name + "' was measured as " + d->str() +
                                        ", but the kernel takes " + dtypeName(p.dtype) +
                                        "; the entry is skipped"});
        return false;
      }
    }
    return true;
  }

  std::string where_;
  const kir::Function &f_;
  passes::Target target_;
  const GpuTarget &gpu_;
  std::vector<TableProblem> &problems_;
};

} // namespace

codegen::Tunings parseTuningTable(const std::string &text, const std::string &path,
                                  const std::vector<kir::Function> &kernels, passes::Target target,
                                  const GpuTarget &gpu, std::vector<TableProblem> &problems) {
  codegen::Tunings tunings;
  auto fail = [&](const std::string &message) {
    problems.push_back({true, path + ": " + message});
    return codegen::Tunings{};
  };
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return fail("not JSON: " + llvm::toString(parsed.takeError()));
  const json::Object *table = parsed->getAsObject();
  if (!table || table->getString("format") != std::optional<llvm::StringRef>("ntc-tuning-table"))
    return fail("not a tuning table (it needs \"format\": \"ntc-tuning-table\")");
  if (table->getInteger("version") != std::optional<int64_t>(1))
    return fail("tuning table version 1 expected");
  const json::Array *entries = table->getArray("entries");
  if (!entries)
    return fail("needs an array \"entries\"");
  const std::string targetName = target == passes::Target::Cpu ? "cpu" : "cuda";
  std::map<std::string, bool> stale; // kernel name -> a warning was given
  for (size_t i = 0; i < entries->size(); ++i) {
    const std::string where = path + ": entry " + std::to_string(i);
    const json::Object *entry = (*entries)[i].getAsObject();
    if (!entry)
      return fail("entry " + std::to_string(i) + " is not an object");
    const std::optional<llvm::StringRef> kernel = entry->getString("kernel");
    const std::optional<llvm::StringRef> hash = entry->getString("hash");
    const std::optional<llvm::StringRef> entryTarget = entry->getString("target");
    if (!kernel || !hash || !entryTarget)
      return fail("entry " + std::to_string(i) +
                  " needs the strings \"kernel\", \"hash\" and \"target\"");
    auto f = std::find_if(kernels.begin(), kernels.end(),
                          [&](const kir::Function &k) { return k.spec.name == *kernel; });
    if (f == kernels.end() || *entryTarget != targetName)
      continue; // another source's kernel or another target
    const std::string now = passes::kernelHash(*f);
    if (*hash != now) {
      if (!stale[f->spec.name])
        problems.push_back({false, path + ": kernel '" + f->spec.name +
                                       "' has changed since it was tuned (table hash " +
                                       hash->str() + ", source hash " + now +
                                       "); it is compiled with its default configuration"});
      stale[f->spec.name] = true;
      continue;
    }
    passes::KernelTuning &tuning = tunings[f->spec.name];
    if (tuning.configs.empty())
      tuning.configs.push_back(passes::defaultConfig(*f, target, gpu));
    if (!EntryReader(where, *f, target, gpu, problems).read(*entry, tuning))
      return {};
  }
  return tunings;
}

codegen::Tunings readTuningTable(const std::string &path, const std::vector<kir::Function> &kernels,
                                 passes::Target target, const GpuTarget &gpu,
                                 std::vector<TableProblem> &problems) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    problems.push_back(
        {true, path + ": cannot read the tuning table: " + file.getError().message()});
    return {};
  }
  return parseTuningTable((*file)->getBuffer().str(), path, kernels, target, gpu, problems);
}

} // namespace ntc::tuning
