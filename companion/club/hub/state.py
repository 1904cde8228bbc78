"""What the hub knows of each board, from what the boards published (docs/club.md): pure,
no I/O, used from the hub's event loop only.

Every payload comes from the network and is hostile until checked: ``decode`` turns bytes into
a JSON object or says in one line why not, and the ``apply_*`` methods take only what has the
protocol's shape. A board's ``view`` is kept as it came (it is the board's public table view,
exactly what its own table page shows); the summary fields are read from it defensively.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from companion.club import topics
from companion.core.wire_json import WireRefused, load_object
from companion.records.said import said

MAX_TABLE = 256 * 1024  # bytes of a table message (a 16x16 board's view is ~40 KB)
MAX_SMALL = 16 * 1024  # status and move messages
MAX_RESULT = 1024 * 1024  # a finished game's record
MAX_TEXT = 80  # characters of a name or a word shown in a summary
MAX_BOARDS = 1000  # boards the hub follows at once (idle ones are forgotten: HubState.forget)


class Refused(ValueError):
    """A message the hub does not take, as one line (logged; the hub carries on)."""


def decode(payload: bytes, limit: int) -> dict[str, Any]:
    """The JSON object in ``payload``; Refused when it is too big (checked before anything is
    decoded), too deep, not UTF-8 JSON or not an object."""
    try:
        return load_object(payload, limit)
    except WireRefused as e:
        raise Refused(str(e)) from None


def text(value: Any, limit: int = MAX_TEXT) -> str:
    """A short one-line text from the network (anything else becomes "")."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    line = " ".join(str(value).split())
    return line[:limit]


def whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_board(name: str, payload: dict[str, Any]) -> None:
    """The payload's ``board`` must be the board of its topic."""
    if payload.get("board") != name:
        raise Refused(f"says board {text(payload.get('board'), 40)!r}, not {name!r}")


@dataclass
class Board:
    name: str
    online: bool = False
    game: str = ""
    version: str = ""
    seq: int = -1  # the newest table message taken; older ones are dropped
    game_uid: str = ""
    view: dict[str, Any] | None = None  # the board's public table view, as published
    ply: int = 0
    last_move: str = ""
    last_seen: float = 0.0  # when the hub last heard from it (the hub's clock)
    sent: float | None = None  # when the board sent the table shown (the board's clock)
    changed: float = field(default_factory=time.time)
    heard: float = 0.0  # when the hub last heard from it (monotonic: for forgetting it)

    def players(self) -> list[dict[str, Any]]:
        """Seat, label, name, score and whether they are to move, from the view."""
        out = []
        players = (self.view or {}).get("players")
        for p in players if isinstance(players, list) else []:
            if isinstance(p, dict):
                out.append(
                    {
                        "seat": text(p.get("id")),
                        "label": text(p.get("label")),
                        "name": text(p.get("name")),
                        "score": text(p.get("score")),
                        "to_move": p.get("to_move") is True,
                    }
                )
        return out

    def turn(self) -> list[str]:
        """The seats to move (none when the game is over)."""
        view = self.view or {}
        if view.get("over") is True:
            return []
        to_act = view.get("to_act")
        return [text(s) for s in to_act if text(s)] if isinstance(to_act, list) else []

    def status(self) -> str:
        """``waiting`` (no table yet), ``playing`` or ``over``."""
        if not self.view:
            return "waiting"
        return "over" if self.view.get("over") is True else "playing"

    def result(self) -> str:
        """A finished game's result by name, the board's own words after it (``Ben beat Dan
        (OFF wins 34-30)``); its words alone when the view names no players."""
        view = self.view or {}
        result = view.get("result")
        if not isinstance(result, dict):
            return ""
        summary = text(result.get("summary"), 200)
        players, winners = self.players(), result.get("winners")
        if not players or not isinstance(winners, list):
            return summary
        names = [p["name"] or p["label"] or p["seat"] for p in players]
        words = said(
            names, [n for n, p in zip(names, players, strict=True) if p["seat"] in winners]
        )
        return f"{words} ({summary})" if summary else words

    def summary(self) -> dict[str, Any]:
        """The board as ``GET /api/boards`` and the hub page's small boards show it."""
        view = self.view or {}
        return {
            "name": self.name,
            "online": self.online,
            "game": text(view.get("game")) or self.game,
            "title": text(view.get("title")),
            "game_uid": self.game_uid,
            "ply": self.ply,
            "turn": self.turn(),
            "players": self.players(),
            "status": self.status(),
            "result": self.result(),
            "last_move": self.last_move,
            "last_seen": self.last_seen,
            "seq": self.seq,
        }


class HubState:
    """The boards by name. Each ``apply_*`` returns whether anything shown changed."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.boards: dict[str, Board] = {}
        self.clock = clock

    def board(self, name: str) -> Board:
        if not topics.valid_board_name(name):
            raise Refused(f"board name {text(name, 40)!r} is not one topic level")
        found = self.boards.get(name)
        if found is None:
            if len(self.boards) >= MAX_BOARDS:
                raise Refused(f"{MAX_BOARDS} boards followed already: a new one waits")
            found = self.boards[name] = Board(name)
        found.heard = self.clock()
        return found

    def forget(self, idle: float, keep: Collection[str] = ()) -> list[str]:
        """Forget the boards not online and not heard from for ``idle`` seconds, except those
        in ``keep`` (an event's); the names forgotten."""
        now = self.clock()
        gone = [
            n
            for n, b in self.boards.items()
            if not b.online and now - b.heard >= idle and n not in keep
        ]
        for name in gone:
            del self.boards[name]
        return sorted(gone)

    def summaries(self) -> list[dict[str, Any]]:
        return [self.boards[n].summary() for n in sorted(self.boards)]

    def apply_status(self, name: str, payload: dict[str, Any]) -> bool:
        check_board(name, payload)
        online = payload.get("online")
        if not isinstance(online, bool):
            raise Refused("status without online: true or false")
        board = self.board(name)
        board.online = online
        if online:
            board.game = text(payload.get("game")) or board.game
            board.version = text(payload.get("version"))
            board.seq = -1  # a board that starts again counts its tables from the start
        board.last_seen = time.time()
        board.changed = time.time()
        return True

    def apply_table(self, name: str, payload: dict[str, Any]) -> bool:
        check_board(name, payload)
        seq = whole(payload.get("seq"))
        view = payload.get("view")
        if seq is None or not isinstance(view, dict):
            raise Refused("table without a whole seq and a view object")
        board = self.board(name)
        if seq <= board.seq:
            return False  # an older table than the one shown
        board.seq = seq
        board.view = view
        board.game_uid = text(payload.get("game_uid"), 200)
        board.ply = whole(view.get("ply")) or 0
        board.game = text(view.get("game")) or board.game
        moves = view.get("moves")
        last = moves[-1] if isinstance(moves, list) and moves else None
        board.last_move = text(last.get("name")) if isinstance(last, dict) else ""
        sent = payload.get("sent")
        board.sent = (
            float(sent) if isinstance(sent, int | float) and not isinstance(sent, bool) else None
        )
        board.last_seen = time.time()
        board.changed = time.time()
        return True

    def apply_move(self, name: str, payload: dict[str, Any]) -> bool:
        """A move ahead of its table (the table follows it): the ply and the move shown at
        once. A move the table already holds changes nothing."""
        check_board(name, payload)
        board = self.board(name)
        board.last_seen = time.time()
        undo = whole(payload.get("undo_to"))
        if undo is not None:
            return False  # the table that follows shows the position taken back
        ply = whole(payload.get("ply"))
        if ply is None:
            raise Refused("move without a whole ply")
        if ply <= board.ply:
            return False
        board.ply = ply
        board.last_move = text(payload.get("move"))
        board.changed = time.time()
        return True
