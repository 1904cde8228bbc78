"""The board's messages to the club's broker (docs/club.md), built from what the table page
and the journal already hold: never a secret the table page would not show.

Every payload is a UTF-8 JSON object carrying ``board`` and ``sent`` (unix time).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from companion import PROGRAM
from companion.core.wire_json import load_object
from companion.journal.rows import GameEntry
from companion.records.said import seated
from companion.records.shown import shown_options
from companion.referee.session import Played

log = logging.getLogger(PROGRAM)


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str).encode()


# bytes a board takes of each message from the broker: checked before anything is decoded
MAX_ACK = 16 * 1024  # the hub's ack names at most 32 game uids
MAX_PAIRING = 16 * 1024  # a pairing: ids, names of at most 40 characters, a few options
MAX_PEER = 64 * 1024  # a remote board's message (a whole game's names at its end)
# the largest packet the broker may send a board (MQTT 5's Maximum Packet Size, given when
# it connects): the broker drops anything larger before it leaves the broker
MAX_PACKET = 128 * 1024


def decode(payload: bytes, limit: int = MAX_PEER) -> dict[str, Any] | None:
    """A received message's JSON object; None for an empty payload (a cleared retained
    message); WireRefused (one line, with its kind) when it is over ``limit`` bytes (checked
    before decoding), too deep, not JSON or not an object."""
    if not payload:
        return None
    return load_object(payload, limit)


def status(board: str, game: str, version: str, now: float) -> dict[str, Any]:
    return {"board": board, "online": True, "game": game, "version": version, "sent": now}


def offline(board: str, now: float | None = None) -> dict[str, Any]:
    """The last will (no time: the broker sends it whenever the board vanishes) and what a
    clean exit publishes."""
    out: dict[str, Any] = {"board": board, "online": False}
    if now is not None:
        out["sent"] = now
    return out


def table(board: str, seq: int, game_uid: str, view: dict[str, Any], now: float) -> dict:
    return {"board": board, "seq": seq, "sent": now, "game_uid": game_uid, "view": view}


def move(board: str, game_uid: str, ply: int, played: Played, now: float) -> dict[str, Any]:
    """One move by its public name (a secret stays on the board until the game reveals it)."""
    return {
        "board": board,
        "game_uid": game_uid,
        "ply": ply,
        "move": played.public,
        "player": played.player,
        "sent": now,
    }


def undo(board: str, game_uid: str, to_ply: int, now: float) -> dict[str, Any]:
    """Moves taken back: the game goes on from its first ``to_ply`` moves."""
    return {"board": board, "game_uid": game_uid, "undo_to": to_ply, "sent": now}


def result(
    board: str, game_uid: str, entry: GameEntry, pairing: str | None, now: float
) -> dict[str, Any]:
    """A finished game from the journal, with its record as ``binaryon export`` writes it
    (a finished game shows what it revealed, as its export does)."""
    from companion.records.format import format_record, record_from_entry

    try:
        record = format_record(record_from_entry(entry))
    except ValueError as e:  # a damaged row: the result still goes, without its record
        log.warning("club: game %s has no record: %s", entry.id, e)
        record = ""
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    winners = detail.get("winners")
    if not isinstance(winners, list):
        winners = [entry.result] if entry.result and entry.result != "draw" else []
    return {
        "board": board,
        "game_uid": game_uid,
        "game": entry.game,
        "options": shown_options(entry),
        "players": seated(entry),
        "result": entry.summary or "",
        "winners": [str(w) for w in winners],
        "record": record,
        "pairing": pairing,
        "finished": entry.ended / 1000 if entry.ended is not None else None,
        "sent": now,
        **disputed(entry),
    }


def disputed(entry: GameEntry) -> dict[str, Any]:
    """A remote game whose result is the arbiter's (docs/club.md, "A dishonest peer"):
    ``status`` 'disputed' (with ``why`` and the ``evidence``) or 'unverified'."""
    if entry.dispute is None:
        return {}
    return {"status": entry.dispute.status, "why": entry.dispute.why,
            "evidence": entry.dispute.evidence}  # fmt: skip
