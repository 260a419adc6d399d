//===- ntc/rt/device_guard.hpp - scoped switch of the current device ------===//
//
// A scoped switch of the calling thread's current device, for wrappers whose tensors live on
// another GPU than the current one. Plain C++ without CUDA headers: the backend is a pair of
// callables, so the CUDA wrapper passes lambdas around cudaGetDevice and cudaSetDevice, and the
// tests pass fakes.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_RT_DEVICE_GUARD_HPP
#define NTC_RT_DEVICE_GUARD_HPP

#include <cstdint>
#include <utility>

namespace ntc::rt {

/// Makes a device current for a scope and restores the previous one when the scope ends.
/// `Get` is callable as `bool(int32_t &device)`: reads the current device, true on success.
/// `Set` is callable as `bool(int32_t device)`: makes `device` current, true on success. E.g.
///
///     ntc::rt::device_guard guard(
///         [](int32_t &d) { int i = 0; bool ok = cudaGetDevice(&i) == cudaSuccess; d = i;
///                          return ok; },
///         [](int32_t d) { return cudaSetDevice(d) == cudaSuccess; });
///     if (!guard.switch_to(x->device.device_id))
///       return ntc::rt::fail(NTC_ERROR_CUDA, ...);
///
/// An exception thrown by a callable counts as a failure. A failed `Set` is assumed to leave
/// the current device unchanged (as cudaSetDevice does). Neither copyable nor movable.
template <class Get, class Set> class device_guard {
public:
  /// Stores the callables; reads and switches nothing yet.
  device_guard(Get get, Set set) : get_(std::move(get)), set_(std::move(set)) {}
  device_guard(const device_guard &) = delete;
  device_guard &operator=(const device_guard &) = delete;

  /// Restores the device that was current before the first switch_to() if the guard changed
  /// it; a failure to restore is ignored (a destructor cannot report it).
  ~device_guard() {
    if (current_ != previous_)
      call_set(previous_);
  }

  /// Makes `device` current. The first call reads and remembers the current device; a call for
  /// the device that is already current calls no `Set`. Returns false when `Get` or `Set`
  /// fails (or throws).
  bool switch_to(int32_t device) noexcept {
    if (!saved_) {
      if (!call_get(previous_))
        return false;
      current_ = previous_;
      saved_ = true;
    }
    if (device == current_)
      return true;
    if (!call_set(device))
      return false;
    current_ = device;
    return true;
  }

  /// True once switch_to() has read the device that was current (what the destructor restores).
  bool saved() const noexcept { return saved_; }

  /// The device that was current before the first switch_to() (0 until saved()).
  int32_t previous() const noexcept { return previous_; }

private:
  bool call_get(int32_t &device) noexcept {
    try {
      return static_cast<bool>(get_(device));
    } catch (...) {
      return false;
    }
  }
  bool call_set(int32_t device) noexcept {
    try {
      return static_cast<bool>(set_(device));
    } catch (...) {
      return false;
    }
  }

  Get get_;
  Set set_;
  bool saved_ = false;
  int32_t previous_ = 0;
  int32_t current_ = 0;
};

} // namespace ntc::rt

#endif // NTC_RT_DEVICE_GUARD_HPP
