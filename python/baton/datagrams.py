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
place with two sockets, its sides (a third and more are bound, at the end of
the group, when every side of a place is held). A worker takes, for each of
its loops, a side no living worker holds. New connections (a client's first
Initial carries an ID of its own, not ours) go to the live sides only: those
the serving workers read (Master.current(): not retiring, not replaced). So
a worker that retires, or a generation a reload replaces, keeps its side
while it drains, its connections' datagrams still reaching it, while new
connections go to its successor on another side. A place no serving worker
reads keeps its pending side live, the one its successor will take, so the
Initials wait there: a worker that died leaves its side free, and its
successor takes that same one, reading what arrived in the gap.

No two living workers read one socket, so a loop that reads a packet whose
ID names its socket and finds no such connection knows the connection is
gone, and answers with a Stateless Reset whose token comes from a secret
every worker shares (reset_secret).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import secrets
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
    reset_secret: str  # 64 hex digits


class DatagramPlaces:
    def __init__(self, listeners: list[binding.Listener], config: Config):
        self.places = binding.loops_of(config)
        self.count = self.places * SIDES
        if self.count > MAX_SOCKETS:
            raise DatagramError(f"--http3 steers at most {MAX_SOCKETS // SIDES} loops "
                                f"(workers x threads); {self.places} asked")
        self.key = random.getrandbits(32)
        self.reset_secret = secrets.token_hex(32)
        self.groups: list[list[socket.socket]] = []  # one for each TCP address, its sockets in the order bound
        self.beside: list[binding.Listener] = []  # the TCP listener each group stands beside
        self.sides = [[place * SIDES + side for side in range(SIDES)] for place in range(self.places)]
        self.pending = [place * SIDES for place in range(self.places)]  # each place's side its next worker takes
        self.holders: dict[int, set[int]] = {}  # socket index -> the pids of the living workers reading it
        self.serving: set[int] = set()  # the workers new connections go to (Master.current())
        self.steered: list[int] | None = None  # the live sides the program was last attached with
        try:
            for listener in listeners:
                if listener.sock.family in (socket.AF_INET, socket.AF_INET6):
                    address = listener.sock.getsockname()
                    if all(group[0].getsockname() != address for group in self.groups):
                        self.groups.append(self._bind_group(listener))
                        self.beside.append(listener)
            self.steer()
        except OSError as error:
            self.close()
            raise DatagramError(f"cannot serve HTTP/3 on UDP: {error.strerror or error}") from None

    def _bind_group(self, beside: binding.Listener) -> list[socket.socket]:
        # A group another server's sockets are in would renumber ours and
        # take our program: a plain bind first says whether the port is free.
        with socket.socket(beside.sock.family, socket.SOCK_DGRAM) as probe:
            if beside.sock.family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY,
                                 beside.sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY))
            try:
                probe.bind(beside.sock.getsockname())
            except OSError as error:
                raise DatagramError(f"cannot serve HTTP/3 on UDP {beside.where.split('//', 1)[-1]}: "
                                    f"{error.strerror or error} (another server's UDP sockets there would share "
                                    "the datagrams this server steers between its own)") from None
        group: list[socket.socket] = []
        try:
            for _ in range(self.count):
                group.append(self._bind_one(beside))
        except OSError:
            for sock in group:
                sock.close()
            raise
        return group

    @staticmethod
    def _bind_one(beside: binding.Listener) -> socket.socket:
        sock = socket.socket(beside.sock.family, socket.SOCK_DGRAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if beside.sock.family == socket.AF_INET6:
                v6only = beside.sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
            sock.bind(beside.sock.getsockname())
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        return sock

    def _grow(self, place: int) -> int | None:
        """A new side for `place`, bound at the end of every group (no index
        moves: the kernel renumbers only when a socket leaves); None when the
        group is full or the bind fails."""
        if self.count >= MAX_SOCKETS:
            return None
        made: list[socket.socket] = []
        try:
            for listener in self.beside:
                made.append(self._bind_one(listener))
        except OSError as error:
            for sock in made:
                sock.close()
            logging.getLogger("baton").warning("HTTP/3: no new UDP socket for a worker (%s); it shares one",
                                               error.strerror or error)
            return None
        for group, sock in zip(self.groups, made):
            group.append(sock)
        self.sides[place].append(self.count)
        self.count += 1
        return self.count - 1

    def steer(self) -> None:
        """Attaches the program with today's live sides to every group, when they changed."""
        from baton import _baton

        live = self.live_sides()
        if live == self.steered:
            return
        for group in self.groups:
            _baton.steer_datagrams(group[0].fileno(), self.count, self.key, live)
        self.steered = live

    def live_sides(self) -> list[int]:
        """The sockets new connections go to: of each place, every side a
        serving worker reads, or, where none does, the one its successor
        will take (`pending`), where the Initials wait for it."""
        live = []
        for place in range(self.places):
            read = [index for index in self.sides[place] if self.holders.get(index, set()) & self.serving]
            live += read or [self.pending[place]]
        return sorted(live)

    def choose(self, loops: list[int]) -> dict[int, int]:
        """The socket index each of a new worker's loop numbers takes (see the
        module's note), made live and steered to."""
        held = {index for index, pids in self.holders.items() if pids}
        chosen = {}
        for loop in loops:
            place = loop % self.places
            free = [index for index in self.sides[place] if index not in held]
            if self.pending[place] in free:
                chosen[loop] = self.pending[place]
            elif free:
                chosen[loop] = free[0]
            else:
                # Every side held (a worker draining beside one serving, or a
                # second worker on one place: SIGTTIN past the workers at
                # start): a new side, or, failing that, the pending one shared.
                grown = self._grow(place)
                chosen[loop] = grown if grown is not None else self.pending[place]
            held.add(chosen[loop])
            self.pending[place] = chosen[loop]
        return chosen

    def hold(self, pid: int, chosen: dict[int, int]) -> None:
        """The worker `pid`, just started, reads the sides `chosen` for it: they are live."""
        for index in chosen.values():
            self.holders.setdefault(index, set()).add(pid)
        self.serving.add(pid)
        self.steer()

    def release(self, pid: int) -> None:
        for pids in self.holders.values():
            pids.discard(pid)
        self.serving.discard(pid)

    def settle(self, serving: list[int]) -> None:
        """Called as workers come and go (`serving`: those that count, not
        retiring or replaced): the live sides follow them."""
        self.serving = set(serving)
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
        return Share(listeners, indexes, self.key, self.reset_secret)

    def close(self) -> None:
        for group in self.groups:
            for sock in group:
                sock.close()
        self.groups = []


def open_places(listeners: list[binding.Listener], config: Config) -> DatagramPlaces | None:
    """The master's UDP groups with --http3, or None."""
    return DatagramPlaces(listeners, config) if config.http3 else None
