//===- Progress.h - progress on stderr: a bar on a terminal, lines otherwise ===//
#ifndef NTC_TUNE_PROGRESS_H
#define NTC_TUNE_PROGRESS_H

#include <chrono>
#include <cstddef>
#include <string>

namespace ntc::tune {

/// Reports a step's progress (generate, build, measure). On a terminal one line is redrawn in
/// place: `ntc-tune: build [=====>    ] 7/48 ETA 0:35 what`; otherwise every finished item is
/// a line of its own: `ntc-tune: build 7/48 what: ok (12.3 s)`.
class Progress {
public:
  /// Reporting to stderr; a bar when stderr is a terminal.
  Progress();
  /// Ends a step still open.
  ~Progress();

  /// Starts step `step` with `total` items.
  void start(const std::string &step, size_t total);
  /// Shows what is being worked on (terminal only; nothing otherwise).
  void working(const std::string &what);
  /// One item done: `what` (a configuration, a shape), its `outcome` ("ok", "failed") and its
  /// duration in seconds (negative: none shown).
  void done(const std::string &what, const std::string &outcome, double seconds = -1);
  /// Prints `text` (may span lines) above the bar.
  void note(const std::string &text);
  /// Ends the step (the bar's line is kept on a terminal).
  void finish();

private:
  void redraw();
  void clearLine();

  bool tty_;
  bool open_ = false;
  std::string step_;
  std::string what_;
  size_t total_ = 0;
  size_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

} // namespace ntc::tune

#endif // NTC_TUNE_PROGRESS_H
