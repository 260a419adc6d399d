// The CUDA target model (compiler/target/GpuTarget.h): architecture names, the limits every
// compiled architecture honours, and the architecture heuristics tune for.
#include "target/GpuTarget.h"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace ntc;

TEST_CASE("architecture names and their shared memory", "[target]") {
  for (const char *name : {"90a", "sm_90a", "90a-real", "compute_90a"}) {
    INFO(name);
    auto a = gpuArch(name);
    REQUIRE(a);
    CHECK(a->major == 9);
    CHECK(a->minor == 0);
    CHECK(a->archSpecific);
    CHECK(a->sharedPerBlock == 227 * 1024);
  }
  CHECK(gpuArch("80")->sharedPerBlock == 163 * 1024);
  CHECK(gpuArch("86")->sharedPerMultiprocessor == 100 * 1024);
  CHECK_FALSE(gpuArch("70")); // no cp.async / mma m16n8k16
  CHECK_FALSE(gpuArch("75"));
  CHECK_FALSE(gpuArch("nine"));
  CHECK_FALSE(gpuArch(""));
}

TEST_CASE("a target is limited by its smallest architecture and tuned for its newest", "[target]") {
  GpuTarget t = parseGpuTarget({"80,90a"});
  REQUIRE(t.archs.size() == 2);
  CHECK(t.sharedPerBlock() == 163 * 1024);
  CHECK(t.tuning().name == "90a");
  CHECK(t.hasHopper());
  CHECK(t.str() == "sm_80, sm_90a");
  CHECK(parseGpuTarget({"90a"}).hasHopper());
  CHECK_FALSE(parseGpuTarget({"80,86"}).hasHopper());
  CHECK_FALSE(parseGpuTarget({"90"}).hasHopper()); // sm_90 has TMA but no wgmma
  CHECK(parseGpuTarget({"80;86"}).sharedPerBlock() == 99 * 1024);
  CHECK(parseGpuTarget({}).str() == defaultGpuTarget().str());
  CHECK(parseGpuTarget({"native"}).str() == "sm_80, sm_90a");
  CHECK_THROWS_AS(parseGpuTarget({"80,70"}), std::invalid_argument);
}
