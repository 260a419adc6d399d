//===- Build.cpp - step 2: every configuration into a shared library ------===//
#include "Cuda.h"
#include "Interrupt.h"
#include "Jobs.h"
#include "Steps.h"
#include "Util.h"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include <unistd.h>

#ifndef NTC_TUNE_RUNTIME_INCLUDE
#define NTC_TUNE_RUNTIME_INCLUDE ""
#endif
#ifndef NTC_TUNE_RUNTIME_SRC
#define NTC_TUNE_RUNTIME_SRC ""
#endif

namespace ntc::tune {

namespace {

/// The runtime's headers and sources: the options, else an installed ntc-tune's
/// (<prefix>/include, <prefix>/share/ntc/runtime-src), else the source tree's.
void findRuntime(const Options &o, std::string &include, std::string &src) {
  std::string prefix = executableDir() + "/..";
  bool installed = exists(prefix + "/share/ntc/runtime-src/errors.cpp");
  include = !o.runtimeInclude.empty() ? o.runtimeInclude
            : installed               ? prefix + "/include"
                                      : NTC_TUNE_RUNTIME_INCLUDE;
  src = !o.runtimeSrc.empty() ? o.runtimeSrc
        : installed           ? prefix + "/share/ntc/runtime-src"
                              : NTC_TUNE_RUNTIME_SRC;
  if (include.empty() || !exists(include + "/ntc/runtime.h"))
    throw Error("the runtime headers are not found (no ntc/runtime.h in '" + include +
                "'): give --runtime-include DIR");
  for (const char *file : {"errors.cpp", "validate.cpp"})
    if (src.empty() || !exists(src + "/" + file))
      throw Error(std::string("the runtime sources are not found (no ") + file + " in '" + src +
                  "'): give --runtime-src DIR");
  include = absolutePath(include);
  src = absolutePath(src);
}

std::string findCxx(const Options &o) {
  if (!o.cxx.empty())
    return o.cxx;
  const char *env = std::getenv("CXX");
  return env && *env ? env : "c++";
}

/// nvcc's -gencode for the GPU measured (`device`, e.g. "sm_90"): the entry of the manifest's
/// architecture list ("80,90a"; ntc planned the code for all of them) that it runs, so that one
/// compile per candidate suffices. Throws when the list has none for it.
std::string gencode(const std::string &archs, const std::string &device) {
  std::string list = archs;
  for (char &c : list)
    c = c == ';' ? ',' : c;
  std::string item;
  std::istringstream items(list);
  while (std::getline(items, item, ',')) {
    std::string arch = startsWith(item, "sm_") ? item.substr(3) : item;
    std::string digits = arch;
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f'))
      digits.pop_back();
    if ("sm_" + digits == device)
      return "-gencode=arch=compute_" + arch + ",code=sm_" + arch;
  }
  throw Error("--cuda-arch " + archs + " does not include the GPU's architecture " + device +
              "; generate the candidates for it");
}

/// What a build depends on: its command and a hash of each input's contents (so that a source
/// that ntc generates again, unchanged, does not make its library rebuild).
std::string buildStamp(const std::vector<std::string> &argv,
                       const std::vector<std::string> &inputs) {
  std::string stamp = shellCommand(argv) + "\n";
  for (const std::string &input : inputs) {
    uint64_t hash = 14695981039346656037ull; // FNV-1a
    std::string text;
    try {
      text = readFile(input);
    } catch (const Error &) {
      text = "(unreadable)";
    }
    for (unsigned char c : text)
      hash = (hash ^ c) * 1099511628211ull;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    stamp += input + " " + buf + "\n";
  }
  return stamp;
}

/// True when `output` exists and its recorded stamp (beside it, `.stamp`) is `stamp`.
bool upToDate(const std::string &output, const std::string &stamp) {
  if (!exists(output))
    return false;
  try {
    return readFile(output + ".stamp") == stamp;
  } catch (const Error &) {
    return false;
  }
}

/// A compile job and what it produces.
struct BuildJob {
  Job job;
  std::string output;
  std::vector<std::string> inputs;
  std::string label;
  const ConfigEntry *config = nullptr;
  std::string kernel;
};

/// Runs `builds` (skipping those up to date); calls `failed(build, output)` for each that fails.
void runBuilds(Context &ctx, const std::vector<BuildJob> &builds,
               const std::function<void(const BuildJob &, const std::string &)> &failed) {
  std::vector<Job> jobs;
  std::vector<const BuildJob *> owners;
  std::vector<std::string> ownerStamps;
  std::vector<std::string> stamps;
  for (const BuildJob &b : builds)
    stamps.push_back(buildStamp(b.job.argv, b.inputs));
  for (size_t i = 0; i < builds.size(); ++i) {
    const BuildJob &b = builds[i];
    if (upToDate(b.output, stamps[i])) {
      if (b.config)
        ctx.progress.done(b.label, "up to date");
      continue;
    }
    jobs.push_back(b.job);
    owners.push_back(&b);
    ownerStamps.push_back(stamps[i]);
  }
  bool complete = runJobs(jobs, ctx.jobs, [&](size_t i, const JobResult &r) {
    const BuildJob &b = *owners[i];
    if (r.status == 0 && exists(b.output)) {
      writeFileAtomic(b.output + ".stamp", ownerStamps[i]);
      if (b.config)
        ctx.progress.done(b.label, "ok", r.seconds);
      return;
    }
    std::remove((b.output + ".stamp").c_str());
    if (b.config)
      ctx.progress.done(b.label, "failed", r.seconds);
    failed(b, r.output.empty() ? "exit status " + std::to_string(r.status) : r.output);
  });
  if (!complete)
    throw Interrupted{};
}

/// Why a library does not hold only configuration `c` ("" when it does).
std::string otherConfig(const ntc_kernel_info_t &info, const ConfigEntry &c) {
  if (info.num_configs == 1 && info.configs && info.configs[0] && info.configs[0] == c.id)
    return "";
  std::vector<std::string> ids;
  for (int32_t i = 0; info.configs && i < info.num_configs; ++i)
    ids.push_back(info.configs[i] ? info.configs[i] : "(null)");
  return "the library holds configurations [" + join(ids, "; ") + "], not only " + c.id;
}

} // namespace

std::string findNvcc(const Options &o) {
  if (!o.nvcc.empty())
    return o.nvcc;
  if (findProgram("nvcc").empty() && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
    return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

void buildStep(Context &ctx, const std::vector<ShapeLine> &shapes) {
  const Options &o = ctx.options;
  const Manifest &m = ctx.manifest;
  std::string include, src;
  findRuntime(o, include, src);
  // The device first: no point building for a GPU that is not there, and the CUDA libraries
  // must find the runtime it loads.
  openDevice(ctx);
  std::string cxx = findCxx(o);
  bool cuda = m.target == "cuda";
  std::string nvcc = cuda ? findNvcc(o) : "";
  std::vector<std::string> includes = {"-I" + include};
  if (!o.dlpackInclude.empty())
    includes.push_back("-I" + absolutePath(o.dlpackInclude));

  // The runtime, once, into objects every candidate links.
  std::string runtimeDir = ctx.work + "/runtime";
  makeDirs(runtimeDir);
  std::vector<BuildJob> runtime;
  std::vector<std::string> runtimeObjects;
  for (const char *name : {"errors", "validate"}) {
    BuildJob b;
    std::string source = src + "/" + name + ".cpp";
    b.output = runtimeDir + "/" + name + ".o";
    b.job.argv = {cxx, "-std=c++17", "-O2", "-DNDEBUG", "-fPIC", "-c"};
    b.job.argv.insert(b.job.argv.end(), includes.begin(), includes.end());
    b.job.argv.insert(b.job.argv.end(), {source, "-o", b.output});
    b.job.logPath = runtimeDir + "/" + name + ".log";
    b.inputs = {source};
    runtime.push_back(b);
    runtimeObjects.push_back(b.output);
  }

  const std::string arch = cuda ? gencode(m.cudaArch, ctx.device->arch()) : "";
  auto libraryJob = [&](const KernelEntry &k, const ConfigEntry &c) {
    BuildJob b;
    std::string dir = ctx.work + "/" + c.dir;
    std::string source = dir + "/" + m.stem + (cuda ? ".cu" : ".cpp");
    b.output = dir + "/lib.so";
    if (cuda)
      b.job.argv = {nvcc,         "-std=c++17", "-O3",     "-DNDEBUG", "-shared",
                    "-Xcompiler", "-fPIC",      "-cudart", "shared",   arch};
    else
      b.job.argv = {cxx, "-std=c++17", "-O3", "-DNDEBUG", "-fPIC", "-shared", "-fopenmp"};
    b.job.argv.insert(b.job.argv.end(), includes.begin(), includes.end());
    b.job.argv.push_back("-I" + dir);
    b.job.argv.push_back(source);
    b.job.argv.insert(b.job.argv.end(), runtimeObjects.begin(), runtimeObjects.end());
    b.job.argv.insert(b.job.argv.end(), {"-o", b.output});
    b.job.logPath = dir + "/build.log";
    b.inputs = {source};
    b.inputs.insert(b.inputs.end(), runtimeObjects.begin(), runtimeObjects.end());
    b.label = k.name + " " + c.id;
    b.config = &c;
    b.kernel = k.name;
    return b;
  };

  size_t total = 0;
  for (const KernelEntry &k : m.kernels)
    total += k.configs.size();
  ctx.progress.start("build", total);
  runBuilds(ctx, runtime, [&](const BuildJob &b, const std::string &output) {
    throw Error("the runtime does not compile (" + shellCommand(b.job.argv) + "):\n" +
                firstLines(output, 30));
  });

  // The defaults first: without them nothing can be measured, and the shapes are checked
  // against their parameters before the others are built.
  std::vector<BuildJob> defaults, others;
  for (const KernelEntry &k : m.kernels)
    for (const ConfigEntry &c : k.configs)
      (c.isDefault ? defaults : others).push_back(libraryJob(k, c));
  runBuilds(ctx, defaults, [&](const BuildJob &b, const std::string &output) {
    throw Error("the default configuration of " + b.kernel + " does not compile (" +
                shellCommand(b.job.argv) + "):\n" + firstLines(output, 30));
  });
  for (const KernelEntry &k : m.kernels) {
    ctx.rejected[k.name] = k.rejected;
    const ConfigEntry *c = k.defaultConfig();
    Candidate candidate;
    candidate.config = c;
    candidate.library = std::make_unique<Library>(ctx.work + "/" + c->dir + "/lib.so", k.name);
    std::string other = otherConfig(candidate.library->info(), *c);
    if (!other.empty())
      throw Error(candidate.library->path() + ": " + other);
    if (candidate.library->info().target != m.target)
      throw Error(candidate.library->path() + " is for target " + candidate.library->info().target +
                  ", not " + m.target);
    ctx.candidates[k.name].push_back(std::move(candidate));
  }
  for (const ShapeLine &s : shapes)
    resolveShape(s, ctx.candidates[s.kernel].front().library->info());

  auto reject = [&](const std::string &kernel, const ConfigEntry &c, const std::string &reason) {
    ctx.progress.note("ntc-tune: " + kernel + " " + c.id + ": " + reason);
    ctx.rejected[kernel].emplace_back(c.id, reason);
  };
  std::set<const ConfigEntry *> broken;
  runBuilds(ctx, others, [&](const BuildJob &b, const std::string &output) {
    reject(b.kernel, *b.config, "does not compile: " + firstLines(output, 5));
    broken.insert(b.config);
  });
  ctx.progress.finish();
  for (const BuildJob &b : others) {
    if (broken.count(b.config))
      continue;
    Candidate candidate;
    candidate.config = b.config;
    try {
      candidate.library = std::make_unique<Library>(b.output, b.kernel);
    } catch (const Error &e) {
      reject(b.kernel, *b.config, e.what());
      continue;
    }
    std::string other = otherConfig(candidate.library->info(), *b.config);
    if (!other.empty()) {
      reject(b.kernel, *b.config, other);
      continue;
    }
    const ntc_kernel_info_t &base = ctx.candidates[b.kernel].front().library->info();
    std::string difference = compareParams(base, candidate.library->info());
    if (!difference.empty()) {
      reject(b.kernel, *b.config, "takes other arguments than the default: " + difference);
      continue;
    }
    ctx.candidates[b.kernel].push_back(std::move(candidate));
  }
}

} // namespace ntc::tune
