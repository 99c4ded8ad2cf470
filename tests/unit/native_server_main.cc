// A standalone server answering the native hello on 127.0.0.1:PORT, with no
// Python at all: for profiling the core alone (valgrind --tool=callgrind
// build/unit/native_server 8051, then a keep-alive client) and for running
// the connection state machine by hand under the sanitizer build.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "core/server/native_hello.h"
#include "core/server/server.h"

int main(int argc, char** argv) {
  int port = argc > 1 ? std::atoi(argv[1]) : 8000;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || listen(fd, 1024) < 0) {
    std::perror("bind");
    return 1;
  }
  baton::server::server_config config;
  config.requests.request_limits.max_body = 1 << 20;
  baton::server::native_hello hello;
  baton::server::inline_dispatcher runner(hello);
  baton::server::server s(config, {fd});
  s.set_dispatcher(&runner);
  s.run();
  return 0;
}
