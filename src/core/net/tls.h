// TLS with OpenSSL, as a transport under the session: the same calls as the
// plain socket's, over an SSL object on the same non-blocking descriptor.
//
// A context is loaded once per worker from the certificate files and shared
// by every connection of it; a reload (SIGHUP) starts workers that load the
// files again. A transport's handshake is driven by the loop like any read:
// handshake() makes what progress the socket allows and says what it waits
// for, never blocking.
//
// OpenSSL's non-blocking rules, and how they map onto the transport's:
// - SSL_read and SSL_write return WANT_READ / WANT_WRITE where a socket call
//   returns EAGAIN; both become -1 with errno EAGAIN. A read that must write
//   first (a ticket or a key update still to send) sets wants_writable(),
//   and the session then calls the read again when the socket is writable.
// - A write that returned WANT_WRITE must be repeated with at least the same
//   bytes (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER lets them move). The output
//   queue does that by itself: its front stays until the transport says it
//   went out, and send_gather builds the same first record from it.
// - Decrypted bytes may wait inside the SSL object after a read filled the
//   caller's buffer; the socket is then not readable although input is
//   there. input_pending() says so, and the session reads again without
//   waiting for the socket.
//
// Files go out with SSL_sendfile where the kernel does the record layer
// (kTLS); elsewhere they are read into a buffer and written as records.
//
// A TLS 1.3 handshake ends with a session ticket the server writes when the
// client's Finished arrives, and a client such as a load balancer's probe or
// a client without keep-alive sends its request right behind that Finished.
// Written as it comes, each piece is a TCP segment of its own: the ticket,
// the answer, close_notify and the FIN, four sends through the loopback or
// the network where one does. So the socket is corked (TCP_CORK) for the
// call that reads the client's Finished, and the request is looked for at
// once (read into the SSL object, not consumed): when it is there the cork
// stays until the session has read it and answered what it could in the
// same passes (settle_output), and everything leaves in one segment; when it
// is not, the cork comes off there and then and the ticket goes alone.
#pragma once

#include <openssl/ssl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/net/tls_facts.h"
#include "core/net/transport.h"

namespace baton::net {

struct tls_settings {
  std::string certfile;   // PEM: the certificate (and its chain), maybe the key too
  std::string keyfile;    // PEM: the private key; "" when certfile holds it
  std::string password;   // for an encrypted key
  std::string ca_certs;   // PEM: the CAs client certificates must chain to
  int cert_reqs = 0;      // client certificates: 0 none, 1 optional (verified when sent), 2 required
  std::string ciphers;    // TLS 1.2 cipher list ("" for default_tls12_ciphers)
  int min_version = TLS1_2_VERSION;
  bool offer_h2 = false;  // ALPN: h2 is offered (first) beside http/1.1
};

// The TLS 1.2 suites offered unless --ssl-ciphers says otherwise: forward
// secrecy (ECDHE) and AEAD ciphers only (AES-GCM, ChaCha20-Poly1305), as
// the "intermediate" profile of Mozilla's server guidance has them. OpenSSL's
// own default adds CBC suites (LUCKY13's shape) and, with an RSA key, RSA
// key exchange (no forward secrecy).
inline constexpr const char* default_tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// TLS 1.3's suites (over TCP and QUIC alike), in the server's order:
// AES-128-GCM first, the suite every TLS 1.3 peer implements (RFC 8446
// section 9.1). OpenSSL's own order puts AES-256-GCM-SHA384 first, whose
// key schedule runs on SHA-384 (no SHA instructions on x86) and whose
// records take four AES rounds more: a handshake cost 7 % more CPU. A
// client that puts ChaCha20 first (one without AES instructions) gets it
// (SSL_OP_PRIORITIZE_CHACHA).
inline constexpr const char* tls13_ciphersuites =
    "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384";

// Reads --ssl-version's value ("TLSv1.2", "tls1.3", "1.2", any case); 0 when unknown.
int parse_tls_version(std::string_view text);

// The loaded certificate, key and verification settings.
class tls_context {
 public:
  // Loads everything; null with `error` saying what failed (the file and
  // OpenSSL's reason).
  static std::unique_ptr<tls_context> load(const tls_settings& settings, std::string& error);
  ~tls_context();
  tls_context(const tls_context&) = delete;
  tls_context& operator=(const tls_context&) = delete;

  SSL_CTX* native() const { return ctx_; }
  bool offers_h2() const { return offer_h2_; }
  // The server's certificate, PEM (ASGI's tls extension: server_cert).
  const std::string& certificate_pem() const { return certificate_pem_; }

 private:
  tls_context() = default;
  SSL_CTX* ctx_ = nullptr;
  bool offer_h2_ = false;
  std::string certificate_pem_;
};

class tls_transport final : public transport {
 public:
  // Takes the socket `fd`; closes it when closed.
  tls_transport(tls_context& context, int fd);
  ~tls_transport();
  tls_transport(const tls_transport&) = delete;
  tls_transport& operator=(const tls_transport&) = delete;

  enum class handshake_result : uint8_t { done, pending, failed };
  // Advances the handshake as far as the socket allows. `pending`: call
  // again when the socket is readable (or writable, when wants_writable()).
  // `failed`: `reason` says why (the peer's address is the caller's).
  handshake_result handshake(std::string& reason);
  // Once the handshake is done.
  const tls_facts& facts() const { return facts_; }

  ssize_t receive(char* buffer, size_t length) override;
  ssize_t send_gather(const iovec* buffers, size_t count) override;
  ssize_t send_file(int file_fd, off_t* offset, size_t length) override;
  void shutdown_write() override;
  void close() override;
  int fd() const override { return fd_; }
  bool input_pending() const override;
  bool wants_writable() const override { return wants_writable_; }
  char* record_stage(size_t& capacity) override;
  ssize_t send_staged(size_t length) override;
  // The ticket held for the first answer (above) goes now unless
  // `reading_on`: the session reads input already here on its next pass,
  // and an answer may follow it. Called at each of the session's updates.
  void settle_output(bool reading_on) {
    if (corked_ && !reading_on) set_cork(false);
  }

  // Records are written up to this many bytes at a time from small runs
  // gathered into one buffer (a record's own most).
  static constexpr size_t record_bytes = 16384;

 private:
  // -1 with errno set from an SSL call's failure (EAGAIN for WANT_*).
  ssize_t fail(int ret, bool reading);
  ssize_t write_bytes(const char* data, size_t length);
  // Reads and drops what the socket holds now (a bounded amount).
  void discard_unread_input();
  void set_cork(bool on);
  // After the handshake's last step, with the socket corked: reads the
  // client's first records into the SSL object if they are there already,
  // and takes the cork off when they are not.
  void look_for_first_request();

  SSL* ssl_ = nullptr;
  int fd_;
  bool wants_writable_ = false;
  bool ended_ = false;  // the peer's close_notify (or its end of input) was read
  bool kernel_send_ = false;  // kTLS: the kernel encrypts, SSL_sendfile works
  bool corked_ = false;       // TCP_CORK is on: output waits for settle_output()
  // The last receive() stopped with the caller's buffer full (or the
  // handshake ended), so records may wait inside the SSL object. A receive
  // that ends because the socket had nothing more clears it: what is left
  // inside then is at most part of a record, and the socket will say
  // readable when the rest comes.
  bool maybe_pending_ = false;
  tls_facts facts_;
};

}  // namespace baton::net
