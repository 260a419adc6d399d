// The driver's tensor-map encoder (ntc/rt/tensor_map_driver.hpp), host code only. Without a
// driver it must say so and encode nothing, without crashing; with a GPU it encodes a map of a
// real allocation, once, leaves no CUDA error behind, and reports what the driver rejects.
#include <ntc/rt/tensor_map_driver.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace rt = ntc::rt;

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

/// A 64 × 100 float16 matrix at `base`, in boxes of 64 × 64 with the 128-byte swizzle.
rt::tma_request matrix(const void *base, uint32_t box_rows) {
  rt::tma_request r;
  r.base = base;
  r.type = rt::tma_type::float16;
  r.rank = 2;
  r.sizes[0] = 64;
  r.sizes[1] = 100;
  r.byte_strides[0] = 128;
  r.box[0] = 64;
  r.box[1] = box_rows;
  r.swizzle = rt::tma_swizzle::span128;
  return r;
}

/// Counts the encoder's calls.
struct Counted {
  int *calls;
  bool operator()(const rt::tma_request &r, rt::tma_map &map) const {
    ++*calls;
    return rt::tma_driver_encoder{}(r, map);
  }
};

} // namespace

int main() {
  int devices = 0;
  const bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  cudaGetLastError();
  void *buffer = nullptr;
  if (gpu)
    check(cudaMalloc(&buffer, 64 * 100 * 2) == cudaSuccess, "cudaMalloc");
  const bool available = rt::tma_driver_encoder::available();
  std::printf("GPU: %s; cuTensorMapEncodeTiled: %s\n", gpu ? "yes" : "no",
              available ? "found" : "not found");
  // (Without a driver every runtime call, cudaGetLastError included, reports that.)
  if (gpu)
    check(cudaGetLastError() == cudaSuccess, "the lookup leaves no CUDA error behind");
  int calls = 0;
  rt::tma_map_cache<Counted> cache(Counted{&calls});
  rt::tma_map map;
  const void *base = buffer ? buffer : reinterpret_cast<const void *>(uintptr_t{1} << 20);
  const bool encoded = cache.get(matrix(base, 64), map);
  if (!available) {
    check(!encoded, "nothing is encoded without the driver's entry point");
  } else if (gpu) {
    check(encoded, "a 64 x 100 float16 matrix is encoded");
    bool nonzero = false;
    for (unsigned char b : map.bytes)
      nonzero = nonzero || b != 0;
    check(nonzero, "the map holds something");
    check(cache.get(matrix(base, 64), map) && calls == 1, "a second launch reuses the map");
    // Boxes of 300 rows: the driver rejects them (at most 256).
    check(!cache.get(matrix(base, 300), map), "the driver's rejection is reported");
  }
  // tma_device: the device's compute capability (and NTC_NO_TMA, unset here) decide; without
  // a device it is false, and the failed query leaves no error behind.
  int major = 0, minor = 0;
  if (gpu) {
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  }
  const bool expected = gpu && rt::tma_runs_on(major, minor, std::getenv("NTC_NO_TMA"));
  check(rt::tma_device(0) == expected, "tma_device(0) follows the compute capability");
  check(rt::tma_device(0) == expected, "tma_device(0) again, from its cache");
  check(!rt::tma_device(devices + 100), "no TMA on a device that does not exist");
  if (gpu)
    check(cudaGetLastError() == cudaSuccess, "tma_device leaves no CUDA error behind");
  if (buffer)
    cudaFree(buffer);
  std::printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
