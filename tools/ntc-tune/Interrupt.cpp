//===- Interrupt.cpp - Ctrl-C: finish what is being written, then stop ----===//
#include "Interrupt.h"

#include <csignal>

namespace ntc::tune {

namespace {

volatile std::sig_atomic_t gInterrupted = 0;

extern "C" void onInterrupt(int signal) {
  gInterrupted = 1;
  // A second Ctrl-C is not caught.
  std::signal(signal, SIG_DFL);
}

} // namespace

void installInterruptHandler() {
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; // no SA_RESTART: a blocking wait returns EINTR and sees the flag
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool interrupted() { return gInterrupted != 0; }

} // namespace ntc::tune
