#include "core/ws/deflate.h"

#include <cstring>

#include "core/util/text.h"

namespace baton::ws {
namespace {

constexpr unsigned char sync_tail[4] = {0x00, 0x00, 0xff, 0xff};

// One offer's parameters, as far as they are valid (RFC 7692 section 7.1:
// no parameter twice, the window bits a decimal of 8 to 15, nothing else).
struct offer {
  bool valid = true;
  bool server_no_context_takeover = false;
  bool client_no_context_takeover = false;
  int server_max_window_bits = 0;  // 0: not given
  bool client_max_window_bits = false;
};

int window_bits_value(std::string_view v, bool allow_empty) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  if (v.empty()) return allow_empty ? 15 : -1;
  uint64_t n = 0;
  if (!util::parse_decimal(v, n) || n < 8 || n > 15) return -1;
  return static_cast<int>(n);
}

offer read_offer(std::string_view params) {
  offer o;
  bool seen[4] = {};
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view param = util::trim_ows(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (param.empty()) continue;
    size_t eq = param.find('=');
    std::string_view name = util::trim_ows(param.substr(0, eq));
    std::string_view value = eq == std::string_view::npos ? std::string_view() : util::trim_ows(param.substr(eq + 1));
    bool has_value = eq != std::string_view::npos;
    int index = -1;
    if (util::equals_ignore_case(name, "server_no_context_takeover")) {
      index = 0;
      o.server_no_context_takeover = true;
      if (has_value) o.valid = false;
    } else if (util::equals_ignore_case(name, "client_no_context_takeover")) {
      index = 1;
      o.client_no_context_takeover = true;
      if (has_value) o.valid = false;
    } else if (util::equals_ignore_case(name, "server_max_window_bits")) {
      index = 2;
      o.server_max_window_bits = has_value ? window_bits_value(value, false) : -1;
      if (o.server_max_window_bits < 0) o.valid = false;
    } else if (util::equals_ignore_case(name, "client_max_window_bits")) {
      index = 3;
      o.client_max_window_bits = true;
      if (has_value && window_bits_value(value, true) < 0) o.valid = false;
    } else {
      o.valid = false;  // a parameter this extension does not define
    }
    if (index >= 0) {
      if (seen[index]) o.valid = false;
      seen[index] = true;
    }
  }
  return o;
}

}  // namespace

deflate_agreement negotiate_deflate(std::string_view offers, const deflate_settings& mine, std::string& response) {
  response.clear();
  deflate_agreement agreed;
  if (!mine.enabled) return agreed;
  while (!offers.empty()) {
    // Extensions are separated by commas; a quoted value holds none.
    size_t comma = offers.find(',');
    std::string_view one = util::trim_ows(offers.substr(0, comma));
    offers = comma == std::string_view::npos ? std::string_view() : offers.substr(comma + 1);
    size_t semi = one.find(';');
    std::string_view name = util::trim_ows(one.substr(0, semi));
    if (!util::equals_ignore_case(name, "permessage-deflate")) continue;
    offer o = read_offer(semi == std::string_view::npos ? std::string_view() : one.substr(semi + 1));
    if (!o.valid) continue;
    // zlib's raw deflate cannot use a 256-byte window (it takes 9 for 8):
    // an offer that insists on 8 is declined, as RFC 7692 lets a server do.
    if (o.server_max_window_bits == 8) continue;
    int bits = mine.window_bits;
    if (o.server_max_window_bits > 0 && o.server_max_window_bits < bits) bits = o.server_max_window_bits;
    agreed.enabled = true;
    agreed.server_window_bits = bits;
    response = "permessage-deflate; server_no_context_takeover; client_no_context_takeover";
    if (o.server_max_window_bits > 0) response += "; server_max_window_bits=" + std::to_string(bits);
    return agreed;
  }
  return agreed;
}

deflater::~deflater() {
  if (ready_) deflateEnd(&stream_);
}

bool deflater::compress(const deflate_settings& settings, int window_bits, const char* data, size_t length,
                        byte_buffer& out) {
  if (ready_ && window_bits != window_bits_) {
    deflateEnd(&stream_);
    ready_ = false;
  }
  if (!ready_) {
    stream_ = z_stream{};
    if (deflateInit2(&stream_, settings.level, Z_DEFLATED, -window_bits, settings.mem_level, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
      return false;
    }
    ready_ = true;
    window_bits_ = window_bits;
  }
  size_t start = out.size();
  stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  stream_.avail_in = static_cast<uInt>(length);
  int status;
  do {
    size_t room = deflateBound(&stream_, stream_.avail_in) + 16;
    char* p = out.prepare(room);
    stream_.next_out = reinterpret_cast<Bytef*>(p);
    stream_.avail_out = static_cast<uInt>(room);
    status = deflate(&stream_, Z_SYNC_FLUSH);
    out.commit(room - stream_.avail_out);
  } while (status == Z_OK && (stream_.avail_in != 0 || stream_.avail_out == 0));
  bool ok = (status == Z_OK || status == Z_BUF_ERROR) && stream_.avail_in == 0;
  deflateReset(&stream_);  // no context is kept for the next message
  if (!ok || out.size() - start < 4 || std::memcmp(out.data() + out.size() - 4, sync_tail, 4) != 0) {
    out.drop_back(out.size() - start);
    return false;
  }
  out.drop_back(4);  // the sync flush's empty stored block: the receiver adds it back
  return true;
}

inflater::~inflater() {
  if (ready_) inflateEnd(&stream_);
}

inflater::result inflater::inflate_message(const char* data, size_t length, size_t limit, byte_buffer& out) {
  if (!ready_) {
    stream_ = z_stream{};
    if (inflateInit2(&stream_, -15) != Z_OK) return result::malformed;
    ready_ = true;
  }
  result r = result::ok;
  // The payload, then the tail the sender removed.
  const char* pieces[2] = {data, reinterpret_cast<const char*>(sync_tail)};
  size_t sizes[2] = {length, sizeof sync_tail};
  for (int i = 0; i < 2 && r == result::ok; ++i) {
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(pieces[i]));
    stream_.avail_in = static_cast<uInt>(sizes[i]);
    while (stream_.avail_in != 0 && r == result::ok) {
      // One byte of room past the limit: a message of exactly the limit
      // still inflates (its last input may produce nothing), one over fails.
      if (out.size() > limit) {
        r = result::too_large;
        break;
      }
      size_t room = limit + 1 - out.size() < 65536 ? limit + 1 - out.size() : 65536;
      char* p = out.prepare(room);
      stream_.next_out = reinterpret_cast<Bytef*>(p);
      stream_.avail_out = static_cast<uInt>(room);
      int status = inflate(&stream_, Z_SYNC_FLUSH);
      out.commit(room - stream_.avail_out);
      if (status == Z_STREAM_END) {
        // A final block inside a message is allowed; what follows it would
        // need a new stream, which no conforming sender makes.
        if (stream_.avail_in != 0 && i == 0) r = result::malformed;
        break;
      }
      // Z_BUF_ERROR with room left in the output: the input cannot go on.
      bool stuck = status == Z_BUF_ERROR && stream_.avail_out != 0;
      if ((status != Z_OK && status != Z_BUF_ERROR) || stuck) r = result::malformed;
    }
  }
  inflateReset(&stream_);  // no context is kept for the next message
  if (out.size() > limit) {
    out.drop_back(out.size() - limit);
    r = result::too_large;
  }
  return r;
}

}  // namespace baton::ws
