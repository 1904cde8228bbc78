"""A remote game with secrets in the journal, for ``SqliteJournal`` (a mixin): what this board
knows of it (the ``masked`` row) and, at the end, the other board's full names of its secret
moves (``revealed``), which reading the events puts in place of their public names. Schema
version 5 (companion/journal/rows.py); version 6 a game disputed or unverified
(``games.dispute``)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from companion.journal.api import Dispute, Masked, MoveEntry
from companion.journal.rows import detail_json, from_json, to_json

if TYPE_CHECKING:
    from companion.games.base import Outcome

DISPUTED, UNVERIFIED = "disputed", "unverified"

# the events of one game, a revealed name in place of the public one it was journaled with
EVENTS_REVEALED = (
    "SELECT e.kind, e.ply, COALESCE(r.move, e.move), e.at,"
    " CASE WHEN r.move IS NULL THEN e.player ELSE r.player END,"
    " CASE WHEN r.move IS NULL THEN e.public ELSE r.public END{}"
    " FROM events e LEFT JOIN revealed r"
    " ON r.game_id = e.game_id AND r.ply = e.ply AND e.kind = 'move'"
    " WHERE e.game_id = ? AND e.id NOT BETWEEN ? AND ? ORDER BY e.id"
)


def has_disputes(db: sqlite3.Connection) -> bool:
    """Has the file the column of disputed games (version 6)?"""
    return any(r[1] == "dispute" for r in db.execute("PRAGMA table_info(games)"))


class JournalMasked:
    _masked_schema: bool | None = None

    def keep_masked(self, game_id: int, masked: Masked) -> None:
        with self._write() as db:  # type: ignore[attr-defined]
            db.execute(
                "INSERT OR REPLACE INTO masked (game_id, seat, told) VALUES (?, ?, ?)",
                (game_id, masked.seat, to_json(masked.told)),
            )

    def reveal(self, game_id: int, moves: list[MoveEntry], outcome: Outcome | None) -> None:
        with self._write() as db:  # type: ignore[attr-defined]
            db.executemany(
                "INSERT OR REPLACE INTO revealed (game_id, ply, move, player, public)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, m.ply, m.name, m.player, m.public if m.public != m.name else None)
                    for m in moves
                ],
            )
            if outcome is not None:
                tags = self._tags(db, game_id)  # type: ignore[attr-defined]
                db.execute(
                    "UPDATE games SET result = ?, summary = ?, detail = ? WHERE id = ?",
                    (
                        outcome.winner or "draw",
                        outcome.summary,
                        detail_json(outcome.detail, tags),
                        game_id,
                    ),
                )

    def dispute(self, game_id: int, dispute: Dispute) -> None:
        with self._write() as db:  # type: ignore[attr-defined]
            was = self._dispute(db, game_id)
            if was is not None and was.status == DISPUTED and dispute.status != DISPUTED:
                return  # a lie caught stays the game's story
            value = {"status": dispute.status, "why": dispute.why, "evidence": dispute.evidence,
                     "at": self._now()}  # type: ignore[attr-defined]  # fmt: skip
            db.execute("UPDATE games SET dispute = ? WHERE id = ?", (to_json(value), game_id))

    def disputes(self) -> dict[int, str]:
        """Each remote game disputed or unverified, by id: its status (``history``'s word; a
        few games, not one a game played)."""
        with self._read() as db:  # type: ignore[attr-defined]
            if not has_disputes(db):
                return {}
            rows = db.execute("SELECT id, dispute FROM games WHERE dispute IS NOT NULL")
            marks = {gid: from_json(text, None) for gid, text in rows if isinstance(text, str)}
        return {
            gid: str(mark["status"])
            for gid, mark in marks.items()
            if isinstance(mark, dict) and mark.get("status") in (DISPUTED, UNVERIFIED)
        }

    def _dispute(self, db: sqlite3.Connection, game_id: int) -> Dispute | None:
        """A remote game's dispute (none before version 6: a journal opened for reading
        keeps its older version)."""
        if not has_disputes(db):
            return None
        row = db.execute("SELECT dispute FROM games WHERE id = ?", (game_id,)).fetchone()
        value: Any = from_json(row[0], None) if row and isinstance(row[0], str) else None
        if not isinstance(value, dict) or value.get("status") not in (DISPUTED, UNVERIFIED):
            return None
        evidence = value.get("evidence")
        evidence = evidence if isinstance(evidence, dict) else {}
        return Dispute(str(value["status"]), str(value.get("why", "")), evidence)

    def _has_masked(self, db: sqlite3.Connection) -> bool:
        """Has the file the tables of remote games with secrets (version 5)? A journal
        opened for reading keeps its older version."""
        if self._masked_schema is None:
            self._masked_schema = bool(db.execute("PRAGMA table_info(revealed)").fetchall())
        return self._masked_schema

    def _masked(self, db: sqlite3.Connection, game_id: int) -> Masked | None:
        """What this board knows of a remote game with secrets, until they are revealed."""
        if not self._has_masked(db):
            return None
        row = db.execute("SELECT seat, told FROM masked WHERE game_id = ?", (game_id,)).fetchone()
        if row is None or not isinstance(row[0], str):
            return None
        if db.execute("SELECT 1 FROM revealed WHERE game_id = ? LIMIT 1", (game_id,)).fetchone():
            return None  # revealed: the moves read with their full names
        told: Any = from_json(row[1], {})
        if not isinstance(told, dict):
            told = {}
        return Masked(row[0], {str(k): dict(v) for k, v in told.items() if isinstance(v, dict)})
