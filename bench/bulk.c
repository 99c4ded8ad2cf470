/* bulk: a one-thread HTTP/1.1 load generator for large bodies.
 *
 * wrk reads a response 8 KiB at a time and asks FIONREAD after each read, so
 * on a 1 MiB echo it makes ~210 syscalls per response (strace -c) and
 * saturates its core before the server does: the row then measures the
 * client. This client
 * sends each request from one prebuilt buffer and reads into one shared
 * 256 KiB buffer, so the server is the bound. It keeps one request in flight
 * per connection (no pipelining), needs Content-Length framed responses,
 * opens a new connection after a `Connection: close` answer, and prints the
 * same JSON summary line as bench/lua/summary.lua.
 *
 * Usage: bulk -c CONNS -d SECONDS -t TIMEOUT_S -m METHOD -b BODY_BYTES URL
 * (URL is http://127.0.0.1:PORT/path). Build: cc -O2 -o bulk bulk.c */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "load_summary.h"

enum { READ_BUFFER = 256 * 1024, HEAD_LIMIT = 8192 };

struct conn {
  int fd;
  size_t sent;         /* bytes of the request written */
  size_t head_have;    /* bytes of the response head gathered */
  long long length;    /* the response's Content-Length, -1 until the head is read */
  long long body_have; /* body bytes read */
  int close_after;     /* the response said Connection: close */
  int64_t started_ns;  /* when the request's first byte went out */
  char head[HEAD_LIMIT];
};

static struct sockaddr_in address;
static char *request;
static size_t request_size;
static char *scratch;
static int epoll_fd;




static void begin(struct conn *c) {
  c->sent = 0;
  c->head_have = 0;
  c->length = -1;
  c->body_have = 0;
  c->close_after = 0;
}

static int open_connection(struct conn *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
    close(c->fd);
    c->fd = -1;
    totals.connect++;
    return -1;
  }
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &ev);
  begin(c);
  c->started_ns = now_ns(); /* for the timeout sweep until the first byte goes out */
  return 0;
}

static void reopen(struct conn *c) {
  if (c->fd >= 0) close(c->fd);
  open_connection(c);
}

/* Writes what the socket takes of the request. */
static int send_more(struct conn *c) {
  while (c->sent < request_size) {
    if (c->sent == 0) c->started_ns = now_ns();
    ssize_t n = send(c->fd, request + c->sent, request_size - c->sent, MSG_NOSIGNAL);
    if (n > 0) {
      c->sent += (size_t)n;
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR || errno == ENOTCONN)) {
      return 0; /* ENOTCONN: the connect is still under way */
    } else {
      if (errno == ECONNREFUSED) totals.connect++;
      else totals.write++;
      return -1;
    }
  }
  return 0;
}

/* Parses a gathered head: 1 when whole, 0 when more is needed, -1 on error. */
static int parse_head(struct conn *c, size_t *body_start) {
  char *end = memmem(c->head, c->head_have, "\r\n\r\n", 4);
  if (!end) return c->head_have == HEAD_LIMIT ? -1 : 0;
  *body_start = (size_t)(end - c->head) + 4;
  end[2] = '\0'; /* every line, the last one too, now ends with CRLF */
  if (c->head_have < 12 || memcmp(c->head, "HTTP/1.1 ", 9) != 0) return -1;
  if (c->head[9] >= '4') totals.status++; /* as wrk counts: 4xx and 5xx */
  for (char *line = strstr(c->head, "\r\n") + 2; *line; line = strstr(line, "\r\n") + 2) {
    char *eol = strstr(line, "\r\n");
    *eol = '\0';
    if (strncasecmp(line, "content-length:", 15) == 0) c->length = strtoll(line + 15, NULL, 10);
    if (strncasecmp(line, "connection:", 11) == 0 && strcasestr(line + 11, "close") != NULL) c->close_after = 1;
    *eol = '\r';
  }
  return c->length >= 0 ? 1 : -1; /* only Content-Length framed responses are supported */
}

/* Reads what is there; 1 when the response is complete, 0 for more, -1 on error. */
static int receive_more(struct conn *c) {
  while (1) {
    ssize_t n = recv(c->fd, scratch, READ_BUFFER, 0);
    if (n < 0) return (errno == EAGAIN || errno == EINTR || errno == ENOTCONN) ? 0 : -1;
    if (n == 0) return -1;
    totals.bytes += n;
    size_t used = 0;
    if (c->length < 0) {
      size_t take = (size_t)n < HEAD_LIMIT - c->head_have ? (size_t)n : HEAD_LIMIT - c->head_have;
      memcpy(c->head + c->head_have, scratch, take);
      size_t before = c->head_have;
      c->head_have += take;
      size_t body_start;
      int parsed = parse_head(c, &body_start);
      if (parsed < 0) return -1;
      if (parsed == 0) continue;
      used = body_start - before;
    }
    c->body_have += n - (ssize_t)used;
    if (c->body_have > c->length) return -1; /* more than was framed: nothing else was asked for */
    if (c->body_have == c->length) return 1;
  }
}

static void on_event(struct conn *c, int64_t deadline_ns) {
  if (c->sent < request_size && send_more(c) < 0) {
    reopen(c);
    return;
  }
  int done = receive_more(c);
  if (done < 0) {
    totals.read++;
    reopen(c);
    return;
  }
  if (done == 0) return;
  if (c->sent < request_size) { /* answered before the body was sent: the connection's framing is lost */
    totals.read++;
    reopen(c);
    return;
  }
  int64_t t = now_ns();
  if (t <= deadline_ns) {
    totals.requests++;
    record((t - c->started_ns) / 1000);
  }
  if (c->close_after) { /* the server closes: the next request goes on a new connection */
    reopen(c);
    return;
  }
  begin(c);
  if (send_more(c) < 0) reopen(c);
}



static void usage(void) {
  fprintf(stderr, "usage: bulk -c CONNS -d SECONDS [-t TIMEOUT_S] [-m METHOD] [-b BODY_BYTES] http://127.0.0.1:PORT/path\n");
  exit(2);
}

int main(int argc, char **argv) {
  int conns = 16, timeout_s = 5;
  double seconds = 10;
  const char *method = "POST";
  long long body_size = 1 << 20;
  int opt;
  while ((opt = getopt(argc, argv, "c:d:t:m:b:")) != -1) {
    switch (opt) {
      case 'c': conns = atoi(optarg); break;
      case 'd': seconds = atof(optarg); break;
      case 't': timeout_s = atoi(optarg); break;
      case 'm': method = optarg; break;
      case 'b': body_size = atoll(optarg); break;
      default: usage();
    }
  }
  if (optind != argc - 1 || conns < 1) usage();
  char host[64];
  int port;
  char path[1024] = "/";
  if (sscanf(argv[optind], "http://%63[^:]:%d%1023s", host, &port, path) < 2) usage();
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) usage();

  char head[2048];
  int head_size = snprintf(head, sizeof head,
                           "%s %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/octet-stream\r\n"
                           "Content-Length: %lld\r\n\r\n",
                           method, path, host, port, body_size);
  request_size = (size_t)head_size + (size_t)body_size;
  request = malloc(request_size);
  scratch = malloc(READ_BUFFER);
  if (!request || !scratch) return 2;
  memcpy(request, head, (size_t)head_size);
  memset(request + head_size, 'x', (size_t)body_size);

  epoll_fd = epoll_create1(0);
  struct conn *all = calloc((size_t)conns, sizeof *all);
  for (int i = 0; i < conns; ++i) open_connection(&all[i]);

  int64_t start = now_ns();
  int64_t deadline = start + (int64_t)(seconds * 1e9);
  int64_t timeout_ns = (int64_t)timeout_s * 1000000000;
  struct epoll_event events[256];
  int64_t next_sweep = start + 100000000;
  while (1) {
    int64_t t = now_ns();
    if (t >= deadline) break;
    int wait_ms = (int)((deadline - t) / 1000000) + 1;
    if (wait_ms > 100) wait_ms = 100;
    int n = epoll_wait(epoll_fd, events, 256, wait_ms);
    for (int i = 0; i < n; ++i) on_event(events[i].data.ptr, deadline);
    t = now_ns();
    if (t >= next_sweep) {
      next_sweep = t + 100000000;
      for (int i = 0; i < conns; ++i) {
        if (all[i].fd < 0) {
          open_connection(&all[i]);
        } else if (t - all[i].started_ns > timeout_ns) {
          totals.timeout++;
          reopen(&all[i]);
        }
      }
    }
  }
  int64_t elapsed_us = (now_ns() - start) / 1000;

  print_summary(elapsed_us);
  return 0;
}
