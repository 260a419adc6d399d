// ntc-tune's JSON writer and reader: round trips, the layout of written tables, errors.
#include "Json.h"

#include <catch2/catch.hpp>

#include <string>

using ntc::tune::Json;

namespace {

Json parse(const std::string &text) {
  Json j;
  std::string error;
  REQUIRE(Json::parse(text, j, error));
  return j;
}

std::string parseError(const std::string &text) {
  Json j;
  std::string error;
  CHECK_FALSE(Json::parse(text, j, error));
  return error;
}

} // namespace

TEST_CASE("json: a value survives writing and reading back", "[tune]") {
  Json j = Json::object();
  j.set("format", Json::string("ntc-tuning-table"));
  j.set("version", Json::integer(1));
  Json sizes = Json::array();
  sizes.push(Json::integer(4096));
  sizes.push(Json::integer(int64_t(1) << 40));
  j.set("sizes", sizes);
  j.set("time", Json::number(180.2));
  j.set("tiny", Json::number(1e-5));
  j.set("text", Json::string("quote \" backslash \\ newline \n tab \t \x01 é"));
  j.set("flag", Json::boolean(true));
  j.set("nothing", Json());
  j.set("empty", Json::object());
  std::string text = j.write();
  Json back = parse(text);
  CHECK(back == j);
  CHECK(back.write() == text);
  CHECK(back.find("sizes")->items()[1].asInt() == int64_t(1) << 40);
  CHECK(back.find("text")->asString() == j.find("text")->asString());
}

TEST_CASE("json: layout is 2-space indented, short containers on one line", "[tune]") {
  Json entry = Json::object();
  Json dtypes = Json::object();
  dtypes.set("lhs", Json::string("float16"));
  dtypes.set("rhs", Json::string("float16"));
  entry.set("dtypes", dtypes);
  Json shape = Json::array();
  shape.push(Json::integer(4096));
  shape.push(Json::integer(4096));
  entry.set("shape", shape);
  entry.set("time_us", Json::number(180.2));
  Json table = Json::object();
  Json entries = Json::array();
  entries.push(entry);
  table.set("entries", entries);
  CHECK(table.write() == "{\n"
                         "  \"entries\": [{\"dtypes\": {\"lhs\": \"float16\", \"rhs\": "
                         "\"float16\"}, \"shape\": [4096, 4096], \"time_us\": 180.2}]\n"
                         "}");
  // Too long for one line: one element a line.
  entry.set("config", Json::string(std::string(60, 'x')));
  entries = Json::array();
  entries.push(entry);
  table.set("entries", entries);
  CHECK(table.write() == "{\n"
                         "  \"entries\": [\n"
                         "    {\n"
                         "      \"dtypes\": {\"lhs\": \"float16\", \"rhs\": \"float16\"},\n"
                         "      \"shape\": [4096, 4096],\n"
                         "      \"time_us\": 180.2,\n"
                         "      \"config\": \"" +
                             std::string(60, 'x') +
                             "\"\n"
                             "    }\n"
                             "  ]\n"
                             "}");
}

TEST_CASE("json: numbers are written exactly and briefly", "[tune]") {
  CHECK(ntc::tune::formatNumber(180.2) == "180.2");
  CHECK(ntc::tune::formatNumber(0.1) == "0.1");
  CHECK(ntc::tune::formatNumber(250) == "250");
  CHECK(ntc::tune::formatNumber(1.0 / 3) == "0.3333333333333333");
  CHECK(Json::integer(-7).write() == "-7");
  CHECK(parse("2.5e3").asNumber() == 2500);
  CHECK(parse("-0.5").asNumber() == -0.5);
  CHECK(parse("\"\\u00e9\\ud83d\\ude00\"").asString() == "é\xF0\x9F\x98\x80");
}

TEST_CASE("json: object members keep their order; equality ignores it", "[tune]") {
  Json a = parse(R"({"b": 1, "a": [1, 2]})");
  Json b = parse(R"({"a": [1, 2], "b": 1})");
  CHECK(a.members()[0].first == "b");
  CHECK(a == b);
  CHECK(a != parse(R"({"a": [2, 1], "b": 1})"));
  a.set("b", Json::integer(2)); // replaced in place
  CHECK(a.members()[0].first == "b");
  CHECK(a.find("b")->asInt() == 2);
}

TEST_CASE("json: errors name the line and column", "[tune]") {
  CHECK(parseError("{\n  \"a\": 1,\n  \"b\" 2\n}") == "line 3, column 7: expected ':'");
  CHECK(parseError("[1, 2") == "line 1, column 6: expected ',' or ']'");
  CHECK(parseError("{} x") == "line 1, column 4: unexpected text after the value");
  CHECK(parseError("\"abc") == "line 1, column 5: expected '\"' to end the string");
  CHECK(parseError("01") == "line 1, column 2: a number with a leading zero");
  CHECK(parseError("nul").find("expected a value") != std::string::npos);
  CHECK(parseError("").find("expected a value") != std::string::npos);
}
