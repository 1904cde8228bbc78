"""The companion's web face: the table page, a private page per player, a JSON API and a
WebSocket, served by aiohttp in a thread of its own beside the daemon (docs/web.md).

The daemon implements ``WebBackend`` and starts a ``WebServer``; ``TokenStore`` makes the
players' tokens, ``invite_json`` and ``qr_image`` turn them into invites. Importing this package
is cheap: aiohttp (the server) and segno (QR codes) load on first use of what needs them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .address import Listen, ListenError, parse_listen
from .backend import WebBackend
from .invite import base_url, invite_json, player_url, table_url
from .tokens import TokenStore, new_token

if TYPE_CHECKING:
    from .qr import QRCode, qr_code, qr_image, qr_matrix
    from .server import WebError, WebServer

_LAZY = {
    "QRCode": ".qr",
    "qr_code": ".qr",
    "qr_image": ".qr",
    "qr_matrix": ".qr",
    "WebError": ".server",
    "WebServer": ".server",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Listen",
    "ListenError",
    "QRCode",
    "TokenStore",
    "WebBackend",
    "WebError",
    "WebServer",
    "base_url",
    "invite_json",
    "new_token",
    "parse_listen",
    "player_url",
    "qr_code",
    "qr_image",
    "qr_matrix",
    "table_url",
]
