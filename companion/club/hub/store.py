"""The hub's results: every finished game a board sent, in one SQLite file, stored once by its
``game_uid`` (a result sent twice, after a reconnection or a restart, is stored once).

A result is committed before the hub acknowledges it, so a hub killed at any moment either
has it (and acknowledges it again when the board sends it again) or never acknowledged it (and
the board, which keeps it retained until acknowledged, sends it again).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from companion.core.config import default_state_dir

from .state import Refused, text

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_uid TEXT PRIMARY KEY,
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
    status TEXT,             -- remote play: 'disputed' or 'unverified' (the arbiter's result)
    evidence TEXT            -- JSON: why, and what the board kept to show it
);
CREATE INDEX IF NOT EXISTS results_board ON results (board, received);
"""
MAX_UID = 200
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


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class ResultStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        for column in ("status", "evidence"):  # an older store: added in place
            if column not in columns:
                self.db.execute(f"ALTER TABLE results ADD COLUMN {column} TEXT")

    def add(self, result: dict[str, Any]) -> bool:
        """Store a parsed result; False when its game_uid is stored already (kept as it was)."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO results (game_uid, board, game, players, result, winners,"
            " options, record, pairing, finished, received, status, evidence)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                result["game_uid"],
                result["board"],
                result["game"],
                json.dumps(result["players"], ensure_ascii=False),
                result["result"],
                json.dumps(result["winners"], ensure_ascii=False),
                json.dumps(result["options"], ensure_ascii=False),
                result["record"],
                result["pairing"],
                result["finished"],
                time.time(),
                result.get("status"),
                result.get("evidence"),
            ),
        )
        return cursor.rowcount == 1

    def acked(self, board: str, uid: str) -> list[str]:
        """What the board's ack names: ``uid`` first, then its newest other stored results."""
        rows = self.db.execute(
            "SELECT game_uid FROM results WHERE board = ? AND game_uid != ?"
            " ORDER BY received DESC LIMIT ?",
            (board, uid, ACKED - 1),
        ).fetchall()
        return [uid, *(r[0] for r in rows)]

    def games(self, board: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Stored results, newest first (``GET /api/results``)."""
        where, args = ("WHERE board = ?", [board]) if board else ("", [])
        rows = self.db.execute(
            "SELECT game_uid, board, game, players, result, winners, options, record, pairing,"
            f" finished, received, status, evidence FROM results {where}"
            " ORDER BY received DESC LIMIT ?",
            (*args, limit),
        ).fetchall()
        return [
            {
                "game_uid": r[0],
                "board": r[1],
                "game": r[2],
                "players": json.loads(r[3]),
                "result": r[4],
                "winners": json.loads(r[5]),
                "options": json.loads(r[6]),
                "record": r[7],
                "pairing": r[8],
                "finished": r[9],
                "received": r[10],
                **({"status": r[11], "evidence": json.loads(r[12] or "null")} if r[11] else {}),
            }
            for r in rows
        ]

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self.db.close()
