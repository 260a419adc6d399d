//===- ntc/rt/tensor_map_driver.hpp - tensor maps encoded by the driver ---===//
//
// The CUDA encoder of ntc/rt/tensor_map.hpp's requests: the driver's cuTensorMapEncodeTiled,
// found through the runtime (cudaGetDriverEntryPointByVersion), so that a program using
// generated kernels links cudart alone, not libcuda. Out-of-bounds elements of a box read as
// zeros; no interleave; L2 promotion of 128 bytes.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_RT_TENSOR_MAP_DRIVER_HPP
#define NTC_RT_TENSOR_MAP_DRIVER_HPP

#include <ntc/rt/tensor_map.hpp>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace ntc::rt {

/// cuTensorMapEncodeTiled as a tma_map_cache encoder. available() says whether the driver
/// provides it (false without a driver, or one older than CUDA 12.0).
class tma_driver_encoder {
public:
  /// Encodes `request` into `map`; false when the driver lacks the entry point or rejects the
  /// request.
  bool operator()(const tma_request &request, tma_map &map) const {
    const Encode encode = entry_point();
    if (!encode)
      return false;
    CUtensorMap encoded;
    cuuint64_t sizes[5], strides[4];
    cuuint32_t box[5], steps[5];
    for (uint32_t d = 0; d < request.rank; ++d) {
      sizes[d] = request.sizes[d];
      box[d] = request.box[d];
      steps[d] = 1;
      if (d > 0)
        strides[d - 1] = request.byte_strides[d - 1];
    }
    const CUresult r =
        encode(&encoded, static_cast<CUtensorMapDataType>(request.type), request.rank,
               const_cast<void *>(request.base), sizes, strides, box, steps,
               CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(request.swizzle),
               CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
      return false;
    static_assert(sizeof(encoded) == sizeof(map.bytes), "CUtensorMap is 128 bytes");
    std::memcpy(map.bytes, &encoded, sizeof(map.bytes));
    return true;
  }

  /// True when the driver provides cuTensorMapEncodeTiled.
  static bool available() { return entry_point() != nullptr; }

private:
  using Encode = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

  /// The entry point, looked up once per process (null when there is none).
  static Encode entry_point() {
    static const Encode encode = [] {
      void *function = nullptr;
      cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
      if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000,
                                           cudaEnableDefault, &found) != cudaSuccess ||
          found != cudaDriverEntryPointSuccess) {
        cudaGetLastError(); // a failed lookup must not be reported by the next launch
        return Encode{nullptr};
      }
      return reinterpret_cast<Encode>(function);
    }();
    return encode;
  }
};

/// The dispatcher's first check before a program with TMA copies: true when CUDA device
/// `device` runs them (tma_runs_on its compute capability and NTC_NO_TMA). Each device's answer
/// is read once per process (devices 0 to 63; others are asked every time); false when the
/// device cannot be queried.
inline bool tma_device(int device) {
  static const char *const no_tma = std::getenv("NTC_NO_TMA");
  static std::atomic<signed char> known[64] = {};
  if (device >= 0 && device < 64)
    if (const signed char k = known[device].load(std::memory_order_relaxed); k != 0)
      return k > 0;
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError(); // a failed query must not be reported by the next launch
    return false;
  }
  const bool runs = tma_runs_on(major, minor, no_tma);
  if (device >= 0 && device < 64)
    known[device].store(runs ? 1 : -1, std::memory_order_relaxed);
  return runs;
}

/// The blocks a persistent program's grid has on CUDA device `device`: its SM count (one block
/// per SM), read once per process for devices 0 to 63; 1 when the device cannot be queried.
inline int64_t persistent_blocks(int device) {
  static std::atomic<int> known[64] = {};
  if (device >= 0 && device < 64)
    if (const int k = known[device].load(std::memory_order_relaxed); k > 0)
      return k;
  int count = 0;
  if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      count <= 0) {
    cudaGetLastError(); // a failed query must not be reported by the next launch
    return 1;
  }
  if (device >= 0 && device < 64)
    known[device].store(count, std::memory_order_relaxed);
  return count;
}

/// The blocks a persistent program's grid has on CUDA device `device` for clusters of
/// `cluster` blocks: its SM count (one block per SM, read once per process for devices 0 to 63)
/// rounded down to whole clusters; one cluster when the device cannot be queried.
inline int64_t persistent_blocks(int device, int cluster) {
  const int64_t sms = persistent_blocks(device);
  return sms >= cluster ? sms / cluster * cluster : cluster;
}

/// The dispatcher's step before launching a program with TMA copies: encodes into `out` the map
/// that reads tensor `x` in boxes of `box` (one extent per dimension of x, outermost first) with
/// `swizzle`, through a process-wide cache of the last 64 maps. False when TMA cannot describe
/// the tensor (describe_tma) or the driver cannot encode it: the dispatcher then launches
/// another program.
inline bool encode_tma(const DLTensor *x, std::initializer_list<int64_t> box, tma_swizzle swizzle,
                       unsigned char (&out)[128]) {
  static tma_map_cache<tma_driver_encoder, 64> cache{tma_driver_encoder{}};
  if (!x || x->ndim < 1 || static_cast<size_t>(x->ndim) != box.size())
    return false;
  tma_request request;
  if (describe_tma(*x, box.begin(), swizzle, request) != tma_check::ok)
    return false;
  tma_map map;
  if (!cache.get(request, map))
    return false;
  std::memcpy(out, map.bytes, sizeof(map.bytes));
  return true;
}

} // namespace ntc::rt

#endif // NTC_RT_TENSOR_MAP_DRIVER_HPP
