//===- Interrupt.h - Ctrl-C: finish what is being written, then stop ------===//
#ifndef NTC_TUNE_INTERRUPT_H
#define NTC_TUNE_INTERRUPT_H

namespace ntc::tune {

/// Installs the SIGINT and SIGTERM handler: the first signal only sets a flag that the steps
/// poll between calls (so the table being written is finished, and kept); a second one ends
/// the process at once.
void installInterruptHandler();

/// True once SIGINT or SIGTERM arrived.
bool interrupted();

/// Thrown where a step notices the interruption (between calls, between jobs).
struct Interrupted {};

/// Throws Interrupted once SIGINT or SIGTERM arrived.
inline void checkInterrupted() {
  if (interrupted())
    throw Interrupted{};
}

/// Exit status after an interruption (128 + SIGINT).
constexpr int kInterruptedStatus = 130;

} // namespace ntc::tune

#endif // NTC_TUNE_INTERRUPT_H
