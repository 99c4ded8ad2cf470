#include "core/http2/protocol.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/http2/stream.h"
#include "core/util/log.h"
#include "core/util/text.h"

namespace baton::http2 {

namespace {

constexpr size_t read_size = 65536;

// One set of callbacks and options for every session of the process.
struct shared_setup {
  nghttp2_session_callbacks* calls = nullptr;
  shared_setup() {
    nghttp2_session_callbacks_new(&calls);
    nghttp2_session_callbacks_set_on_begin_frame_callback(calls, callbacks::begin_frame);
    nghttp2_session_callbacks_set_on_begin_headers_callback(calls, callbacks::begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(calls, callbacks::header);
    nghttp2_session_callbacks_set_on_frame_recv_callback(calls, callbacks::frame_received);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(calls, callbacks::data_chunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(calls, callbacks::stream_closed);
    nghttp2_session_callbacks_set_on_frame_send_callback(calls, callbacks::frame_sent);
    nghttp2_session_callbacks_set_send_data_callback(calls, callbacks::send_data);
  }
};

const shared_setup& setup() {
  static shared_setup s;
  return s;
}

}  // namespace

protocol::protocol(context& ctx, session::session& s)
    : context_(ctx), session_(s), peer_trusted_(ctx.gate.trusts_peer(s)) {
  uint16_t listener = s.peer().listener;
  if (listener < ctx.alt_svc.size()) alt_svc_ = ctx.alt_svc[listener];
  size_t record = 0;
  session_.io().record_stage(record);
  record_payload_ = record > 9 ? record - 9 : 0;
  nghttp2_option* options = nullptr;
  nghttp2_option_new(&options);
  // Stream windows are given back as apps consume (the connection's as
  // bytes arrive), not by nghttp2 as it receives.
  nghttp2_option_set_no_auto_window_update(options, 1);
  // Our reset bucket decides (ENHANCE_YOUR_CALM); nghttp2's, which would
  // end the connection with INTERNAL_ERROR, only stands behind it.
  nghttp2_option_set_stream_reset_rate_limit(options, 5 * uint64_t{context_.config.reset_burst},
                                             5 * uint64_t{context_.config.resets_per_second});
  nghttp2_option_set_max_settings(options, 32);
  nghttp2_option_set_max_outbound_ack(options, 1000);
  nghttp2_session_server_new2(&h2_, setup().calls, this, options);
  nghttp2_option_del(options);
  head_limits_.max_list_bytes = context_.config.max_header_list_size;
  head_limits_.max_fields = gate().http.request_limits.max_headers;
  control_tokens_.tokens = context_.config.control_frame_burst;
  reset_tokens_.tokens = context_.config.reset_burst;
}

void protocol::start() {
  idle_since_ms_ = session_.now_ms();
  control_tokens_.at_ms = reset_tokens_.at_ms = idle_since_ms_;
  nghttp2_settings_entry entries[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, context_.config.max_concurrent_streams},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, context_.config.initial_window_size},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, context_.config.max_header_list_size},
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL, 1},  // RFC 8441: WebSockets over HTTP/2
  };
  size_t count = sizeof entries / sizeof entries[0];
  if (!context_.extended_connect) --count;  // the last entry: sent only when WebSockets are served
  nghttp2_submit_settings(h2_, NGHTTP2_FLAG_NONE, entries, count);
  // The connection's window: large, and given back as bytes arrive.
  nghttp2_session_set_local_window_size(h2_, NGHTTP2_FLAG_NONE, 0, 1 << 30);
  if (upgrade_ && !start_upgraded_stream()) {
    session_.close_now();
    return;
  }
  // Bytes that came before the switch (h2c with prior knowledge: the preface).
  if (!session_.input().empty()) {
    byte_buffer& input = session_.input();
    in_receive_ = true;
    ssize_t n = nghttp2_session_mem_recv(h2_, reinterpret_cast<const uint8_t*>(input.data()), input.size());
    in_receive_ = false;
    input = byte_buffer();
    if (n < 0) closing_ = true;
  }
  after_read();
}

// RFC 7540 3.2 (h2c by Upgrade): the request that asked for the switch is
// stream 1, half-closed by the client, with the settings its HTTP2-Settings
// field carried; its answer goes out as HTTP/2 after the 101.
void protocol::expect_upgrade(std::string settings, const exchange::request_head& h) {
  auto u = std::make_unique<upgrade_request>();
  u->settings = std::move(settings);
  u->is_head = h.is_head;
  std::string_view host = h.find("host");
  u->fields = {{":method", std::string(h.method)}, {":scheme", "http"}, {":path", std::string(h.target)},
               {":authority", std::string(host)}};
  for (size_t i = 0; i < h.field_count; ++i) {
    std::string name(h.fields[i].name);
    util::lowercase_in_place(name);
    // The fields of the HTTP/1 connection, not of the request (RFC 9113 8.2.2).
    if (name == "host" || name == "connection" || name == "upgrade" || name == "http2-settings" ||
        name == "keep-alive" || name == "proxy-connection" || name == "transfer-encoding" || name == "te") {
      continue;
    }
    u->fields.emplace_back(std::move(name), std::string(h.fields[i].value));
  }
  upgrade_ = std::move(u);
}

bool protocol::start_upgraded_stream() {
  std::unique_ptr<upgrade_request> u = std::move(upgrade_);
  int rv = nghttp2_session_upgrade2(h2_, reinterpret_cast<const uint8_t*>(u->settings.data()), u->settings.size(),
                                    u->is_head ? 1 : 0, nullptr);
  if (rv != 0) {
    log::write(log::level::info, "h2c upgrade from %s refused: %s", session_.peer_for_log(), nghttp2_strerror(rv));
    return false;
  }
  stream* s = open_stream(1);
  highest_stream_id_ = 1;
  for (const auto& [name, value] : u->fields) add_field(*s, name, value);
  s->phase = stream_phase::ready;
  start_stream(*s, true);
  return true;
}

// --- input -------------------------------------------------------------------

void protocol::on_readable() {
  if (h2_ == nullptr || closing_) return;
  byte_buffer own;  // the shared one is lent (an inline app waits): this read's own
  session::received r{};
  ssize_t used = 0;
  {
    session::receive_lease lease = session_.lend_receive_buffer(own);
    char* p = lease.bytes().prepare(read_size);
    r = session_.receive(p, read_size);
    if (r.status == session::receive_status::data) {
      in_receive_ = true;
      used = nghttp2_session_mem_recv(h2_, reinterpret_cast<const uint8_t*>(p), r.bytes);
      in_receive_ = false;
    }
  }
  switch (r.status) {
    case session::receive_status::data:
      if (used < 0) {
        log::write(log::level::info, "HTTP/2 connection from %s: %s", session_.peer_for_log(),
                   nghttp2_strerror(static_cast<int>(used)));
        closing_ = true;
      }
      after_read();
      return;
    case session::receive_status::end:
      session_.set_eof();
      // The client will send nothing more: streams whose requests are
      // whole are answered, then the connection closes; the others end.
      end_cut_bodies();
      if (stream_count_ == 0) {
        session_.close_now();
      } else {
        send();
      }
      return;
    case session::receive_status::again:
      return;
    case session::receive_status::failed:
      session_.close_now();
      return;
  }
}

// What nghttp2 queued in the read goes out first, its own resets among
// them (it resets a stream that breaks HTTP's rules without telling us), so
// the streams it reset are closed before dispatch and never reach the app;
// then the read's new streams start, and what was answered at once goes out.
void protocol::after_read() {
  send();
  dispatch_ready();
  send();
}

// RFC 9113 5.1.1: a new stream's id is above every one the client opened.
// nghttp2 ignores HEADERS on a lower id (they may be trailers for a stream
// it reset), but an id the client skipped was never opened: that is the
// client's error, and the connection's end. Skipped ids are kept as a few
// ranges (a client that skips often loses only the check).
int protocol::begin_frame(const nghttp2_frame_hd& hd) {
  if (hd.type == NGHTTP2_DATA) {
    judge_data_length(hd);
    return 0;
  }
  if (hd.type != NGHTTP2_HEADERS || (hd.stream_id & 1) == 0) return 0;
  int32_t id = hd.stream_id;
  if (id > highest_stream_id_) {
    if (id > highest_stream_id_ + 2 && skipped_.size() < 16) skipped_.push_back({highest_stream_id_ + 2, id - 2});
    highest_stream_id_ = id;
    return 0;
  }
  for (const auto& [low, high] : skipped_) {
    if (id >= low && id <= high && !closing_) {
      log::write(log::level::info, "HTTP/2 connection from %s opened stream %d after %d; closing it",
                 session_.peer_for_log(), id, highest_stream_id_);
      nghttp2_session_terminate_session(h2_, NGHTTP2_PROTOCOL_ERROR);
      closing_ = true;
      break;
    }
  }
  return 0;
}

// RFC 9113 8.1.1: a body longer or shorter than its content-length makes
// the request malformed. Judged at each DATA frame's header, before its
// payload is read, so a stream whose head and body came in one read is
// reset before its dispatch: an unpadded frame carries exactly its length.
// (A padded one is judged as it is delivered, data_chunk, and at its end.)
void protocol::judge_data_length(const nghttp2_frame_hd& hd) {
  stream* s = find(hd.stream_id);
  if (s == nullptr || s->x == nullptr || s->reset || s->content_length() < 0 || s->padded) return;
  if ((hd.flags & NGHTTP2_FLAG_PADDED) != 0) {
    s->padded = true;  // its payload is known only as it is read: judged there from now on
    return;
  }
  s->announced += hd.length;
  auto declared = static_cast<uint64_t>(s->content_length());
  if (s->announced > declared) {
    reset_for_length(*s, "longer");
  } else if ((hd.flags & NGHTTP2_FLAG_END_STREAM) != 0 && s->announced != declared) {
    reset_for_length(*s, "shorter");
  }
}

int protocol::begin_headers(const nghttp2_frame* frame) {
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  open_stream(frame->hd.stream_id);
  return 0;
}

protocol::stream* protocol::open_stream(int32_t id) {
  auto* s = new stream();
  s->id = id;
  s->next = streams_;
  if (streams_ != nullptr) streams_->prev = s;
  streams_ = s;
  ++stream_count_;
  nghttp2_session_set_stream_user_data(h2_, s->id, s);
  metrics::move(gate().metrics, &metrics::thread_block::h2_streams, 1);
  return s;
}

int protocol::header(const nghttp2_frame* frame, std::string_view name, std::string_view value) {
  stream* s = find(frame->hd.stream_id);
  if (s != nullptr) add_field(*s, name, value);
  return 0;
}

void protocol::add_field(stream& s, std::string_view name, std::string_view value) {
  if (s.phase == stream_phase::head) s.head.add(name, value, head_limits_);  // trailers are not passed on
}

int protocol::frame_received(const nghttp2_frame* frame) {
  switch (frame->hd.type) {
    case NGHTTP2_HEADERS: {
      stream* s = find(frame->hd.stream_id);
      if (s == nullptr) break;
      bool ends = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
      if (s->phase == stream_phase::head && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
        s->phase = stream_phase::ready;
        start_stream(*s, ends);
      } else if (ends) {
        end_body(*s);  // after trailers
      }
      break;
    }
    case NGHTTP2_DATA: {
      stream* s = find(frame->hd.stream_id);
      bool ends = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
      if (frame->hd.length == 0 && !ends && !count_control_frame()) return 0;
      if (s != nullptr && ends) end_body(*s);
      break;
    }
    case NGHTTP2_RST_STREAM:
      count_reset();
      break;
    case NGHTTP2_PING:
    case NGHTTP2_SETTINGS:
      if ((frame->hd.flags & NGHTTP2_FLAG_ACK) == 0) count_control_frame();
      break;
    case NGHTTP2_PRIORITY:
    case NGHTTP2_WINDOW_UPDATE:
      count_control_frame();
      break;
    default:
      break;
  }
  return 0;
}

bool protocol::token_bucket::take(int64_t now_ms, uint32_t burst, uint32_t per_second) {
  tokens += static_cast<double>(now_ms - at_ms) * per_second / 1000.0;
  if (tokens > burst) tokens = burst;
  at_ms = now_ms;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

// A frame that asks for work and is no request: one token. Out of them, the
// connection ends with ENHANCE_YOUR_CALM.
bool protocol::count_control_frame() {
  const settings& c = context_.config;
  if (control_tokens_.take(session_.now_ms(), c.control_frame_burst, c.control_frames_per_second)) return true;
  calm_down("sends control frames");
  return false;
}

// A stream the client reset: one token of its own bucket (rapid reset).
bool protocol::count_reset() {
  const settings& c = context_.config;
  if (reset_tokens_.take(session_.now_ms(), c.reset_burst, c.resets_per_second)) return true;
  calm_down("resets streams");
  return false;
}

void protocol::calm_down(const char* what) {
  if (closing_) return;
  log::write(log::level::warning, "HTTP/2 connection from %s %s faster than allowed; closing it",
             session_.peer_for_log(), what);
  nghttp2_session_terminate_session(h2_, NGHTTP2_ENHANCE_YOUR_CALM);
  closing_ = true;
}

// --- streams end ---------------------------------------------------------------

int protocol::frame_sent(const nghttp2_frame* frame) {
  if (frame->hd.type == NGHTTP2_RST_STREAM) {
    if (frame->rst_stream.error_code == NGHTTP2_PROTOCOL_ERROR) log_library_reset(frame->hd.stream_id);
    return 0;
  }
  bool ends = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
  if (!ends || (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)) return 0;
  stream* s = find(frame->hd.stream_id);
  if (s != nullptr && s->reset_once_answered) {
    s->reset_once_answered = false;
    nghttp2_submit_rst_stream(h2_, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_NO_ERROR);
  }
  return 0;
}

// nghttp2 reset a stream for breaking HTTP's rules (RFC 9113 8.1.1) before
// our own checks saw it (its checks run first on each frame): the log names
// the client, the stream and what the stream had got to.
void protocol::log_library_reset(int32_t id) {
  stream* s = find(id);
  if (s == nullptr || s->reset_logged) return;
  s->reset_logged = true;
  s->reset = true;
  metrics::rejected(gate().metrics, metrics::rejection::h2_stream_reset);
  char what[96];
  if (s->phase == stream_phase::head) {
    std::snprintf(what, sizeof what, "its header block");
  } else if (s->content_length() >= 0 && !s->body_ended) {
    std::snprintf(what, sizeof what, "its body against its content-length of %lld",
                  static_cast<long long>(s->content_length()));
  } else {
    std::snprintf(what, sizeof what, "its frames");
  }
  log::write(log::level::info, "malformed request from %s on HTTP/2 stream %d (%s); reset it (PROTOCOL_ERROR)",
             session_.peer_for_log(), id, what);
}

int protocol::stream_closed(int32_t id, uint32_t error_code) {
  stream* s = find(id);
  if (s == nullptr) return 0;
  nghttp2_session_set_stream_user_data(h2_, id, nullptr);
  // Its answer went whole, END_STREAM and all, while its app is still at
  // work (a WSGI close(), an ASGI background task): the exchange stays this
  // connection's until the app returns, as on HTTP/1, so its access log
  // line and metrics come then and a failure it logs is not taken for a
  // client that left.
  if (s->x != nullptr && s->phase != stream_phase::done && !s->reset && s->head_sent && s->body_ended &&
      error_code == NGHTTP2_NO_ERROR && (s->whole || s->x->response_head().no_body)) {
    s->lingering = true;
    return 0;
  }
  bool freed_app_slot = s->phase == stream_phase::inside;
  free_stream(s);
  if (stream_count_ == 0) idle_since_ms_ = session_.now_ms();
  // A slot freed by a reset of ours (a timeout) while sending: held streams
  // start now. During a read they start after it (dispatch_ready), so a
  // stream the same read resets never reaches the app.
  if (freed_app_slot && !in_receive_) start_held();
  return 0;
}

void protocol::free_stream(stream* s) {
  if (s->phase == stream_phase::inside) --in_app_;  // the held ones start after this read (dispatch_ready)
  if (s->carried != nullptr) {
    s->carried->on_close();  // the switched protocol lets go of its app first
    s->carried.reset();
    s->carrier.reset();
    --switched_count_;
  }
  if (exchange::exchange* x = s->x) {
    s->x = nullptr;
    x->links.sink = nullptr;
    if (s->phase != stream_phase::done) x->cancel();  // the client reset it, or the connection went
    x->release();
  }
  if (s->prev != nullptr) s->prev->next = s->next;
  else streams_ = s->next;
  if (s->next != nullptr) s->next->prev = s->prev;
  --stream_count_;
  metrics::move(gate().metrics, &metrics::thread_block::h2_streams, -1);
  delete s;
}

protocol::stream* protocol::find_lingering(const exchange::exchange* x) const {
  for (stream* s = streams_; s != nullptr; s = s->next) {
    if (s->lingering && s->x == x) return s;
  }
  return nullptr;
}

protocol::stream* protocol::find(int32_t id) const {
  if (h2_ == nullptr) return nullptr;
  return static_cast<stream*>(nghttp2_session_get_stream_user_data(h2_, id));
}

// --- time ------------------------------------------------------------------------

session::protocol::plan protocol::current_plan() const {
  plan p;
  p.read = h2_ != nullptr && !closing_ && nghttp2_session_want_read(h2_) != 0 &&
           session_.output().buffered_bytes() < context_.config.output_high_water;
  if (stream_count_ == 0) {
    int timeout = served_any_ ? gate().http.keep_alive_timeout_ms : gate().http.header_read_timeout_ms;
    p.deadline = idle_since_ms_ + timeout;
  }
  if (stall_check_ms_ < p.deadline) p.deadline = stall_check_ms_;
  int64_t switched = switched_deadline();
  if (switched < p.deadline) p.deadline = switched;
  // News from the apps is framed once per pass, after the loop's inbox: a
  // body and its end then go out in one DATA frame.
  if (send_due_) p.deadline = session_.now_ms();
  return p;
}

void protocol::on_deadline() {
  send_due_ = false;
  int64_t now = session_.now_ms();
  if (stall_check_ms_ <= now) check_stalls();
  switched_deadlines(now);
  if (stream_count_ == 0 && now >= current_plan().deadline) {
    // Idle past the keep-alive timeout (or the header timeout before any request).
    nghttp2_submit_goaway(h2_, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(h2_), NGHTTP2_NO_ERROR,
                          nullptr, 0);
    closing_ = true;
  }
  send();
}

// A stream with output that the client's window keeps from going out: reset
// once it has waited the write timeout (the client is not reading it). A
// request body not whole within the body read timeout: the app's read fails
// with 408 and the stream is reset. Its clock stops while the stream's
// window is shut (the app has not read what came), as HTTP/1's stops while
// reading is paused.
void protocol::check_stalls() {
  int64_t now = session_.now_ms();
  stall_check_ms_ = INT64_MAX;
  bool connection_blocked = nghttp2_session_get_remote_window_size(h2_) <= 0;
  for (stream* s = streams_; s != nullptr;) {
    stream* next = s->next;
    bool waiting = s->head_sent && !s->reset && (!s->pending.empty() || (s->phase != stream_phase::done && s->carried == nullptr));
    bool blocked = waiting && !s->pending.empty() &&
                   (connection_blocked || nghttp2_session_get_stream_remote_window_size(h2_, s->id) <= 0);
    if (!blocked) {
      s->stalled_since_ms = 0;
    } else if (s->stalled_since_ms == 0) {
      s->stalled_since_ms = now;
    } else if (now - s->stalled_since_ms >= context_.write_timeout_ms) {
      log::write(log::level::info, "resetting HTTP/2 stream %d from %s: its window stayed shut (write timeout)",
                 s->id, session_.peer_for_log());
      reset_stream(*s, NGHTTP2_CANCEL);
    }
    bool body_awaited = s->x != nullptr && !s->body_ended && !s->reset;
    if (body_awaited) {
      if (nghttp2_session_get_stream_local_window_size(h2_, s->id) > 0) s->body_waited_ms += now - s->body_clock_ms;
      s->body_clock_ms = now;
      if (s->body_waited_ms >= gate().http.body_read_timeout_ms) {
        log::write(log::level::info, "request body from %s: not whole in time (408), HTTP/2 stream %d",
                   session_.peer_for_log(), s->id);
        s->body_ended = true;
        s->x->deliver_body_error(408);
        reset_stream(*s, NGHTTP2_CANCEL);
        body_awaited = false;
      }
    }
    // A switch offered to an app that neither accepts nor refuses it in
    // time (--ws-handshake-timeout): 504, as over HTTP/1.1.
    bool answer_awaited = s->offered && !s->head_sent && !s->reset && s->x != nullptr;
    int answer_timeout = gate().host.upgrade_answer_timeout_ms();
    if (answer_awaited && answer_timeout > 0 && now - s->app_since_ms >= answer_timeout) {
      log::write(log::level::info, "an extended CONNECT from %s (HTTP/2 stream %d) got no answer from the app in "
                 "time (504)", session_.peer_for_log(), s->id);
      s->x->cancel();
      give_up_on_app(*s);
      answer_awaited = false;
      send_due_ = true;
    }
    if (waiting || body_awaited || answer_awaited) stall_check_ms_ = now + 1000;
    s = next;
  }
}

// --- the app timeout -----------------------------------------------------------

int64_t protocol::in_app_since() const {
  int64_t since = -1;
  for (const stream* s = streams_; s != nullptr; s = s->next) {
    if (s->phase == stream_phase::inside && (since < 0 || s->app_since_ms < since)) since = s->app_since_ms;
  }
  return since;
}

// The streams inside the app too long: a 504 if nothing of their answer
// went out, else a reset; what their app side writes from now on is
// dropped. The worker then retires (server::watch), its thread lost.
void protocol::abandon_app(int64_t entered_before_ms) {
  if (h2_ == nullptr) return;
  for (stream* s = streams_; s != nullptr; s = s->next) {
    if (s->phase != stream_phase::inside || s->app_since_ms >= entered_before_ms) continue;
    gate().app_overran(session_, s->x->head(), s->id, s->head_sent ? "resetting the stream" : "answering 504");
    give_up_on_app(*s);
  }
  start_held();
  send_due_ = true;
}

// A 504 if nothing of the stream's answer went out, else a reset; what its
// app side writes from now on is dropped.
void protocol::give_up_on_app(stream& s) {
  if (s.phase == stream_phase::inside) {
    s.phase = stream_phase::released;
    --in_app_;
  }
  bool head_sent = s.head_sent;
  s.head_sent = true;
  s.reset = true;  // the app side's output is dropped (take_output)
  s.pending.clear();
  if (head_sent) {
    if (!s.lingering) nghttp2_submit_rst_stream(h2_, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_INTERNAL_ERROR);
    return;
  }
  nghttp2_nv status = name_value(":status", "504");
  nghttp2_submit_response(h2_, s.id, &status, 1, nullptr);
  // A reset submitted now would drop the HEADERS still queued: it follows
  // them (frame_sent), telling the client to stop sending its body.
  s.reset_once_answered = !s.body_ended;
}

void protocol::drain() {
  if (draining_ || h2_ == nullptr) return;
  draining_ = true;
  // Switched streams close their own way (a WebSocket's 1001, or 1012 on a
  // reload), then end; the GOAWAY stops new streams.
  for (stream* s = streams_; s != nullptr; s = s->next) {
    if (s->carried != nullptr) s->carried->drain();
  }
  nghttp2_submit_goaway(h2_, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(h2_), NGHTTP2_NO_ERROR,
                        nullptr, 0);
  send();
}

void protocol::on_close() {
  if (h2_ == nullptr) return;
  nghttp2_session* h = h2_;
  // Streams first (their exchanges are cancelled), then nghttp2's session:
  // its own teardown calls no callback of ours once h2_ is null.
  while (streams_ != nullptr) free_stream(streams_);
  h2_ = nullptr;
  nghttp2_session_del(h);
}

size_t protocol::release_idle_memory() {
  size_t freed = 0;
  for (stream* s = streams_; s != nullptr && switched_count_ > 0; s = s->next) {
    if (s->carried != nullptr) freed += s->carried->release_idle_memory();
  }
  return freed;
}

}  // namespace baton::http2
