#include "core/net/tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/text.h"

namespace baton::net {

namespace {

// The oldest error OpenSSL queued, as text (and the queue emptied).
std::string openssl_reason() {
  unsigned long code = ERR_get_error();
  unsigned long next = 0;
  while ((next = ERR_get_error()) != 0) {
    // Keep the first: it names the failing step; later ones are its callers'.
  }
  if (code == 0) return "unknown error";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

int use_password(char* buffer, int size, int, void* user) {
  const std::string& password = *static_cast<const std::string*>(user);
  if (password.size() > static_cast<size_t>(size)) return -1;
  password.copy(buffer, password.size());
  return static_cast<int>(password.size());
}

// ALPN protocol lists, in the wire's length-prefixed form, server's
// preference first.
constexpr unsigned char h2_and_http1[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
constexpr unsigned char http1_only[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

// A client that offers none of ours still gets HTTP/1.1 (no ALPN answer),
// as most servers do, rather than a failed handshake.
int select_protocol(SSL*, const unsigned char** out, unsigned char* out_length, const unsigned char* in,
                    unsigned int in_length, void* arg) {
  bool h2 = *static_cast<const bool*>(arg);
  const unsigned char* ours = h2 ? h2_and_http1 : http1_only;
  unsigned int ours_length = h2 ? sizeof h2_and_http1 : sizeof http1_only;
  unsigned char* chosen = nullptr;
  if (SSL_select_next_proto(&chosen, out_length, ours, ours_length, in, in_length) != OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

std::string pem_of(X509* certificate) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr) return {};
  std::string text;
  if (PEM_write_bio_X509(bio, certificate) == 1) {
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);
    if (n > 0) text.assign(data, static_cast<size_t>(n));
  }
  BIO_free(bio);
  return text;
}

std::string subject_of(X509* certificate) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr) return {};
  std::string text;
  if (X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253) >= 0) {
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);
    if (n > 0) text.assign(data, static_cast<size_t>(n));
  }
  BIO_free(bio);
  return text;
}

// Small runs of output are gathered here into one record; a file range is
// read here when the kernel does not encrypt. The loop thread's own: a
// write that must be repeated rebuilds the same bytes from the same queue.
thread_local char staging[tls_transport::record_bytes];

}  // namespace

int parse_tls_version(std::string_view text) {
  std::string t(text);
  util::lowercase_in_place(t);
  if (t.rfind("tlsv", 0) == 0) t.erase(0, 4);
  else if (t.rfind("tls", 0) == 0) t.erase(0, 3);
  if (t == "1.2" || t == "1_2") return TLS1_2_VERSION;
  if (t == "1.3" || t == "1_3") return TLS1_3_VERSION;
  return 0;
}

std::unique_ptr<tls_context> tls_context::load(const tls_settings& settings, std::string& error) {
  std::unique_ptr<tls_context> c(new tls_context());
  ERR_clear_error();
  c->ctx_ = SSL_CTX_new(TLS_server_method());
  if (c->ctx_ == nullptr) {
    error = "cannot make a TLS context: " + openssl_reason();
    return nullptr;
  }
  SSL_CTX* ctx = c->ctx_;
  SSL_CTX_set_min_proto_version(ctx, settings.min_version);
  // No renegotiation (a write never has to read), no compression, a peer
  // that drops the connection without close_notify ends the input as a
  // close would (HTTP's own framing says whether a request was whole).
  uint64_t options = SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_IGNORE_UNEXPECTED_EOF |
                     SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_PRIORITIZE_CHACHA;
#ifdef SSL_OP_ENABLE_KTLS
  options |= SSL_OP_ENABLE_KTLS;
#endif
  SSL_CTX_set_options(ctx, options);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                            SSL_MODE_RELEASE_BUFFERS);
  // Whole socket reads: several small records per recv.
  SSL_CTX_set_read_ahead(ctx, 1);
  // Resumption by ticket (one per TLS 1.3 handshake) and by session id.
  SSL_CTX_set_num_tickets(ctx, 1);
  static const unsigned char id_context[] = "baton";
  SSL_CTX_set_session_id_context(ctx, id_context, sizeof id_context - 1);

  std::string password = settings.password;
  SSL_CTX_set_default_passwd_cb(ctx, use_password);
  SSL_CTX_set_default_passwd_cb_userdata(ctx, &password);
  const std::string& keyfile = settings.keyfile.empty() ? settings.certfile : settings.keyfile;
  bool loaded = false;
  if (SSL_CTX_use_certificate_chain_file(ctx, settings.certfile.c_str()) != 1) {
    error = "cannot load the certificate " + settings.certfile + ": " + openssl_reason();
  } else if (SSL_CTX_use_PrivateKey_file(ctx, keyfile.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot load the private key " + keyfile + ": " + openssl_reason();
  } else if (SSL_CTX_check_private_key(ctx) != 1) {
    error = "the private key " + keyfile + " does not match the certificate " + settings.certfile;
  } else {
    loaded = true;
  }
  SSL_CTX_set_default_passwd_cb(ctx, nullptr);
  SSL_CTX_set_default_passwd_cb_userdata(ctx, nullptr);
  if (!loaded) return nullptr;

  const char* ciphers = settings.ciphers.empty() ? default_tls12_ciphers : settings.ciphers.c_str();
  if (SSL_CTX_set_cipher_list(ctx, ciphers) != 1) {
    error = "no cipher of --ssl-ciphers '" + settings.ciphers + "' is known: " + openssl_reason();
    return nullptr;
  }
  if (SSL_CTX_set_ciphersuites(ctx, tls13_ciphersuites) != 1) {
    error = "cannot set TLS 1.3's suites: " + openssl_reason();
    return nullptr;
  }
  if (!settings.ca_certs.empty()) {
    if (SSL_CTX_load_verify_locations(ctx, settings.ca_certs.c_str(), nullptr) != 1) {
      error = "cannot load the CA certificates " + settings.ca_certs + ": " + openssl_reason();
      return nullptr;
    }
    // The CAs named to the client, so it picks a certificate they signed.
    STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(settings.ca_certs.c_str());
    if (names != nullptr) SSL_CTX_set_client_CA_list(ctx, names);
  }
  if (settings.cert_reqs == 1) SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  if (settings.cert_reqs == 2) SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);

  c->offer_h2_ = settings.offer_h2;
  SSL_CTX_set_alpn_select_cb(ctx, select_protocol, &c->offer_h2_);
  if (X509* own = SSL_CTX_get0_certificate(ctx)) c->certificate_pem_ = pem_of(own);
  return c;
}

tls_context::~tls_context() {
  if (ctx_ != nullptr) SSL_CTX_free(ctx_);
}

tls_transport::tls_transport(tls_context& context, int fd) : ssl_(SSL_new(context.native())), fd_(fd) {
  if (ssl_ == nullptr) return;  // handshake() fails it
  SSL_set_fd(ssl_, fd);
  SSL_set_accept_state(ssl_);
}

tls_transport::~tls_transport() { close(); }

tls_transport::handshake_result tls_transport::handshake(std::string& reason) {
  if (ssl_ == nullptr) {
    reason = "out of memory";
    return handshake_result::failed;
  }
  ERR_clear_error();
  errno = 0;
  // Our Finished is out (TLS 1.3 then waits in the state named for early
  // data; 1.2's resumption in the Finished's own), so this call reads the
  // client's: what the server writes from here on (a TLS 1.3 ticket) can
  // wait for the first answer.
  OSSL_HANDSHAKE_STATE state = SSL_get_state(ssl_);
  if (state == TLS_ST_EARLY_DATA || state == TLS_ST_SW_FINISHED) set_cork(true);
  int r = SSL_do_handshake(ssl_);
  if (r == 1) {
    wants_writable_ = false;
    maybe_pending_ = true;  // the client's first request may have come with its last handshake record
    if (corked_) look_for_first_request();
    facts_.version = static_cast<uint16_t>(SSL_version(ssl_));
    if (const SSL_CIPHER* cipher = SSL_get_current_cipher(ssl_)) {
      facts_.cipher_suite = SSL_CIPHER_get_protocol_id(cipher);
    }
    const unsigned char* alpn = nullptr;
    unsigned int alpn_length = 0;
    SSL_get0_alpn_selected(ssl_, &alpn, &alpn_length);
    facts_.h2 = alpn_length == 2 && alpn[0] == 'h' && alpn[1] == '2';
    if (X509* leaf = SSL_get0_peer_certificate(ssl_)) {
      auto client = std::make_shared<client_certificate>();
      client->subject = subject_of(leaf);
      // The server's view of the chain leaves the leaf out.
      client->chain_pem.push_back(pem_of(leaf));
      if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl_)) {
        for (int i = 0; i < sk_X509_num(chain); ++i) {
          X509* c = sk_X509_value(chain, i);
          if (X509_cmp(c, leaf) != 0) client->chain_pem.push_back(pem_of(c));
        }
      }
      facts_.client = std::move(client);
    }
#ifdef BIO_get_ktls_send
    kernel_send_ = BIO_get_ktls_send(SSL_get_wbio(ssl_)) != 0;
#endif
    return handshake_result::done;
  }
  set_cork(false);
  int e = SSL_get_error(ssl_, r);
  if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
    wants_writable_ = e == SSL_ERROR_WANT_WRITE;
    return handshake_result::pending;
  }
  if (e == SSL_ERROR_SYSCALL || e == SSL_ERROR_ZERO_RETURN) {
    unsigned long queued = ERR_peek_error();
    if (queued != 0) reason = openssl_reason();
    else if (errno != 0) reason = strerrordesc_np(errno);
    else reason = "the client closed the connection";
  } else {
    reason = openssl_reason();
  }
  // A refused handshake ends with the alert OpenSSL has just written. What
  // the client sent behind the record that was refused (its Finished, soon
  // its first request) is read and dropped before the caller closes: a
  // socket closed with unread input resets the connection, and the reset can
  // reach the client before it has read the alert (with OpenSSL 3.5, in
  // about half the tries of test_tls.py's refused client certificate; with
  // 3.0, in none seen).
  discard_unread_input();
  return handshake_result::failed;
}

void tls_transport::set_cork(bool on) {
  if (on == corked_ || fd_ < 0) return;
  int value = on ? 1 : 0;
  // Not a TCP socket (a Unix socket pair in tests): nothing to hold back.
  if (::setsockopt(fd_, IPPROTO_TCP, TCP_CORK, &value, sizeof value) == 0 || !on) corked_ = on;
}

// A peek reads whole records (read-ahead is on from here) and decrypts the
// first, leaving it for the session's receive(). Any failure is left for
// that receive() to meet again.
void tls_transport::look_for_first_request() {
  unsigned char first = 0;
  size_t n = 0;
  if (SSL_peek_ex(ssl_, &first, 1, &n) != 1) {
    ERR_clear_error();
    set_cork(false);
  }
}

void tls_transport::discard_unread_input() {
  char sink[4096];
  for (int i = 0; i < 16 && fd_ >= 0; ++i) {
    if (::recv(fd_, sink, sizeof sink, MSG_DONTWAIT) <= 0) return;
  }
}

ssize_t tls_transport::fail(int ret, bool reading) {
  int e = SSL_get_error(ssl_, ret);
  switch (e) {
    case SSL_ERROR_WANT_READ:
      if (reading) wants_writable_ = false;
      errno = EAGAIN;
      return -1;
    case SSL_ERROR_WANT_WRITE:
      if (reading) wants_writable_ = true;
      errno = EAGAIN;
      return -1;
    case SSL_ERROR_ZERO_RETURN:
      errno = EPIPE;
      return -1;
    case SSL_ERROR_SYSCALL:
      if (errno == 0 || errno == EAGAIN) errno = ECONNRESET;
      ERR_clear_error();
      return -1;
    default:
      ERR_clear_error();
      errno = EPROTO;
      return -1;
  }
}

ssize_t tls_transport::receive(char* buffer, size_t length) {
  if (ended_) return 0;
  size_t total = 0;
  while (total < length) {
    ERR_clear_error();
    size_t n = 0;
    int r = SSL_read_ex(ssl_, buffer + total, length - total, &n);
    if (r == 1) {
      total += n;
      if (SSL_has_pending(ssl_) != 1) {
        // Nothing left inside (read ahead or decrypted): the next call
        // would only meet the socket's EAGAIN, one syscall per request for
        // nothing. The socket says readable when more comes.
        wants_writable_ = false;
        maybe_pending_ = false;
        return static_cast<ssize_t>(total);
      }
      continue;
    }
    if (SSL_get_error(ssl_, r) == SSL_ERROR_ZERO_RETURN) {
      ended_ = true;
      maybe_pending_ = false;
      return static_cast<ssize_t>(total);
    }
    ssize_t failed = fail(r, true);
    maybe_pending_ = false;
    // The bytes first; the next call meets the error again (or EAGAIN).
    return total > 0 ? static_cast<ssize_t>(total) : failed;
  }
  wants_writable_ = false;
  maybe_pending_ = true;
  return static_cast<ssize_t>(total);
}

bool tls_transport::input_pending() const { return maybe_pending_ && !ended_ && SSL_has_pending(ssl_) == 1; }

ssize_t tls_transport::write_bytes(const char* data, size_t length) {
  ERR_clear_error();
  errno = 0;
  size_t written = 0;
  int r = SSL_write_ex(ssl_, data, length, &written);
  if (r == 1) return static_cast<ssize_t>(written);
  return fail(r, false);
}

// A run of a record's size or more goes out from where it is; smaller runs
// are gathered so that a response's head and a small body make one record
// (and one syscall). Either way the first bytes are the queue's first, so
// a repeated write (after WANT_WRITE) passes what the first one did, or more.
ssize_t tls_transport::send_gather(const iovec* buffers, size_t count) {
  if (count == 0) return 0;
  if (count == 1 || buffers[0].iov_len >= record_bytes) {
    return write_bytes(static_cast<const char*>(buffers[0].iov_base), buffers[0].iov_len);
  }
  size_t staged = 0;
  for (size_t i = 0; i < count && staged < record_bytes; ++i) {
    size_t take = buffers[i].iov_len < record_bytes - staged ? buffers[i].iov_len : record_bytes - staged;
    memcpy(staging + staged, buffers[i].iov_base, take);
    staged += take;
  }
  return write_bytes(staging, staged);
}

// Records are staged by the queue unless the kernel frames them (kTLS).
char* tls_transport::record_stage(size_t& capacity) {
  capacity = kernel_send_ ? 0 : record_bytes;
  return kernel_send_ ? nullptr : staging;
}

ssize_t tls_transport::send_staged(size_t length) { return write_bytes(staging, length); }

// Only with kTLS: without it the queue stages records itself
// (record_stage), file ranges read into them, and never calls this.
ssize_t tls_transport::send_file(int file_fd, off_t* offset, size_t length) {
  if (!kernel_send_) {
    errno = EINVAL;
    return -1;
  }
  ERR_clear_error();
  ossl_ssize_t n = SSL_sendfile(ssl_, file_fd, *offset, length, 0);
  if (n >= 0) {
    *offset += n;
    return n;
  }
  return fail(static_cast<int>(n), false);
}

// The FIN takes what the cork held with it.
void tls_transport::shutdown_write() {
  if (ssl_ != nullptr && SSL_is_init_finished(ssl_)) {
    ERR_clear_error();
    SSL_shutdown(ssl_);  // close_notify, if the socket takes it now
    ERR_clear_error();
  }
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  corked_ = false;
}

void tls_transport::close() {
  if (ssl_ != nullptr) {
    SSL_free(ssl_);
    ssl_ = nullptr;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace baton::net
