"""The broker's address (``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT``) and how a paho client
is set up for it: credentials and a CA file come from the config file's ``[club]`` table only,
so a URL with ``user:pass@`` (on a command line, in a shell's history, in ``ps``) is refused."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class BrokerError(ValueError):
    """A broker address or setting that cannot be used, as one line for the user."""


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
    """``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``; BrokerError otherwise."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise BrokerError(f"broker {text[:80]!r}: not mqtt://HOST:PORT") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise BrokerError(f"broker {text[:80]!r}: use mqtt://HOST:PORT or mqtts://HOST:PORT")
    if "@" in parts.netloc:
        raise BrokerError(
            "broker: no user or password in the address; put user and password in the "
            "config file's [club] table"
        )
    if not parts.hostname:
        raise BrokerError(f"broker {text[:80]!r}: no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BrokerError(f"broker {text[:80]!r}: only mqtt://HOST:PORT, nothing after it")
    return BrokerAddress(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def configure(client: Any, address: BrokerAddress, club: Any = None) -> None:
    """Credentials and TLS on a paho ``Client`` from the ``[club]`` config (``ClubConfig``)."""
    user = getattr(club, "user", "") or ""
    password = getattr(club, "password", "") or ""
    ca_file = getattr(club, "ca_file", "") or ""
    if user or password:
        client.username_pw_set(user or None, password or None)
    if address.tls:
        try:
            context = ssl.create_default_context(cafile=ca_file or None)
        except (OSError, ssl.SSLError) as e:
            raise BrokerError(f"[club] ca_file {ca_file!r}: {e.strerror or e}") from None
        client.tls_set_context(context)
    elif ca_file:
        raise BrokerError("[club] ca_file is for mqtts:// brokers only")
