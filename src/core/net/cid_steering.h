// Steering QUIC datagrams to the socket that owns their connection.
//
// Every loop of every worker reads its own UDP socket, and all of them are
// one SO_REUSEPORT group on the port. The kernel's own choice, a hash of
// the client's address, moves a connection whenever that address changes
// (a NAT rebinds) or the group does (a worker joins or leaves). So each
// server connection ID begins with a prefix: the index, in the group, of
// the socket whose loop issued it, then a key of the group's (32 bits, so
// a client's random ID passes for ours about once in four billion). A
// classic BPF program on the group (SO_ATTACH_REUSEPORT_CBPF: no privilege
// needed) reads a packet's destination ID and returns that index; a packet
// whose ID carries no prefix of ours (a client's first Initial, or one of
// an unknown connection) goes to one of the `live` sockets, picked by its
// ID's bytes, so every Initial of one connection attempt lands on the same
// one. The group's sockets are made once and held by the master, so an
// index keeps naming the same socket however workers come and go.
//
// Any thread: these are pure functions and one setsockopt.
#pragma once

#include <linux/filter.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace baton::net {

// The length of every connection ID the server issues.
constexpr size_t server_cid_length = 18;
// The prefix's bytes: the socket's index, then the key (big-endian).
constexpr size_t cid_prefix_bytes = 5;

struct cid_prefix {
  int index = -1;  // -1: no steering (a process serving alone), the ID all random
  uint32_t key = 0;

  bool on() const { return index >= 0; }
  // Writes the prefix over the first cid_prefix_bytes of `cid` (when on).
  void write(uint8_t* cid) const;
};

struct steering_plan {
  size_t sockets = 0;          // in the group, at most 256 (an index is one byte)
  uint32_t key = 0;
  std::vector<uint8_t> live;   // the sockets that take new connections; not empty
};

// The classic BPF program for `plan` (empty when the plan cannot be one).
std::vector<sock_filter> steering_program(const steering_plan& plan);

// Attaches the program to the group `fd` (a bound member) belongs to,
// replacing the one before; false with `error` saying why.
bool attach_steering(int fd, const steering_plan& plan, std::string& error);

}  // namespace baton::net
