// The thread-local last-error message and status names of the C ABI.
#include <ntc/rt/validate.hpp>
#include <ntc/runtime.h>

#include <cstring>
#include <new>
#include <string>
#include <utility>

namespace {

/// Message of the last failure on this thread; "" when none.
thread_local std::string last_error_message;

} // namespace

extern "C" const char *ntc_last_error(void) { return last_error_message.c_str(); }

extern "C" const char *ntc_status_string(ntc_status_t status) {
  // A C caller may pass any int (ntc_status_string(42)); in C++, loading a value outside the
  // enumeration's range as ntc_status_t is undefined, so the status is read as a plain int.
  static_assert(sizeof(ntc_status_t) == sizeof(int), "ntc_status_t is an int");
  int value = 0;
  std::memcpy(&value, &status, sizeof value);
  switch (value) {
  case NTC_SUCCESS:
    return "NTC_SUCCESS";
  case NTC_ERROR_INVALID_ARGUMENT:
    return "NTC_ERROR_INVALID_ARGUMENT";
  case NTC_ERROR_UNSUPPORTED:
    return "NTC_ERROR_UNSUPPORTED";
  case NTC_ERROR_LAUNCH:
    return "NTC_ERROR_LAUNCH";
  case NTC_ERROR_CUDA:
    return "NTC_ERROR_CUDA";
  case NTC_ERROR_INTERNAL:
    return "NTC_ERROR_INTERNAL";
  }
  return "NTC_UNKNOWN_STATUS";
}

namespace ntc::rt {

ntc_status_t fail(ntc_status_t status, std::string message) noexcept {
  try {
    last_error_message = std::move(message);
  } catch (const std::bad_alloc &) {
    last_error_message.clear(); // keeps the old buffer; never throws
  }
  return status;
}

void clear_error() noexcept { last_error_message.clear(); }

} // namespace ntc::rt
