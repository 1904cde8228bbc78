"""Salvage of the games in progress, for ``SqliteJournal`` (a mixin: the methods run on the
journal)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

from companion import PROGRAM
from companion.journal.api import JournalError
from companion.journal.rows import (
    IN_PROGRESS,
    from_json,
)
from companion.journal.salvage import RecoveryReport, masked_first

log = logging.getLogger(PROGRAM)


class JournalSalvage:
    def _salvage_live_games(self) -> None:
        """A damaged row in a game in progress (a move number that cannot follow, a move that
        does not replay, text that is not UTF-8) would stop every start: the game is cut
        just before it, a copy of the journal kept first, and the loss said."""
        try:
            with self._read() as db:
                ids = [
                    r[0]
                    for r in db.execute("SELECT id FROM games WHERE status = ?", (IN_PROGRESS,))
                ]
            for gid in ids:
                self._salvage_game(gid)
        except JournalError as e:
            log.warning("journal %s: the game in progress could not be checked: %s", self.path, e)

    def _salvage_game(self, game_id: int) -> None:
        from companion.games import get_spec

        with self._read() as db:
            row = db.execute("SELECT game, options FROM games WHERE id = ?", (game_id,))
            found = row.fetchone()
            if found is None:  # the index names a game the table does not hold
                self.damage_seen = True
                raise JournalError(f"game {game_id}: its row is unreadable")
            game, options = found
            cut = db.execute(
                "SELECT cut_from, cut_to FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            lo, hi = (cut[0], cut[1]) if cut[0] is not None else (0, -1)
            rows = db.execute(
                "SELECT id, kind, ply, move, public FROM events WHERE game_id = ?"
                " AND id NOT BETWEEN ? AND ? ORDER BY id",
                (game_id, lo, hi),
            ).fetchall()
            masked = self._masked(db, game_id)
        try:
            spec = get_spec(game)
            resolved = spec.resolve(from_json(options, {}))
            state = spec.new(**resolved)
        except ValueError:
            return  # an unknown game: nothing to replay it with
        if masked is not None:  # a remote game with secrets: as this board knows it
            state = masked_first(spec, resolved, masked.seat, masked.told)
        states = [state]
        bad = None
        for eid, kind, ply, move, public in rows:
            if kind == "move":
                if ply >= len(states):
                    bad = (eid, f"move {ply + 1} follows move {len(states) - 1}")
                    break
                del states[ply + 1 :]
                try:
                    st = states[-1]
                    states.append(st.play(st.parse_move(move or "")))
                except ValueError as e:
                    bad = (eid, _not_replayed(ply, move, public, e))
                    break
            elif kind == "takeback":
                del states[ply + 1 :]
        if bad is None:
            return
        eid, why = bad
        kept = len(states) - 1
        copy = self._keep_copy()
        with self._write() as db:
            last = db.execute(
                "SELECT max(id) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            note = f"recovered: a damaged row ({why}); moves after the first {kept} lost"
            db.execute(
                "UPDATE games SET cut_from = ?, cut_to = ?, ply = ?, note = ? WHERE id = ?",
                (eid, last, kept, note, game_id),
            )
        report = RecoveryReport(self.path, f"game {game_id}: {why}", [copy] if copy else [])
        report.lost.append(f"game {game_id}: moves after the first {kept}")
        report.games = 1
        self.recovery = report
        log.warning(report.line())

    def _keep_copy(self) -> Path | None:
        stamp = datetime.fromtimestamp(self._clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            self.backup(target)
        except (JournalError, OSError) as e:
            log.warning("journal %s: no copy kept before the salvage: %s", self.path, e)
            return None
        return target

    # --- history and records ---


def _not_replayed(ply: int, move: object, public: object, error: ValueError) -> str:
    """Why a row stops the replay, said without its secret: a move that holds one (it has a
    public name) is named by its public name, and the reason (which may quote the secret
    part) is left out; the game is still in progress, so the log and ``history`` are public."""
    if public is not None:
        return f"move {ply + 1} {str(public)!r} (a secret move) does not replay"
    return f"move {ply + 1} {move!r} does not replay ({error})"
