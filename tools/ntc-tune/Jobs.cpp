//===- Jobs.cpp - a pool of child processes -------------------------------===//
#include "Jobs.h"

#include "Interrupt.h"
#include "Util.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ntc::tune {

namespace {

using Clock = std::chrono::steady_clock;

/// A started job.
struct Running {
  size_t index;
  Clock::time_point start;
};

/// Starts `job` with its output into its log; returns the pid, or -1 with `error` set.
pid_t spawnJob(const Job &job, std::string &error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, job.logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char *> args;
  for (const std::string &arg : job.argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = "cannot run '" + job.argv[0] + "': " + std::strerror(rc);
    return -1;
  }
  return pid;
}

std::string readLog(const std::string &path) {
  try {
    return readFile(path);
  } catch (const Error &) {
    return "";
  }
}

} // namespace

bool runJobs(const std::vector<Job> &jobs, int parallel,
             const std::function<void(size_t, const JobResult &)> &onDone) {
  if (parallel < 1)
    parallel = 1;
  std::map<pid_t, Running> running;
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (!interrupted() && next < jobs.size() && static_cast<int>(running.size()) < parallel) {
      std::string error;
      size_t index = next++;
      pid_t pid = spawnJob(jobs[index], error);
      if (pid < 0) {
        JobResult failed;
        failed.output = error;
        onDone(index, failed);
        continue;
      }
      running[pid] = Running{index, Clock::now()};
    }
    if (interrupted()) {
      for (const auto &entry : running)
        kill(entry.first, SIGTERM);
      for (const auto &entry : running) {
        int status = 0;
        while (waitpid(entry.first, &status, 0) < 0 && errno == EINTR) {
        }
      }
      return false;
    }
    if (running.empty())
      continue;
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      // No child left to wait for (should not happen): give up on the rest.
      for (const auto &entry : running) {
        JobResult lost;
        lost.output = std::string("waitpid: ") + std::strerror(errno);
        onDone(entry.second.index, lost);
      }
      running.clear();
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end())
      continue; // not one of ours
    JobResult result;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    result.output = readLog(jobs[it->second.index].logPath);
    if (WIFSIGNALED(status))
      result.output += std::string("\n(killed by signal ") + std::to_string(WTERMSIG(status)) + ")";
    size_t index = it->second.index;
    running.erase(it);
    onDone(index, result);
  }
  return !interrupted();
}

} // namespace ntc::tune
