//===- Steps.h - what ntc-tune's steps share (private to ntc-tune) --------===//
#ifndef NTC_TUNE_STEPS_H
#define NTC_TUNE_STEPS_H

#include "Device.h"
#include "Library.h"
#include "Manifest.h"
#include "Progress.h"
#include "Tune.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ntc::tune {

/// A configuration that was built and loaded.
struct Candidate {
  const ConfigEntry *config = nullptr; ///< its manifest entry
  std::unique_ptr<Library> library;    ///< its library
};

/// State shared by the steps.
struct Context {
  const Options &options; ///< the command line
  Manifest manifest;      ///< the work folder's description
  std::string work;       ///< the work folder (absolute)
  Progress progress;      ///< progress on stderr
  int jobs = 1;           ///< parallel jobs
  /// Where the candidates run; opened before any library is loaded (CUDA libraries resolve
  /// their libcudart.so to the one it loaded).
  std::unique_ptr<Device> device;
  /// Per kernel: its loaded candidates, default first.
  std::map<std::string, std::vector<Candidate>> candidates;
  /// Per kernel: configurations dropped before measuring (generation, build, loading).
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> rejected;

  /// A context for `options`.
  explicit Context(const Options &o) : options(o) {}
};

/// The nvcc to run: --nvcc, else nvcc in PATH, else /usr/local/cuda/bin/nvcc.
std::string findNvcc(const Options &o);

/// Step 1: `ntc --list-configs`, then one `ntc --config` per configuration into the work
/// folder; fills the manifest (written to WORK/manifest.txt).
void generateStep(Context &ctx, const std::vector<ShapeLine> &shapes);

/// Opens the device of the manifest's target (the CUDA runtime of findNvcc()'s toolkit).
void openDevice(Context &ctx);

/// Step 2: compiles every configuration into WORK/<kernel>/<n>/lib.so (the defaults first,
/// then the others in parallel) and loads them; `shapes` are checked against the defaults
/// before the others are built.
void buildStep(Context &ctx, const std::vector<ShapeLine> &shapes);

/// Steps 3 and 4: measures every shape and writes the table after each; returns the exit
/// status (1 when a shape could not be measured).
int measureStep(Context &ctx, const std::vector<ShapeLine> &shapes);

} // namespace ntc::tune

#endif // NTC_TUNE_STEPS_H
