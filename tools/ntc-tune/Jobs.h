//===- Jobs.h - a pool of child processes ---------------------------------===//
#ifndef NTC_TUNE_JOBS_H
#define NTC_TUNE_JOBS_H

#include <functional>
#include <string>
#include <vector>

namespace ntc::tune {

/// A command to run.
struct Job {
  std::vector<std::string> argv; ///< the command (argv[0] looked up in PATH)
  std::string logPath;           ///< receives its stdout and stderr
};

/// How a job ended.
struct JobResult {
  int status = -1;    ///< exit status; -1 when it did not start or was killed by a signal
  double seconds = 0; ///< wall time
  std::string output; ///< its stdout and stderr (the log file's contents)
};

/// Runs `jobs`, at most `parallel` at a time, and calls `onDone(index, result)` in the calling
/// thread as each ends. On Ctrl-C (see Interrupt.h) it starts no more, ends the running ones
/// and returns false; true when every job ran.
bool runJobs(const std::vector<Job> &jobs, int parallel,
             const std::function<void(size_t, const JobResult &)> &onDone);

} // namespace ntc::tune

#endif // NTC_TUNE_JOBS_H
