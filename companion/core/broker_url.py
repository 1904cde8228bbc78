"""A club broker's address, ``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT`` (TLS), read alone:
no credentials in it (the user and password come from the config file's ``[club]`` table,
never from a command line that ``ps`` shows to everyone)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True)
class BrokerAddress:
    scheme: str  # mqtt | mqtts
    host: str
    port: int

    @property
    def tls(self) -> bool:
        return self.scheme == "mqtts"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def parse_broker_url(url: str) -> BrokerAddress:
    """The address in ``url``; ValueError with one line saying what is wrong."""
    text = url.strip()
    if not text:
        raise ValueError("give the broker as mqtt://HOST:PORT")
    if "://" not in text:
        raise ValueError(f"{url!r}: give it as mqtt://HOST:PORT or mqtts://HOST:PORT")
    scheme = text.split("://", 1)[0].lower()
    if "@" in text.split("://", 1)[1].split("/", 1)[0]:  # never echoed: it may hold a password
        raise ValueError(
            f"{scheme}://...@...: no user or password in the broker's address; put them in "
            "the config file's [club] table (user, password)"
        )
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        raise ValueError(f"{url!r}: {e}") from None
    if scheme not in DEFAULT_PORTS:
        raise ValueError(f"{url!r}: the scheme must be mqtt:// or mqtts://, not {scheme}://")
    if not parts.hostname:
        raise ValueError(f"{url!r}: no host (mqtt://HOST:PORT)")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{url!r}: only mqtt://HOST:PORT, nothing after the port")
    if port == 0:
        raise ValueError(f"{url!r}: port 0 is not a port")
    return BrokerAddress(scheme, parts.hostname, port or DEFAULT_PORTS[scheme])
