"""The event file: a TOML file naming the event, its players, the game and its rules, the
pairing system, the rounds, the tie-breaks and the boards to use::

    name = "Club night, March"
    game = "binaryon"
    rules = { size = 8 }
    pairing = "swiss"              # or "round-robin"
    rounds = 5                     # round robin: every round when left out
    boards = ["t1", "t2", "t3"]
    clock = "10:00+5"              # each game's time control (as --clock); none when left out
    players = [ { name = "Ann", rating = 1850 }, "Ben", "Cat" ]

Every bad value is refused with one line naming the key (``EventError``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.club.pairing import network_options
from companion.club.topics import valid_board_name
from companion.core import toml_text
from companion.core.names import MAX_NAME, name_problem
from companion.games import game_names, get_spec
from companion.timing.clock import TimeControl

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
SYSTEMS = (ROUND_ROBIN, SWISS)
BUCHHOLZ = "buchholz"
BUCHHOLZ_CUT1 = "buchholz-cut-1"
SONNEBORN_BERGER = "sonneborn-berger"
DIRECT_ENCOUNTER = "direct-encounter"
WINS = "wins"
TIEBREAKS = (BUCHHOLZ_CUT1, BUCHHOLZ, SONNEBORN_BERGER, DIRECT_ENCOUNTER, WINS)
# FIDE's recommendations (C.07): opponents' scores decide in a Swiss, where players met
# different fields; in a round robin everyone met the same field, so the games among the
# tied players and the quality of the points come first.
DEFAULT_TIEBREAKS = {
    SWISS: (BUCHHOLZ_CUT1, BUCHHOLZ, DIRECT_ENCOUNTER, WINS),
    ROUND_ROBIN: (DIRECT_ENCOUNTER, SONNEBORN_BERGER, WINS),
}
MAX_PLAYERS = 500
_KEYS = {
    "name",
    "clock",
    "game",
    "rules",
    "pairing",
    "rounds",
    "cycles",
    "boards",
    "players",
    "tiebreaks",
    "bye",
    "initial_colour",
}


class EventError(ValueError):
    """A bad event file; the message is one line naming the key."""


@dataclass(frozen=True)
class Player:
    name: str
    rating: int | None = None


@dataclass(frozen=True)
class Event:
    name: str
    game: str
    rules: dict[str, Any]  # the game's options, resolved (every option named)
    pairing: str
    rounds: int
    players: tuple[Player, ...]
    boards: tuple[str, ...] = ()
    tiebreaks: tuple[str, ...] = ()
    cycles: int = 1  # round robin: 2 plays every pairing twice, colours reversed
    bye: float = 1.0  # points for the pairing-allocated bye (a player left without opponent)
    seats: tuple[str, str] = ("white", "black")  # the game's two seats: first plays "white"
    initial_colour: str = "white"  # a Swiss: the colour of the top-ranked player in round 1
    given_rules: dict[str, Any] = field(default_factory=dict)  # as the file wrote them
    clock: str | None = None  # each game's time control as typed ("10:00+5"); None: no clock

    def ranked(self) -> list[Player]:
        """The players by their starting rank: a Swiss by rating (the unrated last), then the
        file's order; a round robin in the file's order (its Berger numbers: draw lots by
        listing the players in the drawn order)."""
        order = list(self.players)
        if self.pairing == SWISS:
            order.sort(key=lambda p: -(p.rating if p.rating is not None else -1))
        return order


def load_event(path: str | Path) -> Event:
    """Read and check an event file; EventError (one line) for any problem."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise EventError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > 1 << 20:
        raise EventError(f"{path}: larger than 1 MiB: not an event file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise EventError(f"{path}: not UTF-8 text") from None
    return parse_event(text, str(path))


def parse_event(text: str, source: str = "event") -> Event:
    try:
        raw = toml_text.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise EventError(f"{source}: not TOML: {e}") from None
    return event_from_dict(raw, source)


def event_from_dict(raw: dict[str, Any], source: str = "event") -> Event:
    def bad(key: str, why: str) -> EventError:
        return EventError(f"{source}: {key}: {why}")

    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise bad(unknown[0], f"unknown key (known: {', '.join(sorted(_KEYS))})")
    name = raw.get("name", "")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise bad("name", "give the event's name (1 to 80 characters)")
    game = raw.get("game")
    if not isinstance(game, str) or game not in game_names():
        raise bad("game", f"{game!r}: one of {', '.join(game_names())}")
    spec = get_spec(game)
    given = raw.get("rules", {})
    if not isinstance(given, dict):
        raise bad("rules", "a table of the game's options, e.g. rules = { size = 8 }")
    try:
        # the rules go to the boards in each pairing: what a board takes from the network
        rules = spec.resolve(
            network_options(spec.options, {k: _option_text(v) for k, v in given.items()})
        )
    except ValueError as e:
        raise bad("rules", str(e)) from None
    seats = tuple(spec.players(rules))
    if len(seats) != 2:
        raise bad(
            "game",
            f"{game} with these rules has {len(seats)} player(s) a game: an event pairs "
            "two-player games only",
        )
    if spec.new(**rules).virtual:
        raise bad("rules", f"{game} against virtual players: an event pairs two people")
    pairing = raw.get("pairing")
    if pairing not in SYSTEMS:
        raise bad("pairing", f"{pairing!r}: {' or '.join(repr(s) for s in SYSTEMS)}")
    players = _players(raw.get("players"), bad)
    cycles = raw.get("cycles", 1)
    if type(cycles) is not int or cycles not in (1, 2):
        raise bad("cycles", f"{cycles!r}: 1 (single round robin) or 2 (double)")
    if cycles == 2 and pairing != ROUND_ROBIN:
        raise bad("cycles", 'a double round (cycles = 2) is for pairing = "round-robin"')
    n = len(players)
    most = (n - 1 + n % 2) * cycles  # every pairing once (a bye each when odd)
    rounds = raw.get("rounds", most if pairing == ROUND_ROBIN else None)
    if type(rounds) is not int or not 1 <= rounds <= most:
        raise bad("rounds", f"{rounds!r}: a whole number from 1 to {most} for {n} players")
    boards = raw.get("boards", [])
    if not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
        raise bad("boards", 'a list of board names, e.g. ["t1", "t2"]')
    for b in boards:
        if not valid_board_name(b):
            raise bad("boards", f"{b!r}: letters, digits, - and _ (at most 32), not 'hub'")
    if len(set(boards)) != len(boards):
        raise bad("boards", "a board named twice")
    if boards and len(boards) < n // 2:
        raise bad("boards", f"{len(boards)} boards for {n // 2} games a round")
    tiebreaks = raw.get("tiebreaks", list(DEFAULT_TIEBREAKS[pairing]))
    if not isinstance(tiebreaks, list) or not all(t in TIEBREAKS for t in tiebreaks):
        raise bad("tiebreaks", f"a list of {', '.join(TIEBREAKS)}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise bad("tiebreaks", "a tie-break named twice")
    bye = raw.get("bye", 1)
    if type(bye) not in (int, float) or bye not in (0, 0.5, 1):
        raise bad("bye", f"{bye!r}: the points of a bye, 1, 0.5 or 0")
    clock = _clock(raw.get("clock"), bad)
    initial = raw.get("initial_colour", "white")
    if initial not in ("white", "black"):
        raise bad("initial_colour", f'{initial!r}: "white" or "black" (drawn by lot)')
    return Event(
        initial_colour=initial,
        name=name.strip(),
        game=game,
        rules=dict(rules),
        pairing=pairing,
        rounds=rounds,
        players=players,
        boards=tuple(boards),
        tiebreaks=tuple(tiebreaks),
        cycles=cycles,
        bye=float(bye),
        seats=(seats[0], seats[1]),
        given_rules={k: _option_text(v) for k, v in given.items()},
        clock=clock,
    )


def _clock(raw: Any, bad) -> str | None:
    """The event's time control, read as ``--clock`` reads one (None: no clock)."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise bad("clock", f'{raw!r}: a time control as text, e.g. clock = "10:00+5"')
    try:
        return TimeControl.parse(raw).text()
    except ValueError as e:
        raise bad("clock", str(e).removeprefix("clock ")) from None


def _option_text(value: Any) -> Any:
    """TOML's booleans and numbers as the option parser reads them from a command line."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if isinstance(value, int | float) else value


def _players(raw: Any, bad) -> tuple[Player, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise bad("players", 'at least two: players = ["Ann", { name = "Ben", rating = 1800 }]')
    if len(raw) > MAX_PLAYERS:
        raise bad("players", f"{len(raw)} players: at most {MAX_PLAYERS}")
    out: list[Player] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        key = f"players[{i}]"
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict):
            raise bad(key, 'a name or { name = "...", rating = 1800 }')
        extra = sorted(set(item) - {"name", "rating"})
        if extra:
            raise bad(f"{key}.{extra[0]}", "unknown key (name, rating)")
        name = item.get("name")
        if isinstance(name, str):
            name = name.strip()
        if problem := name_problem(name):
            raise bad(f"{key}.name", f"{problem} (1 to {MAX_NAME} characters)")
        if name.casefold() in seen:
            raise bad(f"{key}.name", f"{name!r} is listed twice")
        seen.add(name.casefold())
        rating = item.get("rating")
        if rating is not None and (type(rating) is not int or not 0 <= rating <= 4000):
            raise bad(f"{key}.rating", f"{rating!r}: a whole number from 0 to 4000")
        out.append(Player(name, rating))
    return tuple(out)
