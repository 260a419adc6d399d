// ntc-tune's data: dtype conversions, random inputs, poison, and the output comparison.
#include "Harness.h"
#include "Dtype.h"
#include "Manifest.h"
#include "Util.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace ntc::tune;

namespace {

const ntc_param_info_t kParams[] = {
    {"input", NTC_PARAM_TENSOR, 2, {kDLFloat, 16, 1}, 0},
    {"index", NTC_PARAM_TENSOR, 1, {kDLInt, 64, 1}, 0},
    {"output", NTC_PARAM_TENSOR, 2, {kDLFloat, 32, 1}, NTC_PARAM_WRITTEN},
    {"count", NTC_PARAM_TENSOR, 1, {kDLInt, 32, 1}, NTC_PARAM_WRITTEN},
};
const ntc_kernel_info_t kInfo = {"k", 4, kParams, "cpu", nullptr, nullptr, 0, nullptr};

ShapeCall sampleCall() {
  return resolveShape(parseShapeLine("k input=3x5 index=7 output=2x3 count=4", "t"), kInfo);
}

float outputAt(const HostTensors &data, size_t i) {
  float f;
  std::memcpy(&f, &data[2][i * 4], 4);
  return f;
}

void setOutput(HostTensors &data, size_t i, float f) { std::memcpy(&data[2][i * 4], &f, 4); }

} // namespace

TEST_CASE("harness: float16 and bfloat16 conversions", "[tune]") {
  CHECK(floatToHalf(1.0f) == 0x3C00);
  CHECK(floatToHalf(-2.0f) == 0xC000);
  CHECK(floatToHalf(65504.0f) == 0x7BFF);
  CHECK(floatToHalf(65520.0f) == 0x7C00); // rounds to infinity
  CHECK(floatToHalf(5.960464477539063e-08f) == 0x0001);
  CHECK(floatToHalf(1.0f + 1.0f / 2048) == 0x3C00); // a tie rounds to even
  CHECK(halfToFloat(0x3555) == Approx(0.333251953125f));
  CHECK(std::isnan(halfToFloat(0x7E00)));
  CHECK(std::isinf(halfToFloat(0x7C00)));
  CHECK(floatToBfloat16(1.0f) == 0x3F80);
  CHECK(bfloat16ToFloat(0xC0A0) == -5.0f);
  for (uint32_t bits = 0; bits < 0x7C00; bits += 7)
    CHECK(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))) == bits);
  DLDataType e4m3{NTC_DL_FLOAT8_E4M3FN, 8, 1};
  unsigned char byte = 0;
  storeFromDouble(e4m3, 448.0, &byte);
  CHECK(loadAsDouble(e4m3, &byte) == 448.0);
  storeFromDouble(e4m3, std::nan(""), &byte);
  CHECK(byte == 0x7F);
}

TEST_CASE("harness: dtype names", "[tune]") {
  DLDataType t{};
  REQUIRE(dtypeFromName("bfloat16", t));
  CHECK(dtypeName(t) == "bfloat16");
  CHECK(dtypeName({NTC_DL_BOOL, 8, 1}) == "bool");
  CHECK(dtypeName({kDLUInt, 16, 1}) == "uint16");
  CHECK(dtypeName({kDLFloat, 32, 4}) == "dtype(code=2, bits=32, lanes=4)");
  CHECK_FALSE(dtypeFromName("half", t));
}

TEST_CASE("harness: random inputs are reproducible, outputs poisoned", "[tune]") {
  ShapeCall call = sampleCall();
  HostTensors a = makeHostTensors(kInfo, call, 7);
  HostTensors b = makeHostTensors(kInfo, call, 7);
  HostTensors c = makeHostTensors(kInfo, call, 8);
  CHECK(a == b);
  CHECK(a[0] != c[0]);
  REQUIRE(a[0].size() == 15 * 2);
  for (size_t i = 0; i < 15; ++i) {
    float v = loadAsDouble({kDLFloat, 16, 1}, &a[0][i * 2]);
    CHECK(v >= -1.0f);
    CHECK(v <= 1.0f);
  }
  for (size_t i = 0; i < 7; ++i) {
    int64_t v;
    std::memcpy(&v, &a[1][i * 8], 8);
    CHECK(v >= -4);
    CHECK(v <= 4);
  }
  for (size_t i = 0; i < 6; ++i)
    CHECK(std::isnan(outputAt(a, i)));
  CHECK(a[3] == std::vector<unsigned char>(16, 0xA5));
}

TEST_CASE("harness: a large output compared block by block finds its one difference",
          "[tune]") {
  // 3000 × 5 float32 outputs (several 4096-byte blocks): identical blocks are skipped whole,
  // and a difference in the middle of a later block is still found, at its own index.
  ShapeCall call =
      resolveShape(parseShapeLine("k input=3x5 index=7 output=3000x5 count=4", "t"), kInfo);
  HostTensors expected = makeHostTensors(kInfo, call, 3);
  for (size_t i = 0; i < 15000; ++i)
    setOutput(expected, i, static_cast<float>(i % 97));
  std::memset(expected[3].data(), 0, expected[3].size());
  HostTensors actual = expected;
  CHECK(compareOutputs(kInfo, call, expected, actual).empty());
  setOutput(actual, 12345, 1000.0f);
  CHECK(compareOutputs(kInfo, call, expected, actual) ==
        "output differs from the default at output[2469, 0]: 1000 against 26");
}

TEST_CASE("harness: outputs compared with dtype tolerances", "[tune]") {
  ShapeCall call = sampleCall();
  HostTensors expected = makeHostTensors(kInfo, call, 1);
  for (size_t i = 0; i < 6; ++i)
    setOutput(expected, i, 1.25f * static_cast<float>(i));
  std::memset(expected[3].data(), 0, expected[3].size());
  HostTensors actual = expected;
  CHECK(compareOutputs(kInfo, call, expected, actual).empty());
  setOutput(actual, 5, 6.25f * (1 + 5e-5f)); // within float32's rtol 1e-4
  CHECK(compareOutputs(kInfo, call, expected, actual).empty());
  setOutput(actual, 4, 3.5f);
  CHECK(compareOutputs(kInfo, call, expected, actual) ==
        "output differs from the default at output[1, 1]: 3.5 against 5");
  actual = expected;
  setOutput(actual, 0, std::nanf(""));
  CHECK(compareOutputs(kInfo, call, expected, actual) ==
        "output differs from the default at output[0, 0]: nan against 0");
  setOutput(expected, 0, std::nanf("")); // both NaN: the same
  CHECK(compareOutputs(kInfo, call, expected, actual).empty());
  actual[3][4] = 1; // integers: exactly
  CHECK(compareOutputs(kInfo, call, expected, actual) ==
        "output differs from the default at count[1]: 1 against 0");
}

TEST_CASE("manifest: ntc --list-configs output and the manifest's round trip", "[tune]") {
  std::vector<KernelEntry> kernels =
      parseConfigList("# comment\n"
                      "kernel matmul hash 9f86d081884c7d65 target cuda arch sm_80,sm_90a\n"
                      "matmul M=128,warps=8 default\n"
                      "matmul M=64,warps=4\n"
                      "kernel add hash 0123456789abcdef target cuda arch sm_80,sm_90a\n"
                      "add B=1024 default\n");
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].hash == "9f86d081884c7d65");
  CHECK(kernels[0].arch == "sm_80,sm_90a");
  REQUIRE(kernels[0].configs.size() == 2);
  CHECK(kernels[0].configs[0].isDefault);
  CHECK(kernels[0].defaultConfig()->id == "M=128,warps=8");
  CHECK_THROWS_AS(parseConfigList("kernel k hash 1 target cpu arch cpu\nk a\n"), Error);
  CHECK_THROWS_AS(parseConfigList("k a default\n"), Error);
  CHECK_THROWS_AS(
      parseConfigList("kernel k hash 1 target cpu arch cpu\nk a default\nk b default\n"), Error);

  Manifest m;
  m.target = "cuda";
  m.cudaArch = "90a";
  m.ntcVersion = "ntc 0.1.0";
  m.source = "/src/matmul.cpp";
  m.stem = "matmul";
  m.kernels = kernels;
  m.kernels[0].configs[0].dir = "matmul/0";
  m.kernels[0].configs[1].dir = "matmul/3";
  m.kernels[1].configs[0].dir = "add/0";
  m.kernels[0].rejected.emplace_back("M=32,warps=2", "ntc failed: error: too much\nshared memory");
  m.shapes.push_back(parseShapeLine("matmul lhs=4x4 rhs=4x4 output=4x4", "shapes.txt:2"));
  Manifest back = readManifest(writeManifest(m), "manifest.txt");
  CHECK(back.target == "cuda");
  CHECK(back.ntcVersion == "ntc 0.1.0");
  CHECK(back.stem == "matmul");
  REQUIRE(back.kernels.size() == 2);
  CHECK(back.kernels[0].configs[1].dir == "matmul/3");
  CHECK(back.kernels[0].configs[1].id == "M=64,warps=4");
  CHECK_FALSE(back.kernels[0].configs[1].isDefault);
  REQUIRE(back.kernels[0].rejected.size() == 1);
  CHECK(back.kernels[0].rejected[0].second == "ntc failed: error: too much | shared memory");
  REQUIRE(back.shapes.size() == 1);
  CHECK(back.shapes[0].origin == "shapes.txt:2");
  CHECK(back.shapes[0].values.size() == 3);
  CHECK_THROWS_AS(readManifest("hello\n", "m.txt"), Error);
}
