"""What the journal stores and hands back: the schema, game statuses, times as text, the
entries read from it (GameEntry, MoveEntry), the fold of events into a game's live moves, and
the JSON columns (how they are written: companion.journal.store).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple


@dataclass(frozen=True)
class MoveEntry:
    """One move as journalled. ``name`` is the full move name (a secret included); ``public``
    is what others may see while the game goes on, when the move holds a secret (None: the
    full name is public). ``at``: milliseconds since the epoch, set by the journal.
    ``clock``: the game clock's snapshot right after this move's switch (everyone's time
    left as the next turn begins; ``companion.timing.clock.Clock.snapshot``), or None."""

    ply: int
    name: str
    player: str | None = None
    public: str | None = None
    at: int | None = None
    clock: dict[str, Any] | None = None

    def shown(self, revealed: bool) -> str:
        """The name to show: the full one once the game has ended, else the public one."""
        return self.name if revealed or self.public is None else self.public


@dataclass
class SavedGame:
    """A game as the journal holds it: enough to rebuild it by replaying ``moves`` (the full
    names); ``entries`` gives each move's player and public name too."""

    game_id: int
    game: str
    options: dict[str, Any]
    moves: list[str]
    players: dict[str, str] = field(default_factory=dict)
    entries: list[MoveEntry] = field(default_factory=list)
    time_control: str | None = None  # the clock's control as typed ("5:00+3"); None: no clock
    clock: ClockState | None = None  # the clock's last journaled state (a tick, an event)
    # a remote game with secrets not yet revealed: the seat this board knows, and the facts
    # heard about the other seats' secrets (``Masked``); None: a game that knows everything
    masked: Masked | None = None


@dataclass(frozen=True)
class Masked:
    """A remote game with secrets as this board knows it (docs/club.md, "Remote play"):
    ``seat``'s secrets, and ``told``, seat -> the facts its board disclosed so far."""

    seat: str
    told: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Dispute:
    """A remote game whose result is left to the arbiter (docs/club.md, "A dishonest
    peer"): ``status`` 'disputed' (a lie was caught: ``why`` in one line, ``evidence`` what
    was said and what shows otherwise) or 'unverified' (the peer never revealed)."""

    status: str
    why: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ClockState:
    """The running clock as last journaled (the ``clocks`` row): ``ply`` live moves then,
    ``state`` its snapshot, ``at`` ms since the epoch."""

    ply: int
    state: dict[str, Any]
    at: int | None = None


@dataclass(frozen=True)
class ClockEvent:
    """A clock's own event: ``kind`` 'pause', 'resume', 'add' (``seconds`` to ``player``,
    ``why`` 'penalty' or 'correction') or 'flag' (``player``'s time ran out), at ``ply``
    live moves, with the clock's snapshot after it (``state``)."""

    kind: str
    ply: int
    player: str | None = None
    seconds: float | None = None
    why: str | None = None
    state: dict[str, Any] | None = None
    at: int | None = None


@dataclass
class RecoveryReport:
    """What opening a damaged journal did."""

    path: Path
    problem: str
    copies: list[Path]
    games: int = 0
    events: int = 0
    lost: list[str] = field(default_factory=list)
    expected: dict[int, set[int]] | None = None  # event ids per game, from the index
    unsure: bool = False  # part of the events table unreadable and the index too
    loss: bool = False  # committed changes lost from the WAL (kept in the journal's meta)
    # the running clocks' rows as read (version 4): (game_id, ply, state, at)
    clocks: list[tuple] = field(default_factory=list)
    # remote games with secrets (version 5): the masked rows (game_id, seat, told) and the
    # revealed rows (game_id, ply, move, player, public) that can be read
    masked: list[tuple] = field(default_factory=list)
    revealed: list[tuple] = field(default_factory=list)

    def line(self) -> str:
        lost = "; ".join(self.lost) if self.lost else "nothing"
        if self.loss:  # nothing was damaged: a WAL went missing; its leftovers are kept
            kept = ", ".join(str(c) for c in self.copies) or "nothing left to keep"
            return (
                f"journal {self.path}: {self.problem}; the WAL and its index as found kept as "
                f"{kept}; lost: {lost}"
            )
        # the copies kept, said as they are: the main file with or without its WAL, or only
        # the WAL, or none
        wals = [c for c in self.copies if c.name.endswith("-wal")]
        mains = [c for c in self.copies if not c.name.endswith(("-wal", "-shm"))]
        copies = "no copy of the damaged file could be kept"
        if mains:
            copies = f"damaged file kept as {mains[0]}" + (" (and its -wal)" if wals else "")
        elif wals:
            copies += f", only of its WAL: {wals[0]}"
        return (
            f"journal {self.path} was damaged ({self.problem}); {copies}; "
            f"recovered {self.games} games, {self.events} events; lost: {lost}"
        )


IN_PROGRESS, FINISHED, ABANDONED = "in_progress", "finished", "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)  # what the status column holds
# A game put aside to be taken up again (``binaryon resume``). Stored as ``abandoned`` with
# the note PAUSED_NOTE (the file's format is unchanged: an older companion lists the game
# as abandoned); read back as PAUSED.
PAUSED = "paused"
PAUSED_NOTE = "paused"
PAUSED_WHERE = "status = 'abandoned' AND (note = 'paused' OR note LIKE 'paused; %')"
# 3: games_by_game (history of one kind of game reads only what it lists); 4: the game clock
# (games.time_control, events.clock, the clocks row ticked while a clock runs, clock_events);
# 5: remote games with secrets (masked, revealed); 6: a remote game disputed or unverified
SCHEMA_VERSION = 6
APPLICATION_ID = 0x42694E79  # 'BiNy': PRAGMA application_id marks a binaryon journal

# The game clock (version 4; its tables come last, so the older ones keep their pages, and
# its statements are short: the schema's text is stored in the file's first pages): the
# ``clocks`` row (ClockState), updated in place by the tick about once a second, by each
# move with a clock and by each clock event; ``clock_events`` (ClockEvent), append-only.
# A remote game with secrets (version 5; docs/club.md, "Remote play"): ``masked`` (Masked),
# updated as facts come; ``revealed``, the whole game told at the end, each move read in
# place of the one journaled at its ply (the other board's secret moves, by public name).
# A remote game disputed or unverified (version 6): games.dispute (Dispute, as JSON); the
# result is the arbiter's. (A column, not a table: the schema's text must stay in the file's
# first page.)
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
    note     TEXT,                     -- e.g. what a recovery could not save
    ply      INTEGER NOT NULL DEFAULT 0,  -- live moves: kept with every event (O(1) append)
    takebacks INTEGER NOT NULL DEFAULT 0,
    cut_from INTEGER,                  -- events cut_from..cut_to of this game are damaged:
    cut_to   INTEGER,                  -- left out (a salvage of the game in progress)
    digest   TEXT,                     -- an imported record's fingerprint (duplicates)
    time_control TEXT,                 -- the clock's control ('5:00+3'; NULL: none)
    dispute  TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    kind     TEXT NOT NULL CHECK (kind IN ('move', 'takeback', 'finish', 'abandon')),
    ply      INTEGER NOT NULL,         -- move: its 0-based number; takeback: moves kept
    move     TEXT,                     -- move: its full name (a secret included)
    at       TEXT,                     -- ISO 8601 UTC, milliseconds (NULL: time unknown)
    player   TEXT,                     -- move: the player id (NULL: the referee or unknown)
    public   TEXT,                     -- move: the name others see until the game ends,
                                      -- when the move holds a secret (NULL: no secret)
    clock    TEXT                      -- move: the clock's JSON snapshot after it
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE INDEX IF NOT EXISTS games_in_progress ON games (status) WHERE status = 'in_progress';
CREATE INDEX IF NOT EXISTS games_by_digest ON games (digest) WHERE digest IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_by_game ON games (game, id);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TABLE IF NOT EXISTS clocks (game_id INTEGER PRIMARY KEY REFERENCES games(id),
    ply INTEGER NOT NULL, state TEXT NOT NULL, at TEXT);
CREATE TABLE IF NOT EXISTS clock_events (id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id), kind TEXT NOT NULL,
    ply INTEGER NOT NULL, player TEXT, seconds REAL, why TEXT, state TEXT, at TEXT);
CREATE INDEX IF NOT EXISTS clock_events_by_game ON clock_events (game_id, id);
CREATE TABLE IF NOT EXISTS masked (game_id INTEGER PRIMARY KEY REFERENCES games(id),
    seat TEXT NOT NULL, told TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS revealed (game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL, move TEXT NOT NULL, player TEXT, public TEXT,
    PRIMARY KEY (game_id, ply));
"""

# Columns older versions lacked (1: all of them; 2 and 3: the clock's two); added in place
# by the upgrade (companion.journal.db).
UPGRADE_COLUMNS = (
    ("games", "ply INTEGER NOT NULL DEFAULT 0"),
    ("games", "takebacks INTEGER NOT NULL DEFAULT 0"),
    ("games", "cut_from INTEGER"),
    ("games", "cut_to INTEGER"),
    ("games", "digest TEXT"),
    ("events", "player TEXT"),
    ("events", "public TEXT"),
    ("games", "time_control TEXT"),
    ("games", "dispute TEXT"),
    ("events", "clock TEXT"),
)

# --------------------------------------------------------------------------- times

MIN_MS = -62135596800000  # 0001-01-01T00:00:00Z
MAX_MS = 253402300799999  # 9999-12-31T23:59:59.999Z


def iso(ms: int | None) -> str | None:
    """Milliseconds since the epoch -> '2025-03-01T14:02:11.120Z' (exact both ways), years
    0001 to 9999 (ValueError outside)."""
    if ms is None:
        return None
    if not MIN_MS <= ms <= MAX_MS:
        raise ValueError("time out of range (years 1 to 9999)")
    day, ms = divmod(ms, 86_400_000)  # the date once per day (a game's moves share it)
    seconds, ms = divmod(ms, 1000)
    return f"{_date_text(day)}T{_clock_text(seconds)}.{ms:03d}Z"


@lru_cache(maxsize=4096)
def _clock_text(seconds: int) -> str:
    """The time of day ``seconds`` after midnight, as ``14:02:11`` (a game's moves fall in a
    few thousand seconds: an import of many games writes each once)."""
    hours, rest = divmod(seconds, 3600)
    return f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"


@lru_cache(maxsize=1024)
def _date_text(day: int) -> str:
    """The date ``day`` days after 1970-01-01, as ``2025-03-01``."""
    d = _EPOCH + timedelta(days=day)
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


_EPOCH = date(1970, 1, 1)


def from_iso(text: str | None) -> int | None:
    if not text:
        return None
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    delta = dt - datetime.fromtimestamp(0, UTC)
    return delta.days * 86_400_000 + delta.seconds * 1000 + round(delta.microseconds / 1000)


# --------------------------------------------------------------------------- what it returns


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
    length: int | None = None  # live moves, from the games row (history without the events)
    # moves taken back (undo, or every player agreeing), in the order they were taken back:
    # the record keeps them as comments where they were played (``load`` fills it in)
    taken_back: list[TakenBack] = field(default_factory=list)
    time_control: str | None = None  # the game clock's control as typed; None: no clock
    clock: ClockState | None = None  # the clock's last journaled state (``load`` fills it)
    masked: Masked | None = None  # a remote game with secrets not yet revealed (``load``)
    dispute: Dispute | None = None  # a remote game disputed or unverified (``load``)

    @property
    def move_count(self) -> int:
        return len(self.moves) if self.moves or self.length is None else self.length

    @property
    def move_names(self) -> list[str]:
        return [m.name for m in self.moves]

    @property
    def ended_for_all(self) -> bool:
        """Finished or abandoned (not in progress or paused): its secret options may be shown."""
        return self.status in (FINISHED, ABANDONED)

    def saved(self) -> SavedGame:
        return SavedGame(
            self.id,
            self.game,
            dict(self.options),
            self.move_names,
            dict(self.players),
            list(self.moves),
            self.time_control,
            self.clock,
            self.masked,
        )


EventRow = Sequence[Any]  # (kind, ply, move, at[, player, public[, clock]])


class TakenBack(NamedTuple):
    """A move a takeback removed. ``on_live``: the moves before its takeback's first move
    are still the game's first moves (nothing before it was taken back or replaced since),
    so replaying them says what its answer was. ``first``: the first move of its takeback
    (the others follow it, in play order)."""

    move: MoveEntry
    on_live: bool
    first: bool


def fold(events: Iterable[EventRow]) -> tuple[list[MoveEntry], int]:
    """(kind, ply, move, at[, player, public]) rows in order -> (live moves, takebacks). A
    move at ply p replaces whatever was at p and after; a takeback to p keeps the first p."""
    moves, takebacks, _ = fold_history(events)
    return moves, takebacks


def fold_history(events: Iterable[EventRow]) -> tuple[list[MoveEntry], int, list[TakenBack]]:
    """``fold``, plus the moves the takebacks removed, in the order they were taken back."""
    moves: list[MoveEntry] = []
    takebacks = 0
    removed: list[tuple[int, list[MoveEntry]]] = []  # (index in changes, moves taken back)
    changes: list[int] = []  # the plies where the live moves changed below their end
    for row in events:
        kind, ply, move, at = row[:4]
        player, public = (row[4], row[5]) if len(row) >= 6 else (None, None)
        clock = clock_json(row[6]) if len(row) >= 7 else None
        if kind in ("move", "takeback") and (isinstance(ply, bool) or not isinstance(ply, int)):
            raise ValueError(f"a {kind} with an unreadable move number ({ply!r:.20})")
        if kind == "move":
            move, player, public = _text(move), _text_or_none(player), _text_or_none(public)
            if ply > len(moves):
                raise ValueError(f"move {ply + 1} follows move {len(moves)}")
            if ply < len(moves):
                changes.append(ply)
            del moves[ply:]
            moves.append(MoveEntry(ply, move or "", player, public, time_or_none(at), clock))
        elif kind == "takeback":
            if 0 <= ply < len(moves):
                removed.append((len(changes), moves[ply:]))
                changes.append(ply)
            del moves[ply:]
            takebacks += 1
    lowest_after = [len(moves)] * (len(changes) + 1)  # the lowest change after each one
    for i in range(len(changes) - 1, -1, -1):
        lowest_after[i] = min(lowest_after[i + 1], changes[i])
    taken: list[TakenBack] = []
    for at_change, group in removed:
        on_live = lowest_after[at_change + 1] >= group[0].ply
        taken.extend(TakenBack(m, on_live, i == 0) for i, m in enumerate(group))
    return moves, takebacks, taken


def clock_json(value: Any) -> dict[str, Any] | None:
    """A stored clock snapshot (JSON text), or None when missing or unreadable."""
    found = from_json(value, None) if isinstance(value, str) else None
    return found if isinstance(found, dict) else None


def _text(value: Any) -> str:
    """A stored text that a damaged row may hold as bytes or a number, as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _text_or_none(value: Any) -> str | None:
    return None if value is None else _text(value)


def _dict_or_empty(value: Any) -> dict[str, Any]:
    """A JSON column that should hold an object; a damaged one (a list, a number) is {}."""
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


GAME_COLUMNS = "id, game, options, players, started, ended, status, result, summary, detail, note"
# The header columns plus the live move count and takebacks kept in the row (history).
LISTED_COLUMNS = GAME_COLUMNS + ", ply, takebacks"


TAGS_KEY = "record_tags"


def detail_json(outcome_detail: dict[str, Any] | None, tags: dict[str, str]) -> str | None:
    """The detail column: the result's explanation, with a record's extra tags kept in it."""
    if not tags:
        return None if outcome_detail is None else to_json(outcome_detail)
    return to_json({**(outcome_detail or {}), TAGS_KEY: tags})


def result_columns(outcome: Any, tags: dict[str, str]) -> tuple[str | None, str | None, str | None]:
    """The result, summary and detail columns of an ``Outcome`` (None: no result yet), with a
    record's extra tags kept in the detail."""
    if outcome is None:
        return None, None, detail_json(None, tags)
    return outcome.winner or "draw", outcome.summary, detail_json(outcome.detail, tags)


def entry_from_row(row: Sequence[Any]) -> GameEntry:
    """A GameEntry from GAME_COLUMNS (moves not filled in) or LISTED_COLUMNS (``length``
    and ``takebacks`` from the row)."""
    gid, game, options, players, started, ended, status, result, summary, detail, note = row[:11]
    detail = from_json(detail, None)
    tags = detail.pop(TAGS_KEY, None) if isinstance(detail, dict) else None
    if isinstance(detail, dict) and not detail and result is None:
        detail = None  # only the tags were there
    tags = {str(k): str(v) for k, v in tags.items()} if isinstance(tags, dict) else {}
    if status == ABANDONED and is_paused_note(note):
        status, note = PAUSED, unpaused_note(note)
    people = _dict_or_empty(from_json(_text_or_none(players), {}))
    return GameEntry(
        id=gid,
        game=_text(game),
        options=_dict_or_empty(from_json(_text_or_none(options), {})),
        players={k: _text(v) for k, v in people.items() if v is not None},
        started=time_or_none(started),
        ended=time_or_none(ended),
        status=status,
        result=result,
        summary=summary,
        detail=detail,
        note=note,
        tags=tags,
        length=row[11] if len(row) > 11 else None,
        takebacks=row[12] if len(row) > 12 else 0,
    )


def is_paused_note(note: Any) -> bool:
    return isinstance(note, str) and (note == PAUSED_NOTE or note.startswith(PAUSED_NOTE + "; "))


def paused_note(note: str | None) -> str:
    """The note of a game being paused: the mark, then what the note said before."""
    return PAUSED_NOTE + (f"; {note}" if note else "")


def unpaused_note(note: str | None) -> str | None:
    """The note as it was before the game was paused."""
    if not is_paused_note(note):
        return note
    return (note or "")[len(PAUSED_NOTE) + 2 :] or None


def time_or_none(text: str | None) -> int | None:
    """A stored time, or None when it is missing or unreadable (a damaged row may hold bytes)."""
    if not isinstance(text, str):
        return None
    try:
        return from_iso(text)
    except (ValueError, TypeError, OverflowError):
        return None


def to_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def from_json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return default
