"""QUIC's UDP sockets under a master: bound once, and every datagram steered
to the loop that owns its connection (docs/http3.md, "Every datagram to its owner").

The workers' loops each read a UDP socket of their own, all in one
SO_REUSEPORT group on the port. Left to itself the kernel picks a socket by
a hash of the client's address, which moves a connection when its address
changes or a socket joins or leaves the group. So the master binds the
group once, for the life of the server, and a steering program on it
(_baton.steer_datagrams) sends each datagram to the socket whose index its
connection ID begins with; the loop reading that socket issued the ID.

Every loop number (workers x threads, as at start: binding.loops_of) is a
place with two sockets, its sides. A worker takes, for each of its loops,
the side no living worker holds, and that side becomes the place's live one:
new connections (a client's first Initial carries an ID of its own, not
ours) go to the live sides only. So a worker that retires, or a generation a
reload replaces, keeps its side while it drains, its connections' datagrams
still reaching it, while its successor takes new ones on the other. A worker
that died leaves its side free, and its successor takes that same one,
reading what arrived in the gap. A place whose live side no serving worker
holds any more (its worker retired and none replaces it: SIGTTOU) hands the
new connections to a side one does hold (settle()).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import socket

from baton import binding
from baton.config import Config

SIDES = 2
MAX_SOCKETS = 256  # a socket's index is one byte of the connection ID


class DatagramError(binding.BindError):
    """The UDP sockets could not be made or steered; one line for the user."""


@dataclasses.dataclass
class Share:
    """A worker's part: its UDP sockets (binding.Listener, `loop` its loop
    thread) and, for each loop thread, the index its connection IDs carry."""

    listeners: list[binding.Listener]
    indexes: dict[int, int]  # loop thread -> socket index
    key: int


class DatagramPlaces:
    def __init__(self, listeners: list[binding.Listener], config: Config):
        self.places = binding.loops_of(config)
        self.count = self.places * SIDES
        if self.count > MAX_SOCKETS:
            raise DatagramError(f"--http3 steers at most {MAX_SOCKETS // SIDES} loops "
                                f"(workers x threads); {self.places} asked")
        self.key = random.getrandbits(32)
        self.groups: list[list[socket.socket]] = []  # one for each TCP address; index = place * SIDES + side
        self.live = [place * SIDES for place in range(self.places)]
        self.holders: dict[int, set[int]] = {}  # socket index -> the pids of the living workers reading it
        self.started: dict[int, int] = {}  # pid -> its order of start (the newest holder of a place wins)
        self.starts = itertools.count(1)
        try:
            for listener in listeners:
                if listener.sock.family in (socket.AF_INET, socket.AF_INET6):
                    address = listener.sock.getsockname()
                    if all(group[0].getsockname() != address for group in self.groups):
                        self.groups.append(self._bind_group(listener))
            self.steer()
        except OSError as error:
            self.close()
            raise DatagramError(f"cannot serve HTTP/3 on UDP: {error.strerror or error}") from None

    def _bind_group(self, beside: binding.Listener) -> list[socket.socket]:
        family = beside.sock.family
        group: list[socket.socket] = []
        try:
            for _ in range(self.count):
                sock = socket.socket(family, socket.SOCK_DGRAM)
                group.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                if family == socket.AF_INET6:
                    v6only = beside.sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
                sock.bind(beside.sock.getsockname())
                sock.setblocking(False)
        except OSError:
            for sock in group:
                sock.close()
            raise
        return group

    def steer(self) -> None:
        """Attaches the program with today's live sides to every group."""
        from baton import _baton

        for group in self.groups:
            _baton.steer_datagrams(group[0].fileno(), self.count, self.key, self.live)

    def choose(self, loops: list[int]) -> dict[int, int]:
        """The socket index each of a new worker's loop numbers takes (see the
        module's note), made the live ones and steered to."""
        held = {index for index, pids in self.holders.items() if pids}
        chosen = {}
        for loop in loops:
            place = loop % self.places
            live = self.live[place]
            other = place * SIDES + (live + 1) % SIDES
            # Both sides held: a second worker on one place (SIGTTIN past the
            # parts) shares the live side with the first.
            chosen[loop] = live if live not in held or other in held else other
            self.live[place] = chosen[loop]
        if self.groups:
            self.steer()
        return chosen

    def hold(self, pid: int, chosen: dict[int, int]) -> None:
        self.started[pid] = next(self.starts)
        for index in chosen.values():
            self.holders.setdefault(index, set()).add(pid)

    def release(self, pid: int) -> None:
        self.started.pop(pid, None)
        for pids in self.holders.values():
            pids.discard(pid)

    def settle(self, serving: list[int]) -> None:
        """Called as workers come and go (`serving`: those that count, not
        retiring): a place whose live side none of them reads takes the side
        its newest one reads, if it has one (else a successor is coming, and
        the live side waits for it)."""
        serving_set = set(serving)
        changed = False
        for place in range(self.places):
            sides = {place * SIDES + side for side in range(SIDES)}
            newest = {index: max((self.started[pid] for pid in self.holders.get(index, ()) if pid in serving_set),
                                 default=0) for index in sides}
            if newest[self.live[place]] == 0 and max(newest.values()) > 0:
                self.live[place] = max(newest, key=newest.__getitem__)
                changed = True
        if changed and self.groups:
            self.steer()

    def share(self, chosen: dict[int, int], loops: list[int], threads: int) -> Share:
        """In a new worker: its sockets, the i-th of `loops` going to loop
        thread i % threads as binding.share gives the TCP ones; the rest are
        closed in this process (the master keeps them)."""
        mine = set(chosen.values())
        listeners: list[binding.Listener] = []
        indexes: dict[int, int] = {}
        for loop in loops:
            indexes.setdefault(loops.index(loop) % threads, chosen[loop])
        for group in self.groups:
            for index, sock in enumerate(group):
                if index not in mine:
                    sock.close()
                    continue
                thread = next(loops.index(loop) % threads for loop in loops if chosen[loop] == index)
                where, name, port = binding.describe(sock)
                listeners.append(binding.Listener(sock, where, name, port, loop=thread))
        self.groups = []
        return Share(listeners, indexes, self.key)

    def close(self) -> None:
        for group in self.groups:
            for sock in group:
                sock.close()
        self.groups = []


def open_places(listeners: list[binding.Listener], config: Config) -> DatagramPlaces | None:
    """The master's UDP groups with --http3, or None."""
    return DatagramPlaces(listeners, config) if config.http3 else None
