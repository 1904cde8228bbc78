"""A pairing the hub assigns to a board (``<root>/hub/<board>/pairing``, retained; only the
hub writes there): the game to start next, with its players' names. The board shows it and
starts it when the game on it is over or has no move yet, never throwing away a game in
progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games import game_names, get_spec, player_ids
from companion.referee.clock import TimeControl


@dataclass(frozen=True)
class Pairing:
    id: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)  # seat -> person's name
    event: str = ""
    round: int | None = None
    clock: str | None = None  # the game's time control as typed ("10:00+5"); None: no clock
    clock_given: bool = False  # the hub named the clock (or none): else the board's own

    def line(self) -> str:
        """One line for the OLED and the table page: ``round 2: Ann v Bob, binary``."""
        names = " v ".join(self.players.values()) or "no names"
        where = f"round {self.round}: " if self.round is not None else ""
        return f"{where}{names}, {self.game}"


def parse_pairing(message: dict[str, Any]) -> Pairing:
    """The pairing in a hub's message; ValueError (one line) when the board cannot play it."""
    pid = message.get("pairing")
    if not isinstance(pid, str | int) or isinstance(pid, bool) or not str(pid):
        raise ValueError("pairing without an id")
    game = message.get("game")
    if game not in game_names():
        raise ValueError(f"pairing {pid}: no game {game!r} here ({', '.join(game_names())})")
    spec = get_spec(game)
    options = message.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"pairing {pid}: options must be an object")
    try:
        options = spec.resolve(dict(options))
    except ValueError as e:
        raise ValueError(f"pairing {pid}: {e}") from None
    players = message.get("players") or {}
    if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
        raise ValueError(f"pairing {pid}: players must map each seat to a name")
    seats = player_ids(game, options)
    unknown = [s for s in players if s not in seats]
    if unknown:
        raise ValueError(f"pairing {pid}: {game} has no seat {unknown[0]!r} ({', '.join(seats)})")
    clock = message.get("clock")
    if clock is not None:
        if not isinstance(clock, str):
            raise ValueError(f"pairing {pid}: clock must be a time control's text")
        try:
            clock = TimeControl.parse(clock).text()
        except ValueError as e:
            raise ValueError(f"pairing {pid}: {e}") from None
    rnd = message.get("round")
    return Pairing(
        id=str(pid),
        game=game,
        options=options,
        players={s: players[s] for s in seats if s in players},
        event=str(message.get("event") or ""),
        round=rnd if isinstance(rnd, int) and not isinstance(rnd, bool) else None,
        clock=clock,
        clock_given="clock" in message,
    )
