//===- main.cpp - ntc-tune: tune a kernel's configurations ----------------===//
//
// ntc-tune <kernel.cpp> --target cpu|cuda (--shapes FILE | --shape LINE)... -o table.json
//          [options] [-- <clang args>]
// ntc-tune --resume WORK -o table.json [options]
// Exit status: 0 success, 1 error, 2 usage error, 130 interrupted (the table keeps what was
// measured).
//
//===----------------------------------------------------------------------===//
#include "Tune.h"
#include "Util.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using ntc::tune::Error;
using ntc::tune::kUsageError;
using ntc::tune::startsWith;

constexpr const char *kUsage =
    R"(ntc-tune: measure every configuration of a kernel and write a tuning table

usage: ntc-tune <kernel.cpp> --target cpu|cuda (--shapes FILE | --shape LINE)... -o TABLE.json
                [options] [-- <clang args>]
       ntc-tune <kernel.cpp> --target cuda --generate-only --work DIR [--shapes FILE]... [-- ...]
       ntc-tune --resume DIR [--shapes FILE]... -o TABLE.json [options]

  --target cpu|cuda        the backend to tune
  --cuda-arch 90a          the GPU the candidates are built for (default 90a)
  --kernel NAME            only this kernel (repeatable; default: the kernels the shapes call)
  --shapes FILE            calls to tune for, one a line:
                             matmul lhs=4096x4096 rhs=4096x4096 output=4096x4096 dtype=float16
  --shape LINE             one such call (repeatable)
  -o TABLE.json            the table; entries of other keys already in it are kept
  --configs ID,ID...       only these configurations (and the default; repeatable; ids
                           may hold commas themselves: the longest known id is taken)
  --jobs N                 parallel builds (default: the number of cores)
  --work DIR               the work folder (kept; default: a temporary one)
  --keep-work              keep the temporary work folder
  --generate-only          stop after generating (WORK/manifest.txt); needs --work
  --resume DIR             build, measure and write from DIR/manifest.txt (no ntc, no source)
  --rounds N               timed rounds (CPU) or graph replays (CUDA) (default: automatic)
  --ntc PATH               the ntc to run (default: the one next to ntc-tune, else PATH)
  --cxx PATH               the C++ compiler (default: $CXX, else c++)
  --nvcc PATH              nvcc (default: nvcc in PATH, else /usr/local/cuda/bin/nvcc)
  --runtime-include DIR    the ntc runtime's headers (default: compiled in)
  --runtime-src DIR        the ntc runtime's sources, errors.cpp and validate.cpp
  --dlpack-include DIR     a folder holding dlpack/dlpack.h (default: the system's)
  -h, --help               this text
)";

/// Parses an integer option value, or throws a usage error.
int intValue(const std::string &option, const std::string &value) {
  int64_t n = 0;
  if (!ntc::tune::parseInt(value, n) || n < 1 || n > 100000)
    throw Error(option + " wants a positive integer, not '" + value + "'", kUsageError);
  return static_cast<int>(n);
}

ntc::tune::Options parseArgs(int argc, char **argv, bool &help) {
  ntc::tune::Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--") {
      o.clangArgs.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (arg == "-h" || arg == "--help") {
      help = true;
      return o;
    }
    std::string value;
    bool inlineValue = false;
    if (startsWith(arg, "--") && arg.find('=') != std::string::npos) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
      inlineValue = true;
    }
    auto next = [&]() -> std::string {
      if (inlineValue)
        return value;
      if (i + 1 >= args.size())
        throw Error(arg + " needs a value", kUsageError);
      return args[++i];
    };
    auto flag = [&]() {
      if (inlineValue)
        throw Error(arg + " takes no value", kUsageError);
      return true;
    };
    if (arg == "--target") {
      o.target = next();
      if (o.target != "cpu" && o.target != "cuda")
        throw Error("--target must be cpu or cuda, not '" + o.target + "'", kUsageError);
    } else if (arg == "--cuda-arch")
      o.cudaArch = next();
    else if (arg == "--kernel")
      o.kernels.push_back(next());
    else if (arg == "--shapes")
      o.shapes.emplace_back(true, next());
    else if (arg == "--shape")
      o.shapes.emplace_back(false, next());
    else if (arg == "-o" || arg == "--output")
      o.output = next();
    else if (arg == "--configs")
      o.configs.push_back(next());
    else if (arg == "--jobs" || arg == "-j")
      o.jobs = intValue(arg, next());
    else if (arg == "--work")
      o.work = next();
    else if (arg == "--keep-work")
      o.keepWork = flag();
    else if (arg == "--generate-only")
      o.generateOnly = flag();
    else if (arg == "--resume") {
      o.resume = true;
      o.work = next();
    } else if (arg == "--rounds")
      o.rounds = intValue(arg, next());
    else if (arg == "--ntc")
      o.ntc = next();
    else if (arg == "--cxx")
      o.cxx = next();
    else if (arg == "--nvcc")
      o.nvcc = next();
    else if (arg == "--runtime-include")
      o.runtimeInclude = next();
    else if (arg == "--runtime-src")
      o.runtimeSrc = next();
    else if (arg == "--dlpack-include")
      o.dlpackInclude = next();
    else if (startsWith(arg, "-"))
      throw Error("unknown option '" + arg + "'", kUsageError);
    else if (o.source.empty())
      o.source = arg;
    else
      throw Error("one kernel source only ('" + o.source + "' and '" + arg + "')", kUsageError);
  }
  if (o.resume) {
    if (!o.source.empty())
      throw Error("--resume takes no kernel source (the manifest names it)", kUsageError);
    if (o.generateOnly)
      throw Error("--resume and --generate-only exclude each other", kUsageError);
  } else {
    if (o.source.empty())
      throw Error("no kernel source", kUsageError);
    if (o.target.empty())
      throw Error("--target cpu|cuda is required", kUsageError);
    if (o.generateOnly && o.work.empty())
      throw Error("--generate-only needs --work DIR (the folder to resume from)", kUsageError);
    if (!o.generateOnly && o.shapes.empty())
      throw Error("no shapes to tune for: give --shapes FILE or --shape LINE", kUsageError);
  }
  if (!o.generateOnly && o.output.empty())
    throw Error("-o TABLE.json is required", kUsageError);
  if (!o.cudaArch.empty() && o.target == "cpu")
    throw Error("--cuda-arch needs --target cuda", kUsageError);
  return o;
}

} // namespace

int main(int argc, char **argv) {
  bool help = false;
  ntc::tune::Options options;
  try {
    options = parseArgs(argc, argv, help);
  } catch (const Error &e) {
    std::fprintf(stderr, "ntc-tune: error: %s\n(ntc-tune --help lists the options)\n", e.what());
    return e.status();
  }
  if (help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  return ntc::tune::runTune(options);
}
