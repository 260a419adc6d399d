// Unit tests of tuning configurations (compiler/passes/ConfigSpace.cpp) and of reading tuning
// tables (compiler/tuning/TuningTable.cpp) on a kernel of two meta-parameters and one tensor.
#include "passes/Passes.h"
#include "tuning/TuningTable.h"

#include <catch2/catch.hpp>

using namespace ntc;

namespace {

/// A kernel `k(x)` of a float32 vector with meta-parameters BM in [16, 64] and BN in [32, 32].
kir::Function vectorKernel() {
  kir::Function f;
  f.spec.name = "k";
  ParamSpec x;
  x.name = "x";
  x.ndim = 1;
  x.dtype = DType::Float32;
  x.upperBounds.assign(1, std::nullopt);
  x.constexprDims.assign(1, false);
  f.spec.params.push_back(x);
  f.spec.metas = {{"BM", 16, 64}, {"BN", 32, 32}};
  return f;
}

/// A table of `entries` (JSON objects).
std::string table(const std::string &entries) {
  return "{\"format\": \"ntc-tuning-table\", \"version\": 1, \"entries\": [" + entries + "]}";
}

/// A CPU entry of kernel k for a bucket of `size` elements taking `config`.
std::string cpuEntry(const std::string &hash, int64_t size, const std::string &config) {
  return "{\"kernel\": \"k\", \"hash\": \"" + hash +
         "\", \"target\": \"cpu\", \"arch\": \"cpu\", \"alignment\": \"aligned16\", \"bucket\": "
         "{\"x\": [" +
         std::to_string(size) + "]}, \"config\": \"" + config + "\"}";
}

} // namespace

TEST_CASE("configuration ids name the meta-parameters in order, then the knobs", "[config]") {
  const kir::Function f = vectorKernel();
  passes::Config c;
  c.metas = {{"BN", 32}, {"BM", 64}};
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32");
  c.knobs.threads = 256;
  c.knobs.stages = 4;
  c.knobs.bandRows = 8;
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32,warps=8,stages=4,group=8");
  const passes::Config back = passes::parseConfigId(f.spec, passes::configId(f.spec, c));
  CHECK(back.metas == c.metas);
  CHECK(back.knobs.threads == 256);
  CHECK(back.knobs.stages == 4);
  CHECK(back.knobs.bandRows == 8);
  CHECK(back.knobs.overlap == 0);
  c.knobs.overlap = 1;
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.overlap == 1);
  c.knobs.overlap = 2;
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32,warps=8,stages=4,group=8,overlap=2");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.overlap == 2);
  c.knobs.overlap = 1;
  c.knobs.tma = 1;
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1,tma=1");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.tma == 1);
  c.knobs.cluster = 2;
  CHECK(passes::configId(f.spec, c) ==
        "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1,tma=1,cluster=2");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.cluster == 2);
  c.knobs.cluster = 1; // a cluster of one is no cluster: the id leaves it out
  CHECK(passes::configId(f.spec, c) == "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1,tma=1");
  c.knobs.persistent = 1;
  CHECK(passes::configId(f.spec, c) ==
        "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1,tma=1,persistent=1");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.persistent == 1);
  c.knobs.persistent = 0;
  c.knobs.release = 1;
  CHECK(passes::configId(f.spec, c) ==
        "BM=64,BN=32,warps=8,stages=4,group=8,overlap=1,tma=1,release=1");
  CHECK(passes::parseConfigId(f.spec, passes::configId(f.spec, c)).knobs.release == 1);
  CHECK(passes::configId(vectorKernel().spec, passes::Config{}) == "none");
}

TEST_CASE("a bad configuration id says what is wrong", "[config]") {
  const KernelSpec spec = vectorKernel().spec;
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=24,BN=32"),
                    "BM=24 is not a power of two in [16, 64]");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16"), "it does not give BN");
  CHECK_THROWS_WITH(
      passes::parseConfigId(spec, "BM=16,BN=32,lanes=2"),
      "'lanes' is neither a meta-parameter of k nor warps, stages, group, overlap, tma, cluster, "
      "persistent, release, minmax, turns or producer");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=sixteen,BN=32"),
                    "'BM=sixteen' is not NAME=INTEGER");
  CHECK_THROWS_WITH(
      passes::parseConfigId(spec, "BM=16,BN=32,warps=64"),
      "warps=64 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap 0-2, "
      "tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns 0-1, producer 0-1)");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,overlap=3"),
                    "overlap=3 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap "
                    "0-2, tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns "
                    "0-1, producer 0-1)");
  CHECK_THROWS_WITH(
      passes::parseConfigId(spec, "BM=16,BN=32,tma=3"),
      "tma=3 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap 0-2, "
      "tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns 0-1, producer 0-1)");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,release=1"),
                    "release=1 needs tma=1 (the last warp to release a stage issues its TMA "
                    "copies)");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,release=2"),
                    "release=2 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap "
                    "0-2, tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns "
                    "0-1, producer 0-1)");
  // minmax=1: float maximum/minimum as one instruction (a round trip through the id).
  CHECK(passes::parseConfigId(spec, "BM=16,BN=32,minmax=1").knobs.minmax == 1);
  CHECK(passes::configId(spec, passes::parseConfigId(spec, "BM=16,BN=32,tma=1,minmax=1")) ==
        "BM=16,BN=32,tma=1,minmax=1");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,minmax=2"),
                    "minmax=2 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap "
                    "0-2, tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns "
                    "0-1, producer 0-1)");
  // turns=1: the warpgroups take turns at a TMA program's products, released rings included.
  CHECK(passes::configId(spec, passes::parseConfigId(spec, "BM=16,BN=32,tma=1,turns=1")) ==
        "BM=16,BN=32,tma=1,turns=1");
  CHECK(
      passes::configId(spec, passes::parseConfigId(spec, "BM=16,BN=32,tma=1,release=1,turns=1")) ==
      "BM=16,BN=32,tma=1,release=1,turns=1");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,turns=1"),
                    "turns=1 needs tma=1 and no persistent=1 (the warpgroups take turns at the "
                    "products of a TMA program's loops)");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,tma=1,persistent=1,turns=1"),
                    "turns=1 needs tma=1 and no persistent=1 (the warpgroups take turns at the "
                    "products of a TMA program's loops)");
  // producer=1: a producer warpgroup issues a released TMA loop's copies.
  CHECK(passes::configId(
            spec, passes::parseConfigId(spec, "BM=16,BN=32,tma=1,release=1,turns=1,producer=1")) ==
        "BM=16,BN=32,tma=1,release=1,turns=1,producer=1");
  for (const char *id : {"BM=16,BN=32,producer=1", "BM=16,BN=32,tma=1,producer=1",
                         "BM=16,BN=32,tma=1,persistent=1,producer=1"})
    CHECK_THROWS_WITH(passes::parseConfigId(spec, id),
                      "producer=1 needs tma=1 and release=1 (the producer warpgroup issues the "
                      "copies of a released TMA loop)");
  // With persistent=1 the producer serves every program of its block.
  CHECK(passes::parseConfigId(spec, "BM=16,BN=32,tma=1,release=1,persistent=1,producer=1")
            .knobs.producer == 1);
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,cluster=2"),
                    "cluster=2 needs tma=1 (the programs of a cluster share TMA copies)");
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,persistent=1"),
                    "persistent=1 needs tma=1 (its producer issues TMA copies)");
  // Persistent blocks in clusters of two (their producers multicast the shared tile).
  CHECK(passes::parseConfigId(spec, "BM=16,BN=32,tma=1,cluster=2,persistent=1").knobs.cluster == 2);
  CHECK_THROWS_WITH(passes::parseConfigId(spec, "BM=16,BN=32,cluster=4"),
                    "cluster=4 is out of range (warps 1-32, stages 2-16, group 1-1024, overlap "
                    "0-2, tma 0-1, cluster 1-2, persistent 0-1, release 0-1, minmax 0-1, turns "
                    "0-1, producer 0-1)");
}

TEST_CASE("the CPU space is every meta-parameter combination, the default first", "[config]") {
  const kir::Function f = vectorKernel();
  const std::vector<passes::Config> space =
      passes::configSpace(f, passes::Target::Cpu, defaultGpuTarget());
  REQUIRE(space.size() == 3);
  CHECK(passes::configId(f.spec, space[0]) == "BM=16,BN=32");
  CHECK(passes::configId(f.spec, space[1]) == "BM=32,BN=32");
  CHECK(passes::configId(f.spec, space[2]) == "BM=64,BN=32");
}

TEST_CASE("a kernel's hash changes with what it computes", "[config]") {
  kir::Function f = vectorKernel();
  const std::string hash = passes::kernelHash(f);
  CHECK(hash.size() == 16);
  CHECK(passes::kernelHash(vectorKernel()) == hash);
  f.spec.metas[0].hi = 128;
  CHECK(passes::kernelHash(f) != hash);
  f = vectorKernel();
  f.spec.params[0].dtype = DType::Float16;
  CHECK(passes::kernelHash(f) != hash);
}

TEST_CASE("a tuning table gives the default and the configurations it names", "[tuning]") {
  const kir::Function f = vectorKernel();
  const std::string hash = passes::kernelHash(f);
  std::vector<tuning::TableProblem> problems;
  const codegen::Tunings t = tuning::parseTuningTable(
      table(cpuEntry(hash, 1024, "BM=32,BN=32") + "," + cpuEntry(hash, 1 << 20, "BM=64,BN=32") +
            "," + cpuEntry(hash, 64, "BM=16,BN=32")),
      "t.json", {f}, passes::Target::Cpu, defaultGpuTarget(), problems);
  CHECK(problems.empty());
  REQUIRE(t.count("k"));
  const passes::KernelTuning &k = t.at("k");
  REQUIRE(k.configs.size() == 3); // the default (BM=16) is not repeated
  CHECK(passes::configId(f.spec, k.configs[0]) == "BM=16,BN=32");
  CHECK(passes::configId(f.spec, k.configs[1]) == "BM=32,BN=32");
  CHECK(passes::configId(f.spec, k.configs[2]) == "BM=64,BN=32");
  REQUIRE(k.shapes.size() == 3);
  CHECK(k.shapes[0].config == 1);
  CHECK(k.shapes[0].bucket == std::vector<int64_t>{1024});
  CHECK(k.shapes[0].arch == 0);
  CHECK(k.shapes[0].aligned16);
  CHECK(k.shapes[1].config == 2);
  CHECK(k.shapes[2].config == 0);
}

TEST_CASE("tuning table problems", "[tuning]") {
  const kir::Function f = vectorKernel();
  const std::string hash = passes::kernelHash(f);
  auto read = [&](const std::string &text, std::vector<tuning::TableProblem> &problems) {
    return tuning::parseTuningTable(text, "t.json", {f}, passes::Target::Cpu, defaultGpuTarget(),
                                    problems);
  };
  std::vector<tuning::TableProblem> problems;
  SECTION("a changed kernel keeps its default, with a warning") {
    CHECK(read(table(cpuEntry("0123456789abcdef", 1024, "BM=32,BN=32")), problems).empty());
    REQUIRE(problems.size() == 1);
    CHECK_FALSE(problems[0].error);
    CHECK(problems[0].message.find("kernel 'k' has changed since it was tuned") !=
          std::string::npos);
  }
  SECTION("another target's and another kernel's entries are skipped") {
    std::string cuda = cpuEntry(hash, 1024, "BM=32,BN=32");
    cuda.replace(cuda.find("\"cpu\""), 5, "\"cuda\"");
    std::string other = cpuEntry(hash, 1024, "BM=32,BN=32");
    other.replace(other.find("\"k\""), 3, "\"q\"");
    CHECK(read(table(cuda + "," + other), problems).empty());
    CHECK(problems.empty());
  }
  SECTION("an unknown configuration is an error") {
    CHECK(read(table(cpuEntry(hash, 1024, "BM=8,BN=32")), problems).empty());
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].error);
    CHECK(problems[0].message ==
          "t.json: entry 0: configuration \"BM=8,BN=32\": BM=8 is not a power of two in [16, 64]");
  }
  SECTION("a bucket of the wrong rank is an error") {
    std::string entry = cpuEntry(hash, 1024, "BM=32,BN=32");
    entry.replace(entry.find("[1024]"), 6, "[32, 32]");
    CHECK(read(table(entry), problems).empty());
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message == "t.json: entry 0: \"bucket\" needs 1 sizes for 'x'");
  }
  SECTION("text that is not a table") {
    CHECK(read("[1, 2", problems).empty());
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].message.rfind("t.json: not JSON", 0) == 0);
  }
}

TEST_CASE("a tuned configuration runs on the architectures it was measured on", "[tuning]") {
  const kir::Function f = vectorKernel();
  const std::string hash = passes::kernelHash(f);
  const GpuTarget gpu = parseGpuTarget({"80,90a"});
  const std::string tuned = passes::defaultConfig(f, passes::Target::Cuda, gpu).metas.at("BM") == 32
                                ? "BM=64,BN=32"
                                : "BM=32,BN=32";
  auto cudaEntry = [&](const std::string &arch, int64_t size) {
    std::string e = cpuEntry(hash, size, tuned);
    e.replace(e.find("\"target\": \"cpu\""), 15, "\"target\": \"cuda\"");
    e.replace(e.find("\"arch\": \"cpu\""), 13, "\"arch\": \"" + arch + "\"");
    return e;
  };
  std::vector<tuning::TableProblem> problems;
  const codegen::Tunings t =
      tuning::parseTuningTable(table(cudaEntry("sm_90", 1024) + "," + cudaEntry("sm_80", 4096) +
                                     "," + cudaEntry("sm_90", 1 << 20)),
                               "t.json", {f}, passes::Target::Cuda, gpu, problems);
  CHECK(problems.empty());
  REQUIRE(t.count("k"));
  const passes::KernelTuning &k = t.at("k");
  REQUIRE(k.configs.size() == 2);
  CHECK(k.configs[0].archs.empty()); // the default runs everywhere
  CHECK(k.configs[1].archs == std::vector<int>{90, 80});
  CHECK(passes::configuredTarget(gpu, k.configs[1]).str() == "sm_80, sm_90a");
  passes::Config hopper = k.configs[1];
  hopper.archs = {90};
  CHECK(passes::configuredTarget(gpu, hopper).str() == "sm_90a");
  hopper.archs = {75}; // none of the target's architectures: planned for all of them
  CHECK(passes::configuredTarget(gpu, hopper).str() == "sm_80, sm_90a");
}
