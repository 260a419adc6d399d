//===- Commands.h - what the ntc driver does ------------------------------===//
#pragma once

#include "frontend/Frontend.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ntc {

/// Parsed command line of ntc.
struct DriverOptions {
  std::vector<std::string> inputs;
  std::string outputDir;
  bool outputDirGiven = false; ///< -o was given (possibly as "")
  std::string target = "cuda";
  bool targetGiven = false; ///< --target was given
  std::vector<std::string> emit;
  std::vector<std::string> kernels;
  std::vector<std::string> cudaArchs;
  bool printIrAfterAll = false;
  bool dumpLayout = false;
  std::string evalName;
  std::string visualizeName;        ///< --visualize: draw this parameter (SVG to -o FILE or stdout)
  std::vector<std::string> shapes;  ///< NAME=AxB
  std::vector<std::string> defines; ///< SYMBOL=V
  bool listConfigs = false;         ///< --list-configs: print the configuration space
  std::string config;               ///< --config ID: compile this configuration alone
  std::string tuningTable;          ///< --tuning-table FILE: compile the table's choices in
  FrontendOptions frontend;
};

/// Run the driver; returns the process exit status (0, 1 user error, 2 usage error).
int runDriver(const DriverOptions &options, std::ostream &out, std::ostream &err);

} // namespace ntc
