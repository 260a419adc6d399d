//===- Device.h - where candidates run: the host or a CUDA GPU ------------===//
#ifndef NTC_TUNE_DEVICE_H
#define NTC_TUNE_DEVICE_H

#include <ntc/runtime.h>

#include <cstddef>
#include <memory>
#include <string>

namespace ntc::tune {

/// Memory, copies and facts of the device the kernels run on. Every failure throws Error.
class Device {
public:
  virtual ~Device() = default;

  /// True for a CUDA GPU.
  virtual bool isCuda() const = 0;
  /// `bytes` of device memory, 256-byte aligned.
  virtual void *allocate(size_t bytes) = 0;
  /// Frees what allocate() returned.
  virtual void release(void *p) = 0;
  /// Copies host memory to the device (after the work queued before it).
  virtual void upload(void *device, const void *host, size_t bytes) = 0;
  /// Copies device memory to the host (waits for the work before it).
  virtual void download(void *host, const void *device, size_t bytes) = 0;
  /// The DLPack device of tensors in its memory.
  virtual DLDevice dlDevice() const = 0;
  /// The stream kernels are called on (nullptr on the host).
  virtual ntc_stream_t stream() const = 0;
  /// Waits for the work on stream().
  virtual void synchronize() = 0;
  /// Bytes of the last-level cache (the CPU's, or the GPU's L2); 0 when unknown.
  virtual size_t cacheBytes() const = 0;
  /// The table's "arch": "cpu" or "sm_90".
  virtual std::string arch() const = 0;
  /// The device's name for the table's provenance ("NVIDIA H200", the CPU model).
  virtual std::string name() const = 0;
  /// CUDA driver version ("" on the host).
  virtual std::string driverVersion() const = 0;
  /// CUDA runtime version ("" on the host).
  virtual std::string runtimeVersion() const = 0;
};

/// The host (CPU kernels).
std::unique_ptr<Device> makeHostDevice();

/// Owns device memory.
class DeviceBuffer {
public:
  /// `bytes` on `device`.
  DeviceBuffer(Device &device, size_t bytes);
  /// Frees it.
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// Its address.
  void *data() const { return data_; }
  /// Its size.
  size_t size() const { return bytes_; }

private:
  Device &device_;
  void *data_;
  size_t bytes_;
};

} // namespace ntc::tune

#endif // NTC_TUNE_DEVICE_H
