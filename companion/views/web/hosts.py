"""Which ``Host`` names the server answers to, against DNS rebinding: a web page on another
site whose name is made to resolve to the board's address must not read the table or its API.

Answered: ``localhost`` (and ``*.localhost``), any loopback address, the configured listen
address, this machine's host name (also with ``.local``, as mDNS announces it), the address
the request itself arrived at, and the names given in ``[web] hosts`` (``"*"`` turns the check
off). A request without a ``Host`` header cannot come from a browser and is answered.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit


def host_name(header: str) -> str | None:
    """The name or address in a ``Host`` header, lower case, without port or brackets; None
    when it is not a well-formed host."""
    try:
        name = urlsplit("//" + header.strip()).hostname
    except ValueError:
        return None
    return name.rstrip(".").lower() if name else None


def _is_loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostCheck:
    def __init__(self, listen_host: str = "", extra: Iterable[str] = (), own: Iterable[str] = ()):
        self.any = "*" in extra
        names = {n.strip().rstrip(".").lower() for n in (*extra, *own) if n and n.strip()}
        names.discard("*")
        host = listen_host.strip("[]").lower()
        if host and host not in ("0.0.0.0", "::"):
            names.add(host)
        self.names = frozenset(names)

    @classmethod
    def for_machine(cls, listen_host: str = "", extra: Iterable[str] = ()) -> HostCheck:
        """With this machine's own names."""
        own = []
        try:
            name = socket.gethostname()
        except OSError:
            name = ""
        if name:
            own += [name, name.split(".")[0] + ".local"]
        return cls(listen_host, extra, own)

    def allows(self, header: str | None, local_address: str | None = None) -> bool:
        if self.any or header is None:
            return True
        name = host_name(header)
        if name is None:
            return False
        if name == "localhost" or name.endswith(".localhost") or _is_loopback(name):
            return True
        if name in self.names:
            return True
        if local_address:  # the address this request reached: this machine's own
            local = local_address.split("%")[0].lower()
            if local.startswith("::ffff:"):
                local = local[7:]
            return name == local
        return False
