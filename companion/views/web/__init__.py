"""The companion's web face: the table page, a private page per player, a JSON API and a
WebSocket, served by aiohttp in a thread of its own beside the daemon (docs/web.md).

The daemon implements ``WebBackend`` and starts a ``WebServer``; ``TokenStore`` makes the
players' tokens, ``invite_json`` and ``qr_image`` turn them into invites.
"""

from .address import Listen, ListenError, parse_listen
from .backend import WebBackend
from .invite import base_url, invite_json, player_url, table_url
from .qr import QRCode, qr_code, qr_image, qr_matrix
from .server import WebError, WebServer
from .tokens import TokenStore, new_token

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
