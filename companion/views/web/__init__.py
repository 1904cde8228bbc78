"""The companion's web face: the table page, a private page per player, a JSON API and a
WebSocket, served by aiohttp in a thread of its own beside the daemon (docs/web.md).

The daemon implements ``WebBackend`` and starts a ``WebServer``; ``TokenStore`` makes the
players' tokens, ``invite_json`` and ``qr_image`` turn them into invites. Importing this package
is cheap: aiohttp (the server) and segno (QR codes) load on first use of what needs them, the
server without what only aiohttp's client uses (``_lean_import``).
"""

from __future__ import annotations

import os
import sys
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
        module = _LAZY[name]
        if module == ".server":
            return getattr(_lean_import(module), name)
        return getattr(import_module(module, __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _lean_import(module: str) -> Any:
    """Import ``module`` (aiohttp with it, the first time) without what only aiohttp's client
    needs. Imported, aiohttp sets up two TLS client contexts (OpenSSL started, the system's CA
    certificates read): about 4 MB of the daemon's memory for a server that has no TLS. With
    ``ssl`` hidden while it loads, asyncio and aiohttp go as on a Python built without TLS.
    frozenlist, for the lists aiohttp reads at start-up, is taken in its pure-Python form (its
    C++ build maps libstdc++: about 1 MB). In a process that has loaded ssl or aiohttp already
    (a test run, a tool) the import is the ordinary one."""
    if "aiohttp" in sys.modules or "ssl" in sys.modules:
        return import_module(module, __name__)
    sys.modules["ssl"] = None  # type: ignore[assignment]  # "import ssl" raises ImportError
    plain = os.environ.get("FROZENLIST_NO_EXTENSIONS")
    os.environ["FROZENLIST_NO_EXTENSIONS"] = "1"  # read once, when frozenlist is imported
    try:
        return import_module(module, __name__)
    finally:
        if sys.modules.get("ssl", 0) is None:
            del sys.modules["ssl"]  # anything else may import it as usual
        if plain is None:
            del os.environ["FROZENLIST_NO_EXTENSIONS"]
        else:
            os.environ["FROZENLIST_NO_EXTENSIONS"] = plain


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
