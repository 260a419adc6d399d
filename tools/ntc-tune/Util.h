//===- Util.h - strings, files and errors shared by ntc-tune --------------===//
#ifndef NTC_TUNE_UTIL_H
#define NTC_TUNE_UTIL_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ntc::tune {

/// Exit status of a user error (bad input, failed step).
constexpr int kUserError = 1;
/// Exit status of a usage error (bad command line).
constexpr int kUsageError = 2;

/// An error that ends ntc-tune: the message is printed as `ntc-tune: error: <what>`.
class Error : public std::runtime_error {
public:
  /// An error with exit status `status` (kUserError or kUsageError).
  explicit Error(const std::string &what, int status = kUserError)
      : std::runtime_error(what), status_(status) {}
  /// An error about a place in an input (`shapes.txt:3`), printed as `<where>: error: <what>`.
  static Error at(const std::string &where, const std::string &what) {
    Error e(where + ": error: " + what);
    e.located_ = true;
    return e;
  }
  /// The exit status it asks for.
  int status() const { return status_; }
  /// True when the message already starts with its place (see at()).
  bool located() const { return located_; }

private:
  int status_;
  bool located_ = false;
};

/// `s` without leading and trailing blanks.
std::string trim(const std::string &s);
/// `s` cut at every `sep` (empty pieces kept).
std::vector<std::string> split(const std::string &s, char sep);
/// `s` cut at runs of blanks (no empty pieces).
std::vector<std::string> splitBlanks(const std::string &s);
/// The pieces joined with `sep` between them.
std::string join(const std::vector<std::string> &pieces, const std::string &sep);
/// True when `s` begins with `prefix`.
bool startsWith(const std::string &s, const std::string &prefix);
/// Parses a whole decimal integer; false when `s` is not one.
bool parseInt(const std::string &s, int64_t &value);
/// Parses a whole floating-point number; false when `s` is not one.
bool parseDouble(const std::string &s, double &value);

/// The whole file; throws Error when it cannot be read.
std::string readFile(const std::string &path);
/// Writes `text` to `path` through a temporary file in the same folder and a rename, so that
/// readers (and an interrupted run) see the old or the new file, never half of one.
void writeFileAtomic(const std::string &path, const std::string &text);
/// True when `path` names an existing file or folder.
bool exists(const std::string &path);
/// Creates the folder and its parents; throws Error on failure.
void makeDirs(const std::string &path);
/// Removes a folder tree (errors ignored).
void removeTree(const std::string &path);
/// The folder of the running executable ("" if unknown).
std::string executableDir();
/// Absolute form of `path` (unchanged when already absolute).
std::string absolutePath(const std::string &path);

/// Seconds as "12.3 s" or "2:05" (minutes) for progress lines.
std::string formatDuration(double seconds);
/// A command line for messages, arguments quoted where the shell would need it.
std::string shellCommand(const std::vector<std::string> &argv);

/// The host's name ("" if unknown).
std::string hostName();
/// The current UTC time as 2026-12-02T15:04:05Z.
std::string utcNow();
/// The CPU model from /proc/cpuinfo ("" if unknown).
std::string cpuModel();

/// Result of running a command to completion.
struct CommandResult {
  int status = -1;    ///< exit status; -1 when it could not start or was killed
  std::string output; ///< stdout and stderr together
};

/// Runs `argv` (looked up in PATH), collecting its output; stdin is /dev/null. With
/// `stderrPath`, stderr goes to that file instead of into `output`.
CommandResult runCommand(const std::vector<std::string> &argv, const std::string &stderrPath = "");

/// The first `maxLines` lines of `text` (with "..." when more follow).
std::string firstLines(const std::string &text, int maxLines);

} // namespace ntc::tune

#endif // NTC_TUNE_UTIL_H
