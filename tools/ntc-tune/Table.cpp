//===- Table.cpp - the tuning table ntc --tuning-table reads --------------===//
#include "Table.h"

#include "Tuning.h"
#include "Util.h"

#include <cmath>

namespace ntc::tune {

namespace {

Json timed(const TimedConfig &t) {
  Json j = Json::object();
  j.set("config", Json::string(t.config));
  j.set("time_us", Json::number(roundTime(t.timeUs)));
  return j;
}

Json sizes(const std::vector<int64_t> &values, bool bucket) {
  Json j = Json::array();
  for (int64_t v : values)
    j.push(Json::integer(bucket ? sizeBucket(v) : v));
  return j;
}

const Json &member(const Json &entry, const char *key) {
  static const Json null;
  const Json *m = entry.find(key);
  return m ? *m : null;
}

} // namespace

double roundTime(double microseconds) { return std::round(microseconds * 100) / 100; }

Json entryToJson(const TableEntry &e) {
  Json j = Json::object();
  j.set("kernel", Json::string(e.kernel));
  j.set("hash", Json::string(e.hash));
  j.set("target", Json::string(e.target));
  j.set("arch", Json::string(e.arch));
  Json dtypes = Json::object();
  for (const auto &[name, dtype] : e.dtypes)
    dtypes.set(name, Json::string(dtype));
  j.set("dtypes", dtypes);
  j.set("alignment", Json::string(e.alignment));
  Json shape = Json::object(), bucket = Json::object();
  for (const auto &[name, values] : e.shape) {
    shape.set(name, sizes(values, false));
    bucket.set(name, sizes(values, true));
  }
  j.set("shape", shape);
  Json scalars = Json::object();
  for (const auto &[name, value] : e.scalars)
    scalars.set(name, value);
  j.set("scalars", scalars);
  j.set("bucket", bucket);
  j.set("config", Json::string(e.best.config));
  j.set("time_us", Json::number(roundTime(e.best.timeUs)));
  j.set("default", timed(e.defaultConfig));
  Json candidates = Json::array();
  for (const TimedConfig &c : e.candidates)
    candidates.push(timed(c));
  j.set("candidates", candidates);
  Json rejected = Json::array();
  for (const auto &[config, reason] : e.rejected) {
    Json r = Json::object();
    r.set("config", Json::string(config));
    r.set("reason", Json::string(reason));
    rejected.push(r);
  }
  j.set("rejected", rejected);
  Json p = Json::object();
  p.set("tool", Json::string("ntc-tune"));
  p.set("ntc_version", Json::string(e.provenance.ntcVersion));
  p.set("date", Json::string(e.provenance.date));
  p.set("device", Json::string(e.provenance.device));
  p.set("driver", Json::string(e.provenance.driver));
  p.set("runtime", Json::string(e.provenance.runtime));
  p.set("host", Json::string(e.provenance.host));
  j.set("provenance", p);
  return j;
}

Json emptyTable() {
  Json table = Json::object();
  table.set("format", Json::string("ntc-tuning-table"));
  table.set("version", Json::integer(1));
  table.set("entries", Json::array());
  return table;
}

Json readTable(const std::string &path) {
  Json table;
  std::string error;
  if (!Json::parse(readFile(path), table, error))
    throw Error(path + ": not valid JSON: " + error);
  const Json *format = table.find("format");
  const Json *version = table.find("version");
  const Json *entries = table.find("entries");
  if (!table.isObject() || !format || format->asString() != "ntc-tuning-table")
    throw Error(path + ": not an ntc tuning table (no \"format\": \"ntc-tuning-table\")");
  if (!version || !version->isNumber() || version->asInt() != 1)
    throw Error(path + ": a tuning table of another version (ntc-tune writes version 1)");
  if (!entries || !entries->isArray())
    throw Error(path + ": a tuning table without \"entries\"");
  for (const Json &entry : entries->items())
    if (!entry.isObject() || !member(entry, "kernel").isString())
      throw Error(path + ": an entry without \"kernel\"");
  return table;
}

bool sameKey(const Json &a, const Json &b) {
  for (const char *key : {"kernel", "arch", "dtypes", "alignment", "bucket", "scalars"})
    if (member(a, key) != member(b, key))
      return false;
  return true;
}

void putEntry(Json &table, const Json &entry) {
  Json entries = Json::array();
  bool replaced = false;
  if (const Json *old = table.find("entries"))
    for (const Json &e : old->items()) {
      if (!replaced && sameKey(e, entry)) {
        entries.push(entry);
        replaced = true;
      } else if (!sameKey(e, entry)) {
        entries.push(e);
      }
    }
  if (!replaced)
    entries.push(entry);
  table.set("entries", entries);
}

} // namespace ntc::tune
