// A stand-in for libcudart.so for ntc-tune's tests on machines without a GPU: memory is host
// memory, copies are memcpy, a "kernel" is a host function that mock_kernel.cu launches through
// mock_cuda_launch (run at once, or recorded while a stream is captured and run when its graph
// is launched), events read steady_clock. Only what ntc-tune calls, with the CUDA runtime's C
// signatures (handles as pointers, enums as ints).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// A recorded launch: the function and a copy of its argument block.
struct Launch {
  void (*fn)(void *);
  std::vector<unsigned char> arg;
};

/// A graph: the launches captured.
struct Graph {
  std::vector<Launch> launches;
};

bool capturing = false;
Graph *captured = nullptr;

void run(const Launch &launch) { launch.fn(const_cast<unsigned char *>(launch.arg.data())); }

} // namespace

extern "C" {

/// Launches `fn(arg)` (a copy of `bytes` bytes at `arg`) on "the GPU".
void mock_cuda_launch(void (*fn)(void *), const void *arg, size_t bytes) {
  Launch launch{fn, std::vector<unsigned char>(static_cast<const unsigned char *>(arg),
                                               static_cast<const unsigned char *>(arg) + bytes)};
  if (capturing)
    captured->launches.push_back(launch);
  else
    run(launch);
}

int cudaSetDevice(int) { return 0; }
int cudaMalloc(void **p, size_t bytes) {
  *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return *p ? 0 : 2; // cudaErrorMemoryAllocation
}
int cudaFree(void *p) {
  std::free(p);
  return 0;
}
int cudaMemcpy(void *dst, const void *src, size_t bytes, int) {
  std::memcpy(dst, src, bytes);
  return 0;
}
int cudaMemGetInfo(size_t *free, size_t *total) {
  *free = size_t(1) << 30;
  *total = size_t(2) << 30;
  return 0;
}
int cudaStreamCreateWithFlags(void **stream, unsigned) {
  static int theStream;
  *stream = &theStream;
  return 0;
}
int cudaStreamSynchronize(void *) { return 0; }
int cudaStreamBeginCapture(void *, int) {
  capturing = true;
  captured = new Graph;
  return 0;
}
int cudaStreamEndCapture(void *, void **graph) {
  capturing = false;
  *graph = captured;
  captured = nullptr;
  return 0;
}
int cudaGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long) {
  *exec = new Graph(*static_cast<Graph *>(graph));
  return 0;
}
int cudaGraphLaunch(void *exec, void *) {
  for (const Launch &launch : static_cast<Graph *>(exec)->launches)
    run(launch);
  return 0;
}
int cudaGraphDestroy(void *graph) {
  delete static_cast<Graph *>(graph);
  return 0;
}
int cudaGraphExecDestroy(void *exec) {
  delete static_cast<Graph *>(exec);
  return 0;
}
int cudaEventCreate(void **event) {
  *event = new std::chrono::steady_clock::time_point();
  return 0;
}
int cudaEventDestroy(void *event) {
  delete static_cast<std::chrono::steady_clock::time_point *>(event);
  return 0;
}
int cudaEventRecord(void *event, void *) {
  *static_cast<std::chrono::steady_clock::time_point *>(event) = std::chrono::steady_clock::now();
  return 0;
}
int cudaEventSynchronize(void *) { return 0; }
int cudaEventElapsedTime(float *ms, void *start, void *end) {
  auto *a = static_cast<std::chrono::steady_clock::time_point *>(start);
  auto *b = static_cast<std::chrono::steady_clock::time_point *>(end);
  *ms = std::chrono::duration<float, std::milli>(*b - *a).count();
  return 0;
}
int cudaDeviceGetAttribute(int *value, int attr, int) {
  switch (attr) {
  case 75: // compute capability major
    *value = 9;
    return 0;
  case 76: // minor
    *value = 0;
    return 0;
  case 38: // L2 bytes
    *value = 1 << 20;
    return 0;
  }
  return 1; // cudaErrorInvalidValue
}
int cudaGetDeviceProperties(void *props, int) {
  std::strcpy(static_cast<char *>(props), "Mock GPU");
  return 0;
}
int cudaDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
int cudaRuntimeGetVersion(int *v) {
  *v = 13000;
  return 0;
}
int cudaGetLastError() { return 0; }
const char *cudaGetErrorString(int) { return "mock CUDA error"; }

} // extern "C"
