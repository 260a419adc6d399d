//===- Cuda.h - the CUDA runtime, loaded at run time ----------------------===//
//
// ntc-tune is built without CUDA headers: it loads libcudart.so (the one next to nvcc first,
// so that the candidates, built with `-cudart shared`, use the same runtime) and declares the
// few functions it calls itself.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_CUDA_H
#define NTC_TUNE_CUDA_H

#include "Device.h"

#include <memory>
#include <string>

namespace ntc::tune {

/// GPU 0 through the CUDA runtime, with what the timing needs: graphs and events.
class CudaDevice : public Device {
public:
  /// A CUDA graph ready to launch.
  using Graph = void *;
  /// A CUDA event.
  using Event = void *;

  /// Begins capturing the work queued on stream() into a graph.
  virtual void beginCapture() = 0;
  /// Ends the capture and instantiates the graph.
  virtual Graph endCapture() = 0;
  /// Ends a capture that failed, dropping what was captured (errors ignored).
  virtual void abortCapture() = 0;
  /// Launches `graph` on stream().
  virtual void launch(Graph graph) = 0;
  /// Frees a graph.
  virtual void destroy(Graph graph) = 0;
  /// A new event.
  virtual Event createEvent() = 0;
  /// Frees an event.
  virtual void destroyEvent(Event event) = 0;
  /// Records `event` on stream().
  virtual void record(Event event) = 0;
  /// Milliseconds between two recorded events (waits for `end`).
  virtual float elapsedMs(Event start, Event end) = 0;
  /// Bytes of device memory free now.
  virtual size_t freeBytes() = 0;
};

/// The CUDA runtime for GPU 0; `nvcc` (a path or a name looked up in PATH) says where the
/// toolkit's libcudart.so is. Throws Error when no runtime or no GPU is found.
std::unique_ptr<CudaDevice> makeCudaDevice(const std::string &nvcc);

/// `name` looked up in PATH (unchanged when it has a '/'); "" when not found.
std::string findProgram(const std::string &name);

} // namespace ntc::tune

#endif // NTC_TUNE_CUDA_H
