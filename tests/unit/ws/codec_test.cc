// Unit tests for the WebSocket codec (src/core/ws/): UTF-8 across pieces,
// the frame decoder whole, split and byte by byte, the message layer's
// every rule, the encoder, permessage-deflate both ways and its
// negotiation, and the opening handshake.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/ws/deflate.h"
#include "core/ws/frame.h"
#include "core/ws/handshake.h"
#include "core/ws/message.h"
#include "core/util/text.h"
#include "core/util/utf8.h"

namespace {

namespace ws = baton::ws;
using namespace std::string_literals;

// --- UTF-8 -----------------------------------------------------------------

TEST(Utf8, AcceptsValidTextAndRejectsWhatRfc3629Forbids) {
  EXPECT_TRUE(baton::util::valid_utf8("", 0));
  std::string good = "Hello-\xc2\xb5@\xc3\x9f\xc3\xb6\xc3\xa4\xc3\xbc\xc3\xa0\xc3\xa1-UTF-8!! \xf0\x9f\x98\x80 \xe2\x82\xac";
  EXPECT_TRUE(baton::util::valid_utf8(good.data(), good.size()));
  for (std::string bad : {"\xc0\xaf"s,            // overlong
                          "\xe0\x80\xaf"s,        // overlong
                          "\xed\xa0\x80"s,        // a surrogate
                          "\xf4\x90\x80\x80"s,    // past U+10FFFF
                          "\xff"s, "\x80"s,       // never a lead
                          "\xce\xba\xe1\xbd"s}) {  // cut short
    EXPECT_FALSE(baton::util::valid_utf8(bad.data(), bad.size())) << testing::PrintToString(bad);
  }
}

TEST(Utf8, FailsAtTheFirstByteThatCannotBecomeValidWhateverTheSplit) {
  // "κόσμε" then a byte that cannot follow: every split gives the same verdict.
  std::string text = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5";
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    baton::util::utf8_validator v;
    EXPECT_TRUE(v.feed(text.data(), cut));
    EXPECT_TRUE(v.feed(text.data() + cut, text.size() - cut));
    EXPECT_TRUE(v.complete());
  }
  baton::util::utf8_validator v;
  EXPECT_TRUE(v.feed("\xce", 1));
  EXPECT_FALSE(v.complete()) << "half a character is not a complete text";
  EXPECT_FALSE(v.feed("\xce", 1)) << "a lead byte cannot follow a lead byte";
  baton::util::utf8_validator early;
  EXPECT_FALSE(early.feed("\xf4\x90", 2)) << "past U+10FFFF is known at the second byte";
}

// --- frames ----------------------------------------------------------------

// A client frame: masked with `mask`.
std::string client_frame(uint8_t op, bool fin, std::string_view payload, bool rsv1 = false,
                         const uint8_t mask[4] = nullptr) {
  static const uint8_t default_mask[4] = {0x37, 0xfa, 0x21, 0x3d};
  if (mask == nullptr) mask = default_mask;
  std::string f;
  f.push_back(static_cast<char>((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | op));
  size_t n = payload.size();
  if (n < 126) {
    f.push_back(static_cast<char>(0x80 | n));
  } else if (n <= 0xffff) {
    f.push_back(static_cast<char>(0x80 | 126));
    f.push_back(static_cast<char>(n >> 8));
    f.push_back(static_cast<char>(n & 0xff));
  } else {
    f.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) f.push_back(static_cast<char>((uint64_t{n} >> (8 * i)) & 0xff));
  }
  f.append(reinterpret_cast<const char*>(mask), 4);
  for (size_t i = 0; i < n; ++i) f.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
  return f;
}

// Records everything the message layer reports, as text.
struct recorder {
  std::vector<std::string> events;
  std::vector<bool> ascii_flags;  // each message's
  bool on_message(bool text, bool ascii, baton::byte_buffer& payload) {
    events.push_back(std::string(text ? "text:" : "binary:") + std::string(payload.view()));
    ascii_flags.push_back(ascii);
    return true;
  }
  void on_ping(const char* d, size_t n) { events.push_back("ping:" + std::string(d, n)); }
  void on_pong(const char* d, size_t n) { events.push_back("pong:" + std::string(d, n)); }
  void on_close(uint16_t code, std::string_view reason) {
    events.push_back("close:" + std::to_string(code) + ":" + std::string(reason));
  }
  void on_error(uint16_t code, const char* reason) { events.push_back("error:" + std::to_string(code) + ":" + reason); }
};

// Feeds `wire` to a fresh reader in pieces of `step` bytes (0: all at once).
std::vector<std::string> read_all(std::string wire, size_t step, size_t max_size = 1 << 20,
                                  ws::inflater* inflate = nullptr) {
  ws::message_reader<recorder> reader(max_size, inflate);
  recorder r;
  size_t at = 0;
  while (at < wire.size() && !reader.done()) {
    size_t n = step == 0 ? wire.size() - at : std::min(step, wire.size() - at);
    std::string piece = wire.substr(at, n);
    size_t took = reader.feed(piece.data(), piece.size(), r);
    if (took < n) break;
    at += n;
  }
  return r.events;
}

TEST(Frames, UnmaskingAWordAtATimeGivesTheBytesOfEveryPhase) {
  const uint8_t mask[4] = {1, 2, 3, 4};
  std::string plain(101, '\0');
  for (size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<char>(i * 7);
  for (size_t phase = 0; phase < 4; ++phase) {
    for (size_t len : {0u, 1u, 3u, 7u, 8u, 9u, 15u, 64u, 101u}) {
      std::string masked = plain.substr(0, len);
      for (size_t i = 0; i < len; ++i) masked[i] = static_cast<char>(masked[i] ^ mask[(phase + i) % 4]);
      std::string copy(len, '?');
      ws::unmask_copy(copy.data(), masked.data(), len, mask, phase);
      EXPECT_EQ(copy, plain.substr(0, len)) << "phase " << phase << " length " << len;
      ws::unmask_copy(masked.data(), masked.data(), len, mask, phase);  // in place
      EXPECT_EQ(masked, plain.substr(0, len)) << "phase " << phase << " length " << len;
    }
  }
}

TEST(Frames, UnmaskingTellsWhetherEveryByteIsAscii) {
  const uint8_t mask[4] = {0x81, 0x7f, 0x00, 0xff};
  for (size_t phase = 0; phase < 4; ++phase) {
    for (size_t len : {1u, 5u, 8u, 13u, 40u}) {
      // A single byte of 0x80 or above, at each place in turn (the bytewise
      // head, the words, the bytewise tail), is found.
      for (size_t at = 0; at <= len; ++at) {
        std::string plain(len, 'a');
        if (at < len) plain[at] = static_cast<char>(0xc3);
        std::string masked = plain;
        for (size_t i = 0; i < len; ++i) masked[i] = static_cast<char>(masked[i] ^ mask[(phase + i) % 4]);
        std::string out(len, '?');
        EXPECT_EQ(ws::unmask_copy(out.data(), masked.data(), len, mask, phase), at == len)
            << "phase " << phase << " length " << len << " at " << at;
        EXPECT_EQ(out, plain);
      }
    }
  }
}

TEST(Messages, ATextIsSaidToBeAsciiOnlyWhenEveryByteOfItIs) {
  std::string wire = client_frame(0x1, false, "Hel") + client_frame(0x0, true, "lo") +     // ASCII, in two frames
                     client_frame(0x1, false, "Hel") + client_frame(0x0, true, "l\xc3\xb3") +  // UTF-8 in the second
                     client_frame(0x1, true, "\xc3\xa9t\xc3\xa9") +                         // UTF-8
                     client_frame(0x2, true, "bytes");                                      // binary: never
  ws::message_reader<recorder> reader(1 << 20, nullptr);
  recorder r;
  EXPECT_EQ(reader.feed(wire.data(), wire.size(), r), wire.size());
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_EQ(r.events[1], "text:Hell\xc3\xb3");
  EXPECT_EQ(r.ascii_flags, (std::vector<bool>{true, false, false, false}));
}

TEST(Frames, WholeSplitAndByteByByteAgree) {
  std::string payload(70000, 'x');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>('a' + i % 26);
  std::string wire = client_frame(0x1, false, "Hel") + client_frame(0x9, true, "ping!") +
                     client_frame(0x0, true, "lo") + client_frame(0x2, true, payload) +
                     client_frame(0x2, true, std::string(200, 'm')) + client_frame(0x8, true, "\x03\xe8" "bye");
  std::vector<std::string> whole = read_all(wire, 0);
  ASSERT_EQ(whole.size(), 5u);
  EXPECT_EQ(whole[0], "ping:ping!");
  EXPECT_EQ(whole[1], "text:Hello");
  EXPECT_EQ(whole[2], "binary:" + payload);
  EXPECT_EQ(whole[3], "binary:" + std::string(200, 'm'));
  EXPECT_EQ(whole[4], "close:1000:bye");
  EXPECT_EQ(read_all(wire, 1), whole);
  EXPECT_EQ(read_all(wire, 7), whole);
  EXPECT_EQ(read_all(wire, 4096), whole);
}

TEST(Frames, EveryRuleTheRfcSetsOnAClientFails) {
  auto first_error = [](const std::string& wire) {
    std::vector<std::string> e = read_all(wire, 0);
    return e.empty() ? std::string("none") : e.back();
  };
  std::string unmasked = "\x81\x02hi";
  EXPECT_EQ(first_error(unmasked), "error:1002:an unmasked frame from the client");
  EXPECT_EQ(first_error(client_frame(0x1, true, "x").replace(0, 1, "\xa1")).substr(0, 11), "error:1002:");  // RSV2
  EXPECT_EQ(first_error(client_frame(0x1, true, "x", true)), "error:1002:RSV1 set, no extension was agreed");
  EXPECT_EQ(first_error(client_frame(0x3, true, "")), "error:1002:a reserved data opcode");
  EXPECT_EQ(first_error(client_frame(0xb, true, "")), "error:1002:a reserved control opcode");
  EXPECT_EQ(first_error(client_frame(0x9, true, std::string(126, 'p'))), "error:1002:a control frame over 125 bytes");
  EXPECT_EQ(first_error(client_frame(0x9, false, "p")), "error:1002:a fragmented control frame");
  EXPECT_EQ(first_error(client_frame(0x0, true, "x")), "error:1002:a continuation frame with no message to continue");
  EXPECT_EQ(first_error(client_frame(0x1, false, "a") + client_frame(0x1, true, "b")),
            "error:1002:a new data frame inside a fragmented message");
  EXPECT_EQ(first_error(client_frame(0x8, true, "\x03")), "error:1002:a close frame of one byte");
  EXPECT_EQ(first_error(client_frame(0x8, true, "\x03\xed")), "error:1002:a close code no endpoint may send");
  EXPECT_EQ(first_error(client_frame(0x8, true, "\x03\xe8\xff")), "error:1007:a close reason that is not UTF-8");
  EXPECT_EQ(first_error(client_frame(0x1, true, "\xff")), "error:1007:a text message that is not UTF-8");
  EXPECT_EQ(first_error(client_frame(0x8, true, "")), "close:1005:");
  std::vector<std::string> big = read_all(client_frame(0x2, true, std::string(2000, 'b')), 0, 1000);
  EXPECT_EQ(big.back(), "error:1009:a message over the size limit");
  std::vector<std::string> fragments =
      read_all(client_frame(0x2, false, std::string(600, 'b')) + client_frame(0x0, true, std::string(600, 'b')), 0, 1000);
  EXPECT_EQ(fragments.back(), "error:1009:a message over the size limit") << "the limit is on the message, not the frame";
}

TEST(Frames, InvalidUtf8FailsAtTheFragmentWhereItAppearsNotAtTheEnd) {
  // The first fragment is valid, the second breaks it; the third never comes.
  ws::message_reader<recorder> reader(1 << 20, nullptr);
  recorder r;
  std::string one = client_frame(0x1, false, "\xce\xba");
  std::string two = client_frame(0x0, false, "\xe1\xbd\xff");
  EXPECT_EQ(reader.feed(one.data(), one.size(), r), one.size());
  EXPECT_TRUE(r.events.empty());
  reader.feed(two.data(), two.size(), r);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0], "error:1007:a text message that is not UTF-8");
}

TEST(Frames, CloseCodesFollowSection7p4) {
  for (uint32_t code : {1000u, 1001u, 1002u, 1003u, 1007u, 1008u, 1009u, 1010u, 1011u, 1012u, 3000u, 3999u, 4000u, 4999u}) {
    EXPECT_TRUE(ws::valid_close_code(code)) << code;
  }
  for (uint32_t code : {0u, 999u, 1004u, 1005u, 1006u, 1015u, 1016u, 1100u, 2000u, 2999u, 5000u, 65535u}) {
    EXPECT_FALSE(ws::valid_close_code(code)) << code;
  }
}

TEST(Frames, TheEncoderWritesEachLengthForm) {
  for (size_t n : {0u, 125u, 126u, 65535u, 65536u}) {
    baton::byte_buffer out;
    ws::append_frame(out, 0x2, true, false, std::string(n, 'z').data(), n);
    size_t header = n < 126 ? 2 : n <= 65535 ? 4 : 10;
    ASSERT_EQ(out.size(), header + n);
    EXPECT_EQ(static_cast<uint8_t>(out.data()[0]), 0x82);
    EXPECT_EQ(static_cast<uint8_t>(out.data()[1]) & 0x80, 0) << "a server never masks";
  }
}

// --- permessage-deflate ----------------------------------------------------

TEST(Deflate, NegotiatesTheFirstAcceptableOfferAndAlwaysDropsContextTakeover) {
  ws::deflate_settings mine;
  std::string response;
  ws::deflate_agreement a = ws::negotiate_deflate("permessage-deflate; client_max_window_bits", mine, response);
  EXPECT_TRUE(a.enabled);
  EXPECT_EQ(a.server_window_bits, 12);
  EXPECT_EQ(response, "permessage-deflate; server_no_context_takeover; client_no_context_takeover");
  a = ws::negotiate_deflate("permessage-deflate; server_max_window_bits=10", mine, response);
  EXPECT_EQ(a.server_window_bits, 10);
  EXPECT_NE(response.find("server_max_window_bits=10"), std::string::npos);
  a = ws::negotiate_deflate("permessage-deflate; server_max_window_bits=8, permessage-deflate", mine, response);
  EXPECT_TRUE(a.enabled) << "the second offer is acceptable";
  EXPECT_EQ(response.find("server_max_window_bits"), std::string::npos);
  for (const char* bad : {"permessage-deflate; server_max_window_bits=16", "permessage-deflate; server_max_window_bits",
                          "permessage-deflate; foo", "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
                          "x-webkit-deflate-frame"}) {
    EXPECT_FALSE(ws::negotiate_deflate(bad, mine, response).enabled) << bad;
    EXPECT_EQ(response, "") << bad;
  }
  mine.enabled = false;
  EXPECT_FALSE(ws::negotiate_deflate("permessage-deflate", mine, response).enabled);
}

TEST(Deflate, CompressedMessagesRoundTripAndTheLimitAppliesToTheInflatedSize) {
  ws::deflate_settings settings;
  ws::deflater compress;
  ws::inflater decompress;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "the same words again and again ";
  baton::byte_buffer packed;
  ASSERT_TRUE(compress.compress(settings, 12, text.data(), text.size(), packed));
  EXPECT_LT(packed.size(), text.size() / 10);
  // Twice: no context is kept between messages, by either side.
  for (int round = 0; round < 2; ++round) {
    baton::byte_buffer out;
    EXPECT_EQ(decompress.inflate_message(packed.data(), packed.size(), 1 << 20, out), ws::inflater::result::ok);
    EXPECT_EQ(out.view(), text);
  }
  baton::byte_buffer small;
  EXPECT_EQ(decompress.inflate_message(packed.data(), packed.size(), 1000, small), ws::inflater::result::too_large);
  EXPECT_LE(small.size(), 1000u) << "the bomb inflated past the limit before it was stopped";
  baton::byte_buffer junk;
  std::string garbage = "\xff\xff\xff\xff\xff";
  EXPECT_EQ(decompress.inflate_message(garbage.data(), garbage.size(), 1 << 20, junk), ws::inflater::result::malformed);
  // Through the message layer: RSV1 on the first frame, fragments after it.
  std::string half1(packed.data(), packed.size() / 2), half2(packed.data() + packed.size() / 2, packed.size() - packed.size() / 2);
  std::string wire = client_frame(0x1, false, half1, true) + client_frame(0x0, true, half2);
  std::vector<std::string> events = read_all(wire, 3, 1 << 20, &decompress);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], "text:" + text);
  EXPECT_EQ(read_all(wire, 0, 1000, &decompress).back(), "error:1009:a message that inflates over the size limit");
}

// A compressed text is said to be ASCII by what it inflates to (its
// compressed bytes say nothing): the inflated text is checked whole.
TEST(Deflate, ACompressedTextIsSaidToBeAsciiByItsInflatedBytes) {
  ws::deflate_settings settings;
  ws::deflater compress;
  ws::inflater decompress;
  std::string wire;
  for (std::string text : {std::string(3000, 'a'), "caf\xc3\xa9 " + std::string(3000, 'b')}) {
    baton::byte_buffer packed;
    ASSERT_TRUE(compress.compress(settings, 12, text.data(), text.size(), packed));
    wire += client_frame(0x1, true, packed.view(), true);
  }
  ws::message_reader<recorder> reader(1 << 20, &decompress);
  recorder r;
  EXPECT_EQ(reader.feed(wire.data(), wire.size(), r), wire.size());
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.ascii_flags, (std::vector<bool>{true, false}));
}

// --- the opening handshake -------------------------------------------------

struct request {
  std::vector<baton::exchange::field> fields;
  baton::exchange::request_head head;
  explicit request(std::vector<baton::exchange::field> f, std::string_view method = "GET", uint8_t minor = 1)
      : fields(std::move(f)) {
    head.method = method;
    head.version_minor = minor;
    head.fields = fields.data();
    head.field_count = fields.size();
    for (const auto& field : fields) {
      if (baton::util::equals_ignore_case(field.name, "connection") &&
          baton::util::has_list_token(field.value, "upgrade")) {
        head.upgrade = true;
      }
    }
  }
};

std::vector<baton::exchange::field> valid_fields() {
  return {{"Host", "t"}, {"Upgrade", "websocket"}, {"Connection", "keep-alive, Upgrade"},
          {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}, {"Sec-WebSocket-Version", "13"},
          {"Sec-WebSocket-Protocol", "chat, superchat"}, {"Sec-WebSocket-Protocol", "v2"},
          {"Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits"}};
}

TEST(Handshake, AValidOpeningGetsTheAcceptTheRfcGivesAndItsOffers) {
  request r(valid_fields());
  ws::opening o = ws::read_opening(r.head, ws::deflate_settings{});
  ASSERT_EQ(o.result, ws::opening::verdict::valid) << o.reason;
  EXPECT_EQ(o.accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");  // RFC 6455 section 1.3's example
  ASSERT_EQ(o.subprotocols.size(), 3u);
  EXPECT_EQ(o.subprotocols[1], "superchat");
  EXPECT_EQ(o.subprotocols[2], "v2");
  EXPECT_TRUE(o.deflate.enabled);
}

TEST(Handshake, EachMissingOrWrongPartIsRefusedWithItsStatus) {
  auto with = [](std::string_view name, std::string_view value) {
    std::vector<baton::exchange::field> f = valid_fields();
    for (auto& field : f) {
      if (baton::util::equals_ignore_case(field.name, name)) field.value = value;
    }
    return f;
  };
  EXPECT_EQ(ws::read_opening(request(std::vector<baton::exchange::field>{{"Host", "t"}}).head, {}).result, ws::opening::verdict::not_websocket);
  EXPECT_EQ(ws::read_opening(request(valid_fields(), "POST").head, {}).status, 400);
  EXPECT_EQ(ws::read_opening(request(valid_fields(), "GET", 0).head, {}).status, 400) << "HTTP/1.0";
  EXPECT_EQ(ws::read_opening(request(with("Connection", "keep-alive")).head, {}).status, 400);
  ws::opening old = ws::read_opening(request(with("Sec-WebSocket-Version", "8")).head, {});
  EXPECT_EQ(old.status, 426);
  for (const char* key : {"dGhlIHNhbXBsZQ==", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZR==", "", "!!!!!!!!!!!!!!!!!!!!!!=="}) {
    EXPECT_EQ(ws::read_opening(request(with("Sec-WebSocket-Key", key)).head, {}).status, 400) << key;
  }
}

// RFC 8441 section 5: over HTTP/2 an opening is an extended CONNECT with
// :protocol websocket and version 13; no key, and no accept value.
TEST(Handshake, AnExtendedConnectOverHttp2IsAnOpeningWithoutAKey) {
  std::vector<baton::exchange::field> fields = {
      {"sec-websocket-version", "13"}, {"sec-websocket-protocol", "chat"},
      {"sec-websocket-extensions", "permessage-deflate; client_max_window_bits"}};
  request r(fields, "CONNECT");
  r.head.version_major = 2;
  r.head.version_minor = 0;
  r.head.protocol = "websocket";
  ws::opening o = ws::read_opening(r.head, ws::deflate_settings{});
  ASSERT_EQ(o.result, ws::opening::verdict::valid) << o.reason;
  EXPECT_TRUE(o.accept.empty());
  ASSERT_EQ(o.subprotocols.size(), 1u);
  EXPECT_TRUE(o.deflate.enabled);

  request other(fields, "CONNECT");
  other.head.version_major = 2;
  other.head.protocol = "something-else";
  EXPECT_EQ(ws::read_opening(other.head, {}).result, ws::opening::verdict::not_websocket);
  request old({{"sec-websocket-version", "8"}}, "CONNECT");
  old.head.version_major = 2;
  old.head.protocol = "websocket";
  EXPECT_EQ(ws::read_opening(old.head, {}).status, 426);
  // An HTTP/1.1-style opening sent over HTTP/2 asks for nothing (HTTP/2 has no Upgrade).
  request upgrade(valid_fields());
  upgrade.head.version_major = 2;
  EXPECT_EQ(ws::read_opening(upgrade.head, {}).result, ws::opening::verdict::not_websocket);
}

// RFC 9220: over HTTP/3 the opening is HTTP/2's extended CONNECT; an
// HTTP/1.1-style one asks for nothing there either.
TEST(Handshake, AnExtendedConnectOverHttp3IsAnOpeningAsOverHttp2) {
  request r({{"sec-websocket-version", "13"}}, "CONNECT");
  r.head.version_major = 3;
  r.head.version_minor = 0;
  r.head.protocol = "websocket";
  ws::opening o = ws::read_opening(r.head, ws::deflate_settings{});
  ASSERT_EQ(o.result, ws::opening::verdict::valid) << o.reason;
  EXPECT_TRUE(o.accept.empty());
  request upgrade(valid_fields());
  upgrade.head.version_major = 3;
  EXPECT_EQ(ws::read_opening(upgrade.head, {}).result, ws::opening::verdict::not_websocket);
}

}  // namespace
