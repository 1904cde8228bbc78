"""Invite URLs: the table page's and each player's, as ``binaryon invite --json`` prints them."""

from __future__ import annotations

import ipaddress
import socket
import subprocess
from collections.abc import Callable

from .address import Listen


def table_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/"


def player_url(base_url: str, token: str) -> str:
    return base_url.rstrip("/") + "/p/" + token


def invite_json(base_url: str, tokens: dict[str, str]) -> dict:
    """``{"table": URL, "players": {"on": URL, ...}}`` for ``tokens`` (player -> token)."""
    return {
        "table": table_url(base_url),
        "players": {player: player_url(base_url, tok) for player, tok in tokens.items()},
    }


def _host_part(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _global_ipv4(run: Callable[[list[str]], str]) -> str | None:
    """The first global IPv4 address of this machine, from ``ip -4 -o addr``."""
    try:
        out = run(["ip", "-4", "-o", "addr", "show", "scope", "global"])
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        words = line.split()
        if "inet" in words:
            addr = words[words.index("inet") + 1].split("/")[0]
            try:
                if not ipaddress.ip_address(addr).is_loopback:
                    return addr
            except ValueError:
                continue
    return None


def _run(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=2, check=True).stdout


def base_url(listen: Listen, run: Callable[[list[str]], str] = _run) -> str:
    """The URL other devices on the network reach the server at. A wildcard listen address
    (0.0.0.0, ::) becomes this machine's network address, else its host name."""
    host = listen.host
    if host in ("", "0.0.0.0", "::"):
        host = _global_ipv4(run) or socket.gethostname() or "localhost"
    return f"http://{_host_part(host)}:{listen.port}"
