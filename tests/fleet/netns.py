"""Machines made of network namespaces, joined by a bridge that lives in a
namespace of its own: the addresses are the test's, no namespace has a
route anywhere else, and nothing of the machine's own network is touched.

Every name carries this process's pid, so two runs never meet, and a run
that died without cleaning up is swept away by the next (its pid is gone).
"""

from __future__ import annotations

import os
import re
import subprocess

SUBNET = "10.77.0"  # a /24 that exists only on the bridge below
NAME = re.compile(r"^bt(\d+)-")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def available() -> str | None:
    """None when namespaces can be made here, else why not."""
    probe = f"bt{os.getpid()}-probe"
    result = ip("netns", "add", probe, check=False)
    if result.returncode != 0:
        return f"cannot make a network namespace: {result.stderr.strip()}"
    ip("netns", "del", probe, check=False)
    return None


def sweep() -> None:
    """Removes the namespaces of runs whose process is gone."""
    listing = ip("netns", "list", check=False).stdout.split("\n")
    for line in listing:
        name = line.split(" ")[0]
        m = NAME.match(name)
        if m and not os.path.exists(f"/proc/{m.group(1)}"):
            kill_inside(name)
            ip("netns", "del", name, check=False)


def kill_inside(namespace: str) -> None:
    """SIGKILL to every process still in the namespace: deleting it would leave them running."""
    pids = ip("netns", "pids", namespace, check=False).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), 9)
        except (ProcessLookupError, ValueError):
            pass


class Node:
    """One machine: a namespace with loopback and one address on the bridge."""

    def __init__(self, network: "Network", role: str, octet: int):
        self.namespace = f"{network.tag}-{role}"
        self.address = f"{SUBNET}.{octet}"
        self.role = role

    def command(self, *args: str) -> list[str]:
        """`args` run inside this node (ip execs in place: the pid is the program's)."""
        return ["ip", "netns", "exec", self.namespace, *args]

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(*args), capture_output=True, text=True, timeout=timeout)


class Network:
    def __init__(self):
        self.tag = f"bt{os.getpid()}"
        self.hub = f"{self.tag}-hub"
        self.nodes: list[Node] = []
        sweep()
        ip("netns", "add", self.hub)
        ip("-n", self.hub, "link", "add", "br0", "type", "bridge")
        ip("-n", self.hub, "link", "set", "br0", "up")

    def add(self, role: str, octet: int) -> Node:
        node = Node(self, role, octet)
        ip("netns", "add", node.namespace)
        ip("-n", node.namespace, "link", "set", "lo", "up")
        # The pair is made with each end already in its namespace, so no
        # interface ever appears in the machine's own.
        ip("link", "add", "eth0", "netns", node.namespace, "type", "veth",
           "peer", "name", f"p{octet}", "netns", self.hub)
        ip("-n", node.namespace, "addr", "add", f"{node.address}/24", "dev", "eth0")
        ip("-n", node.namespace, "link", "set", "eth0", "up")
        ip("-n", self.hub, "link", "set", f"p{octet}", "master", "br0", "up")
        self.nodes.append(node)
        return node

    def close(self) -> None:
        for namespace in [n.namespace for n in self.nodes] + [self.hub]:
            kill_inside(namespace)
            ip("netns", "del", namespace, check=False)
        self.nodes = []
