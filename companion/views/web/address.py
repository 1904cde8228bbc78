"""``HOST:PORT`` for ``--web`` and ``[web] listen``, checked with a one-line reason."""

from __future__ import annotations

from dataclasses import dataclass


class ListenError(ValueError):
    """A bad listen address; the message is one line for the user."""


@dataclass(frozen=True)
class Listen:
    host: str
    port: int  # 0: any free port (tests)

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_listen(text: str) -> Listen:
    """``"0.0.0.0:8080"``, ``"localhost:8080"``, ``"[::]:8080"``, ``":8080"`` (all
    addresses) or ``"8080"``. Raises ListenError."""
    if not isinstance(text, str) or not text.strip():
        raise ListenError("web listen address is empty: expected HOST:PORT, e.g. 0.0.0.0:8080")
    s = text.strip()
    if s.startswith("["):
        end = s.find("]")
        if end < 0 or not s[end + 1 :].startswith(":"):
            raise ListenError(f"web listen address {text!r}: expected [IPv6]:PORT")
        host, port_text = s[1:end], s[end + 2 :]
    elif ":" in s:
        host, _, port_text = s.rpartition(":")
        if ":" in host:
            raise ListenError(f"web listen address {text!r}: put an IPv6 host in brackets")
    else:
        host, port_text = "", s
    if not port_text.isdigit():
        raise ListenError(f"web listen address {text!r}: the port must be a number")
    port = int(port_text)
    if port > 65535:
        raise ListenError(f"web listen address {text!r}: port {port} is above 65535")
    if any(c.isspace() or c in "/?#@" for c in host):
        raise ListenError(f"web listen address {text!r}: {host!r} is not a host name")
    return Listen(host or "0.0.0.0", port)
