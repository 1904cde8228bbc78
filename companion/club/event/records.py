"""An event's games as one file of records (docs/records.md: ``binaryon import`` reads it
back, game by game), and a board's finished game read as an event's result."""

from __future__ import annotations

from typing import Any

from companion.club.event.tournament import BYE, EventStateError, Game, Tournament
from companion.journal.rows import ABANDONED
from companion.records.format import Record, format_record
from companion.records.read import add_tags
from companion.timing.clock import TimeControl


def game_tags(t: Tournament, g: Game) -> dict[str, str]:
    tags = {"Event": t.event.name, "Round": str(g.round), "Pairing": g.pairing}
    if g.board:
        tags["Board"] = g.board
    tags["EventResult"] = g.result or "*"
    if g.void:
        tags["EventResult"] = f"replayed ({g.result or '*'} set aside)"
    return tags


def export_event(t: Tournament) -> str:
    """Every game of the event, round by round, as records one after the other: the board's
    own record with the event's tags added, or (a result typed in, a forfeit) a record of
    the pairing with no moves. Byes and games not played yet are left out. Every record of
    an event with a clock carries its ``TimeControl`` (a board's has its own already)."""
    parts: list[str] = []
    control = TimeControl.parse(t.event.clock) if t.event.clock else None
    for g in sorted(t.games, key=lambda g: (g.round, g.table, g.attempt)):
        if g.black is None or g.result == BYE or (g.result is None and not g.record):
            continue  # a bye, or a game not played yet
        tags = game_tags(t, g)
        if g.record:
            if control is not None:  # a board's record without one: the event's
                tags = {"TimeControl": control.pgn(), **tags}
            parts.append(add_tags(g.record, tags))
            continue
        white, black = t.event.seats
        rec = Record(
            game=t.event.game,
            options=dict(t.event.rules),
            moves=[],
            players={white: g.white, black: g.black},
            status=ABANDONED,
            tags=tags,
            time_control=control,
        )
        parts.append(format_record(rec))
    return "\n".join(parts)


def board_result(t: Tournament, g: Game, message: dict[str, Any]) -> str:
    """A board's finished game (CLUB.md ``results``) as the event's result code. Its winners
    are people's names or the seats they held (named by the message's ``players``, else by
    the pairing's); none: a draw. The names are the pairing's: a board whose players are
    others (a game not started from this pairing) is refused."""
    players = message.get("players") or {}
    players = players if isinstance(players, dict) else {}
    if players and sorted(map(str, players.values())) != sorted((g.white, g.black or "")):
        raise EventStateError(f"{g.pairing}: the board's players are not the pairing's")
    seats = dict(zip(t.event.seats, (g.white, g.black), strict=True))
    names = message.get("winner_names")
    if names is None:
        winners = message.get("winners") or []
        if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
            raise EventStateError(f"{g.pairing}: winners must be a list of seats or names")
        names = [
            w if w in (g.white, g.black) else players.get(w) or seats.get(w, w) for w in winners
        ]
    if not isinstance(names, list) or len(names) > 1:
        raise EventStateError(f"{g.pairing}: a two-player game has one winner or none")
    if names and not isinstance(names[0], str):
        raise EventStateError(f"{g.pairing}: a winner is named by a text")
    if not names:
        return "1/2-1/2"
    if names[0] == g.white:
        return "1-0"
    if names[0] == g.black:
        return "0-1"
    raise EventStateError(f"{g.pairing}: the board names {names[0]!r}, who does not play it")
