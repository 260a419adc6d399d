//===- Cuda.cpp - the CUDA runtime, loaded at run time --------------------===//
#include "Cuda.h"

#include "Util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace ntc::tune {

namespace {

namespace fs = std::filesystem;

// The CUDA runtime's C API as far as ntc-tune uses it (cudaError_t is an int; handles are
// pointers; enumerators by value).
using CudaError = int;
constexpr CudaError kCudaSuccess = 0;
constexpr int kMemcpyHostToDevice = 1;
constexpr int kMemcpyDeviceToHost = 2;
constexpr unsigned kStreamNonBlocking = 1;
constexpr int kCaptureModeRelaxed = 2;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrL2CacheSize = 38;

/// The runtime's entry points.
struct CudaApi {
  CudaError (*setDevice)(int);
  CudaError (*malloc)(void **, size_t);
  CudaError (*free)(void *);
  CudaError (*memcpy)(void *, const void *, size_t, int);
  CudaError (*memGetInfo)(size_t *, size_t *);
  CudaError (*streamCreateWithFlags)(void **, unsigned);
  CudaError (*streamSynchronize)(void *);
  CudaError (*streamBeginCapture)(void *, int);
  CudaError (*streamEndCapture)(void *, void **);
  CudaError (*graphInstantiateWithFlags)(void **, void *, unsigned long long);
  CudaError (*graphLaunch)(void *, void *);
  CudaError (*graphDestroy)(void *);
  CudaError (*graphExecDestroy)(void *);
  CudaError (*eventCreate)(void **);
  CudaError (*eventDestroy)(void *);
  CudaError (*eventRecord)(void *, void *);
  CudaError (*eventSynchronize)(void *);
  CudaError (*eventElapsedTime)(float *, void *, void *);
  CudaError (*deviceGetAttribute)(int *, int, int);
  CudaError (*getDeviceProperties)(void *, int);
  CudaError (*driverGetVersion)(int *);
  CudaError (*runtimeGetVersion)(int *);
  CudaError (*getLastError)(void);
  const char *(*getErrorString)(CudaError);
};

template <class F> void bind(void *handle, F &fn, const char *name, bool required = true) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (!fn && required)
    throw Error(std::string("the CUDA runtime has no ") + name);
}

std::string versionString(int v) {
  return v ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "";
}

/// Where libcudart may be: next to nvcc's toolkit first, then wherever the loader looks.
std::vector<std::string> runtimeCandidates(const std::string &nvcc) {
  std::vector<std::string> paths;
  std::string found = findProgram(nvcc);
  if (!found.empty()) {
    std::error_code ec;
    fs::path real = fs::canonical(found, ec);
    fs::path root = (ec ? fs::path(found) : real).parent_path().parent_path();
    for (const char *lib : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"})
      if (fs::exists(root / lib / "libcudart.so", ec))
        paths.push_back((root / lib / "libcudart.so").string());
  }
  for (const char *name :
       {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"})
    paths.push_back(name);
  return paths;
}

class CudaRuntimeDevice : public CudaDevice {
public:
  explicit CudaRuntimeDevice(const std::string &nvcc) {
    std::string tried;
    for (const std::string &path : runtimeCandidates(nvcc)) {
      // RTLD_GLOBAL: the candidates' own dependency on libcudart.so.N resolves to this copy.
      handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (handle_) {
        libraryPath_ = path;
        break;
      }
      tried += (tried.empty() ? "" : ", ") + path;
    }
    if (!handle_)
      throw Error("cannot load the CUDA runtime (tried " + tried +
                  "); give --nvcc or set LD_LIBRARY_PATH");
    bind(handle_, api_.setDevice, "cudaSetDevice");
    bind(handle_, api_.malloc, "cudaMalloc");
    bind(handle_, api_.free, "cudaFree");
    bind(handle_, api_.memcpy, "cudaMemcpy");
    bind(handle_, api_.memGetInfo, "cudaMemGetInfo");
    bind(handle_, api_.streamCreateWithFlags, "cudaStreamCreateWithFlags");
    bind(handle_, api_.streamSynchronize, "cudaStreamSynchronize");
    bind(handle_, api_.streamBeginCapture, "cudaStreamBeginCapture");
    bind(handle_, api_.streamEndCapture, "cudaStreamEndCapture");
    bind(handle_, api_.graphInstantiateWithFlags, "cudaGraphInstantiateWithFlags");
    bind(handle_, api_.graphLaunch, "cudaGraphLaunch");
    bind(handle_, api_.graphDestroy, "cudaGraphDestroy");
    bind(handle_, api_.graphExecDestroy, "cudaGraphExecDestroy");
    bind(handle_, api_.eventCreate, "cudaEventCreate");
    bind(handle_, api_.eventDestroy, "cudaEventDestroy");
    bind(handle_, api_.eventRecord, "cudaEventRecord");
    bind(handle_, api_.eventSynchronize, "cudaEventSynchronize");
    bind(handle_, api_.eventElapsedTime, "cudaEventElapsedTime");
    bind(handle_, api_.deviceGetAttribute, "cudaDeviceGetAttribute");
    // The name is the first member of cudaDeviceProp in every version; _v2 is CUDA 12's.
    bind(handle_, api_.getDeviceProperties, "cudaGetDeviceProperties_v2", false);
    if (!api_.getDeviceProperties)
      bind(handle_, api_.getDeviceProperties, "cudaGetDeviceProperties");
    bind(handle_, api_.driverGetVersion, "cudaDriverGetVersion");
    bind(handle_, api_.runtimeGetVersion, "cudaRuntimeGetVersion");
    bind(handle_, api_.getLastError, "cudaGetLastError");
    bind(handle_, api_.getErrorString, "cudaGetErrorString");

    check(api_.setDevice(0), "cudaSetDevice(0)");
    check(api_.streamCreateWithFlags(&stream_, kStreamNonBlocking), "cudaStreamCreateWithFlags");
    int major = 0, minor = 0, l2 = 0;
    check(api_.deviceGetAttribute(&major, kAttrComputeCapabilityMajor, 0),
          "cudaDeviceGetAttribute");
    check(api_.deviceGetAttribute(&minor, kAttrComputeCapabilityMinor, 0),
          "cudaDeviceGetAttribute");
    check(api_.deviceGetAttribute(&l2, kAttrL2CacheSize, 0), "cudaDeviceGetAttribute");
    arch_ = "sm_" + std::to_string(major) + std::to_string(minor);
    l2_ = static_cast<size_t>(l2);
    std::vector<char> props(16384, 0); // larger than any version's cudaDeviceProp
    check(api_.getDeviceProperties(props.data(), 0), "cudaGetDeviceProperties");
    props[255] = 0;
    name_ = props.data();
    int driver = 0, runtime = 0;
    check(api_.driverGetVersion(&driver), "cudaDriverGetVersion");
    check(api_.runtimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    driver_ = versionString(driver);
    std::ifstream module("/proc/driver/nvidia/version");
    std::string line;
    if (std::getline(module, line)) {
      // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."
      size_t at = line.find("Module");
      std::vector<std::string> words = splitBlanks(at == std::string::npos ? "" : line.substr(at));
      if (words.size() > 1)
        driver_ += " (driver " + words[1] + ")";
    }
    runtime_ = versionString(runtime);
  }

  bool isCuda() const override { return true; }

  void *allocate(size_t bytes) override {
    void *p = nullptr;
    check(api_.malloc(&p, bytes ? bytes : 256), "cudaMalloc(" + std::to_string(bytes) + ")");
    return p;
  }
  void release(void *p) override {
    if (p)
      api_.free(p);
  }
  void upload(void *device, const void *host, size_t bytes) override {
    // cudaMemcpy runs on the legacy stream, which does not wait for a non-blocking stream.
    check(api_.streamSynchronize(stream_), "cudaStreamSynchronize");
    check(api_.memcpy(device, host, bytes, kMemcpyHostToDevice), "cudaMemcpy to the device");
  }
  void download(void *host, const void *device, size_t bytes) override {
    check(api_.streamSynchronize(stream_), "cudaStreamSynchronize");
    check(api_.memcpy(host, device, bytes, kMemcpyDeviceToHost), "cudaMemcpy to the host");
  }
  DLDevice dlDevice() const override { return DLDevice{kDLCUDA, 0}; }
  ntc_stream_t stream() const override { return stream_; }
  void synchronize() override { check(api_.streamSynchronize(stream_), "cudaStreamSynchronize"); }
  size_t cacheBytes() const override { return l2_; }
  std::string arch() const override { return arch_; }
  std::string name() const override { return name_; }
  std::string driverVersion() const override { return driver_; }
  std::string runtimeVersion() const override { return runtime_; }

  void beginCapture() override {
    check(api_.streamBeginCapture(stream_, kCaptureModeRelaxed), "cudaStreamBeginCapture");
  }
  Graph endCapture() override {
    void *graph = nullptr;
    check(api_.streamEndCapture(stream_, &graph), "cudaStreamEndCapture");
    void *exec = nullptr;
    CudaError err = api_.graphInstantiateWithFlags(&exec, graph, 0);
    api_.graphDestroy(graph);
    check(err, "cudaGraphInstantiateWithFlags");
    return exec;
  }
  void abortCapture() override {
    void *graph = nullptr;
    if (api_.streamEndCapture(stream_, &graph) == kCudaSuccess && graph)
      api_.graphDestroy(graph);
    api_.getLastError();
  }
  void launch(Graph graph) override { check(api_.graphLaunch(graph, stream_), "cudaGraphLaunch"); }
  void destroy(Graph graph) override {
    if (graph)
      api_.graphExecDestroy(graph);
  }
  Event createEvent() override {
    void *event = nullptr;
    check(api_.eventCreate(&event), "cudaEventCreate");
    return event;
  }
  void destroyEvent(Event event) override {
    if (event)
      api_.eventDestroy(event);
  }
  void record(Event event) override { check(api_.eventRecord(event, stream_), "cudaEventRecord"); }
  float elapsedMs(Event start, Event end) override {
    check(api_.eventSynchronize(end), "cudaEventSynchronize");
    float ms = 0;
    check(api_.eventElapsedTime(&ms, start, end), "cudaEventElapsedTime");
    return ms;
  }
  size_t freeBytes() override {
    size_t free = 0, total = 0;
    check(api_.memGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  }

private:
  void check(CudaError err, const std::string &what) const {
    if (err != kCudaSuccess)
      throw Error(what + " failed: " + api_.getErrorString(err) + " (CUDA error " +
                  std::to_string(err) + ")");
  }

  void *handle_ = nullptr;
  std::string libraryPath_;
  CudaApi api_{};
  void *stream_ = nullptr;
  std::string arch_, name_, driver_, runtime_;
  size_t l2_ = 0;
};

} // namespace

std::string findProgram(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0 ? name : "";
  const char *path = std::getenv("PATH");
  for (const std::string &dir : split(path ? path : "/usr/bin:/bin", ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::unique_ptr<CudaDevice> makeCudaDevice(const std::string &nvcc) {
  return std::make_unique<CudaRuntimeDevice>(nvcc);
}

} // namespace ntc::tune
