"""The hub's results: every finished game a board sent, in one SQLite file, stored once by its
board and ``game_uid`` (a result sent twice, after a reconnection or a restart, is stored
once; a uid another board sent first is that board's, never acknowledged to this one). A
remote game's two reports, one from each board, are one game (``joined``).

A result is committed before the hub acknowledges it, so a hub killed at any moment either
has it (and acknowledges it again when the board sends it again) or never acknowledged it (and
the board, which keeps it retained until acknowledged, sends it again).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.club import topics
from companion.core.config import default_state_dir
from companion.records.said import in_seat_order, said_by_name

from .state import Refused, text

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_uid TEXT NOT NULL,
    board TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,   -- JSON {seat: name}
    result TEXT NOT NULL,
    winners TEXT NOT NULL,   -- JSON [seat, ...]
    options TEXT NOT NULL,   -- JSON {name: value}
    record TEXT NOT NULL,
    pairing TEXT,
    finished REAL,
    received REAL NOT NULL,
    remote TEXT,             -- a remote game: "<peer>:<board's game id>:<peer's game id>"
    status TEXT,             -- remote play: 'disputed' or 'unverified' (the arbiter's result)
    evidence TEXT,           -- JSON: why, and what the board kept to show it
    PRIMARY KEY (board, game_uid)
);
CREATE INDEX IF NOT EXISTS results_board ON results (board, received);
CREATE INDEX IF NOT EXISTS results_remote ON results (remote);
-- a remote game's second report: the game the other board reported first
CREATE TABLE IF NOT EXISTS joined (
    board TEXT NOT NULL,
    game_uid TEXT NOT NULL,
    to_board TEXT NOT NULL,
    to_uid TEXT NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (board, game_uid)
);
"""
# a results file of an older hub: one game_uid for all boards, no remote games
UPGRADE = """
ALTER TABLE results RENAME TO results_old;
DROP INDEX IF EXISTS results_board;
{schema}
INSERT INTO results (game_uid, board, game, players, result, winners, options, record, pairing,
                     finished, received)
    SELECT game_uid, board, game, players, result, winners, options, record, pairing, finished,
           received FROM results_old;
DROP TABLE results_old;
"""
MAX_UID = 200
BATCH = 20  # results read from the file at a time
PAGE_BYTES = 2 * 1024 * 1024  # of JSON in one page of /api/results (a result is < 1 MB)
STATUSES = ("disputed", "unverified")  # a remote game's result left to the arbiter
MAX_EVIDENCE = 64_000  # bytes of JSON kept of a dispute's evidence
ACKED = 32  # uids one ack names at most: the newest of the board's stored results


def default_store_path() -> Path:
    """Beside the journal's default place: ``$XDG_STATE_HOME/binaryon/club.sqlite``."""
    return default_state_dir() / "club.sqlite"


def parse_result(board: str, game_uid: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The stored fields of a result message, or Refused."""
    if payload.get("board") != board:
        raise Refused(f"says board {text(payload.get('board'), 40)!r}, not {board!r}")
    if payload.get("game_uid") != game_uid or not 0 < len(game_uid) <= MAX_UID:
        raise Refused("game_uid differs from its topic's")
    record = payload.get("record")
    if not isinstance(record, str):
        raise Refused("result without a record")
    players = payload.get("players")
    players = players if isinstance(players, dict) else {}
    winners = payload.get("winners")
    winners = winners if isinstance(winners, list) else []
    options = payload.get("options")
    options = options if isinstance(options, dict) else {}
    finished = payload.get("finished")
    pairing = payload.get("pairing")
    status = payload.get("status")
    status = status if status in STATUSES else None
    said = text(payload.get("result"), 300)
    evidence = None
    if status is not None:  # never a plain result: the board's is kept as evidence
        why = text(payload.get("why"), 300)
        kept = {"why": why, "board_result": said, "board_winners": winners,
                "evidence": payload.get("evidence")}  # fmt: skip
        evidence = json.dumps(kept, ensure_ascii=False)
        if len(evidence) > MAX_EVIDENCE:
            evidence = json.dumps({**kept, "evidence": "(too long: on the boards' journals)"})
        said, winners = f"{status}: {why}", []
    return {
        "remote": remote_key(payload.get("remote"), players),
        "status": status,
        "evidence": evidence,
        "game_uid": game_uid,
        "board": board,
        "game": text(payload.get("game")),
        "players": {text(k): text(v) for k, v in players.items()},
        "result": said,
        "winners": [text(w) for w in winners if text(w)],
        "options": {text(k): v for k, v in options.items() if isinstance(v, str | int | bool)},
        "record": record,
        "pairing": text(pairing, MAX_UID) if pairing is not None else None,
        "finished": float(finished) if _number(finished) else None,
    }


def _game(r: tuple) -> dict[str, Any]:
    game, options, winners = r[3], json.loads(r[7]), json.loads(r[6])
    players = in_seat_order(game, options, json.loads(r[4]))
    status = r[12]  # disputed or unverified: the arbiter's result, no winner to say
    said = None if status else said_by_name(game, options, players, winners)
    return {
        "id": r[0],
        "game_uid": r[1],
        "board": r[2],
        "game": game,
        "players": players,  # in seat order, the first player first
        "result": r[5],
        "said": said[0] if said else None,  # "Dan beat Ben"
        "score_line": said[1] if said else None,  # "Dan v Ben 0-1"
        "winners": winners,
        "options": options,
        "record": r[8],
        "pairing": r[9],
        "finished": r[10],
        "received": r[11],
        **({"status": status, "evidence": json.loads(r[13] or "null")} if status else {}),
    }


def remote_key(remote: Any, players: dict[str, Any]) -> tuple[str, str, str] | None:
    """A remote game's identity as its board says it: (the peer, "<peer>:<this board's game
    id>:<the peer's game id>", the seat played here), or None (a game on one board)."""
    if not isinstance(remote, dict):
        return None
    peer, seat = text(remote.get("peer"), 40), text(remote.get("seat"), 40)
    mine, theirs = remote.get("game"), remote.get("peer_game")
    if not (peer and seat and _whole(mine) and _whole(theirs)):
        return None
    if not topics.valid_board_name(peer) or seat not in players:
        return None
    return peer, f"{peer}:{mine}:{theirs}", seat


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class ResultStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        keys = [r[1] for r in self.db.execute("PRAGMA table_info(results)") if r[5]]
        if keys == ["game_uid"]:  # an older hub's file: results by game_uid alone
            self.db.executescript(f"BEGIN;{UPGRADE.format(schema=SCHEMA)}COMMIT;")
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        for column in ("status", "evidence"):  # an older store: added in place
            if column not in columns:
                self.db.execute(f"ALTER TABLE results ADD COLUMN {column} TEXT")

    def add(self, result: dict[str, Any]) -> bool:
        """Store a parsed result; False when the board's game_uid is stored already (kept as
        it was), or when it is the second report of a remote game the other board reported
        first (then joined to it: one game, with the seat's name from each board)."""
        board, uid = result["board"], result["game_uid"]
        if self.has(board, uid):
            return False
        remote = result.get("remote")
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if remote is not None and self._join(board, uid, result, remote):
                return False
            self.db.execute(
                "INSERT INTO results (game_uid, board, game, players, result, winners,"
                " options, record, pairing, finished, received, remote, status, evidence)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    uid,
                    board,
                    result["game"],
                    json.dumps(result["players"], ensure_ascii=False),
                    result["result"],
                    json.dumps(result["winners"], ensure_ascii=False),
                    json.dumps(result["options"], ensure_ascii=False),
                    result["record"],
                    result["pairing"],
                    result["finished"],
                    time.time(),
                    remote[1] if remote is not None else None,
                    result.get("status"),
                    result.get("evidence"),
                ),
            )
        return True

    def _join(self, board: str, uid: str, result: dict[str, Any], remote: tuple) -> bool:
        """The other board's report of the same remote game, if stored and not joined yet:
        this one is joined to it, and its seat takes this board's player's name."""
        peer, key, seat = remote
        _, mine, theirs = key.split(":")
        row = self.db.execute(
            "SELECT game_uid, players, game FROM results WHERE board = ? AND remote = ?"
            " AND NOT EXISTS (SELECT 1 FROM joined j WHERE j.to_board = results.board"
            " AND j.to_uid = results.game_uid)",
            (peer, f"{board}:{theirs}:{mine}"),
        ).fetchone()
        if row is None or row[2] != result["game"]:
            return False
        players = json.loads(row[1])
        if seat in result["players"]:
            players[seat] = result["players"][seat]
        self.db.execute(
            "UPDATE results SET players = ? WHERE board = ? AND game_uid = ?",
            (json.dumps(players, ensure_ascii=False), peer, row[0]),
        )
        if result.get("status"):  # disputed or unverified here: never the plain result there
            self.db.execute(
                "UPDATE results SET status = ?, evidence = ?, result = ?, winners = '[]'"
                " WHERE board = ? AND game_uid = ?",
                (result["status"], result.get("evidence"), result["result"], peer, row[0]),
            )
        self.db.execute(
            "INSERT INTO joined VALUES (?,?,?,?,?)", (board, uid, peer, row[0], time.time())
        )
        return True

    def has(self, board: str, uid: str) -> bool:
        """Is this board's result stored (or joined to its remote game's)?"""
        return bool(
            self.db.execute(
                "SELECT 1 FROM results WHERE board = ? AND game_uid = ? UNION ALL"
                " SELECT 1 FROM joined WHERE board = ? AND game_uid = ?",
                (board, uid, board, uid),
            ).fetchone()
        )

    def acked(self, board: str, uid: str) -> list[str]:
        """What the board's ack names: its results the hub has (``uid`` first when it is
        one of them), the newest first; never a result stored from another board."""
        rows = self.db.execute(
            "SELECT game_uid FROM (SELECT game_uid, received FROM results WHERE board = ?"
            " UNION ALL SELECT game_uid, received FROM joined WHERE board = ?)"
            " WHERE game_uid != ? ORDER BY received DESC LIMIT ?",
            (board, board, uid, ACKED - 1),
        ).fetchall()
        first = [uid] if self.has(board, uid) else []
        return [*first, *(r[0] for r in rows)]

    def games(self, board: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Stored results, newest first, at most ``limit``."""
        return list(itertools.islice(self.each(board), limit))

    def each(self, board: str | None = None, before: int | None = None) -> Iterator[dict]:
        """Stored results, newest first (from ``before``'s, a result's ``id``, when given),
        read from the file a few at a time: memory stays flat however many there are."""
        while True:
            where, args = ["rowid < ?"], [before if before is not None else 1 << 62]
            if board:
                where.append("board = ?")
                args.append(board)
            rows = self.db.execute(
                "SELECT rowid, game_uid, board, game, players, result, winners, options, record,"
                " pairing, finished, received, status, evidence FROM results"
                f" WHERE {' AND '.join(where)}"
                " ORDER BY rowid DESC LIMIT ?",
                (*args, BATCH),
            ).fetchall()
            for r in rows:
                yield _game(r)
            if len(rows) < BATCH:
                return
            before = rows[-1][0]

    def page(
        self,
        board: str | None = None,
        limit: int = 50,
        before: int | None = None,
        budget: int = PAGE_BYTES,
        records: bool = True,
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of ``GET /api/results``: at most ``limit`` results and about ``budget``
        bytes of JSON (always one result at least), newest first, and the ``before`` of the
        next page (None: this was the last)."""
        out: list[dict[str, Any]] = []
        size = 0
        for game in self.each(board, before):
            if not records:
                game.pop("record")
            length = len(json.dumps(game, ensure_ascii=False))
            if len(out) >= limit or (out and size + length > budget):
                return out, out[-1]["id"]
            out.append(game)
            size += length
        return out, None

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self.db.close()
