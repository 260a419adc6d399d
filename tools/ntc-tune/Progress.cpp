//===- Progress.cpp - progress on stderr ----------------------------------===//
#include "Progress.h"

#include "Util.h"

#include <cstdio>

#include <sys/ioctl.h>
#include <unistd.h>

namespace ntc::tune {

namespace {

size_t terminalWidth() {
  struct winsize size {};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20)
    return size.ws_col;
  return 80;
}

} // namespace

Progress::Progress() : tty_(isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
  // A step left open by an error or Ctrl-C: keep its line as it is.
  if (open_ && tty_)
    std::fprintf(stderr, "\n");
}

void Progress::start(const std::string &step, size_t total) {
  if (open_)
    finish();
  step_ = step;
  total_ = total;
  done_ = 0;
  what_.clear();
  open_ = true;
  start_ = std::chrono::steady_clock::now();
  redraw();
}

void Progress::working(const std::string &what) {
  what_ = what;
  redraw();
}

void Progress::done(const std::string &what, const std::string &outcome, double seconds) {
  ++done_;
  std::string line = what + ": " + outcome;
  if (seconds >= 0)
    line += " (" + formatDuration(seconds) + ")";
  if (tty_) {
    what_ = line;
    redraw();
  } else {
    std::fprintf(stderr, "ntc-tune: %s %zu/%zu %s\n", step_.c_str(), done_, total_, line.c_str());
    std::fflush(stderr);
  }
}

void Progress::note(const std::string &text) {
  if (tty_ && open_)
    clearLine();
  std::fprintf(stderr, "%s\n", text.c_str());
  if (tty_ && open_)
    redraw();
  std::fflush(stderr);
}

void Progress::finish() {
  if (!open_)
    return;
  if (tty_) {
    what_ = "done in " +
            formatDuration(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    redraw();
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }
  open_ = false;
}

void Progress::clearLine() { std::fprintf(stderr, "\r\033[K"); }

void Progress::redraw() {
  if (!tty_ || !open_)
    return;
  constexpr size_t kBar = 20;
  size_t filled = total_ ? done_ * kBar / total_ : 0;
  std::string bar(filled, '=');
  if (filled < kBar)
    bar += '>' + std::string(kBar - filled - 1, ' ');
  std::string line = "ntc-tune: " + step_ + " [" + bar + "] " + std::to_string(done_) + "/" +
                     std::to_string(total_);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (done_ > 0 && done_ < total_)
    line += " ETA " + formatDuration(elapsed / static_cast<double>(done_) *
                                     static_cast<double>(total_ - done_));
  if (!what_.empty())
    line += " " + what_;
  size_t width = terminalWidth() - 1;
  if (line.size() > width)
    line = line.substr(0, width);
  clearLine();
  std::fprintf(stderr, "%s", line.c_str());
  std::fflush(stderr);
}

} // namespace ntc::tune
