//===- Harness.h - arguments of one call: random data, poison, comparison --===//
#ifndef NTC_TUNE_HARNESS_H
#define NTC_TUNE_HARNESS_H

#include "Device.h"
#include "Shapes.h"

#include <ntc/runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ntc::tune {

/// Host copies of a call's tensors: per parameter, the bytes of a contiguous row-major tensor
/// (empty for scalars).
using HostTensors = std::vector<std::vector<unsigned char>>;

/// True when the kernel writes parameter `i` (NTC_PARAM_WRITTEN).
bool isWritten(const ntc_kernel_info_t &info, int32_t i);

/// The data of one call: inputs random (floats uniform in [-1, 1], signed integers in
/// [-4, 4], unsigned in [0, 8], bool 0 or 1; the same for a given `seed`), outputs poisoned.
HostTensors makeHostTensors(const ntc_kernel_info_t &info, const ShapeCall &call, uint64_t seed);

/// Overwrites the outputs of `data` with poison: NaN for floats, the byte 0xA5 otherwise.
void poisonOutputs(const ntc_kernel_info_t &info, HostTensors &data);

/// The first element where `actual` (a candidate's outputs) differs from `expected` (the
/// default's), as "output differs from the default at output[1, 17]: 3.5 against 1.25"; ""
/// when they agree. Floats agree when |a - b| <= atol + rtol·|b| (float16 and bfloat16: 2e-2
/// and 2e-2; float32: 1e-4 and 1e-5; float64: 1e-7 and 1e-9; float8: 0.25 and 0.25) or both are
/// NaN; integers when equal.
std::string compareOutputs(const ntc_kernel_info_t &info, const ShapeCall &call,
                           const HostTensors &expected, const HostTensors &actual);

/// One call's arguments in device memory: DLTensors over buffers of their own, scalars, and the
/// argument array of the generic call.
class ArgSet {
public:
  /// Allocates the tensors of `call` on `device`.
  ArgSet(Device &device, const ntc_kernel_info_t &info, const ShapeCall &call);
  ArgSet(const ArgSet &) = delete;
  ArgSet &operator=(const ArgSet &) = delete;

  /// The generic call's argument array.
  const void *const *args() const { return args_.data(); }
  /// The tensors (for the alignment class).
  std::vector<const DLTensor *> tensors() const;
  /// Bytes of all its tensors.
  size_t bytes() const;
  /// Copies every tensor of `data` to the device.
  void upload(const HostTensors &data);
  /// Copies only the outputs of `data` (fresh poison before a run).
  void uploadOutputs(const HostTensors &data);
  /// The outputs, copied back (inputs left empty).
  HostTensors downloadOutputs();

private:
  Device &device_;
  const ntc_kernel_info_t &info_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  std::vector<std::vector<int64_t>> shapes_;
  std::vector<std::vector<int64_t>> strides_;
  std::vector<DLTensor> tensors_;
  std::vector<ScalarValue> scalars_;
  std::vector<const void *> args_;
};

} // namespace ntc::tune

#endif // NTC_TUNE_HARNESS_H
