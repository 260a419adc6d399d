//===- Device.cpp - the host device ---------------------------------------===//
#include "Device.h"

#include "Util.h"

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace ntc::tune {

namespace {

/// Size of the highest cache level of CPU 0 (sysfs), 0 when unknown.
size_t lastLevelCache() {
  size_t best = 0;
  int bestLevel = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream levelFile(dir + "level"), sizeFile(dir + "size");
    int level = 0;
    std::string size;
    if (!(levelFile >> level) || !(sizeFile >> size))
      break;
    int64_t value = 0;
    size_t bytes = 0;
    char unit = size.empty() ? 0 : size.back();
    if (unit == 'K' || unit == 'M' || unit == 'G') {
      if (!parseInt(size.substr(0, size.size() - 1), value))
        continue;
      bytes = static_cast<size_t>(value) << (unit == 'K' ? 10 : unit == 'M' ? 20 : 30);
    } else if (parseInt(size, value)) {
      bytes = static_cast<size_t>(value);
    }
    if (level >= bestLevel) {
      bestLevel = level;
      best = bytes;
    }
  }
  return best;
}

/// The host: plain aligned memory.
class HostDevice : public Device {
public:
  bool isCuda() const override { return false; }
  void *allocate(size_t bytes) override {
    size_t rounded = (bytes + 255) / 256 * 256;
    void *p = std::aligned_alloc(256, rounded ? rounded : 256);
    if (!p)
      throw Error("out of memory allocating " + std::to_string(bytes) + " bytes");
    return p;
  }
  void release(void *p) override { std::free(p); }
  void upload(void *device, const void *host, size_t bytes) override {
    std::memcpy(device, host, bytes);
  }
  void download(void *host, const void *device, size_t bytes) override {
    std::memcpy(host, device, bytes);
  }
  DLDevice dlDevice() const override { return DLDevice{kDLCPU, 0}; }
  ntc_stream_t stream() const override { return nullptr; }
  void synchronize() override {}
  size_t cacheBytes() const override { return lastLevelCache(); }
  std::string arch() const override { return "cpu"; }
  std::string name() const override { return cpuModel(); }
  std::string driverVersion() const override { return ""; }
  std::string runtimeVersion() const override { return ""; }
};

} // namespace

std::unique_ptr<Device> makeHostDevice() { return std::make_unique<HostDevice>(); }

DeviceBuffer::DeviceBuffer(Device &device, size_t bytes)
    : device_(device), data_(device.allocate(bytes)), bytes_(bytes) {}

DeviceBuffer::~DeviceBuffer() { device_.release(data_); }

} // namespace ntc::tune
