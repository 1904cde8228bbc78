"""A pairing the hub assigns to a board (``<root>/hub/<board>/pairing``, retained; only the
hub writes there): the game to start next, with its players' names. The board shows it and
starts it when the game on it is over or has no move yet, never throwing away a game in
progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.names import name_problem
from companion.games import game_names, get_spec, player_ids
from companion.games.options import Option
from companion.timing.clock import TimeControl

MAX_ID = 80  # characters of a pairing's id
MAX_EVENT = 80  # characters of an event's name (as the event file allows)
MAX_OPTIONS = 32  # options in one pairing
MAX_OPTION_TEXT = 400  # characters of an option's name or value (Binøme's points: ~130)


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


def network_options(known: tuple[Option, ...], given: dict[str, Any]) -> dict[str, Any]:
    """A game's options as the network gives them, before anything reads them: a few short
    values, and an option that names a file on the board only by a built-in name (never a
    path: what a board's files hold is none of the network's business)."""
    if len(given) > MAX_OPTIONS:
        raise ValueError(f"{len(given)} options: at most {MAX_OPTIONS}")
    out = {}
    for key, value in given.items():
        if len(str(key)) > MAX_OPTION_TEXT or len(str(value)) > MAX_OPTION_TEXT:
            raise ValueError(f"an option's name and value are at most {MAX_OPTION_TEXT} long")
        out[key] = value
    for option in known:
        if option.builtins is None or option.name not in out:
            continue
        if out[option.name] not in ("", *option.builtins):
            names = ", ".join(option.builtins)
            raise ValueError(f"{option.name}: a pairing names one built-in only ({names})")
        out[option.name] = ""  # the one the package ships
    return out


def one_line(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def parse_pairing(message: dict[str, Any]) -> Pairing:
    """The pairing in a hub's message; ValueError (one line) when the board cannot play it."""
    pid = message.get("pairing")
    if not isinstance(pid, str | int) or isinstance(pid, bool) or not str(pid):
        raise ValueError("pairing without an id")
    if name_problem(str(pid), MAX_ID):
        raise ValueError(f"a pairing's id is one line of at most {MAX_ID} characters")
    event = message.get("event") or ""
    if event and name_problem(event, MAX_EVENT):
        raise ValueError(f"pairing {pid}: the event's name is one line of at most {MAX_EVENT}")
    game = message.get("game")
    if game not in game_names():
        raise ValueError(f"pairing {pid}: no game {game!r} here ({', '.join(game_names())})")
    spec = get_spec(game)
    options = message.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"pairing {pid}: options must be an object")
    try:
        options = spec.resolve(network_options(spec.options, options))
    except ValueError as e:
        raise ValueError(f"pairing {pid}: {one_line(str(e))}") from None
    players = message.get("players") or {}
    if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
        raise ValueError(f"pairing {pid}: players must map each seat to a name")
    for name in players.values():
        if problem := name_problem(name):
            raise ValueError(f"pairing {pid}: {problem}")
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
        event=str(event),
        round=rnd if isinstance(rnd, int) and not isinstance(rnd, bool) else None,
        clock=clock,
        clock_given="clock" in message,
    )
