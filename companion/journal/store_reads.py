"""Reading the journal: games, one game, events, for ``SqliteJournal`` (a mixin)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from companion import PROGRAM
from companion.journal.api import ClockEvent, ClockState
from companion.journal.rows import (
    LISTED_COLUMNS,
    GameEntry,
    clock_json,
    entry_from_row,
    fold,
    fold_history,
    from_iso,
    iso,
    time_or_none,
)

log = logging.getLogger(PROGRAM)


class JournalReads:
    def load(self, game_id: int) -> GameEntry | None:
        with self._read() as db:
            row = db.execute(f"SELECT {LISTED_COLUMNS} FROM games WHERE id = ?", (game_id,))
            found = row.fetchone()
            if found is None:
                return None
            entry = entry_from_row(found)
            try:
                events = self._events(db, game_id)
                entry.moves, entry.takebacks, entry.taken_back = fold_history(events)
            except ValueError as e:
                entry.note = f"moves unreadable: {e}"
            if self._has_clock(db):
                self._load_clock(db, entry)
            entry.masked = self._masked(db, game_id)
            entry.dispute = self._dispute(db, game_id)
        return entry

    def _load_clock(self, db, entry: GameEntry) -> None:
        """The game's time control and its clock's last journaled state."""
        row = db.execute("SELECT time_control FROM games WHERE id = ?", (entry.id,)).fetchone()
        entry.time_control = row[0] if row and isinstance(row[0], str) else None
        row = db.execute(
            "SELECT ply, state, at FROM clocks WHERE game_id = ?", (entry.id,)
        ).fetchone()
        state = clock_json(row[1]) if row else None
        if row is not None and state is not None and isinstance(row[0], int):
            entry.clock = ClockState(row[0], state, time_or_none(row[2]))

    def clock_events(self, game_id: int) -> list[ClockEvent]:
        """A game's clock events in order ([] for a journal from before the clock)."""
        with self._read() as db:
            if not self._has_clock(db):
                return []
            rows = db.execute(
                "SELECT kind, ply, player, seconds, why, state, at FROM clock_events"
                " WHERE game_id = ? ORDER BY id",
                (game_id,),
            ).fetchall()
        return [
            ClockEvent(k, p, who, secs, why, clock_json(state), time_or_none(at))
            for k, p, who, secs, why, state, at in rows
        ]

    def recent(self, limit: int, game: str | None = None) -> list[GameEntry]:
        """The last ``limit`` games (of one kind with ``game``), newest first, as their rows
        hold them: header, status, result and the live move count (``move_count``), never
        their moves. One query that reads ``limit`` rows whatever the journal's size: the
        table's own id order backwards, or the games_by_game index for one kind of game (a
        journal from before that index still answers, reading the table backwards)."""
        if limit <= 0 or not self._has_tables():
            return []
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        with self._read() as db:
            rows = db.execute(
                f"SELECT {LISTED_COLUMNS} FROM games {where} ORDER BY id DESC LIMIT ?",
                (*params, limit),
            ).fetchall()
        return [entry_from_row(row) for row in rows]

    def data_version(self) -> int:
        """A number that changes when another connection commits to the journal (SQLite's
        ``PRAGMA data_version``; this connection's own commits leave it): with the writer's
        own changes known, whether something read from the journal is still current."""
        with self._read() as db:
            return db.execute("PRAGMA data_version").fetchone()[0]

    def last_id(self) -> int | None:
        with self._read() as db:
            return db.execute("SELECT max(id) FROM games").fetchone()[0]

    def iter_games(
        self,
        *,
        limit: int | None = None,
        game: str | None = None,
        since: int | None = None,
        moves: bool = False,
        batch: int = 500,
    ) -> Iterator[GameEntry]:
        """Games oldest first, read in batches (bounded memory whatever the journal's size).
        ``limit``: only the last so many; ``game``: one kind of game; ``since``: started at
        or after (ms). Without ``moves`` an entry has its move count (``move_count``) only."""
        if not self._has_tables():
            return
        where, params = ["1"], []
        if game:
            where.append("game = ?")
            params.append(game)
        if since is not None:
            where.append("started >= ?")
            params.append(iso(since))
        cond = " AND ".join(where)
        first = 0
        if limit is not None:
            with self._read() as db:
                row = db.execute(
                    f"SELECT min(id) FROM (SELECT id FROM games WHERE {cond}"
                    " ORDER BY id DESC LIMIT ?)",
                    (*params, max(0, limit)),
                ).fetchone()
            if row[0] is None:
                return
            first = row[0] - 1
        while True:
            with self._read() as db:
                rows = db.execute(
                    f"SELECT {LISTED_COLUMNS} FROM games WHERE {cond} AND id > ?"
                    " ORDER BY id LIMIT ?",
                    (*params, first, batch),
                ).fetchall()
            if not rows:
                return
            for row in rows:
                entry = entry_from_row(row)
                if moves:
                    with self._read() as db:
                        try:
                            entry.moves, entry.takebacks = fold(self._events(db, entry.id))
                        except ValueError as e:
                            entry.note = f"moves unreadable: {e}"
                yield entry
            first = rows[-1][0]

    def _has_tables(self) -> bool:
        with self._read() as db:
            row = db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            ).fetchone()
        return bool(row[0])

    def games(self) -> list[GameEntry]:
        """Every game, oldest first, with its live moves (see iter_games to stream)."""
        return list(self.iter_games(moves=True))

    def events(self, game_id: int) -> list[tuple[str, int, str | None, int | None]]:
        """The full history of one game: (kind, ply, move, at) in order, takebacks included."""
        with self._read() as db:
            rows = db.execute(
                "SELECT kind, ply, move, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [(k, p, m, from_iso(a)) for k, p, m, a in rows]

    def started_at(self, game: str, started: int) -> list[int]:
        """The ids of the games of ``game`` that started at ``started`` (ms since the epoch),
        oldest first: a record exported from this journal names its game's start."""
        try:
            when = iso(started)
        except ValueError:
            return []
        with self._read() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE game = ? AND started = ? ORDER BY id", (game, when)
            ).fetchall()
        return [r[0] for r in rows]

    def find_digest(self, digest: str) -> int | None:
        """The id of a game imported from a record with this fingerprint, if any."""
        with self._read() as db:
            row = db.execute(
                "SELECT id FROM games WHERE digest = ? ORDER BY id LIMIT 1", (digest,)
            ).fetchone()
        return row[0] if row else None
