// A strict reader of one flat JSON object (RFC 8259) whose values are
// strings, numbers or null: enough to check the access log's JSON lines
// with a parser written apart from the writer. It rejects what a strict
// parser rejects (raw control characters in a string, unknown escapes,
// lone surrogates, bytes that are not UTF-8, trailing text) and gives each
// string decoded, as UTF-8.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace baton::test {

struct json_value {
  enum class kind { string, number, null } type = kind::null;
  std::string text;  // the decoded string, or the number as written
};

class json_reader {
 public:
  // False when `line` is not exactly one such object.
  static bool read_object(std::string_view line, std::map<std::string, json_value>& out) {
    json_reader r(line);
    return r.object(out) && r.at_ == line.size();
  }

 private:
  explicit json_reader(std::string_view text) : text_(text) {}

  bool object(std::map<std::string, json_value>& out) {
    if (!take('{')) return false;
    if (take('}')) return true;
    while (true) {
      std::string key;
      json_value value;
      if (!string(key) || !take(':') || !any(value)) return false;
      out[key] = value;
      if (take('}')) return true;
      if (!take(',')) return false;
    }
  }

  bool any(json_value& v) {
    if (text_.substr(at_, 4) == "null") {
      at_ += 4;
      v.type = json_value::kind::null;
      return true;
    }
    if (at_ < text_.size() && text_[at_] == '"') {
      v.type = json_value::kind::string;
      return string(v.text);
    }
    v.type = json_value::kind::number;
    size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    if (!digits()) return false;
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      if (!digits()) return false;
    }
    v.text = std::string(text_.substr(start, at_ - start));
    return true;
  }

  bool digits() {
    size_t start = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    return at_ > start;
  }

  bool take(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }

  bool string(std::string& out) {
    if (!take('"')) return false;
    while (at_ < text_.size()) {
      auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        ++at_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        if (!escape(out)) return false;
      } else if (c < 0x80) {
        out.push_back(static_cast<char>(c));
        ++at_;
      } else if (!utf8(out)) {
        return false;
      }
    }
    return false;
  }

  bool escape(std::string& out) {
    if (at_ + 1 >= text_.size()) return false;
    char e = text_[at_ + 1];
    at_ += 2;
    switch (e) {
      case '"': out.push_back('"'); return true;
      case '\\': out.push_back('\\'); return true;
      case '/': out.push_back('/'); return true;
      case 'b': out.push_back('\b'); return true;
      case 'f': out.push_back('\f'); return true;
      case 'n': out.push_back('\n'); return true;
      case 'r': out.push_back('\r'); return true;
      case 't': out.push_back('\t'); return true;
      case 'u': break;
      default: return false;
    }
    uint32_t code = 0;
    if (!hex4(code)) return false;
    if (code >= 0xd800 && code <= 0xdbff) {
      uint32_t low = 0;
      if (text_.substr(at_, 2) != "\\u") return false;
      at_ += 2;
      if (!hex4(low) || low < 0xdc00 || low > 0xdfff) return false;
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
    encode(out, code);
    return true;
  }

  bool hex4(uint32_t& code) {
    if (at_ + 4 > text_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      char h = text_[at_++];
      int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) return false;
      code = code * 16 + static_cast<uint32_t>(d);
    }
    return true;
  }

  // One raw UTF-8 sequence, checked by decoding it: shortest form only, no
  // surrogates, nothing past U+10FFFF.
  bool utf8(std::string& out) {
    auto lead = static_cast<unsigned char>(text_[at_]);
    size_t length = (lead & 0xe0) == 0xc0 ? 2 : (lead & 0xf0) == 0xe0 ? 3 : (lead & 0xf8) == 0xf0 ? 4 : 0;
    if (length == 0 || at_ + length > text_.size()) return false;
    uint32_t code = lead & (0x7f >> length);
    for (size_t i = 1; i < length; ++i) {
      auto c = static_cast<unsigned char>(text_[at_ + i]);
      if ((c & 0xc0) != 0x80) return false;
      code = (code << 6) | (c & 0x3f);
    }
    static constexpr uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < least[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    out.append(text_.substr(at_, length));
    at_ += length;
    return true;
  }

  static void encode(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace baton::test
