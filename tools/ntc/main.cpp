//===- main.cpp - the ntc command-line driver -----------------------------===//
//
// ntc [options] <kernel.cpp>... [-- <clang args>]
// Exit status: 0 success, 1 user error (diagnostics printed), 2 usage error.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
  // Everything after `--` goes to Clang untouched.
  std::vector<std::string> clangArgs;
  int ntcArgc = argc;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) {
      clangArgs.assign(argv + i + 1, argv + argc);
      ntcArgc = i;
      break;
    }

  ntc::DriverOptions o;
  o.frontend.clangArgs = clangArgs;
  CLI::App app{"ntc: ahead-of-time compiler for arrange-and-apply tile kernels", "ntc"};
  // `ntc --version` prints "ntc <version>" (ntc-tune records it in a tuning table's provenance).
  app.set_version_flag("--version", std::string("ntc ") + NTC_VERSION);
  // Inputs are checked by the driver (a missing or unreadable file is a user error, status 1).
  app.add_option("inputs", o.inputs, "kernel sources")->required();
  app.add_option("-o,--output-dir", o.outputDir, "directory for generated files");
  app.add_option("--target", o.target, "code generation target")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  app.add_option("--emit", o.emit, "what to write: cu,h,cpp,layout,ir")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--kernel", o.kernels, "only these kernels")->allow_extra_args(false);
  app.add_option("--cuda-arch", o.cudaArchs,
                 "CUDA architectures the .cu is planned for (80,90a; default: 80 and 90a)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--depfile", o.frontend.depfile, "write a Make depfile");
  app.add_flag("--print-ir-after-all", o.printIrAfterAll, "print the IR after every pass");
  app.add_flag("--dump-layout", o.dumpLayout, "print every arranged parameter level by level");
  app.add_option("--eval", o.evalName, "print a parameter's index array as JSON");
  app.add_option("--visualize", o.visualizeName,
                 "draw a parameter's tiles as SVG (to the file -o names, else stdout)");
  app.add_option("--shape", o.shapes, "source sizes, NAME=AxBxC")->allow_extra_args(false);
  app.add_option("--define", o.defines,
                 "meta-parameter values, SYMBOL=V (code is generated for them)")
      ->allow_extra_args(false);
  app.add_flag("--list-configs", o.listConfigs,
               "print each kernel's tuning configurations (the default first) and its hash");
  app.add_option("--config", o.config,
                 "compile this configuration (an id of --list-configs) instead of the default");
  app.add_option("--tuning-table", o.tuningTable,
                 "compile the configurations a tuning table chose, dispatched by shape");
  app.add_option("--resource-dir", o.frontend.resourceDir, "Clang resource directory");
  try {
    app.parse(ntcArgc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  o.outputDirGiven = app.count("-o") > 0;
  o.targetGiven = app.count("--target") > 0;
  return ntc::runDriver(o, std::cout, std::cerr);
}
