//===- Table.h - the tuning table ntc --tuning-table reads ----------------===//
//
// {"format": "ntc-tuning-table", "version": 1, "entries": [...]}: one entry per measured call,
// keyed by (kernel, arch, dtypes, alignment, bucket); docs/tuning.md describes every field.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_TABLE_H
#define NTC_TUNE_TABLE_H

#include "Json.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ntc::tune {

/// Where and with what an entry was measured.
struct Provenance {
  std::string ntcVersion; ///< `ntc --version`, or the manifest's
  std::string date;       ///< UTC, 2026-12-02T15:04:05Z
  std::string device;     ///< GPU name or CPU model
  std::string driver;     ///< CUDA driver version ("" on the CPU)
  std::string runtime;    ///< CUDA runtime version ("" on the CPU)
  std::string host;       ///< host name
};

/// A configuration and its median time.
struct TimedConfig {
  std::string config; ///< configuration id
  double timeUs = 0;  ///< median microseconds per call
};

/// One measured call.
struct TableEntry {
  std::string kernel; ///< kernel name
  std::string hash;   ///< the kernel's hash (ntc --list-configs)
  std::string target; ///< "cpu" or "cuda"
  std::string arch;   ///< "cpu" or "sm_90"
  std::vector<std::pair<std::string, std::string>> dtypes;         ///< tensor name, dtype name
  std::string alignment;                                           ///< "aligned16" or "any"
  std::vector<std::pair<std::string, std::vector<int64_t>>> shape; ///< tensor sizes
  std::vector<std::pair<std::string, Json>> scalars;               ///< scalar values
  TimedConfig best;                                                ///< the winner
  TimedConfig defaultConfig;                                       ///< the default
  std::vector<TimedConfig> candidates;                       ///< every survivor, fastest first
  std::vector<std::pair<std::string, std::string>> rejected; ///< configuration, reason
  Provenance provenance;                                     ///< where it was measured
};

/// The entry as the table writes it (the bucket computed from the shape).
Json entryToJson(const TableEntry &entry);

/// An empty table.
Json emptyTable();

/// Reads a table file; throws Error when it is not valid JSON or not a tuning table.
Json readTable(const std::string &path);

/// True when two entries have the same key (kernel, arch, dtypes, alignment, bucket, scalars).
bool sameKey(const Json &a, const Json &b);

/// `table` with `entry` added, replacing the entry of the same key in place.
void putEntry(Json &table, const Json &entry);

/// Microseconds rounded to 0.01.
double roundTime(double microseconds);

} // namespace ntc::tune

#endif // NTC_TUNE_TABLE_H
