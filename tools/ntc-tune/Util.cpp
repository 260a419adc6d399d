//===- Util.cpp - strings, files and errors shared by ntc-tune ------------===//
#include "Util.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ntc::tune {

namespace fs = std::filesystem;

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos)
      return out;
    start = at + 1;
  }
}

std::vector<std::string> splitBlanks(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string word;
  while (in >> word)
    out.push_back(word);
  return out;
}

std::string join(const std::vector<std::string> &pieces, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < pieces.size(); ++i)
    out += (i ? sep : "") + pieces[i];
  return out;
}

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool parseInt(const std::string &s, int64_t &value) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])))
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0')
    return false;
  value = v;
  return true;
}

bool parseDouble(const std::string &s, double &value) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])))
    return false;
  errno = 0;
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (errno == ERANGE || *end != '\0')
    return false;
  value = v;
  return true;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFileAtomic(const std::string &path, const std::string &text) {
  std::string temp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out)
      throw Error("cannot write '" + temp + "': " + std::strerror(errno));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(temp.c_str());
    throw Error("cannot write '" + path + "': " + std::strerror(err));
  }
}

bool exists(const std::string &path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

void makeDirs(const std::string &path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec)
    throw Error("cannot create folder '" + path + "': " + ec.message());
}

void removeTree(const std::string &path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string executableDir() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    return "";
  return self.parent_path().string();
}

std::string absolutePath(const std::string &path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

std::string formatDuration(double seconds) {
  char buf[64];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  else {
    long total = std::lround(seconds);
    if (total < 3600)
      std::snprintf(buf, sizeof buf, "%ld:%02ld", total / 60, total % 60);
    else
      std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  }
  return buf;
}

std::string shellCommand(const std::vector<std::string> &argv) {
  std::string out;
  for (const std::string &arg : argv) {
    if (!out.empty())
      out += ' ';
    bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                       "-_./=,:+@%") == std::string::npos;
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (char c : arg)
      out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0)
    return "";
  return buf;
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (startsWith(line, "model name")) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return trim(line.substr(colon + 1));
    }
  return "";
}

CommandResult runCommand(const std::vector<std::string> &argv, const std::string &stderrPath) {
  CommandResult result;
  int fds[2];
  if (pipe(fds) != 0) {
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  if (stderrPath.empty())
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  else
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    result.output = "cannot run '" + argv[0] + "': " + std::strerror(rc);
    return result;
  }
  char buf[4096];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0)
      result.output.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string firstLines(const std::string &text, int maxLines) {
  std::vector<std::string> lines = split(trim(text), '\n');
  if (static_cast<int>(lines.size()) <= maxLines)
    return join(lines, "\n");
  lines.resize(static_cast<size_t>(maxLines));
  return join(lines, "\n") + "\n...";
}

} // namespace ntc::tune
