//===- Tune.h - ntc-tune's steps: generate, build, measure, write ---------===//
#ifndef NTC_TUNE_TUNE_H
#define NTC_TUNE_TUNE_H

#include <string>
#include <utility>
#include <vector>

namespace ntc::tune {

/// The command line.
struct Options {
  std::string source;               ///< the kernel source (not with --resume)
  std::string target;               ///< cpu or cuda
  std::string cudaArch;             ///< --cuda-arch: the GPU the candidates are built for ("": 90a)
  std::vector<std::string> kernels; ///< --kernel: only these
  /// --shapes FILE (first = true) and --shape LINE (first = false), in order.
  std::vector<std::pair<bool, std::string>> shapes;
  std::string output; ///< -o: the table
  int jobs = 0;       ///< parallel builds (0: the number of cores)
  std::string work;   ///< --work (or --resume): the work folder
  bool keepWork = false;
  bool generateOnly = false;
  bool resume = false;
  std::string ntc;                    ///< --ntc
  std::string cxx;                    ///< --cxx
  std::string nvcc;                   ///< --nvcc
  std::vector<std::string> configs;   ///< --configs: only these (and the default)
  std::string runtimeInclude;         ///< --runtime-include
  std::string runtimeSrc;             ///< --runtime-src
  std::string dlpackInclude;          ///< --dlpack-include
  int rounds = 0;                     ///< --rounds (0: automatic)
  std::vector<std::string> clangArgs; ///< after `--`
};

/// Runs ntc-tune; returns the exit status (0, 1, 2, or 130 when interrupted). Errors are
/// printed on stderr, the summary on stdout.
int runTune(const Options &options);

} // namespace ntc::tune

#endif // NTC_TUNE_TUNE_H
