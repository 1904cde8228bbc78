"""Writing whole games and copies: bulk import and the online backup, for ``SqliteJournal``
(a mixin)."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.db import (
    describe_error,
)
from companion.journal.rows import (
    FINISHED,
    IN_PROGRESS,
    STATUSES,
    detail_json,
    iso,
    to_json,
)

if TYPE_CHECKING:
    from companion.games.base import Outcome

log = logging.getLogger(PROGRAM)

# meta key of a copy made by ``backup``: a journal that has it was restored from a backup
BACKUP_MARK = "backup"


class JournalImport:
    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the journal at ``target`` (SQLite's online backup, safe while
        the daemon writes), marked as cleanly closed and as a backup (``BACKUP_MARK``: put
        back as the journal, it is known to be restored), in rollback mode. Written beside the
        target and renamed over it, so a failed backup leaves no half copy."""
        target = Path(target)
        tmp = target.with_name(f".{target.name}.part-{os.getpid()}")
        for p in (tmp, tmp.with_name(tmp.name + "-journal")):
            p.unlink(missing_ok=True)
        try:
            dest = sqlite3.connect(tmp, isolation_level=None)
            try:
                with self._read() as db:
                    db.backup(dest)
                dest.execute("PRAGMA journal_mode = DELETE")
                if dest.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'meta'"
                ).fetchone()[0]:
                    dest.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '1')")
                    # a journal started from this copy knows it was restored (docs/club.md)
                    dest.execute(
                        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                        (BACKUP_MARK, str(int(time.time()))),
                    )
                dest.execute("PRAGMA synchronous = FULL")
            finally:
                dest.close()
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except sqlite3.Error as e:
            tmp.unlink(missing_ok=True)
            raise JournalError(f"backup to {target} failed: {describe_error(e)}") from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def _import_clock(
        self,
        db: sqlite3.Connection,
        game_id: int,
        time_control: str,
        moves: Sequence[tuple[Any, ...]],
        events: Sequence[tuple[Any, ...]],
    ) -> None:
        """A timed game's moves with their clock snapshots, its control and clock events."""
        db.execute("UPDATE games SET time_control = ? WHERE id = ?", (time_control, game_id))
        db.executemany(
            "INSERT INTO events (game_id, kind, ply, move, at, player, public, clock)"
            " VALUES (?, 'move', ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    i,
                    m[0],
                    iso(m[1]),
                    *(tuple(m[2:4]) + (None, None))[:2],
                    to_json(m[4]) if len(m) > 4 and m[4] is not None else None,
                )
                for i, m in enumerate(moves)
            ],  # fmt: skip
        )
        db.executemany(
            "INSERT INTO clock_events (game_id, kind, ply, player, seconds, why, state)"
            " VALUES (?, ?, ?, ?, ?, ?, NULL)",
            [(game_id, kind, ply, who, secs, why) for ply, kind, who, secs, why in events],
        )

    def import_game(
        self,
        game: str,
        options: dict[str, Any],
        players: dict[str, str],
        moves: Sequence[tuple[Any, ...]],
        *,
        started: int | None,
        ended: int | None,
        status: str,
        outcome: Outcome | None = None,
        note: str | None = None,
        tags: dict[str, str] | None = None,
        digest: str | None = None,
        time_control: str | None = None,
        clock_events: Sequence[tuple[Any, ...]] = (),
    ) -> int:
        """Add a whole game (already validated) in one transaction: all of it or nothing.
        ``moves``: (name, at) or (name, at, player, public name when it holds a secret), and
        for a game with a clock (``time_control``, as typed) its snapshot after the move;
        ``clock_events``: (ply, kind, player, seconds, why) of the clock's own events."""
        if status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        now = self._now()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (game, options, players, started, ended, status, result,"
                " summary, detail, note, ply, digest) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game,
                    to_json(options),
                    to_json(players),
                    iso(started) or now,
                    iso(ended) if status != IN_PROGRESS else None,
                    status,
                    (outcome.winner or "draw") if outcome else None,
                    outcome.summary if outcome else None,
                    detail_json(outcome.detail if outcome else None, tags or {}),
                    note,
                    len(moves),
                    digest,
                ),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO events (game_id, kind, ply, move, at, player, public)"
                " VALUES (?, 'move', ?, ?, ?, ?, ?)",
                [  # (name, at) or (name, at, player, public name when secret)
                    (game_id, i, m[0], iso(m[1]), *(tuple(m[2:4]) + (None, None))[:2])
                    for i, m in enumerate(moves)
                ]
                if time_control is None
                else [],
            )
            if time_control is not None:
                self._import_clock(db, game_id, time_control, moves, clock_events)
            if status != IN_PROGRESS:
                kind = "finish" if status == FINISHED else "abandon"
                db.execute(
                    "INSERT INTO events (game_id, kind, ply, at) VALUES (?, ?, ?, ?)",
                    (game_id, kind, len(moves), iso(ended) or now),
                )
            else:
                self._close_others(db, game_id)
        return game_id
