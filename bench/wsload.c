/* wsload: a one-thread WebSocket load generator (RFC 6455).
 *
 * Echo mode (the default): each of CONNS connections keeps DEPTH messages
 * of SIZE bytes in flight (masked, as a client must send them) and sends
 * the next when an echo comes back; a round trip is counted, and its
 * latency taken, per echoed message. Broadcast mode (-B): every connection
 * listens, and connection 0 sends one message at a time, the next once all
 * CONNS copies of the last have arrived; a delivery is counted per copy,
 * the latency per broadcast (its send to its last copy).
 *
 * With -z the client offers permessage-deflate (no context takeover) and,
 * where the server agrees, sends each message compressed, as a browser
 * would (a server that declines gets them plain); it counts the
 * server's messages by their frames and does not inflate them. Pings are
 * answered. Every frame is prebuilt once: the client's own cost per
 * message is a send of a few bytes and a parse of a frame header, so the
 * server is the bound.
 *
 * Prints the same JSON summary line as bench/lua/summary.lua ("requests"
 * are round trips, or deliveries).
 *
 * Usage: wsload -c CONNS -d SECONDS [-p DEPTH] [-s SIZE] [-z] [-B] [-t TIMEOUT_S] ws://127.0.0.1:PORT/path
 * Build: cc -O2 -o wsload wsload.c -lz */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "load_summary.h"
#include <zlib.h>

enum { READ_BUFFER = 256 * 1024, HEAD_LIMIT = 4096, MAX_DEPTH = 64 };

struct conn {
  int fd;
  int open;                    /* the 101 has been read */
  int deflate;                 /* the server agreed to permessage-deflate */
  size_t head_have;
  char head[HEAD_LIMIT];
  unsigned char partial[14];   /* a frame header split across reads */
  size_t partial_have;
  uint64_t payload_left;       /* of the frame being skipped */
  int frame_op;
  int frame_fin;
  unsigned char control[125];  /* a ping's payload, to answer */
  size_t control_have;
  int64_t sent_ns[MAX_DEPTH];  /* when each message in flight went out, oldest first */
  int in_flight, first;
  char *pending;               /* bytes the socket would not take yet */
  size_t pending_size, pending_sent;
  int64_t started_ns;
};

static struct sockaddr_in address;
static char handshake[1024];
static size_t handshake_size;
static unsigned char *message, *message_packed; /* the prebuilt client frames: plain, compressed */
static size_t message_size, message_packed_size;
static unsigned char *scratch;
static int epoll_fd, depth = 1, broadcast, conns = 16;
static struct conn *all;
static int64_t deadline_ns;
static int64_t broadcast_sent_ns; /* broadcast: the message out now, and its copies still to come */
static int broadcast_left;



/* A masked client frame around `payload`. */
static unsigned char *build_frame(int op, int rsv1, const unsigned char *payload, size_t n, size_t *size) {
  unsigned char *f = malloc(n + 14);
  size_t at = 0;
  f[at++] = (unsigned char)(0x80 | (rsv1 ? 0x40 : 0) | op);
  if (n < 126) {
    f[at++] = (unsigned char)(0x80 | n);
  } else if (n < 65536) {
    f[at++] = 0x80 | 126;
    f[at++] = (unsigned char)(n >> 8);
    f[at++] = (unsigned char)n;
  } else {
    f[at++] = 0x80 | 127;
    for (int i = 7; i >= 0; --i) f[at++] = (unsigned char)((uint64_t)n >> (8 * i));
  }
  static const unsigned char mask[4] = {0x3a, 0x91, 0x5c, 0xe7};
  memcpy(f + at, mask, 4);
  at += 4;
  for (size_t i = 0; i < n; ++i) f[at + i] = payload[i] ^ mask[i % 4];
  *size = at + n;
  return f;
}

/* Raw deflate of `data` with the sync tail removed (RFC 7692). */
static unsigned char *deflated(const unsigned char *data, size_t n, size_t *out_size) {
  z_stream z = {0};
  deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  size_t room = deflateBound(&z, n) + 16;
  unsigned char *out = malloc(room);
  z.next_in = (unsigned char *)data;
  z.avail_in = (unsigned)n;
  z.next_out = out;
  z.avail_out = (unsigned)room;
  deflate(&z, Z_SYNC_FLUSH);
  *out_size = room - z.avail_out - 4;
  deflateEnd(&z);
  return out;
}

static void drop(struct conn *c);

/* Queues bytes; what the socket will not take waits for EPOLLOUT. */
static void put(struct conn *c, const void *data, size_t n) {
  if (c->pending_size == c->pending_sent) {
    ssize_t w = send(c->fd, data, n, MSG_NOSIGNAL);
    if (w == (ssize_t)n) return;
    if (w < 0 && errno != EAGAIN && errno != EINTR) {
      totals.write++;
      drop(c);
      return;
    }
    if (w < 0) w = 0;
    data = (const char *)data + w;
    n -= (size_t)w;
  }
  c->pending = realloc(c->pending, c->pending_size + n);
  memcpy(c->pending + c->pending_size, data, n);
  c->pending_size += n;
}

static void flush_pending(struct conn *c) {
  while (c->pending_sent < c->pending_size) {
    ssize_t w = send(c->fd, c->pending + c->pending_sent, c->pending_size - c->pending_sent, MSG_NOSIGNAL);
    if (w <= 0) {
      if (w < 0 && (errno == EAGAIN || errno == EINTR)) return;
      totals.write++;
      drop(c);
      return;
    }
    c->pending_sent += (size_t)w;
  }
  c->pending_size = c->pending_sent = 0;
}

static void put_message(struct conn *c) {
  if (c->deflate && message_packed) put(c, message_packed, message_packed_size);
  else put(c, message, message_size);
}

static void send_message(struct conn *c) {
  c->sent_ns[(c->first + c->in_flight) % MAX_DEPTH] = now_ns();
  c->in_flight++;
  put_message(c);
}

static void open_connection(struct conn *c) {
  memset(c, 0, sizeof *c);
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
    close(c->fd);
    c->fd = -1;
    totals.connect++;
    return;
  }
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &ev);
  c->started_ns = now_ns();
  c->pending = malloc(handshake_size);
  memcpy(c->pending, handshake, handshake_size);
  c->pending_size = handshake_size;
}

static void drop(struct conn *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  free(c->pending);
  c->pending = NULL;
  c->pending_size = c->pending_sent = 0;
}

static void start_broadcast(void) {
  broadcast_sent_ns = now_ns();
  broadcast_left = conns;
  put_message(&all[0]);
}

/* A whole data message from the server. */
static void on_message(struct conn *c) {
  int64_t t = now_ns();
  if (broadcast) {
    if (t <= deadline_ns) totals.requests++;
    if (--broadcast_left == 0) {
      if (t <= deadline_ns) record((t - broadcast_sent_ns) / 1000);
      start_broadcast();
    }
    return;
  }
  if (c->in_flight == 0) return;
  if (t <= deadline_ns) {
    totals.requests++;
    record((t - c->sent_ns[c->first]) / 1000);
  }
  c->first = (c->first + 1) % MAX_DEPTH;
  c->in_flight--;
  send_message(c);
}

static void on_opened(struct conn *c) {
  c->open = 1;
  if (broadcast) {
    int ready = 0;
    for (int i = 0; i < conns; ++i) ready += all[i].open;
    if (ready == conns) start_broadcast();
    return;
  }
  for (int i = 0; i < depth; ++i) send_message(c);
}

static size_t frame_header_size(const unsigned char *h, size_t have) {
  if (have < 2) return 2;
  size_t n = 2;
  if ((h[1] & 0x7f) == 126) n += 2;
  else if ((h[1] & 0x7f) == 127) n += 8;
  return n;
}

/* Walks the server's frames in [p, p + n): headers, skipped payloads, pings answered. */
static void parse_frames(struct conn *c, const unsigned char *p, size_t n) {
  while (n > 0 && c->fd >= 0) {
    if (c->payload_left > 0) {
      size_t take = n < c->payload_left ? n : (size_t)c->payload_left;
      if (c->frame_op == 0x9 && c->control_have + take <= sizeof c->control) {
        memcpy(c->control + c->control_have, p, take);
        c->control_have += take;
      }
      c->payload_left -= take;
      p += take;
      n -= take;
    } else {
      size_t want = frame_header_size(c->partial, c->partial_have);
      while (c->partial_have < want && n > 0) {
        c->partial[c->partial_have++] = *p++;
        n--;
        want = frame_header_size(c->partial, c->partial_have);
      }
      if (c->partial_have < want) return;
      const unsigned char *h = c->partial;
      uint64_t len = h[1] & 0x7f;
      if (len == 126) len = ((uint64_t)h[2] << 8) | h[3];
      else if (len == 127) for (int i = 0, j = 2; i < 8; ++i, ++j) len = (i == 0 ? 0 : len << 8) | h[j];
      c->frame_op = h[0] & 0x0f;
      c->frame_fin = (h[0] & 0x80) != 0;
      c->payload_left = len;
      c->partial_have = 0;
      c->control_have = 0;
      if (c->frame_op == 0x8) {
        totals.read++; /* the server closed: an error for a load run */
        drop(c);
        return;
      }
    }
    if (c->payload_left == 0) {
      if (c->frame_op == 0x9) {
        size_t size;
        unsigned char *pong = build_frame(0xa, 0, c->control, c->control_have, &size);
        put(c, pong, size);
        free(pong);
      } else if (c->frame_fin && c->frame_op != 0xa) {
        on_message(c);
      }
    }
  }
}

static void on_event(struct conn *c) {
  flush_pending(c);
  while (c->fd >= 0) {
    ssize_t n = recv(c->fd, scratch, READ_BUFFER, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      totals.read++;
      drop(c);
      return;
    }
    totals.bytes += n;
    const unsigned char *p = scratch;
    size_t left = (size_t)n;
    if (!c->open) {
      size_t take = left < HEAD_LIMIT - c->head_have ? left : HEAD_LIMIT - c->head_have;
      memcpy(c->head + c->head_have, p, take);
      c->head_have += take;
      char *end = memmem(c->head, c->head_have, "\r\n\r\n", 4);
      if (!end) continue;
      if (memcmp(c->head, "HTTP/1.1 101", 12) != 0) {
        totals.status++;
        drop(c);
        return;
      }
      size_t head_end = (size_t)(end - c->head) + 4;
      *end = '\0';
      c->deflate = strcasestr(c->head, "permessage-deflate") != NULL;
      size_t used = head_end - (c->head_have - take);
      p += used;
      left -= used;
      on_opened(c);
    }
    parse_frames(c, p, left);
  }
}



static void usage(void) {
  fprintf(stderr, "usage: wsload -c CONNS -d SECONDS [-p DEPTH] [-s SIZE] [-z] [-B] [-t TIMEOUT_S] "
                  "ws://127.0.0.1:PORT/path\n");
  exit(2);
}

int main(int argc, char **argv) {
  int timeout_s = 5, compress = 0;
  double seconds = 10;
  size_t size = 32;
  int opt;
  while ((opt = getopt(argc, argv, "c:d:p:s:zBt:")) != -1) {
    switch (opt) {
      case 'c': conns = atoi(optarg); break;
      case 'd': seconds = atof(optarg); break;
      case 'p': depth = atoi(optarg); break;
      case 's': size = (size_t)atoll(optarg); break;
      case 'z': compress = 1; break;
      case 'B': broadcast = 1; break;
      case 't': timeout_s = atoi(optarg); break;
      default: usage();
    }
  }
  if (optind != argc - 1 || conns < 1 || depth < 1 || depth > MAX_DEPTH) usage();
  char host[64];
  int port;
  char path[1024] = "/";
  if (sscanf(argv[optind], "ws://%63[^:]:%d%1023s", host, &port, path) < 2) usage();
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) usage();
  handshake_size = (size_t)snprintf(handshake, sizeof handshake,
                                    "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n%s\r\n",
                                    path, host, port,
                                    compress ? "Sec-WebSocket-Extensions: permessage-deflate; "
                                               "client_no_context_takeover; server_no_context_takeover\r\n"
                                             : "");
  /* A text message of printable, mildly repetitive bytes (compressible, as JSON is). */
  unsigned char *text = malloc(size + 1);
  for (size_t i = 0; i < size; ++i) text[i] = (unsigned char)("{\"id\": 12345, \"name\": \"baton\"}, "[i % 33]);
  message = build_frame(0x1, 0, text, size, &message_size);
  if (compress) {
    size_t packed_size;
    unsigned char *packed = deflated(text, size, &packed_size);
    message_packed = build_frame(0x1, 1, packed, packed_size, &message_packed_size);
  }
  scratch = malloc(READ_BUFFER);
  epoll_fd = epoll_create1(0);
  all = calloc((size_t)conns, sizeof *all);
  for (int i = 0; i < conns; ++i) open_connection(&all[i]);

  int64_t start = now_ns();
  deadline_ns = start + (int64_t)(seconds * 1e9);
  int64_t timeout_ns = (int64_t)timeout_s * 1000000000;
  struct epoll_event events[256];
  while (1) {
    int64_t t = now_ns();
    if (t >= deadline_ns) break;
    int wait_ms = (int)((deadline_ns - t) / 1000000) + 1;
    if (wait_ms > 100) wait_ms = 100;
    int n = epoll_wait(epoll_fd, events, 256, wait_ms);
    for (int i = 0; i < n; ++i) on_event(events[i].data.ptr);
    for (int i = 0; i < conns && !broadcast; ++i) {
      struct conn *c = &all[i];
      if (c->fd < 0) {
        open_connection(c);
      } else if (!c->open && now_ns() - c->started_ns > timeout_ns) {
        totals.timeout++;
        drop(c);
      }
    }
  }
  int64_t elapsed_us = (now_ns() - start) / 1000;
  print_summary(elapsed_us);
  return 0;
}
