/* The floor: a minimal single-threaded epoll HTTP server. It answers every
 * request with the same fixed response and keeps connections alive; it
 * parses nothing but the end of each request head. Benchmarks compare
 * baton's CPU per request against this. Build: cc -O2 -o floor floor.c */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char response[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";

struct conn {
  int fd;
  size_t have;
  char buf[8192];
};

int main(int argc, char **argv) {
  int port = argc > 1 ? atoi(argv[1]) : 8000;
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0) {
    perror("bind");
    return 1;
  }
  socklen_t len = sizeof addr;
  getsockname(lfd, (struct sockaddr *)&addr, &len);
  printf("floor listening on http://127.0.0.1:%d\n", ntohs(addr.sin_port));
  fflush(stdout);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  struct epoll_event events[256];
  char out[64 * sizeof response];
  for (;;) {
    int n = epoll_wait(ep, events, 256, -1);
    for (int i = 0; i < n; ++i) {
      struct conn *c = events[i].data.ptr;
      if (c == NULL) {
        int fd;
        while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          struct conn *nc = calloc(1, sizeof *nc);
          nc->fd = fd;
          struct epoll_event cev = {.events = EPOLLIN, .data.ptr = nc};
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
        }
        continue;
      }
      ssize_t r = recv(c->fd, c->buf + c->have, sizeof c->buf - c->have, 0);
      if (r <= 0) {
        if (r < 0 && errno == EAGAIN) continue;
        close(c->fd);
        free(c);
        continue;
      }
      c->have += (size_t)r;
      /* Answer each complete head; keep a partial one for the next read. */
      size_t start = 0, answers = 0;
      char *end;
      while ((end = memmem(c->buf + start, c->have - start, "\r\n\r\n", 4)) != NULL) {
        start = (size_t)(end - c->buf) + 4;
        memcpy(out + answers * (sizeof response - 1), response, sizeof response - 1);
        if (++answers == 64) break;
      }
      memmove(c->buf, c->buf + start, c->have - start);
      c->have -= start;
      if (c->have == sizeof c->buf) c->have = 0;
      if (answers) send(c->fd, out, answers * (sizeof response - 1), MSG_NOSIGNAL);
    }
  }
}
