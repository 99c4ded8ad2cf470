// Unit tests for the JSON access log (src/core/server/access_log_json.h):
// the string escaping, and whole lines read back by a strict JSON reader.
#include "core/server/access_log_json.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/server/access_log.h"
#include "unit/support/json_reader.h"

namespace {

namespace x = baton::exchange;
using baton::server::access_log;
using baton::server::access_log_json_options;
using baton::server::access_record;
using baton::server::append_json_string;
using baton::test::json_reader;
using baton::test::json_value;

std::string json_quoted(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

// What a reader must get back from the writer's string, modelled apart from
// it: each valid UTF-8 sequence as it is, each other byte as U+00XX.
std::string expected_decoding(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    auto lead = static_cast<unsigned char>(text[i]);
    size_t length = lead < 0x80 ? 1 : (lead & 0xe0) == 0xc0 ? 2 : (lead & 0xf0) == 0xe0 ? 3 : (lead & 0xf8) == 0xf0 ? 4 : 0;
    bool valid = length != 0 && i + length <= text.size();
    uint32_t code = length == 1 ? lead : lead & (0x7f >> length);
    for (size_t k = 1; valid && k < length; ++k) {
      auto c = static_cast<unsigned char>(text[i + k]);
      valid = (c & 0xc0) == 0x80;
      code = (code << 6) | (c & 0x3f);
    }
    static constexpr uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && code >= least[length] && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    if (valid) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out.push_back(static_cast<char>(0xc0 | (lead >> 6)));  // U+0080..U+00FF in UTF-8
      out.push_back(static_cast<char>(0x80 | (lead & 0x3f)));
      ++i;
    }
  }
  return out;
}

TEST(JsonString, PlainAsciiPassesAsItIs) {
  EXPECT_EQ(json_quoted("GET"), "\"GET\"");
  EXPECT_EQ(json_quoted(""), "\"\"");
  EXPECT_EQ(json_quoted("/a/b?x=1&y=%20"), "\"/a/b?x=1&y=%20\"");
}

TEST(JsonString, QuotesBackslashesAndControlBytesAreEscaped) {
  EXPECT_EQ(json_quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_quoted("\n\r\t"), "\"\\n\\r\\t\"");
  EXPECT_EQ(json_quoted(std::string_view("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(json_quoted("\b\f"), "\"\\u0008\\u000c\"");
}

TEST(JsonString, ValidUtf8PassesAsItIs) {
  EXPECT_EQ(json_quoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_quoted("\xe2\x82\xac \xf0\x9f\x98\x80"), "\"\xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(JsonString, BytesThatAreNotUtf8AreLatin1Escapes) {
  EXPECT_EQ(json_quoted("caf\xe9"), "\"caf\\u00e9\"");                  // Latin-1, not UTF-8
  EXPECT_EQ(json_quoted("\xc0\xaf"), "\"\\u00c0\\u00af\"");             // an overlong '/'
  EXPECT_EQ(json_quoted("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\""); // a surrogate
  EXPECT_EQ(json_quoted("\xf4\x90\x80\x80"), "\"\\u00f4\\u0090\\u0080\\u0080\"");  // past U+10FFFF
  EXPECT_EQ(json_quoted("\xe2\x82"), "\"\\u00e2\\u0082\"");             // cut short
  EXPECT_EQ(json_quoted("\xff"), "\"\\u00ff\"");
}

// Random bytes, weighted towards the awkward ones: every string the writer
// makes is read by a strict JSON reader and decodes to the model's reading.
TEST(JsonString, RandomBytesAlwaysMakeValidJsonThatDecodesAsDocumented) {
  std::mt19937 random(12345);
  const std::string awkward = std::string("\"\\\x00\x01\x1f\x7f\x80\xbf\xc0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xff", 18) +
                              "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "a/ ";
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    size_t length = random() % 24;
    for (size_t i = 0; i < length; ++i) {
      text.push_back(random() % 2 != 0 ? awkward[random() % awkward.size()] : static_cast<char>(random() & 0xff));
    }
    std::string line = "{\"k\":" + json_quoted(text) + "}";
    std::map<std::string, json_value> object;
    ASSERT_TRUE(json_reader::read_object(line, object)) << line;
    EXPECT_EQ(object["k"].text, expected_decoding(text)) << line;
  }
}

struct sample {
  std::vector<x::field> headers;
  x::request_head head;
  access_record record;
  sample() {
    headers = {{"User-Agent", "curl/8 \"x\""}, {"Referer", "http://r/"}, {"X-Request-ID", "req-42"}};
    head.method = "POST";
    head.target = "/a/b?x=1";
    head.path = "/a/b";
    head.query = "x=1";
    head.fields = headers.data();
    head.field_count = headers.size();
    record.head = &head;
    record.client = "10.1.2.3";
    record.client_port = 5555;
    record.status = 201;
    record.body_bytes = 12;
    record.request_body_bytes = 7;
    record.duration_us = 1234567;
  }
};

std::map<std::string, json_value> logged(const access_record& r, const access_log_json_options& options = {}) {
  std::string error;
  auto log = access_log::open("json", "/dev/null", error, options);
  EXPECT_TRUE(log) << error;
  std::string line = log->format_line(r);
  EXPECT_EQ(line.back(), '\n');
  line.pop_back();
  EXPECT_EQ(line.find('\n'), std::string::npos);
  std::map<std::string, json_value> object;
  EXPECT_TRUE(json_reader::read_object(line, object)) << line;
  return object;
}

TEST(JsonAccessLine, EveryFieldIsNamedAndTyped) {
  sample s;
  access_log_json_options options;
  options.loop_index = 3;
  time_t before = time(nullptr);
  auto f = logged(s.record, options);
  EXPECT_EQ(f.size(), 16u);
  EXPECT_EQ(f["client"].text, "10.1.2.3");
  EXPECT_EQ(f["client_port"].text, "5555");
  EXPECT_EQ(f["method"].text, "POST");
  EXPECT_EQ(f["path"].text, "/a/b");
  EXPECT_EQ(f["query"].text, "x=1");
  EXPECT_EQ(f["protocol"].text, "HTTP/1.1");
  EXPECT_EQ(f["status"].text, "201");
  EXPECT_EQ(f["status"].type, json_value::kind::number);
  EXPECT_EQ(f["bytes_in"].text, "7");
  EXPECT_EQ(f["bytes_out"].text, "12");
  EXPECT_EQ(f["duration"].text, "1.234567");
  EXPECT_EQ(f["user_agent"].text, "curl/8 \"x\"");
  EXPECT_EQ(f["referer"].text, "http://r/");
  EXPECT_EQ(f["request_id"].text, "req-42");
  EXPECT_EQ(f["worker"].text, std::to_string(getpid()));
  EXPECT_EQ(f["loop"].text, "3");
  // "2026-12-05T16:40:01.123456+00:00", this second or the next.
  const std::string& t = f["time"].text;
  ASSERT_EQ(t.size(), 32u) << t;
  struct tm utc {};
  ASSERT_NE(strptime(t.c_str(), "%Y-%m-%dT%H:%M:%S", &utc), nullptr) << t;
  time_t logged_at = timegm(&utc);
  EXPECT_TRUE(logged_at == before || logged_at == before + 1) << t;
  EXPECT_EQ(t[19], '.');
  EXPECT_EQ(t.substr(26), "+00:00");
}

TEST(JsonAccessLine, AbsentFieldsAreNullAndHttp2IsNamedByItsMajorVersion) {
  sample s;
  s.head.field_count = 0;
  s.head.query = "";
  s.head.version_major = 2;
  s.head.version_minor = 0;
  s.record.client = "";
  s.record.client_port = 0;
  s.record.duration_us = 42;
  auto f = logged(s.record);
  EXPECT_EQ(f["client"].type, json_value::kind::null);
  EXPECT_EQ(f["client_port"].type, json_value::kind::null);
  EXPECT_EQ(f["user_agent"].type, json_value::kind::null);
  EXPECT_EQ(f["referer"].type, json_value::kind::null);
  EXPECT_EQ(f["request_id"].type, json_value::kind::null);
  EXPECT_EQ(f["query"].type, json_value::kind::string);
  EXPECT_EQ(f["query"].text, "");
  EXPECT_EQ(f["protocol"].text, "HTTP/2");
  EXPECT_EQ(f["duration"].text, "0.000042");
}

TEST(JsonAccessLine, TheRequestIdComesFromTheHeaderTheOperatorNames) {
  sample s;
  s.headers.push_back({"X-Correlation-Id", "corr-7"});
  s.head.fields = s.headers.data();
  s.head.field_count = s.headers.size();
  access_log_json_options options;
  options.request_id_header = "x-correlation-id";
  EXPECT_EQ(logged(s.record, options)["request_id"].text, "corr-7");
}

TEST(JsonAccessLine, AWebSocketCountsItsMessageBytes) {
  sample s;
  s.record.request_body_bytes = 0;
  s.record.received_bytes = 99;
  s.record.status = 101;
  EXPECT_EQ(logged(s.record)["bytes_in"].text, "99");
}

// Every string at its widest (each byte six on the line) and every number
// at its longest still fit the room the line makes for itself.
TEST(JsonAccessLine, TheWidestLineFitsTheRoomItMakes) {
  sample s;
  std::string wide(4096, '\x01');
  std::string stray(3000, '\xff');
  s.headers = {{"user-agent", wide}, {"referer", stray}, {"x-request-id", wide}};
  s.head.fields = s.headers.data();
  s.head.field_count = s.headers.size();
  s.head.method = stray;
  s.head.path = wide;
  s.head.query = stray;
  s.record.client = stray;
  s.record.client_port = 65535;
  s.record.status = 999;
  s.record.body_bytes = UINT64_MAX;
  s.record.request_body_bytes = UINT64_MAX / 2;
  s.record.received_bytes = UINT64_MAX / 2;
  s.record.duration_us = INT64_MAX;
  access_log_json_options options;
  options.loop_index = 1023;
  auto f = logged(s.record, options);
  EXPECT_EQ(f["path"].text, expected_decoding(wide));
  EXPECT_EQ(f["referer"].text, expected_decoding(stray));
  EXPECT_EQ(f["bytes_out"].text, std::to_string(UINT64_MAX));
  EXPECT_EQ(f["duration"].text, std::to_string(INT64_MAX / 1000000) + ".775807");
}

// Whatever a client puts in its request, the line is one valid JSON object.
TEST(JsonAccessLine, RandomRequestBytesAlwaysMakeOneValidLine) {
  std::mt19937 random(777);
  std::string error;
  auto log = access_log::open("json", "/dev/null", error);
  ASSERT_TRUE(log) << error;
  auto noise = [&](size_t most) {
    std::string text;
    size_t length = random() % most;
    for (size_t i = 0; i < length; ++i) text.push_back(static_cast<char>(random() & 0xff));
    return text;
  };
  for (int round = 0; round < 5000; ++round) {
    std::string method = noise(8), path = noise(40), query = noise(20), agent = noise(30), id = noise(10);
    std::vector<x::field> headers = {{"user-agent", agent}, {"x-request-id", id}};
    x::request_head head;
    head.method = method;
    head.path = path;
    head.query = query;
    head.fields = headers.data();
    head.field_count = headers.size();
    access_record r;
    r.head = &head;
    r.client = "::1";
    std::string line = log->format_line(r);
    ASSERT_EQ(line.find('\n'), line.size() - 1);
    line.pop_back();
    std::map<std::string, json_value> object;
    ASSERT_TRUE(json_reader::read_object(line, object)) << line;
    EXPECT_EQ(object["path"].text, expected_decoding(path));
    EXPECT_EQ(object["user_agent"].text, expected_decoding(agent));
  }
}

}  // namespace
