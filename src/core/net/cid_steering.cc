#include "core/net/cid_steering.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace baton::net {
namespace {

sock_filter statement(uint16_t code, uint32_t k) { return sock_filter{code, 0, 0, k}; }
sock_filter jump(uint16_t code, uint32_t k, uint8_t if_true, uint8_t if_false) {
  return sock_filter{code, if_true, if_false, k};
}

// Where a packet's destination ID begins: after the first byte in a short
// header; after the first byte, the version and the ID's length in a long
// one (RFC 9000 section 17.2).
constexpr uint32_t short_dcid = 1;
constexpr uint32_t long_dcid_length = 5;
constexpr uint32_t long_dcid = 6;
constexpr uint32_t long_header_bit = 0x80;

}  // namespace

void cid_prefix::write(uint8_t* cid) const {
  if (!on()) return;
  cid[0] = static_cast<uint8_t>(index);
  cid[1] = static_cast<uint8_t>(key >> 24);
  cid[2] = static_cast<uint8_t>(key >> 16);
  cid[3] = static_cast<uint8_t>(key >> 8);
  cid[4] = static_cast<uint8_t>(key);
}

// The program, by the instruction numbers below (each jump's offsets count
// from the instruction after it):
//    0   A = the first byte
//    1   a long header? to 7
//    2   A = the ID's first byte (short header)
//    3   not an index in the group? to 16
//    4   X = A
//    5   A = the next four bytes
//    6   our key? to 14, else to 16
//    7   A = the ID's length (long header)
//    8   not ours? to 18
//    9   A = the ID's first byte
//   10   not an index in the group? to 18
//   11   X = A
//   12   A = the next four bytes
//   13   our key? to 14, else to 18
//   14   return X: the socket the ID names
//   16   A = four bytes of the short header's ID, on to 19
//   18   A = four bytes of the long header's ID
//   19   A = A mod the live sockets, then the live socket of that number.
// A load past the packet's end ends the program with 0 (the group's first
// socket): only a packet too short to be QUIC does that.
std::vector<sock_filter> steering_program(const steering_plan& plan) {
  const size_t live = plan.live.size();
  if (plan.sockets == 0 || plan.sockets > 256 || live == 0) return {};
  for (uint8_t index : plan.live) {
    if (index >= plan.sockets) return {};
  }
  const auto sockets = static_cast<uint32_t>(plan.sockets);
  std::vector<sock_filter> p = {
      statement(BPF_LD | BPF_B | BPF_ABS, 0),
      jump(BPF_JMP | BPF_JSET | BPF_K, long_header_bit, 5, 0),
      statement(BPF_LD | BPF_B | BPF_ABS, short_dcid),
      jump(BPF_JMP | BPF_JGE | BPF_K, sockets, 12, 0),
      statement(BPF_MISC | BPF_TAX, 0),
      statement(BPF_LD | BPF_W | BPF_ABS, short_dcid + 1),
      jump(BPF_JMP | BPF_JEQ | BPF_K, plan.key, 7, 9),
      statement(BPF_LD | BPF_B | BPF_ABS, long_dcid_length),
      jump(BPF_JMP | BPF_JEQ | BPF_K, server_cid_length, 0, 9),
      statement(BPF_LD | BPF_B | BPF_ABS, long_dcid),
      jump(BPF_JMP | BPF_JGE | BPF_K, sockets, 7, 0),
      statement(BPF_MISC | BPF_TAX, 0),
      statement(BPF_LD | BPF_W | BPF_ABS, long_dcid + 1),
      jump(BPF_JMP | BPF_JEQ | BPF_K, plan.key, 0, 4),
      statement(BPF_MISC | BPF_TXA, 0),
      statement(BPF_RET | BPF_A, 0),
      statement(BPF_LD | BPF_W | BPF_ABS, short_dcid + 1),
      statement(BPF_JMP | BPF_JA, 1),
      statement(BPF_LD | BPF_W | BPF_ABS, long_dcid + 1),
      statement(BPF_ALU | BPF_MOD | BPF_K, static_cast<uint32_t>(live)),
  };
  for (size_t i = 0; i + 1 < live; ++i) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(i), 0, 1));
    p.push_back(statement(BPF_RET | BPF_K, plan.live[i]));
  }
  p.push_back(statement(BPF_RET | BPF_K, plan.live[live - 1]));
  return p;
}

bool attach_steering(int fd, const steering_plan& plan, std::string& error) {
  std::vector<sock_filter> program = steering_program(plan);
  if (program.empty()) {
    error = "no steering program for this group (at most 256 sockets, and some live)";
    return false;
  }
  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &fprog, sizeof(fprog)) != 0) {
    error = std::string("SO_ATTACH_REUSEPORT_CBPF: ") + strerrordesc_np(errno);
    return false;
  }
  return true;
}

}  // namespace baton::net
