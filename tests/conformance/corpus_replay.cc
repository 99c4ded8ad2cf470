// Replays the request corpus through the parser and the chunked decoder and
// checks that the outcome does not depend on how the bytes were split.
//
// Usage: corpus_replay CORPUS.txt, where each line is `<name> <verdict> <hex>`
// (written by tools/corpus_to_text.py). For every case the head is parsed
// whole, byte by byte and at 20 random splittings; for a complete head with
// chunked framing, the rest is also decoded whole and byte by byte. The
// verdict is not compared with (tests/conformance/*.py does that): this
// program exists to run under AddressSanitizer, where the bytes past the
// length handed to the parser are poisoned so any overread crashes.
//
// Prints one line per inconsistency and then `N passed, M failed`; exits 1
// if any case failed.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/http1/chunked.h"
#include "core/http1/parser.h"

#include "support/exact_bytes.h"

namespace {

using baton::test::exact_bytes;
using baton::test::printable;

namespace h = baton::http1;

// A heap copy of the bytes of exactly their size; show(k) leaves only the
// first k readable under ASan.

baton::exchange::request_limits replay_limits() {
  baton::exchange::request_limits lim;
  lim.max_request_line = 8192;
  lim.max_header_bytes = 32768;
  lim.max_headers = 100;
  lim.max_body = 0;
  return lim;
}

// The head outcome as text: status, and for a complete head its length and
// every parsed field. `head_length` is returned separately for the body.
struct head_outcome {
  std::string text;
  bool chunked = false;
  size_t head_length = 0;
};

// Feeds the bytes at the lengths in `cuts` (ascending, below the size) and
// then all of them, with one `scanned`; stops at the first non-incomplete.
head_outcome parse_head(std::string_view bytes, const std::vector<size_t>& cuts) {
  baton::exchange::request_limits lim = replay_limits();
  exact_bytes buf(bytes);
  std::vector<h::header> storage(lim.max_headers);
  h::request req;
  h::parse_cursor scanned;
  std::vector<size_t> lengths = cuts;
  lengths.push_back(bytes.size());
  head_outcome o;
  for (size_t len : lengths) {
    h::parse_result r = h::parse_request(buf.show(len), len, scanned, lim, storage.data(), req);
    if (r.status == h::parse_status::incomplete) {
      o.text = "incomplete";
      continue;
    }
    if (r.status == h::parse_status::error) {
      o.text = "error " + std::to_string(r.http_status);
      return o;
    }
    std::ostringstream s;
    s << "complete head_length=" << r.head_length << " method=" << req.method << " target="
      << printable(req.target) << " path=" << printable(req.path) << " query=" << printable(req.query)
      << " authority=" << printable(req.authority) << " form=" << int(req.form) << " 1." << int(req.version_minor) << " keep_alive=" << req.persistent
      << " expect_continue=" << req.expect_continue << " is_head=" << req.is_head << " upgrade=" << req.upgrade
      << " framing=" << int(h::framing_of(req)) << " content_length=" << (req.content_length < 0 ? 0 : req.content_length)
      << " headers=" << req.field_count;
    for (size_t i = 0; i < req.field_count; ++i) {
      s << " [" << printable(req.fields[i].name) << ": " << printable(req.fields[i].value) << "]";
    }
    o.text = s.str();
    o.chunked = h::framing_of(req) == h::body_framing::chunked;
    o.head_length = r.head_length;
    return o;
  }
  return o;
}

// Decodes a chunked body shown at the lengths in `cuts` and then whole,
// dropping consumed bytes from the front as a connection does.
std::string decode_body(std::string_view bytes, const std::vector<size_t>& cuts) {
  exact_bytes buf(bytes);
  h::chunked_decoder dec;
  std::string body;
  std::vector<size_t> lengths = cuts;
  lengths.push_back(bytes.size());
  size_t next = 0;
  size_t visible = lengths[next];
  const char* p = buf.show(visible);
  size_t pos = 0;
  while (true) {
    h::chunked_decoder::step_result r = dec.step(p + pos, visible - pos);
    if (r.consumed > visible - pos) return "consumed past the input";
    switch (r.state) {
      case h::chunked_decoder::status::data:
        if (r.data_length == 0 || r.data < p + pos || r.data + r.data_length > p + pos + r.consumed) {
          return "bad data run";
        }
        body.append(r.data, r.data_length);
        pos += r.consumed;
        continue;
      case h::chunked_decoder::status::need_more:
        pos += r.consumed;
        if (++next == lengths.size()) return "need_more body=" + printable(body, 100000);
        visible = lengths[next];
        p = buf.show(visible);
        continue;
      case h::chunked_decoder::status::done:
        pos += r.consumed;
        return "done end=" + std::to_string(pos) + " body=" + printable(body, 100000);
      case h::chunked_decoder::status::error:
        return "error body=" + printable(body, 100000);
    }
  }
}

std::vector<size_t> every_byte(size_t n) {
  std::vector<size_t> cuts;
  for (size_t k = 1; k < n; ++k) cuts.push_back(k);
  return cuts;
}

std::string full_outcome(const head_outcome& head, std::string_view bytes) {
  if (!head.chunked) return head.text;
  return head.text + " | body: " + decode_body(bytes.substr(head.head_length), {});
}

bool from_hex(std::string_view hex, std::string& out) {
  if (hex.size() % 2 != 0) return false;
  out.clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
  }
  return true;
}

// Returns the number of inconsistencies found for one case (printing each).
int replay(const std::string& name, std::string_view bytes, std::mt19937& rng) {
  int problems = 0;
  auto report = [&](const std::string& how, const std::string& expected, const std::string& got) {
    std::printf("%s: %s differs: whole gave {%s}, this gave {%s}\n", name.c_str(), how.c_str(),
                printable(expected, 400).c_str(), printable(got, 400).c_str());
    ++problems;
  };

  head_outcome whole = parse_head(bytes, {});
  std::string expected = full_outcome(whole, bytes);

  head_outcome bytewise = parse_head(bytes, every_byte(bytes.size()));
  std::string got = full_outcome(bytewise, bytes);
  if (got != expected) report("byte-by-byte parse", expected, got);

  if (bytes.size() >= 2) {
    std::uniform_int_distribution<size_t> pick(1, bytes.size() - 1);
    std::uniform_int_distribution<int> how_many(1, 3);
    for (int i = 0; i < 20; ++i) {
      std::vector<size_t> cuts;
      for (int n = how_many(rng); n > 0; --n) cuts.push_back(pick(rng));
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      head_outcome split = parse_head(bytes, cuts);
      got = full_outcome(split, bytes);
      if (got != expected) {
        std::string where = "parse split at";
        for (size_t c : cuts) where += " " + std::to_string(c);
        report(where, expected, got);
      }
    }
  }

  if (whole.chunked) {
    std::string_view body = bytes.substr(whole.head_length);
    std::string body_whole = decode_body(body, {});
    std::string body_bytewise = decode_body(body, every_byte(body.size()));
    if (body_bytewise != body_whole) report("byte-by-byte chunked decode", body_whole, body_bytewise);
  }
  return problems;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS.txt\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "corpus_replay: cannot open %s (run tools/corpus_to_text.py first)\n", argv[1]);
    return 2;
  }
  std::mt19937 rng(1357911);
  int passed = 0;
  int failed = 0;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string name, verdict, hex;
    fields >> name >> verdict >> hex;  // an empty request has no hex field
    std::string bytes;
    if (name.empty() || verdict.empty() || !from_hex(hex, bytes)) {
      std::printf("line %d: malformed corpus line\n", line_number);
      ++failed;
      continue;
    }
    if (replay(name, bytes, rng) == 0) ++passed;
    else ++failed;
  }
  if (passed + failed == 0) {
    std::printf("corpus_replay: no cases in %s\n", argv[1]);
    return 1;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
