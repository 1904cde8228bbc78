"""Salvage of a damaged journal: every row that can still be read from a database image,
checked, written into a fresh file, and the report of what could not be recovered."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.journal.db import connect, memory_db
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    GAME_COLUMNS,
    IN_PROGRESS,
    STATUSES,
    entry_from_row,
    fold,
    from_json,
)
from companion.journal.wal import WalScan, db_image, db_page_size


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
    # the game clock's rows as read (version 4): game id -> its time control, and the
    # running clocks' rows (game_id, ply, state, at); what cannot be read is left out
    time_controls: dict[int, str] = field(default_factory=dict)
    clocks: list[tuple] = field(default_factory=list)
    # remote games with secrets (version 5): the masked rows (game_id, seat, told) and the
    # revealed rows (game_id, ply, move, player, public) that can be read
    masked: list[tuple] = field(default_factory=list)
    revealed: list[tuple] = field(default_factory=list)
    # remote games disputed or unverified (version 6): game id -> its games.dispute
    disputes: dict[int, str] = field(default_factory=dict)

    def line(self) -> str:
        lost = "; ".join(self.lost) if self.lost else "nothing"
        if self.loss:  # nothing was damaged: a WAL went missing; its leftovers are kept
            kept = ", ".join(str(c) for c in self.copies) or "nothing left to keep"
            return (
                f"journal {self.path}: {self.problem}; the WAL and its index as found kept as "
                f"{kept}; lost: {lost}"
            )
        return (
            f"journal {self.path} was damaged ({self.problem}); {self.copies_text()}; "
            f"recovered {self.games} games, {self.events} events; lost: {lost}"
        )

    def copies_text(self) -> str:
        """Which copies of the damaged files were kept, said as they are (none, the main
        file with or without its WAL, or only the WAL)."""
        wals = [c for c in self.copies if c.name.endswith("-wal")]
        mains = [c for c in self.copies if not c.name.endswith(("-wal", "-shm"))]
        if mains:
            return f"damaged file kept as {mains[0]}" + (" (and its -wal)" if wals else "")
        if wals:
            return f"no copy of the damaged file could be kept, only of its WAL: {wals[0]}"
        return "no copy of the damaged file could be kept"


def salvage_rows(
    path: Path, problem: str, copies: list[Path], found: dict[str, bytes], wal: WalScan
) -> tuple[RecoveryReport, list[tuple], list[tuple]]:
    """The readable rows, from the WAL view that yields the most: every commit whose own
    frames are sound (even past a damaged frame), and, if some damaged frame is the only
    copy of its page, also that page as found (the salvage checks every row it reads)."""
    best: tuple[RecoveryReport, list[tuple], list[tuple]] | None = None
    views = ["sound", "all"] if wal.usable("all") != wal.usable("sound") else ["sound"]
    for view in views:
        report = RecoveryReport(path, problem, copies)
        report.lost, report.unsure = wal.losses(view)
        games, events = _read_damaged(db_image(found.get("", b""), wal, view), report)
        if best is None or (len(events), len(games)) > (len(best[2]), len(best[1])):
            best = report, games, events
    assert best is not None
    return best


_GAME_ROW = f"SELECT {GAME_COLUMNS} FROM games WHERE id BETWEEN ? AND ? ORDER BY id"
_EVENT_ROW_V4 = (  # with each move's clock snapshot
    "SELECT id, game_id, kind, ply, move, at, player, public, clock FROM events"
    " WHERE id BETWEEN ? AND ? ORDER BY id"
)
_EVENT_ROW = (
    "SELECT id, game_id, kind, ply, move, at, player, public FROM events"
    " WHERE id BETWEEN ? AND ? ORDER BY id"
)
_EVENT_ROW_V1 = (  # a journal from before players and public names were kept
    "SELECT id, game_id, kind, ply, move, at, NULL, NULL FROM events"
    " WHERE id BETWEEN ? AND ? ORDER BY id"
)


def _read_damaged(image: bytes, report: RecoveryReport) -> tuple[list[tuple], list[tuple]]:
    """Every row that can still be read, table by table, working round unreadable pages."""
    cut = _pages_missing(image)
    if cut:
        report.lost.append(cut)
    try:
        db = memory_db(image)
        db.execute("PRAGMA writable_schema = ON")  # read tables even if an index is damaged
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        report.lost.append(f"everything ({e})")
        return [], []
    upper = max(1000, len(image) // 8 + 1)
    try:
        games, games_failed = _rows(db, _GAME_ROW, upper)
        event_sql = _EVENT_ROW_V1
        for sql in (_EVENT_ROW_V4, _EVENT_ROW):
            try:
                db.execute(sql, (0, -1)).fetchall()
            except sqlite3.Error:
                continue
            event_sql = sql
            break
        events, events_failed = _rows(db, event_sql, upper)
        _read_clocks(db, report, upper)
        _read_masked(db, report)
        report.expected = _indexed_events(db)
        report.unsure = report.unsure or (events_failed and report.expected is None)
    except sqlite3.Error as e:  # not even the schema can be read
        report.lost.append(f"everything ({e})")
        return [], []
    finally:
        db.close()
    good_games = [g for g in games if _good_game(g)]
    good_events = [e for e in events if _good_event(e)]
    dropped = len(games) - len(good_games) + len(events) - len(good_events)
    if dropped:
        report.lost.append(f"{dropped} garbled rows dropped")
    games, events = good_games, good_events
    for what, rows, failed in (("games", games, games_failed), ("events", events, events_failed)):
        top = rows[-1][0] if rows else 0
        gaps = top - len(rows)  # ids are dense: rows are never deleted
        if gaps:
            report.lost.append(f"{gaps} {what} unreadable")
        elif failed:
            report.lost.append(f"part of the {what} table unreadable")
    return games, events


def _read_masked(db: sqlite3.Connection, report: RecoveryReport) -> None:
    """The rows of remote games with secrets that can be read (none before version 5), and
    the disputes of remote games (none before version 6)."""
    try:
        rows = db.execute("SELECT id, dispute FROM games WHERE dispute IS NOT NULL").fetchall()
        report.disputes = {g: d for g, d in rows if isinstance(g, int) and isinstance(d, str)}
    except sqlite3.Error:
        pass
    for table, columns, good in (
        ("masked", "game_id, seat, told", _good_masked),
        ("revealed", "game_id, ply, move, player, public", _good_revealed),
    ):
        try:
            rows = db.execute(f"SELECT {columns} FROM {table}").fetchall()
        except sqlite3.Error:
            continue
        setattr(report, table, [r for r in rows if good(r)])


def _good_masked(row: tuple) -> bool:
    return isinstance(row[0], int) and isinstance(row[1], str) and isinstance(row[2], str)


def _good_revealed(row: tuple) -> bool:
    return isinstance(row[0], int) and isinstance(row[1], int) and isinstance(row[2], str)


def _read_clocks(db: sqlite3.Connection, report: RecoveryReport, upper: int) -> None:
    """The game clock's rows that can be read (a journal from before version 4 has none)."""
    sql = "SELECT id, time_control FROM games WHERE id BETWEEN ? AND ? ORDER BY id"
    try:
        db.execute(sql, (0, -1)).fetchall()
    except sqlite3.Error:
        return
    rows, _ = _rows(db, sql, upper)
    report.time_controls = {g: tc for g, tc in rows if isinstance(g, int) and isinstance(tc, str)}
    try:
        clocks = db.execute("SELECT game_id, ply, state, at FROM clocks").fetchall()
    except sqlite3.Error:
        return
    report.clocks = [
        c
        for c in clocks
        if isinstance(c[0], int) and isinstance(c[1], int) and isinstance(c[2], str)
    ]


def _indexed_events(db: sqlite3.Connection) -> dict[int, set[int]] | None:
    """Event ids per game as the index has them (the index lives on other pages than the
    table, so it often tells what a damaged table lost). None if unreadable."""
    try:
        rows = db.execute("SELECT game_id, id FROM events INDEXED BY events_by_game").fetchall()
    except sqlite3.Error:
        return None
    out: dict[int, set[int]] = {}
    for gid, eid in rows:
        if isinstance(gid, int) and isinstance(eid, int):
            out.setdefault(gid, set()).add(eid)
    return out


def _pages_missing(image: bytes) -> str:
    """'file cut short: ...' when the header promises more pages than the file holds."""
    page = db_page_size(image)
    if not page:
        return ""
    pages = int.from_bytes(image[28:32], "big")
    have = len(image) // page
    if pages and have < pages:
        return f"file cut short: {pages - have} of {pages} pages missing"
    return ""


def _good_game(row: tuple) -> bool:
    gid, game, options, players, _s, _e, status, *_ = row
    return (
        isinstance(gid, int)
        and isinstance(game, str)
        and isinstance(options, str)
        and isinstance(players, str)
        and status in STATUSES
    )


def _good_event(row: tuple) -> bool:
    eid, gid, kind, ply, move, _at = row[:6]
    return (
        isinstance(eid, int)
        and isinstance(gid, int)
        and kind in ("move", "takeback", "finish", "abandon")
        and isinstance(ply, int)
        and ply >= 0
        and (move is None or isinstance(move, str))
    )


def _rows(db: sqlite3.Connection, sql: str, upper: int, budget: int = 20000) -> tuple[list, bool]:
    """Rows with ids 1..upper, bisecting round ranges that cannot be read. Returns (rows,
    whether any part failed)."""
    out: list[tuple] = []
    failed = False
    stack = [(1, upper)]
    while stack:
        lo, hi = stack.pop()
        budget -= 1
        try:
            out.extend(db.execute(sql, (lo, hi)).fetchall())
            continue
        except sqlite3.Error:
            failed = True
        if lo < hi and budget > 0:
            mid = (lo + hi) // 2
            stack.append((mid + 1, hi))
            stack.append((lo, mid))
    out.sort(key=lambda r: r[0])
    return out, failed


def write_salvage(
    fresh: Path, games: list[tuple], events: list[tuple], report: RecoveryReport
) -> None:
    from companion.games import get_spec

    by_game: dict[int, list[tuple]] = {}
    for row in events:
        by_game.setdefault(row[1], []).append(row)
    header_ids = {g[0] for g in games}
    expected = report.expected or {}
    orphans = sorted(gid for gid in set(by_game) | set(expected) if gid not in header_ids)
    if orphans:
        report.lost.append(f"games {', '.join(map(str, orphans))} (header unreadable)")
    masked = {r[0]: r for r in report.masked}
    revealed = {(r[0], r[1]): r[2] for r in report.revealed}  # (game, ply) -> its full name
    whole = {r[0] for r in report.revealed}  # games revealed at their end
    db = connect(fresh)
    try:
        db.execute("BEGIN IMMEDIATE")
        for g in games:
            gid, game, _options, _players, _s, _e, status, *_ = g
            kept, lost = _usable_events(by_game.get(gid, []))
            over = None
            try:
                spec, options = get_spec(game), entry_from_row(g).options
                state = _start(spec, options, masked.get(gid), gid in whole)
                moves, _ = fold([r[2:6] for r in kept])
                names = [revealed.get((gid, mv.ply), mv.name) for mv in moves]
                played = 0
                try:
                    for step in spec.steps_from(state, names):
                        state, played = step.after, played + 1
                except ValueError:
                    kept, lost = _cut_at_ply(kept, played), True
                over = state.is_over() and not lost
            except ValueError:
                pass  # an unknown game or options: keep the rows as they are
            note = None
            header = list(g[:11])
            unread = len(expected.get(gid, set()) - {e[0] for e in by_game.get(gid, [])})
            if lost or unread or (status == FINISHED and over is False):
                length = _live_length(kept)
                note = f"recovered: moves after the first {length} lost"
                more = f" ({unread} events unreadable)" if unread else ""
                report.lost.append(f"game {gid}: moves after the first {length}{more}")
                if status == FINISHED and not over:  # its result no longer follows
                    status = ABANDONED
                    header[7:10] = [None, None, None]
                    note += f"; its result ({g[8] or g[7]}) no longer follows"
                    kept = [e for e in kept if e[2] != "finish"]
            elif report.unsure and status == IN_PROGRESS:
                length = _live_length(kept)
                note = f"recovered: moves after the first {length} may be lost"
                report.lost.append(f"game {gid}: perhaps moves after the first {length}")
            length, takebacks = _live_length(kept), _takebacks(kept)
            db.execute(
                f"INSERT INTO games ({GAME_COLUMNS}, ply, takebacks)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*header[:6], status, *header[7:10], note or g[10], length, takebacks),
            )
            db.executemany(
                "INSERT INTO events (id, game_id, kind, ply, move, at, player, public, clock)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        *e[:6],
                        *(e[6:8] if len(e) >= 8 else (None, None)),
                        e[8] if len(e) >= 9 and isinstance(e[8], str) else None,
                    )
                    for e in kept
                ],
            )
            if gid in report.time_controls:
                db.execute(
                    "UPDATE games SET time_control = ? WHERE id = ?",
                    (report.time_controls[gid], gid),
                )
            report.games += 1
            report.events += len(kept)
        written = {g[0] for g in games}
        db.executemany(  # a clock's row is of the position it was written at: the resume
            "INSERT INTO clocks (game_id, ply, state, at) VALUES (?, ?, ?, ?)",  # checks it
            [c for c in report.clocks if c[0] in written],
        )
        db.executemany(
            "INSERT INTO masked (game_id, seat, told) VALUES (?, ?, ?)",
            [r for r in report.masked if r[0] in written],
        )
        db.executemany(
            "INSERT INTO revealed (game_id, ply, move, player, public) VALUES (?, ?, ?, ?, ?)",
            [r for r in report.revealed if r[0] in written],
        )
        db.executemany(
            "UPDATE games SET dispute = ? WHERE id = ?",
            [(d, g) for g, d in report.disputes.items() if g in written],
        )
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clean', '0')")
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def _usable_events(rows: list[tuple]) -> tuple[list[tuple], bool]:
    """The events up to the first one that cannot follow the ones before (a move lost)."""
    length = 0
    for i, row in enumerate(rows):
        kind, ply = row[2], row[3]
        if kind == "move":
            if ply > length:
                return rows[:i], True
            length = ply + 1
        elif kind == "takeback":
            length = min(length, ply)
    return rows, False


def _cut_at_ply(rows: list[tuple], ply: int) -> list[tuple]:
    """The events before the one that put the live move number ``ply`` in place."""
    origin: list[int] = []  # origin[k]: index of the event that made live move k
    for i, row in enumerate(rows):
        kind, p = row[2], row[3]
        if kind == "move":
            del origin[p:]
            origin.append(i)
        elif kind == "takeback":
            del origin[p:]
    return rows[: origin[ply]] if ply < len(origin) else rows


def _live_length(rows: list[tuple]) -> int:
    moves, _ = fold([r[2:6] for r in rows])
    return len(moves)


def _takebacks(rows: list[tuple]) -> int:
    return sum(1 for r in rows if r[2] == "takeback")


def _start(spec: Any, options: dict[str, Any], masked: tuple | None, revealed: bool) -> Any:
    """A salvaged game's first state: a remote game with secrets not yet revealed starts as
    the board knew it (its seat and the facts it was told), so its public moves replay."""
    if masked is None or revealed:
        return spec.new(**options)
    told = from_json(masked[2], {})
    return masked_first(spec, options, masked[1], told if isinstance(told, dict) else {})


def masked_first(spec: Any, options: dict[str, Any], seat: str, told: dict[str, Any]) -> Any:
    """A remote game's first state as the board of ``seat`` knew it, for a replay that checks
    its moves: facts that do not fit are left out (the moves then say what they can)."""
    try:
        return spec.remote().start(spec, options, seat, told)
    except ValueError:
        return spec.remote().mask(spec.new(**options), seat)
