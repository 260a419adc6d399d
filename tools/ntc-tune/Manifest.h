//===- Manifest.h - the work folder's description (WORK/manifest.txt) -----===//
//
// What ntc-tune's later steps (build, measure, write) need from the first (generate), so that
// they can run on another machine (`--generate-only`, then `--resume WORK` where ntc cannot
// run). A line-based text file; paths in it are relative to the work folder.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_MANIFEST_H
#define NTC_TUNE_MANIFEST_H

#include "Shapes.h"

#include <string>
#include <utility>
#include <vector>

namespace ntc::tune {

/// One configuration of a kernel.
struct ConfigEntry {
  std::string id;         ///< as `ntc --list-configs` prints it (opaque)
  bool isDefault = false; ///< the kernel's default configuration
  std::string dir;        ///< its folder, relative to the work folder ("matmul/3")
};

/// One kernel and its configurations.
struct KernelEntry {
  std::string name;                 ///< kernel name
  std::string hash;                 ///< 16 hex digits from `ntc --list-configs`
  std::string arch;                 ///< architectures (or "cpu") from `ntc --list-configs`
  std::vector<ConfigEntry> configs; ///< default first
  /// Configurations dropped so far, with the reason (they go into the table's "rejected").
  std::vector<std::pair<std::string, std::string>> rejected;

  /// The default configuration (nullptr when there is none).
  const ConfigEntry *defaultConfig() const;
};

/// The work folder's description.
struct Manifest {
  std::string target;               ///< "cpu" or "cuda"
  std::string cudaArch;             ///< --cuda-arch (e.g. "90a"; the code is built for this)
  std::string ntcVersion;           ///< `ntc --version`, or "" when it has none
  std::string source;               ///< the kernel source (for messages)
  std::string stem;                 ///< generated files are <stem>.h and <stem>.cpp|.cu
  std::vector<KernelEntry> kernels; ///< the kernels to tune
  std::vector<ShapeLine> shapes;    ///< the calls to tune for

  /// The kernel named `name`, or nullptr.
  const KernelEntry *kernel(const std::string &name) const;
};

/// The manifest as text.
std::string writeManifest(const Manifest &manifest);
/// Reads a manifest's text; throws Error naming `path` and the line on a bad one.
Manifest readManifest(const std::string &text, const std::string &path);

/// Reads the output of `ntc --list-configs` into kernels (without folders); throws Error on
/// output it does not understand or a kernel without exactly one default configuration.
std::vector<KernelEntry> parseConfigList(const std::string &text);

} // namespace ntc::tune

#endif // NTC_TUNE_MANIFEST_H
