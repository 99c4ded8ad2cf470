/* udp_delay: a UDP relay on loopback that holds every datagram for a fixed
 * time each way, so a QUIC benchmark can run over a path with a round trip
 * (this machine's kernel has no netem qdisc).
 *
 * Datagrams from clients to 127.0.0.1:LISTEN_PORT go to 127.0.0.1:
 * SERVER_PORT from a socket of the relay's own for that client (so the
 * server sees one address a client, and its answers come back to that
 * socket), and leave DELAY_US later; the server's answers go back to the
 * client the same way. One queue in arrival order serves both directions
 * (every datagram is held the same time, so arrival order is departure
 * order). Nothing is reordered, duplicated or dropped on purpose; a
 * datagram that finds the queue full, or a send that finds a socket full,
 * is dropped and counted, and the counts are printed on SIGINT or SIGTERM.
 *
 * Usage: udp_delay LISTEN_PORT SERVER_PORT DELAY_US
 * Build: cc -O2 -o udp_delay udp_delay.c */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SLOTS = 16384, SLOT_BYTES = 2048, CLIENTS = 64 };

struct held {
  int64_t due_ns;
  int to_server;  /* 1: from a client to the server; 0: back to a client */
  int client;     /* index into clients */
  size_t length;
  unsigned char bytes[SLOT_BYTES];
};

struct client {
  struct sockaddr_in address;
  int fd; /* the relay's socket toward the server for this client */
};

static struct held queue[SLOTS];
static size_t head, count;
static struct client clients[CLIENTS];
static int client_count;
static volatile sig_atomic_t stopping;
static unsigned long long relayed, dropped_full, dropped_send, dropped_large;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int udp_socket(uint16_t port) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int size = 8 * 1024 * 1024;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (bind(fd, (struct sockaddr*)&a, sizeof a) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static int client_for(const struct sockaddr_in* from) {
  for (int i = 0; i < client_count; ++i) {
    if (clients[i].address.sin_port == from->sin_port && clients[i].address.sin_addr.s_addr == from->sin_addr.s_addr)
      return i;
  }
  if (client_count == CLIENTS) return -1;
  int fd = udp_socket(0);
  if (fd < 0) return -1;
  clients[client_count].address = *from;
  clients[client_count].fd = fd;
  return client_count++;
}

static void hold(int to_server, int client, const unsigned char* bytes, size_t length, int64_t due_ns) {
  if (length > SLOT_BYTES) {
    ++dropped_large;
    return;
  }
  if (count == SLOTS) {
    ++dropped_full;
    return;
  }
  struct held* h = &queue[(head + count) % SLOTS];
  h->due_ns = due_ns;
  h->to_server = to_server;
  h->client = client;
  h->length = length;
  memcpy(h->bytes, bytes, length);
  ++count;
}

static void on_stop(int signal_number) {
  (void)signal_number;
  stopping = 1;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: udp_delay LISTEN_PORT SERVER_PORT DELAY_US\n");
    return 2;
  }
  const uint16_t listen_port = (uint16_t)atoi(argv[1]);
  const struct sockaddr_in server = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2])),
                                     .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  const int64_t delay_ns = (int64_t)atoll(argv[3]) * 1000;
  const int front = udp_socket(listen_port);
  if (front < 0) {
    perror("udp_delay: bind");
    return 1;
  }
  signal(SIGINT, on_stop);
  signal(SIGTERM, on_stop);
  printf("udp_delay: 127.0.0.1:%u -> 127.0.0.1:%s, %s us each way\n", listen_port, argv[2], argv[3]);
  fflush(stdout);
  unsigned char buffer[65536];
  struct pollfd fds[1 + CLIENTS];
  while (!stopping) {
    /* Send what is due. */
    int64_t now = now_ns();
    while (count > 0 && queue[head].due_ns <= now) {
      struct held* h = &queue[head];
      ssize_t sent;
      if (h->to_server) {
        sent = sendto(clients[h->client].fd, h->bytes, h->length, 0, (const struct sockaddr*)&server, sizeof server);
      } else {
        sent = sendto(front, h->bytes, h->length, 0, (const struct sockaddr*)&clients[h->client].address,
                      sizeof clients[h->client].address);
      }
      if (sent < 0) ++dropped_send;
      else ++relayed;
      head = (head + 1) % SLOTS;
      --count;
    }
    /* Wait for datagrams or the next departure, to the microsecond. */
    fds[0] = (struct pollfd){.fd = front, .events = POLLIN};
    for (int i = 0; i < client_count; ++i) fds[1 + i] = (struct pollfd){.fd = clients[i].fd, .events = POLLIN};
    struct timespec wait = {1, 0};
    if (count > 0) {
      int64_t left = queue[head].due_ns - now_ns();
      if (left < 0) left = 0;
      wait = (struct timespec){left / 1000000000, left % 1000000000};
    }
    int ready = ppoll(fds, (nfds_t)(1 + client_count), &wait, NULL);
    if (ready <= 0) continue;
    const int64_t due = now_ns() + delay_ns;
    for (int i = 0; i < 1 + client_count; ++i) {
      if (!(fds[i].revents & POLLIN)) continue;
      for (;;) {
        struct sockaddr_in from;
        socklen_t from_length = sizeof from;
        ssize_t n = recvfrom(fds[i].fd, buffer, sizeof buffer, 0, (struct sockaddr*)&from, &from_length);
        if (n < 0) break;
        if (i == 0) {
          int c = client_for(&from);
          if (c >= 0) hold(1, c, buffer, (size_t)n, due);
        } else {
          hold(0, i - 1, buffer, (size_t)n, due);
        }
      }
    }
  }
  printf("udp_delay: relayed %llu, dropped %llu (queue full) %llu (send) %llu (too large)\n", relayed, dropped_full,
         dropped_send, dropped_large);
  return 0;
}
