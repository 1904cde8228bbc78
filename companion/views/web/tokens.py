"""Bearer tokens for the player pages: random, one per player and per game.

A token is what a player's QR code and invite URL carry; whoever holds it may move for that
player in that game, and only in that game. ``TokenStore`` hands out the tokens of the game in
progress and can keep them in a file (mode 0600) so a restarted daemon resuming the same game
keeps its players' pages working.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import threading
from collections.abc import Iterable
from pathlib import Path

TOKEN_BYTES = 12  # 96 random bits, 16 URL-safe characters: short enough for a small QR code


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class TokenStore:
    """The tokens of one game at a time. Thread-safe.

    ``for_game(game_id, players)`` gives the tokens of that game (the same ones on every call
    for the same game and players, new ones for another game, which invalidates the old ones).
    """

    def __init__(self, path: str | Path | None = None):
        self._path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._game_id: int | None = None
        self._tokens: dict[str, str] = {}
        if self._path is not None:
            self._load()

    def for_game(self, game_id: int | None, players: Iterable[str]) -> dict[str, str]:
        players = list(players)
        with self._lock:
            if self._game_id != game_id or list(self._tokens) != players:
                self._game_id = game_id
                self._tokens = {p: new_token() for p in players}
                self._save()
            return dict(self._tokens)

    @property
    def game_id(self) -> int | None:
        return self._game_id

    def tokens(self) -> dict[str, str]:
        with self._lock:
            return dict(self._tokens)

    def player_of(self, token: str) -> str | None:
        """The player holding ``token`` in the current game, or None (compared in constant
        time, so response times say nothing about how close a guess was)."""
        if not isinstance(token, str) or not token:
            return None
        found = None
        with self._lock:
            for player, known in self._tokens.items():
                if hmac.compare_digest(known.encode(), token.encode("utf-8", "surrogateescape")):
                    found = player
        return found

    def revoke(self) -> None:
        """Forget every token (e.g. when no game is in progress)."""
        with self._lock:
            self._game_id, self._tokens = None, {}
            self._save()

    # --- persistence ---
    def _load(self) -> None:
        assert self._path is not None
        try:
            data = json.loads(self._path.read_text())
            game_id, tokens = data["game_id"], data["tokens"]
            if (game_id is None or isinstance(game_id, int)) and all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in tokens.items()
            ):
                self._game_id, self._tokens = game_id, dict(tokens)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no file or a damaged one: new tokens on the next game

    def _save(self) -> None:
        if self._path is None:
            return
        data = json.dumps({"game_id": self._game_id, "tokens": self._tokens})
        tmp = self._path.with_name(self._path.name + ".tmp")
        with contextlib.suppress(OSError):
            self._path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self._path)
