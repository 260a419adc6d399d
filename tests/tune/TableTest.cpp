// ntc-tune's tables: buckets, alignment classes, entries and the merge with an existing table.
#include "Table.h"
#include "Tuning.h"

#include <catch2/catch.hpp>

using namespace ntc::tune;

namespace {

TableEntry sampleEntry(std::vector<int64_t> size, const std::string &winner) {
  TableEntry e;
  e.kernel = "matmul";
  e.hash = "9f86d081884c7d65";
  e.target = "cuda";
  e.arch = "sm_90";
  e.dtypes = {{"lhs", "float16"}, {"output", "float16"}};
  e.alignment = "aligned16";
  e.shape = {{"lhs", size}, {"output", size}};
  e.best = {winner, 180.234};
  e.defaultConfig = {"default-id", 250};
  e.candidates = {e.best, e.defaultConfig};
  e.rejected = {{"bad-id", "output differs from the default at output[0, 17]: 3.5 against 1.25"}};
  e.provenance.device = "NVIDIA H200";
  return e;
}

} // namespace

TEST_CASE("table: size buckets are the next power of two", "[tune]") {
  CHECK(sizeBucket(0) == 0);
  CHECK(sizeBucket(-5) == 0);
  CHECK(sizeBucket(1) == 1);
  CHECK(sizeBucket(2) == 2);
  CHECK(sizeBucket(3) == 4);
  CHECK(sizeBucket(4096) == 4096);
  CHECK(sizeBucket(4097) == 8192);
  CHECK(sizeBucket(1000000) == 1048576);
}

TEST_CASE("table: alignment classes", "[tune]") {
  alignas(16) static unsigned char buffer[4096];
  int64_t shape[2] = {8, 8};
  int64_t strides[2] = {8, 1};
  DLTensor t{buffer, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, strides, 0};
  CHECK(alignmentClass({&t}) == "aligned16"); // row stride 32 bytes
  t.byte_offset = 4;
  CHECK(alignmentClass({&t}) == "any");
  t.byte_offset = 0;
  strides[0] = 6; // 24 bytes
  CHECK(alignmentClass({&t}) == "any");
  shape[0] = 1; // a dimension of size 1 is never stepped
  CHECK(alignmentClass({&t}) == "aligned16");
  shape[0] = 8;
  t.strides = nullptr; // compact row-major
  CHECK(alignmentClass({&t}) == "aligned16");
  shape[1] = 5; // rows of 20 bytes
  CHECK(alignmentClass({&t}) == "any");
}

TEST_CASE("table: an entry has exactly the documented keys", "[tune]") {
  Json j = entryToJson(sampleEntry({100, 4096}, "win"));
  std::vector<std::string> keys;
  for (const auto &m : j.members())
    keys.push_back(m.first);
  CHECK(keys == std::vector<std::string>{"kernel", "hash", "target", "arch", "dtypes", "alignment",
                                         "shape", "scalars", "bucket", "config", "time_us",
                                         "default", "candidates", "rejected", "provenance"});
  Json bucket = *j.find("bucket");
  CHECK(bucket.find("lhs")->items()[0].asInt() == 128);
  CHECK(bucket.find("lhs")->items()[1].asInt() == 4096);
  CHECK(j.find("shape")->find("lhs")->items()[0].asInt() == 100);
  CHECK(j.find("time_us")->asNumber() == 180.23);
  CHECK(j.find("default")->find("config")->asString() == "default-id");
  CHECK(j.find("provenance")->find("tool")->asString() == "ntc-tune");
  CHECK(j.find("rejected")->items()[0].find("reason")->asString().find("output[0, 17]") !=
        std::string::npos);
}

TEST_CASE("table: entries of the same key are replaced, others kept", "[tune]") {
  Json table = emptyTable();
  putEntry(table, entryToJson(sampleEntry({4096, 4096}, "a")));
  putEntry(table, entryToJson(sampleEntry({64, 64}, "b")));
  // 3000 falls in the bucket of 4096: replaces the first entry, in place.
  putEntry(table, entryToJson(sampleEntry({3000, 4096}, "c")));
  const auto &entries = table.find("entries")->items();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].find("config")->asString() == "c");
  CHECK(entries[1].find("config")->asString() == "b");
  TableEntry other = sampleEntry({64, 64}, "d");
  other.arch = "sm_80";
  putEntry(table, entryToJson(other));
  CHECK(table.find("entries")->items().size() == 3);
  TableEntry unaligned = sampleEntry({64, 64}, "e");
  unaligned.alignment = "any";
  putEntry(table, entryToJson(unaligned));
  CHECK(table.find("entries")->items().size() == 4);
  // Scalars key entries too (the dispatcher takes an entry for its nt::Constexpr values only).
  TableEntry causal = sampleEntry({64, 64}, "f");
  causal.scalars = {{"is_causal", Json::number(1)}};
  putEntry(table, entryToJson(causal));
  CHECK(table.find("entries")->items().size() == 5);
  causal.best.config = "g";
  putEntry(table, entryToJson(causal));
  REQUIRE(table.find("entries")->items().size() == 5);
  CHECK(table.find("entries")->items()[4].find("config")->asString() == "g");
}
