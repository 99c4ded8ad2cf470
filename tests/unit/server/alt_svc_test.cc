// Unit tests for what each listener advertises in Alt-Svc
// (src/core/server/alt_svc.h): h3 on a TCP listener's own port under
// HTTP/3, nothing without it or with "off", an operator's value as it is,
// nothing on a Unix socket, and one HTTP/1 encoder per listener only when
// some listener advertises.
#include "core/server/alt_svc.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/support/loopback_listener.h"

namespace {

using baton::server::alt_svc_by_listener;
using baton::server::alt_svc_value;

using baton::testing::tcp_listener_on_loopback;

std::string port_of(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return std::to_string(ntohs(address.sin_port));
}

TEST(AltSvc, AutoAdvertisesH3OnTheListenersOwnPortOnlyWhenHttp3Serves) {
  int a = tcp_listener_on_loopback();
  int b = tcp_listener_on_loopback();
  EXPECT_EQ(alt_svc_value("auto", true, a), "h3=\":" + port_of(a) + "\"; ma=86400");
  EXPECT_EQ(alt_svc_value("auto", true, b), "h3=\":" + port_of(b) + "\"; ma=86400");
  EXPECT_EQ(alt_svc_value("auto", false, a), "");
  ::close(a);
  ::close(b);
}

TEST(AltSvc, OffSendsNoneAndAnOperatorsValueGoesAsItIs) {
  int fd = tcp_listener_on_loopback();
  EXPECT_EQ(alt_svc_value("off", true, fd), "");
  EXPECT_EQ(alt_svc_value("h3=\":443\"", false, fd), "h3=\":443\"");
  ::close(fd);
}

TEST(AltSvc, AUnixSocketAdvertisesNothing) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  EXPECT_EQ(alt_svc_value("auto", true, fds[0]), "");
  EXPECT_EQ(alt_svc_value("h3=\":443\"", true, fds[0]), "");
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(AltSvc, EncodersAreMadePerListenerOnlyWhenOneAdvertises) {
  int fd = tcp_listener_on_loopback();
  alt_svc_by_listener none("auto", false, "baton", {fd});
  EXPECT_TRUE(none.values.empty());
  EXPECT_TRUE(none.http1_wires.empty());
  alt_svc_by_listener some("auto", true, "baton", {fd});
  ASSERT_EQ(some.values.size(), 1u);
  EXPECT_EQ(some.http1_wires.size(), 1u);
  ::close(fd);
}

}  // namespace
