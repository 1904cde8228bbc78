"""What the journal stores and hands back: the schema, game statuses, times as text, the
entries read from it (GameEntry, MoveEntry), the fold of events into a game's live moves, and
the JSON columns.

History is append-only: moves, takebacks, finishes and abandons are rows in ``events``
(triggers refuse UPDATE and DELETE); a game's live move list is the fold of its events. The
``games`` row carries the header and the status, the only thing ever updated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.journal.api import SavedGame

IN_PROGRESS, FINISHED, ABANDONED = "in_progress", "finished", "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,            -- JSON object, the resolved rule options
    players  TEXT NOT NULL,            -- JSON object, player id -> person's name
    started  TEXT NOT NULL,            -- ISO 8601 UTC, milliseconds
    ended    TEXT,
    status   TEXT NOT NULL DEFAULT 'in_progress'
             CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    result   TEXT,                     -- the winner's player id, or 'draw'
    summary  TEXT,                     -- e.g. 'ON wins'
    detail   TEXT,                     -- JSON explanation of the result; its key
                                      -- 'record_tags' holds a record's extra tags
    note     TEXT                      -- e.g. what a recovery could not save
);
CREATE TABLE IF NOT EXISTS events (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    kind     TEXT NOT NULL CHECK (kind IN ('move', 'takeback', 'finish', 'abandon')),
    ply      INTEGER NOT NULL,         -- move: its 0-based number; takeback: moves kept
    move     TEXT,                     -- move: its name
    at       TEXT                      -- ISO 8601 UTC, milliseconds (NULL: time unknown)
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
"""

# --------------------------------------------------------------------------- times


def iso(ms: int | None) -> str | None:
    """Milliseconds since the epoch -> '2025-03-01T14:02:11.120Z' (exact both ways)."""
    if ms is None:
        return None
    dt = datetime.fromtimestamp(ms // 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def from_iso(text: str | None) -> int | None:
    if not text:
        return None
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return round(dt.timestamp() * 1000)


# --------------------------------------------------------------------------- what it returns


@dataclass(frozen=True)
class MoveEntry:
    ply: int
    name: str
    at: int | None  # milliseconds since the epoch


@dataclass
class GameEntry:
    """One game as the journal holds it: header, status, result and the live move list."""

    id: int
    game: str
    options: dict[str, Any]
    players: dict[str, str]
    started: int | None
    ended: int | None
    status: str
    result: str | None = None
    summary: str | None = None
    detail: dict[str, Any] | None = None
    note: str | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)  # a record's other tags ([Event ...])
    takebacks: int = 0

    @property
    def move_names(self) -> list[str]:
        return [m.name for m in self.moves]

    def saved(self) -> SavedGame:
        return SavedGame(
            self.id, self.game, dict(self.options), self.move_names, dict(self.players)
        )


def fold(events: Sequence[tuple[str, int, str | None, str | None]]) -> tuple[list[MoveEntry], int]:
    """(kind, ply, move, at) rows in order -> (live moves, takebacks). A move at ply p replaces
    whatever was at p and after; a takeback to p keeps the first p moves."""
    moves: list[MoveEntry] = []
    takebacks = 0
    for kind, ply, move, at in events:
        if kind == "move":
            if ply > len(moves):
                raise ValueError(f"move {ply + 1} follows move {len(moves)}")
            del moves[ply:]
            moves.append(MoveEntry(ply, move or "", time_or_none(at)))  # garbled: None
        elif kind == "takeback":
            del moves[ply:]
            takebacks += 1
    return moves, takebacks


GAME_COLUMNS = "id, game, options, players, started, ended, status, result, summary, detail, note"


TAGS_KEY = "record_tags"


def detail_json(outcome_detail: dict[str, Any] | None, tags: dict[str, str]) -> str | None:
    """The detail column: the result's explanation, with a record's extra tags kept in it."""
    if not tags:
        return None if outcome_detail is None else to_json(outcome_detail)
    return to_json({**(outcome_detail or {}), TAGS_KEY: tags})


def entry_from_row(row: Sequence[Any]) -> GameEntry:
    gid, game, options, players, started, ended, status, result, summary, detail, note = row
    detail = from_json(detail, None)
    tags = detail.pop(TAGS_KEY, None) if isinstance(detail, dict) else None
    if isinstance(detail, dict) and not detail and result is None:
        detail = None  # only the tags were there
    tags = {str(k): str(v) for k, v in tags.items()} if isinstance(tags, dict) else {}
    return GameEntry(
        id=gid,
        game=game,
        options=from_json(options, {}),
        players=from_json(players, {}),
        started=time_or_none(started),
        ended=time_or_none(ended),
        status=status,
        result=result,
        summary=summary,
        detail=detail,
        note=note,
        tags=tags,
    )


def time_or_none(text: str | None) -> int | None:
    """A stored time, or None when it is missing or unreadable (a damaged row may hold bytes)."""
    if not isinstance(text, str):
        return None
    try:
        return from_iso(text)
    except ValueError:
        return None


def to_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def from_json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default
