//===- GpuTarget.cpp - what the CUDA backend may assume of its GPUs -------===//
#include "target/GpuTarget.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace ntc {

namespace {

constexpr int64_t KiB = 1024;

/// Shared memory per block (opt-in) and per SM, by compute capability (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability"), and the SM count of the
/// architecture's flagship part (A100, RTX 3090, Orin, RTX 4090, H100/H200 SXM, B200, B300,
/// RTX 5090), which only tuning heuristics read.
struct Limits {
  int major, minor;
  int64_t perBlock, perMultiprocessor;
  int multiprocessors;
};

constexpr Limits kLimits[] = {
    {8, 0, 163 * KiB, 164 * KiB, 108},  {8, 6, 99 * KiB, 100 * KiB, 82},
    {8, 7, 163 * KiB, 164 * KiB, 16},   {8, 9, 99 * KiB, 100 * KiB, 128},
    {9, 0, 227 * KiB, 228 * KiB, 132},  {10, 0, 227 * KiB, 228 * KiB, 148},
    {10, 3, 227 * KiB, 228 * KiB, 148}, {12, 0, 99 * KiB, 100 * KiB, 170},
};

bool isDigits(const std::string &s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string strip(std::string name) {
  for (const char *prefix : {"sm_", "compute_"})
    if (name.rfind(prefix, 0) == 0)
      name = name.substr(std::string(prefix).size());
  for (const char *suffix : {"-real", "-virtual"}) {
    std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0)
      name = name.substr(0, name.size() - s.size());
  }
  return name;
}

} // namespace

int64_t GpuTarget::sharedPerBlock() const {
  int64_t least = archs.front().sharedPerBlock;
  for (const GpuArch &a : archs)
    least = std::min(least, a.sharedPerBlock);
  return least;
}

const GpuArch &GpuTarget::tuning() const {
  return *std::max_element(archs.begin(), archs.end(), [](const GpuArch &a, const GpuArch &b) {
    return std::tie(a.major, a.minor, a.archSpecific) < std::tie(b.major, b.minor, b.archSpecific);
  });
}

bool GpuTarget::hasHopper() const {
  return std::any_of(archs.begin(), archs.end(),
                     [](const GpuArch &a) { return a.major == 9 && a.archSpecific; });
}

std::string GpuTarget::str() const {
  std::string s;
  for (const GpuArch &a : archs)
    s += (s.empty() ? "sm_" : ", sm_") + std::to_string(a.major) + std::to_string(a.minor) +
         (a.archSpecific ? "a" : "");
  return s;
}

std::optional<GpuArch> gpuArch(const std::string &given) {
  std::string name = strip(given);
  bool specific = !name.empty() && (name.back() == 'a' || name.back() == 'f');
  std::string digits = specific ? name.substr(0, name.size() - 1) : name;
  if (!isDigits(digits) || digits.size() < 2 || digits.size() > 3)
    return std::nullopt;
  int cc = std::stoi(digits);
  GpuArch a;
  a.name = given;
  a.major = cc / 10;
  a.minor = cc % 10;
  a.archSpecific = specific;
  for (const Limits &l : kLimits)
    if (l.major == a.major && l.minor == a.minor) {
      a.sharedPerBlock = l.perBlock;
      a.sharedPerMultiprocessor = l.perMultiprocessor;
      a.multiprocessors = l.multiprocessors;
      return a;
    }
  return std::nullopt;
}

GpuTarget defaultGpuTarget() { return {{*gpuArch("80"), *gpuArch("90a")}, {}}; }

GpuTarget parseGpuTarget(const std::vector<std::string> &names) {
  GpuTarget target;
  for (const std::string &list : names) {
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find_first_of(",;", start);
      std::string name =
          list.substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end == std::string::npos ? list.size() + 1 : end + 1;
      if (name.empty())
        continue;
      if (name == "native" || name == "all" || name == "all-major") {
        for (const GpuArch &a : defaultGpuTarget().archs)
          target.archs.push_back(a);
        continue;
      }
      std::optional<GpuArch> arch = gpuArch(name);
      if (!arch)
        throw std::invalid_argument(
            "--cuda-arch: '" + name +
            "' is not an architecture ntc compiles for (sm_80 or newer: 80, 86, 87, 89, 90, "
            "90a, 100, 100a, 103, 120)");
      target.archs.push_back(*arch);
    }
  }
  if (target.archs.empty())
    return defaultGpuTarget();
  return target;
}

} // namespace ntc
