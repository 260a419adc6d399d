//===- Json.cpp - a small JSON value, writer and reader -------------------===//
#include "Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ntc::tune {

namespace {

/// Width a value written on one line may take (indentation included).
constexpr size_t kLineWidth = 100;

} // namespace

Json Json::boolean(bool value) {
  Json j;
  j.kind_ = Kind::Bool;
  j.bool_ = value;
  return j;
}

Json Json::integer(int64_t value) {
  Json j;
  j.kind_ = Kind::Number;
  j.number_ = static_cast<double>(value);
  j.integer_ = true;
  return j;
}

Json Json::number(double value) {
  Json j;
  j.kind_ = Kind::Number;
  j.number_ = value;
  return j;
}

Json Json::string(const std::string &value) {
  Json j;
  j.kind_ = Kind::String;
  j.string_ = value;
  return j;
}

Json Json::array() {
  Json j;
  j.kind_ = Kind::Array;
  return j;
}

Json Json::object() {
  Json j;
  j.kind_ = Kind::Object;
  return j;
}

Json &Json::push(Json value) {
  items_.push_back(std::move(value));
  return items_.back();
}

Json &Json::set(const std::string &key, Json value) {
  for (auto &member : members_)
    if (member.first == key) {
      member.second = std::move(value);
      return member.second;
    }
  members_.emplace_back(key, std::move(value));
  return members_.back().second;
}

const Json *Json::find(const std::string &key) const {
  for (const auto &member : members_)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

bool Json::operator==(const Json &other) const {
  if (kind_ != other.kind_)
    return false;
  switch (kind_) {
  case Kind::Null:
    return true;
  case Kind::Bool:
    return bool_ == other.bool_;
  case Kind::Number:
    return number_ == other.number_;
  case Kind::String:
    return string_ == other.string_;
  case Kind::Array:
    return items_ == other.items_;
  case Kind::Object:
    if (members_.size() != other.members_.size())
      return false;
    for (const auto &member : members_) {
      const Json *theirs = other.find(member.first);
      if (!theirs || *theirs != member.second)
        return false;
    }
    return true;
  }
  return false;
}

std::string formatNumber(double value) {
  if (!std::isfinite(value))
    return "null"; // JSON has no NaN or infinity
  char buf[40];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  return buf;
}

std::string quoteJson(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

void Json::writeTo(std::string &out, int indent) const {
  bool isArr = kind_ == Kind::Array;
  size_t count = isArr ? items_.size() : members_.size();
  if ((kind_ != Kind::Array && kind_ != Kind::Object) || count == 0) {
    writeCompact(out);
    return;
  }
  // One line when it fits (never the outermost value).
  if (indent > 0) {
    std::string line;
    writeCompact(line);
    if (static_cast<size_t>(indent) + line.size() + 2 <= kLineWidth) {
      out += line;
      return;
    }
  }
  std::string pad(static_cast<size_t>(indent) + 2, ' ');
  out += isArr ? "[\n" : "{\n";
  for (size_t i = 0; i < count; ++i) {
    out += pad;
    if (!isArr)
      out += quoteJson(members_[i].first) + ": ";
    (isArr ? items_[i] : members_[i].second).writeTo(out, indent + 2);
    if (i + 1 < count)
      out += ',';
    out += '\n';
  }
  out += std::string(static_cast<size_t>(indent), ' ');
  out += isArr ? "]" : "}";
}

void Json::writeCompact(std::string &out) const {
  switch (kind_) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += bool_ ? "true" : "false";
    return;
  case Kind::Number:
    if (integer_ && std::fabs(number_) < 9.2e18)
      out += std::to_string(static_cast<int64_t>(number_));
    else
      out += formatNumber(number_);
    return;
  case Kind::String:
    out += quoteJson(string_);
    return;
  case Kind::Array:
    out += '[';
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i)
        out += ", ";
      items_[i].writeCompact(out);
    }
    out += ']';
    return;
  case Kind::Object:
    out += '{';
    for (size_t i = 0; i < members_.size(); ++i) {
      if (i)
        out += ", ";
      out += quoteJson(members_[i].first) + ": ";
      members_[i].second.writeCompact(out);
    }
    out += '}';
    return;
  }
}

std::string Json::write() const {
  std::string out;
  writeTo(out, 0);
  return out;
}

namespace {

/// Recursive-descent parser over the whole text.
class Parser {
public:
  explicit Parser(const std::string &text) : text_(text) {}

  bool parseDocument(Json &out, std::string &error) {
    skipBlanks();
    if (!parseValue(out, 0))
      return fail(error);
    skipBlanks();
    if (pos_ != text_.size()) {
      message_ = "unexpected text after the value";
      return fail(error);
    }
    return true;
  }

private:
  bool fail(std::string &error) {
    int line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message_;
    return false;
  }

  bool expected(const char *what) {
    message_ = std::string("expected ") + what;
    return false;
  }

  void skipBlanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (text_.compare(pos_, n, word) != 0)
      return false;
    pos_ += n;
    return true;
  }

  bool parseValue(Json &out, int depth) {
    if (depth > 200) {
      message_ = "nested too deeply";
      return false;
    }
    if (pos_ >= text_.size())
      return expected("a value");
    char c = text_[pos_];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      std::string s;
      if (!parseString(s))
        return false;
      out = Json::string(s);
      return true;
    }
    if (literal("true")) {
      out = Json::boolean(true);
      return true;
    }
    if (literal("false")) {
      out = Json::boolean(false);
      return true;
    }
    if (literal("null")) {
      out = Json();
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out);
    return expected("a value");
  }

  bool parseNumber(Json &out) {
    size_t start = pos_;
    bool integral = true;
    if (text_[pos_] == '-')
      ++pos_;
    if (text_.compare(pos_, 1, "0") == 0 && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' &&
        text_[pos_ + 1] <= '9') {
      ++pos_;
      message_ = "a number with a leading zero";
      return false;
    }
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
      return pos_ > from;
    };
    if (!digits())
      return expected("a digit");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (!digits())
        return expected("a digit after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return expected("a digit in the exponent");
    }
    std::string number = text_.substr(start, pos_ - start);
    if (integral && number.size() < 19)
      out = Json::integer(std::strtoll(number.c_str(), nullptr, 10));
    else
      out = Json::number(std::strtod(number.c_str(), nullptr));
    return true;
  }

  static void appendUtf8(std::string &s, unsigned cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(unsigned &value) {
    if (pos_ + 4 > text_.size())
      return expected("four hex digits");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_++];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        value |= static_cast<unsigned>(c - 'A' + 10);
      else
        return expected("a hex digit");
    }
    return true;
  }

  bool parseString(std::string &s) {
    ++pos_; // the opening quote
    for (;;) {
      if (pos_ >= text_.size())
        return expected("'\"' to end the string");
      char c = text_[pos_++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        message_ = "control character in a string";
        return false;
      }
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos_ >= text_.size())
        return expected("an escape");
      char e = text_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        s += e;
        break;
      case 'b':
        s += '\b';
        break;
      case 'f':
        s += '\f';
        break;
      case 'n':
        s += '\n';
        break;
      case 'r':
        s += '\r';
        break;
      case 't':
        s += '\t';
        break;
      case 'u': {
        unsigned cp = 0;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
          pos_ += 2;
          unsigned low = 0;
          if (!parseHex4(low))
            return false;
          if (low >= 0xDC00 && low < 0xE000)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(s, cp);
        break;
      }
      default:
        --pos_;
        message_ = "unknown escape in a string";
        return false;
      }
    }
  }

  bool parseArray(Json &out, int depth) {
    ++pos_;
    out = Json::array();
    skipBlanks();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skipBlanks();
      Json item;
      if (!parseValue(item, depth + 1))
        return false;
      out.push(std::move(item));
      skipBlanks();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return expected("',' or ']'");
    }
  }

  bool parseObject(Json &out, int depth) {
    ++pos_;
    out = Json::object();
    skipBlanks();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skipBlanks();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return expected("a member name in quotes");
      std::string key;
      if (!parseString(key))
        return false;
      skipBlanks();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return expected("':'");
      ++pos_;
      skipBlanks();
      Json value;
      if (!parseValue(value, depth + 1))
        return false;
      out.set(key, std::move(value));
      skipBlanks();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return expected("',' or '}'");
    }
  }

  const std::string &text_;
  size_t pos_ = 0;
  std::string message_;
};

} // namespace

bool Json::parse(const std::string &text, Json &out, std::string &error) {
  return Parser(text).parseDocument(out, error);
}

} // namespace ntc::tune
