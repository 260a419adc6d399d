//===- Library.h - one candidate's shared library, loaded -----------------===//
#ifndef NTC_TUNE_LIBRARY_H
#define NTC_TUNE_LIBRARY_H

#include <ntc/runtime.h>

#include <memory>
#include <string>

namespace ntc::tune {

/// A generated library loaded with RTLD_LOCAL (every candidate exports the same names) and the
/// kernel it holds. Libraries are never unloaded: OpenMP's and CUDA's runtimes keep state about
/// the code they ran.
class Library {
public:
  /// Loads `path` and finds `ntc_<kernel>_info` and `ntc_last_error` in it; throws Error when
  /// either is missing or the kernel has no generic call.
  Library(const std::string &path, const std::string &kernel);

  /// The kernel's description.
  const ntc_kernel_info_t &info() const { return *info_; }
  /// Calls the kernel; on failure returns its status and sets `error` to the library's message.
  ntc_status_t call(const void *const *args, ntc_stream_t stream, std::string &error) const;
  /// The library's last error message on this thread.
  std::string lastError() const;
  /// The file it was loaded from.
  const std::string &path() const { return path_; }

private:
  std::string path_;
  const ntc_kernel_info_t *info_ = nullptr;
  const char *(*lastError_)(void) = nullptr;
  const char *(*statusString_)(ntc_status_t) = nullptr; ///< the library's ntc_status_string
};

/// The first difference between two kernels' parameter lists ("" when they agree): candidates
/// of one kernel must take the same arguments as its default.
std::string compareParams(const ntc_kernel_info_t &a, const ntc_kernel_info_t &b);

} // namespace ntc::tune

#endif // NTC_TUNE_LIBRARY_H
