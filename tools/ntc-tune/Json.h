//===- Json.h - a small JSON value, writer and reader ---------------------===//
//
// Enough JSON for tuning tables: objects keep their keys in insertion order (the table is
// written in a fixed key order), numbers are doubles with an integer flag (so that sizes are
// written as 4096, not 4096.0).
//
//===----------------------------------------------------------------------===//
#ifndef NTC_TUNE_JSON_H
#define NTC_TUNE_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ntc::tune {

/// A JSON value.
class Json {
public:
  /// The kinds of value.
  enum class Kind { Null, Bool, Number, String, Array, Object };

  /// null.
  Json() = default;
  /// true or false.
  static Json boolean(bool value);
  /// A number written as an integer.
  static Json integer(int64_t value);
  /// A number written in its shortest exact form.
  static Json number(double value);
  /// A string.
  static Json string(const std::string &value);
  /// An empty array.
  static Json array();
  /// An empty object.
  static Json object();

  /// Its kind.
  Kind kind() const { return kind_; }
  /// True for Kind::Object (and so on for the others).
  bool isObject() const { return kind_ == Kind::Object; }
  /// True for an array.
  bool isArray() const { return kind_ == Kind::Array; }
  /// True for a string.
  bool isString() const { return kind_ == Kind::String; }
  /// True for a number.
  bool isNumber() const { return kind_ == Kind::Number; }

  /// The boolean (false unless Kind::Bool).
  bool asBool() const { return bool_; }
  /// The number (0 unless Kind::Number).
  double asNumber() const { return number_; }
  /// The number as an integer.
  int64_t asInt() const { return static_cast<int64_t>(number_); }
  /// The string ("" unless Kind::String).
  const std::string &asString() const { return string_; }

  /// Elements of an array.
  const std::vector<Json> &items() const { return items_; }
  /// Appends to an array.
  Json &push(Json value);
  /// Members of an object, in order.
  const std::vector<std::pair<std::string, Json>> &members() const { return members_; }
  /// Sets a member of an object (replacing one of the same key in place).
  Json &set(const std::string &key, Json value);
  /// The member `key`, or nullptr.
  const Json *find(const std::string &key) const;

  /// Structural equality (numbers by value, object members by key in any order).
  bool operator==(const Json &other) const;
  /// Negation of ==.
  bool operator!=(const Json &other) const { return !(*this == other); }

  /// The value as text: 2-space indentation, a final newline left to the caller. An array or
  /// object inside the outermost value is written on one line when that line is short.
  std::string write() const;

  /// Parses `text` (one value, blanks around it allowed). On failure returns false and sets
  /// `error` to "line L, column C: what".
  static bool parse(const std::string &text, Json &out, std::string &error);

private:
  void writeTo(std::string &out, int indent) const;
  void writeCompact(std::string &out) const;

  Kind kind_ = Kind::Null;
  bool bool_ = false;
  bool integer_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

/// `value` in its shortest decimal form that reads back exactly ("180.2", "1e-05").
std::string formatNumber(double value);

/// `s` as a JSON string literal, quotes included.
std::string quoteJson(const std::string &s);

} // namespace ntc::tune

#endif // NTC_TUNE_JSON_H
