//===- Tune.cpp - ntc-tune's driver and its first step (generate) ---------===//
#include "Tune.h"

#include "Interrupt.h"
#include "Jobs.h"
#include "Steps.h"
#include "Table.h"
#include "Util.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <unistd.h>

namespace ntc::tune {

namespace {

namespace fs = std::filesystem;

/// The shapes of --shapes and --shape, in order.
std::vector<ShapeLine> readShapes(const Options &o) {
  std::vector<ShapeLine> shapes;
  int lineNumber = 0;
  for (const auto &[isFile, value] : o.shapes) {
    if (isFile) {
      for (ShapeLine &line : parseShapeFile(readFile(value), value))
        shapes.push_back(std::move(line));
    } else {
      ++lineNumber;
      shapes.push_back(parseShapeLine(value, "--shape " + std::to_string(lineNumber)));
    }
  }
  return shapes;
}

/// The ntc to run: --ntc, else the one next to ntc-tune, else ntc in PATH.
std::string findNtc(const Options &o) {
  if (!o.ntc.empty())
    return o.ntc;
  std::string beside = executableDir() + "/ntc";
  if (access(beside.c_str(), X_OK) == 0)
    return beside;
  return "ntc";
}

std::vector<std::string> withClangArgs(std::vector<std::string> argv, const Options &o) {
  argv.push_back("--");
  argv.insert(argv.end(), o.clangArgs.begin(), o.clangArgs.end());
  return argv;
}

/// Checks that every shape calls a kernel of the manifest.
void checkShapeKernels(const Manifest &m, const std::vector<ShapeLine> &shapes) {
  for (const ShapeLine &s : shapes)
    if (!m.kernel(s.kernel)) {
      std::vector<std::string> names;
      for (const KernelEntry &k : m.kernels)
        names.push_back(k.name);
      throw Error::at(s.origin, "kernel '" + s.kernel + "' is not among the kernels tuned (" +
                                    join(names, ", ") + ")");
    }
}

/// The ids in a --configs value: ids joined by commas, where an id may hold commas itself
/// (BLOCK_SIZE_M=64,BLOCK_SIZE_N=32): at each place, the longest run of pieces that is a known
/// id. Throws Error on a piece that starts no known id.
std::vector<std::string> splitConfigList(const std::string &value,
                                         const std::set<std::string> &known) {
  std::vector<std::string> pieces = split(value, ',');
  std::vector<std::string> ids;
  for (size_t i = 0; i < pieces.size();) {
    if (pieces[i].empty()) {
      ++i;
      continue;
    }
    size_t end = pieces.size();
    for (; end > i; --end) {
      std::vector<std::string> run(pieces.begin() + static_cast<long>(i),
                                   pieces.begin() + static_cast<long>(end));
      if (known.count(join(run, ",")))
        break;
    }
    if (end == i)
      throw Error("--configs: no kernel has a configuration '" + pieces[i] +
                  "...' (ntc --list-configs lists them)");
    std::vector<std::string> run(pieces.begin() + static_cast<long>(i),
                                 pieces.begin() + static_cast<long>(end));
    ids.push_back(join(run, ","));
    i = end;
  }
  return ids;
}

/// Removes a temporary work folder when ntc-tune ends, unless asked to keep it.
struct WorkCleanup {
  std::string path;
  ~WorkCleanup() {
    if (!path.empty())
      removeTree(path);
  }
};

} // namespace

void generateStep(Context &ctx, const std::vector<ShapeLine> &shapes) {
  const Options &o = ctx.options;
  std::string ntc = findNtc(o);
  std::string source = absolutePath(o.source);
  if (!exists(source))
    throw Error("cannot read '" + o.source + "': no such file");
  std::vector<std::string> list = {ntc, "--list-configs", source, "--target", o.target};
  if (o.target == "cuda")
    list.insert(list.end(), {"--cuda-arch", ctx.manifest.cudaArch});
  for (const std::string &k : o.kernels)
    list.insert(list.end(), {"--kernel", k});
  list = withClangArgs(list, o);
  std::string errPath = ctx.work + "/list-configs.stderr";
  CommandResult listed = runCommand(list, errPath);
  std::string errors;
  try {
    errors = readFile(errPath);
  } catch (const Error &) {
  }
  if (listed.status != 0)
    throw Error("ntc --list-configs failed (" + shellCommand(list) + "):\n" +
                firstLines(errors + listed.output, 30));
  std::vector<KernelEntry> all = parseConfigList(listed.output);
  std::vector<std::string> names;
  for (const KernelEntry &k : all)
    names.push_back(k.name);
  for (const ShapeLine &s : shapes)
    if (std::find(names.begin(), names.end(), s.kernel) == names.end())
      throw Error::at(s.origin, "kernel '" + s.kernel + "' is not in " + o.source +
                                    " (kernels: " + join(names, ", ") + ")");

  // The kernels to tune: --kernel, else those the shapes call, else all.
  std::set<std::string> wanted(o.kernels.begin(), o.kernels.end());
  if (wanted.empty())
    for (const ShapeLine &s : shapes)
      wanted.insert(s.kernel);
  Manifest &m = ctx.manifest;
  for (KernelEntry &k : all)
    if (wanted.empty() || wanted.count(k.name))
      m.kernels.push_back(k);
  for (const std::string &k : o.kernels)
    if (!m.kernel(k))
      throw Error("kernel '" + k + "' is not in " + o.source);
  checkShapeKernels(m, shapes);
  if (m.kernels.empty())
    throw Error(o.source + " has no kernel to tune");

  // --configs: only these (every kernel keeps its default).
  std::set<std::string> known;
  for (const KernelEntry &k : m.kernels)
    for (const ConfigEntry &c : k.configs)
      known.insert(c.id);
  std::set<std::string> only;
  for (const std::string &value : o.configs)
    for (const std::string &id : splitConfigList(value, known))
      only.insert(id);
  for (KernelEntry &k : m.kernels) {
    std::vector<ConfigEntry> kept;
    for (size_t n = 0; n < k.configs.size(); ++n) {
      ConfigEntry c = k.configs[n];
      c.dir = k.name + "/" + std::to_string(n);
      if (c.isDefault || only.empty() || only.count(c.id))
        kept.push_back(c);
    }
    k.configs = kept;
  }

  CommandResult version = runCommand({ntc, "--version"});
  if (version.status == 0)
    m.ntcVersion = trim(split(trim(version.output), '\n')[0]);
  m.source = source;
  m.stem = fs::path(source).stem().string();

  // One ntc run per configuration.
  std::vector<Job> jobs;
  std::vector<std::pair<KernelEntry *, size_t>> owner;
  for (KernelEntry &k : m.kernels)
    for (size_t c = 0; c < k.configs.size(); ++c) {
      // A library already in the folder stays: its stamp says whether it is still up to date.
      std::string dir = ctx.work + "/" + k.configs[c].dir;
      makeDirs(dir);
      for (const char *ext : {".h", ".cpp", ".cu"})
        std::remove((dir + "/" + m.stem + ext).c_str());
      std::vector<std::string> argv = {ntc, "-o", dir, "--target", o.target};
      if (o.target == "cuda")
        argv.insert(argv.end(), {"--cuda-arch", m.cudaArch});
      argv.insert(argv.end(), {"--kernel", k.name, "--config", k.configs[c].id, source});
      jobs.push_back(Job{withClangArgs(argv, o), dir + "/ntc.log"});
      owner.emplace_back(&k, c);
    }
  std::string ext = o.target == "cuda" ? ".cu" : ".cpp";
  std::set<std::pair<std::string, std::string>> failed; // kernel, config id
  std::string fatal;
  ctx.progress.start("generate", jobs.size());
  bool complete = runJobs(jobs, ctx.jobs, [&](size_t i, const JobResult &r) {
    KernelEntry &k = *owner[i].first;
    const ConfigEntry &c = k.configs[owner[i].second];
    std::string generated = ctx.work + "/" + c.dir + "/" + m.stem + ext;
    if (r.status == 0 && exists(generated)) {
      ctx.progress.done(k.name + " " + c.id, "ok", r.seconds);
      return;
    }
    std::string reason = "ntc failed: " + firstLines(r.output, 8);
    ctx.progress.note("ntc-tune: " + k.name + " " + c.id + ": " + reason);
    ctx.progress.done(k.name + " " + c.id, "failed", r.seconds);
    failed.emplace(k.name, c.id);
    k.rejected.emplace_back(c.id, "ntc failed: " + firstLines(r.output, 3));
    if (c.isDefault)
      fatal = "ntc failed on the default configuration of " + k.name + " (" +
              shellCommand(jobs[i].argv) + "):\n" + firstLines(r.output, 30);
  });
  ctx.progress.finish();
  if (!complete)
    throw Interrupted{};
  if (!fatal.empty())
    throw Error(fatal);
  for (KernelEntry &k : m.kernels) {
    std::vector<ConfigEntry> kept;
    for (const ConfigEntry &c : k.configs)
      if (!failed.count({k.name, c.id}))
        kept.push_back(c);
    k.configs = kept;
  }
  m.shapes = shapes;
  writeFileAtomic(ctx.work + "/manifest.txt", writeManifest(m));
}

int runTune(const Options &o) {
  installInterruptHandler();
  WorkCleanup cleanup;
  try {
    std::vector<ShapeLine> shapes = readShapes(o);
    if (!o.output.empty() && exists(o.output))
      readTable(o.output); // a file that is not a table is an error before any work
    Context ctx(o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ctx.jobs = o.jobs > 0 ? o.jobs : static_cast<int>(cores > 0 ? cores : 1);
    if (o.resume) {
      ctx.work = absolutePath(o.work);
      std::string path = ctx.work + "/manifest.txt";
      ctx.manifest = readManifest(readFile(path), path);
      if (!o.target.empty() && o.target != ctx.manifest.target)
        throw Error("--target " + o.target + " but " + path + " was generated for " +
                        ctx.manifest.target,
                    kUsageError);
      if (!o.cudaArch.empty())
        ctx.manifest.cudaArch = o.cudaArch;
      if (shapes.empty())
        shapes = ctx.manifest.shapes;
      checkShapeKernels(ctx.manifest, shapes);
    } else {
      if (!o.work.empty()) {
        ctx.work = absolutePath(o.work);
        makeDirs(ctx.work);
      } else {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ntc-tune-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (!mkdtemp(buf.data()))
          throw Error("cannot create a work folder like " + pattern);
        ctx.work = buf.data();
        if (!o.keepWork)
          cleanup.path = ctx.work;
      }
      ctx.manifest.target = o.target;
      ctx.manifest.cudaArch = o.cudaArch.empty() ? "90a" : o.cudaArch;
      generateStep(ctx, shapes);
      if (o.generateOnly) {
        std::fprintf(stderr,
                     "ntc-tune: generated %s; build and measure with\n"
                     "  ntc-tune --resume %s -o TABLE.json [--nvcc ...]\n",
                     (ctx.work + "/manifest.txt").c_str(), ctx.work.c_str());
        return 0;
      }
      if (o.keepWork && o.work.empty())
        std::fprintf(stderr, "ntc-tune: work folder %s (kept)\n", ctx.work.c_str());
    }
    if (shapes.empty())
      throw Error("no shapes to tune for (--shapes FILE or --shape LINE)", kUsageError);
    buildStep(ctx, shapes);
    return measureStep(ctx, shapes);
  } catch (const Interrupted &) {
    std::fprintf(stderr, "\nntc-tune: interrupted%s\n",
                 o.output.empty() ? "" : ("; " + o.output + " keeps what was measured").c_str());
    return kInterruptedStatus;
  } catch (const Error &e) {
    if (e.located())
      std::fprintf(stderr, "%s\n", e.what());
    else
      std::fprintf(stderr, "ntc-tune: error: %s\n", e.what());
    return e.status();
  }
}

} // namespace ntc::tune
