"""Reading the journal: functions over a connection (the store holds the connection and its
lock), always of the current schema (an older journal opened for reading is read through an
upgraded copy in memory: companion.journal.db.as_current)."""

from __future__ import annotations

import sqlite3
from typing import Any

from companion.journal.rows import (
    FINISHED,
    LISTED_COLUMNS,
    PAUSED_WHERE,
    ClockEvent,
    ClockState,
    Dispute,
    GameEntry,
    Masked,
    clock_json,
    entry_from_row,
    fold_history,
    from_iso,
    from_json,
    iso,
    time_or_none,
)

DISPUTED, UNVERIFIED = "disputed", "unverified"

# the events of one game, a revealed name in place of the public one it was journaled with
_EVENTS_REVEALED = (
    "SELECT e.kind, e.ply, COALESCE(r.move, e.move), e.at,"
    " CASE WHEN r.move IS NULL THEN e.player ELSE r.player END,"
    " CASE WHEN r.move IS NULL THEN e.public ELSE r.public END, e.clock"
    " FROM events e LEFT JOIN revealed r"
    " ON r.game_id = e.game_id AND r.ply = e.ply AND e.kind = 'move'"
    " WHERE e.game_id = ? AND e.id NOT BETWEEN ? AND ? ORDER BY e.id"
)


def event_rows(db: sqlite3.Connection, game_id: int) -> list[tuple]:
    """A game's events (kind, ply, move, at, player, public, clock) in order, without the
    rows a salvage cut out, a remote game's revealed names in place."""
    cut = db.execute("SELECT cut_from, cut_to FROM games WHERE id = ?", (game_id,)).fetchone()
    lo, hi = (cut[0], cut[1]) if cut and cut[0] is not None else (0, -1)
    return db.execute(_EVENTS_REVEALED, (game_id, lo, hi)).fetchall()


def tags_of(db: sqlite3.Connection, game_id: int) -> dict[str, str]:
    """A game's record tags, kept in its detail column."""
    row = db.execute("SELECT detail FROM games WHERE id = ?", (game_id,)).fetchone()
    detail = from_json(row[0], None) if row else None
    tags = detail.get("record_tags") if isinstance(detail, dict) else None
    return tags if isinstance(tags, dict) else {}


def masked_of(db: sqlite3.Connection, game_id: int) -> Masked | None:
    """What this board knows of a remote game with secrets, until they are revealed."""
    row = db.execute("SELECT seat, told FROM masked WHERE game_id = ?", (game_id,)).fetchone()
    if row is None or not isinstance(row[0], str):
        return None
    if db.execute("SELECT 1 FROM revealed WHERE game_id = ? LIMIT 1", (game_id,)).fetchone():
        return None  # revealed: the moves read with their full names
    told: Any = from_json(row[1], {})
    if not isinstance(told, dict):
        told = {}
    return Masked(row[0], {str(k): dict(v) for k, v in told.items() if isinstance(v, dict)})


def dispute_of(db: sqlite3.Connection, game_id: int) -> Dispute | None:
    row = db.execute("SELECT dispute FROM games WHERE id = ?", (game_id,)).fetchone()
    return _dispute(row[0]) if row else None


def _dispute(text: Any) -> Dispute | None:
    value: Any = from_json(text, None) if isinstance(text, str) else None
    if not isinstance(value, dict) or value.get("status") not in (DISPUTED, UNVERIFIED):
        return None
    evidence = value.get("evidence")
    evidence = evidence if isinstance(evidence, dict) else {}
    return Dispute(str(value["status"]), str(value.get("why", "")), evidence)


def disputes(db: sqlite3.Connection) -> dict[int, str]:
    """Each remote game disputed or unverified, by id: its status (``history``'s word)."""
    rows = db.execute("SELECT id, dispute FROM games WHERE dispute IS NOT NULL")
    found = {gid: _dispute(text) for gid, text in rows}
    return {gid: d.status for gid, d in found.items() if d is not None}


def load(db: sqlite3.Connection, game_id: int) -> GameEntry | None:
    """One game with its moves, the moves taken back, its clock, what is masked, a dispute."""
    found = db.execute(
        f"SELECT {LISTED_COLUMNS}, time_control, dispute FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if found is None:
        return None
    entry = entry_from_row(found)
    entry.time_control = found[13] if isinstance(found[13], str) else None
    entry.dispute = _dispute(found[14])
    try:
        events = event_rows(db, game_id)
        entry.moves, entry.takebacks, entry.taken_back = fold_history(events)
    except ValueError as e:
        entry.note = f"moves unreadable: {e}"
    row = db.execute("SELECT ply, state, at FROM clocks WHERE game_id = ?", (game_id,)).fetchone()
    state = clock_json(row[1]) if row else None
    if row is not None and state is not None and isinstance(row[0], int):
        entry.clock = ClockState(row[0], state, time_or_none(row[2]))
    entry.masked = masked_of(db, game_id)
    return entry


def clock_events(db: sqlite3.Connection, game_id: int) -> list[ClockEvent]:
    """A game's clock events in order."""
    rows = db.execute(
        "SELECT kind, ply, player, seconds, why, state, at FROM clock_events"
        " WHERE game_id = ? ORDER BY id",
        (game_id,),
    ).fetchall()
    return [
        ClockEvent(k, p, who, secs, why, clock_json(state), time_or_none(at))
        for k, p, who, secs, why, state, at in rows
    ]


def recent(db: sqlite3.Connection, limit: int, game: str | None = None) -> list[GameEntry]:
    """The last ``limit`` games, newest first, as their rows hold them (never their moves):
    ``limit`` rows read whatever the journal's size (the id order, or games_by_game)."""
    if limit <= 0:
        return []
    where, params = ("WHERE game = ?", (game,)) if game else ("", ())
    rows = db.execute(
        f"SELECT {LISTED_COLUMNS} FROM games {where} ORDER BY id DESC LIMIT ?",
        (*params, limit),
    ).fetchall()
    return [entry_from_row(row) for row in rows]


def paused(db: sqlite3.Connection, limit: int = 20) -> list[GameEntry]:
    """The games put aside to be taken up again, latest first."""
    rows = db.execute(
        f"SELECT {LISTED_COLUMNS} FROM games WHERE {PAUSED_WHERE} ORDER BY id DESC LIMIT ?",
        (max(0, limit),),
    ).fetchall()
    return [entry_from_row(r) for r in rows]


def selection(
    db: sqlite3.Connection, limit: int | None, game: str | None, since: int | None
) -> tuple[str, list[Any], int] | None:
    """(the condition, its parameters, the id before the first game) of a history's games;
    None when there is none."""
    where, params = ["1"], []
    if game:
        where.append("game = ?")
        params.append(game)
    if since is not None:
        where.append("started >= ?")
        params.append(iso(since))
    cond = " AND ".join(where)
    if limit is None:
        return cond, params, 0
    row = db.execute(
        f"SELECT min(id) FROM (SELECT id FROM games WHERE {cond} ORDER BY id DESC LIMIT ?)",
        (*params, max(0, limit)),
    ).fetchone()
    return None if row[0] is None else (cond, params, row[0] - 1)


def listed_after(
    db: sqlite3.Connection, cond: str, params: list[Any], after: int, batch: int
) -> list[tuple]:
    return db.execute(
        f"SELECT {LISTED_COLUMNS} FROM games WHERE {cond} AND id > ? ORDER BY id LIMIT ?",
        (*params, after, batch),
    ).fetchall()


def events(db: sqlite3.Connection, game_id: int) -> list[tuple[str, int, str | None, int | None]]:
    """The full history of one game: (kind, ply, move, at) in order, takebacks included."""
    rows = db.execute(
        "SELECT kind, ply, move, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
    ).fetchall()
    return [(k, p, m, from_iso(a)) for k, p, m, a in rows]


def started_at(db: sqlite3.Connection, game: str, started: int) -> list[int]:
    """The ids of the games of ``game`` played in this journal (not imported from a record:
    those are found by their fingerprint) that started at ``started`` (ms), oldest first."""
    try:
        when = iso(started)
    except ValueError:
        return []
    rows = db.execute(
        "SELECT id FROM games WHERE game = ? AND started = ? AND digest IS NULL ORDER BY id",
        (game, when),
    ).fetchall()
    return [r[0] for r in rows]


def played_starts(db: sqlite3.Connection) -> set[tuple[str, str]]:
    """(game, start as stored) of every game played in this journal (not imported): read
    once by an import of many records, which then asks ``started_at`` only where one fits
    (there is no index of the starts: asked at each record, it was a scan of every game)."""
    return set(db.execute("SELECT game, started FROM games WHERE digest IS NULL").fetchall())


def find_digest(db: sqlite3.Connection, digest: str) -> int | None:
    """The id of a game imported from a record with this fingerprint, if any."""
    row = db.execute(
        "SELECT id FROM games WHERE digest = ? ORDER BY id LIMIT 1", (digest,)
    ).fetchone()
    return row[0] if row else None


def meta_with_prefix(db: sqlite3.Connection, prefix: str) -> dict[str, str]:
    """Every key starting with ``prefix`` (``_`` and ``%`` in it are plain characters)."""
    like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.execute(
        "SELECT key, value FROM meta WHERE key LIKE ? ESCAPE '\\' ORDER BY key", (like,)
    ).fetchall()
    return dict(rows)


def finished_since(db: sqlite3.Connection, first_id: int) -> list[int]:
    """The ids of the games finished here (not imported) numbered ``first_id`` or more,
    oldest first, and the remote games disputed or unverified."""
    rows = db.execute(
        "SELECT id FROM games WHERE id >= ? AND (status = ? OR dispute IS NOT NULL)"
        " AND digest IS NULL"
        " ORDER BY id",
        (first_id, FINISHED),
    ).fetchall()
    return [row[0] for row in rows]
