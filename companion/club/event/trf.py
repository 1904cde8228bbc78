"""FIDE's Tournament Report File (TRF-16, Handbook C.04 Annex 2): an event written as one
and read back.

Written: the header lines the event has (012 name, 062 players, 072 rated players, 092
type, 122 time control), ``XXR`` (rounds), ``XXC`` (the initial colour) and ``BBU`` (the
bye's points, when not 1), the lines bbpPairings and JaVaFo read, then one ``001`` line a
player, in pairing-number order: number, name, rating, points, rank, and each round's
opponent, colour and result (``1 = 0`` played, ``+ -`` forfeits, ``U`` the
pairing-allocated bye, ``0000 - -`` a round robin's round off, a blank result for a game
still to be played; names longer than the 33 columns are cut). One line of the project's
own (``BNY``, JSON: the game, its rules, the tie-breaks, the bye's points, the boards, the
clock and each round's table order) makes the round trip exact; other programs skip lines
they do not know, and a file without it is read with the game given on the command line
and FIDE's board order.

Read: a file an event can hold (the pairing-allocated bye only: a bye asked for, ``H Z F``,
is refused in one line, as is any line that does not parse)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.club.event.spec import ROUND_ROBIN, SWISS, Event
from companion.club.event.swiss import History, board_order
from companion.club.event.tournament import BYE, Game, Tournament
from companion.games import DEFAULT_GAME

# column (0-based) where each field of a 001 line starts, and its width
_NUMBER, _NAME, _RATING, _POINTS, _RANK, _ROUNDS = (4, 4), (14, 33), (48, 4), (80, 4), (85, 4), 91
_CELL = 10
_CODES = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}
_RESULTS = {codes: result for result, codes in _CODES.items()}
# results of games played without rating (W D L) read as played
_UNRATED = str.maketrans({"W": "1", "D": "=", "L": "0"})


class TrfError(ValueError):
    """A TRF file an event cannot be made of; one line."""


def _put(line: list[str], at: int, width: int, text: str, right: bool = False) -> None:
    text = text[:width]
    text = text.rjust(width) if right else text.ljust(width)
    line[at : at + width] = list(text)


def export_trf(t: Tournament) -> str:
    """The event as a TRF-16 file: every round paired so far, the games that count (a
    replayed game's new game, not the void one)."""
    from companion.club.event.standings import standings

    e = t.event
    ranked = [p.name for p in e.ranked()]
    number = {name: i + 1 for i, name in enumerate(ranked)}
    rating = {p.name: p.rating for p in e.players}
    table = {s.name: s for s in standings(t)}
    rounds = t.round
    head = [
        f"012 {e.name}",
        f"062 {len(e.players)}",
        f"072 {sum(1 for p in e.players if p.rating)}",
        "092 Individual: " + ("Round-Robin" if e.pairing == ROUND_ROBIN else "Swiss-System"),
    ]
    if e.clock:
        head.append(f"122 {e.clock}")
    head.append(f"XXR {e.rounds}")
    if e.pairing == SWISS:
        head.append(f"XXC {e.initial_colour}1")
        if e.bye != 1.0:  # the bye's points, as bbpPairings reads them
            head.append(f"BBU {e.bye:4.1f}")
    cells: dict[str, list[str]] = {name: [" " * 8] * rounds for name in ranked}
    tables: dict[str, list[int]] = {}
    for r in range(1, rounds + 1):
        games = sorted(t.live(r), key=lambda g: g.table)
        tables[str(r)] = [number[g.white] for g in games]
        for g in games:
            if g.black is None:  # a round robin's round off scores nothing: "-"
                cells[g.white][r - 1] = "0000 - -" if e.pairing == ROUND_ROBIN else "0000 - U"
                continue
            cw, cb = _CODES.get(g.result or "", (" ", " "))
            cells[g.white][r - 1] = f"{number[g.black]:4d} w {cw}"
            cells[g.black][r - 1] = f"{number[g.white]:4d} b {cb}"
    own = {
        "game": e.game,
        "rules": e.given_rules,
        "pairing": e.pairing,
        "tiebreaks": list(e.tiebreaks),
        "bye": e.bye,
        "cycles": e.cycles,
        "boards": list(e.boards),
        "clock": e.clock,
        "tables": tables,
    }
    head.append("BNY " + json.dumps(own, ensure_ascii=False, separators=(",", ":")))
    lines = []
    for name in ranked:
        line = [" "] * (_ROUNDS - 2)
        _put(line, 0, 3, "001")
        _put(line, *_NUMBER, str(number[name]), right=True)
        _put(line, *_NAME, name)
        _put(line, *_RATING, str(rating[name] or ""), right=True)
        _put(line, *_POINTS, f"{table[name].points:.1f}", right=True)
        _put(line, *_RANK, str(table[name].rank), right=True)
        text = "".join(line) + "".join("  " + c for c in cells[name])
        lines.append(text.rstrip())
    return "\n".join(head + lines) + "\n"


@dataclass
class _Player:
    number: int
    name: str
    rating: int | None
    cells: list[tuple[int, str, str]]  # (opponent or 0, colour, result code)


def _field(line: str, at: int, width: int) -> str:
    return line[at : at + width].strip()


def _player(line: str, where: str) -> _Player:
    try:
        number = int(_field(line, *_NUMBER))
    except ValueError:
        raise TrfError(f"{where}: no pairing number in columns 5-8") from None
    name = _field(line, *_NAME)
    if not name:
        raise TrfError(f"{where}: player {number} has no name (columns 15-47)")
    rating_text = _field(line, *_RATING)
    if rating_text and not rating_text.isdigit():
        raise TrfError(f"{where}: rating {rating_text!r} is not a number (columns 49-52)")
    cells = []
    for at in range(_ROUNDS, len(line.rstrip()), _CELL):
        cell = line[at : at + 8].ljust(8)
        opp_text, colour, code = cell[:4].strip(), cell[5].lower(), cell[7].upper()
        if not opp_text and not code.strip():
            cells.append((0, " ", " "))  # not paired that round
            continue
        if not opp_text.isdigit():
            raise TrfError(f"{where}: round {len(cells) + 1}: {cell.strip()!r} is no opponent")
        cells.append((int(opp_text), colour, code.translate(_UNRATED)))
    rating = int(rating_text) if rating_text and int(rating_text) else None
    return _Player(number, name, rating, cells)


def read_trf(text: str, source: str = "TRF", game: str | None = None) -> tuple[dict, list[Game]]:
    """An event file's keys (for ``spec.event_from_dict``) and its games from a TRF-16 file.
    ``game``: the game to play when the file does not say (no ``BNY`` line; else the
    default game)."""
    name = ""
    rounds: int | None = None
    initial = "white"
    kind = ""
    own: dict[str, Any] = {}
    bbu: float | None = None
    players: dict[int, _Player] = {}
    for n, line in enumerate(text.splitlines(), 1):
        code, value = line[:3], line[4:].strip()
        where = f"{source}:{n}"
        if code == "001":
            p = _player(line, where)
            if p.number in players:
                raise TrfError(f"{where}: pairing number {p.number} given twice")
            players[p.number] = p
        elif code == "012":
            name = value
        elif code == "092":
            kind = value.lower()
        elif code == "XXR":
            if not value.isdigit():
                raise TrfError(f"{where}: XXR {value!r}: the number of rounds")
            rounds = int(value)
        elif code == "XXC" and value.lower().startswith("black"):
            initial = "black"
        elif code == "BBU":
            try:
                bbu = float(value)
            except ValueError:
                raise TrfError(f"{where}: BBU {value!r}: the bye's points") from None
        elif code == "BNY":
            try:
                own = json.loads(value)
            except ValueError:
                raise TrfError(f"{where}: BNY: not JSON") from None
            if not isinstance(own, dict):
                raise TrfError(f"{where}: BNY: not a JSON object")
    if len(players) < 2:
        raise TrfError(f"{source}: fewer than two players (001 lines)")
    numbers = sorted(players)
    if numbers != list(range(1, len(numbers) + 1)):
        raise TrfError(f"{source}: pairing numbers are not 1 to {len(numbers)}")
    pairing = own.get("pairing") or (ROUND_ROBIN if "round" in kind else SWISS)
    played = max(len(p.cells) for p in players.values())
    raw: dict[str, Any] = {
        "name": name or "Imported event",
        "game": own.get("game") or game or DEFAULT_GAME,
        "pairing": pairing,
        "rounds": max(rounds or 0, played),
        "players": [
            {"name": players[i].name}
            if players[i].rating is None
            else {"name": players[i].name, "rating": players[i].rating}
            for i in numbers
        ],
    }
    if bbu is not None and pairing == SWISS:
        own.setdefault("bye", bbu)
    for key in ("rules", "tiebreaks", "bye", "cycles", "boards", "clock"):
        if own.get(key) not in (None, [], {}):
            raw[key] = own[key]
    if raw.get("cycles") == 1:
        del raw["cycles"]
    if pairing == SWISS:
        raw["initial_colour"] = initial
    games = _games(
        players,
        played,
        own.get("tables") or {},
        0.0 if pairing == ROUND_ROBIN else float(own.get("bye", 1)),
        source,
        pairing == ROUND_ROBIN,
    )
    return raw, games


def _games(
    players: dict[int, _Player],
    rounds: int,
    tables: dict,
    bye: float,
    source: str,
    round_robin: bool = False,
) -> list[Game]:
    """Each round's games, on the tables the file's BNY line gives, else in FIDE's board
    order by the scores before the round."""
    score = {n: 0.0 for n in players}
    out: list[Game] = []
    for r in range(1, rounds + 1):
        where = f"{source}: round {r}"
        pairs: dict[int, tuple[int, int | None, str | None]] = {}  # white -> (w, b, result)
        for n, p in players.items():
            opp, colour, code = p.cells[r - 1] if r - 1 < len(p.cells) else (0, " ", " ")
            if opp == 0:
                if code == "U" or (code == "-" and round_robin):
                    pairs[n] = (n, None, BYE)
                elif code.strip():
                    raise TrfError(
                        f"{where}: player {n} has {code!r} without an opponent: an event has "
                        "only the pairing-allocated bye (U)"
                    )
                continue
            if (
                opp not in players
                or len(players[opp].cells) < r
                or players[opp].cells[r - 1][0] != n
            ):
                raise TrfError(f"{where}: players {n} and {opp} do not name each other")
            other = players[opp].cells[r - 1]
            white_here = colour == "w" or (colour != "b" and other[1] != "w" and n < opp)
            if not white_here:
                continue
            codes = (code, other[2])
            if codes == (" ", " "):
                result = None
            elif codes in _RESULTS:
                result = _RESULTS[codes]
            else:
                raise TrfError(f"{where}: {n} {code!r} against {opp} {other[2]!r}: no result")
            pairs[n] = (n, opp, result)
        order = tables.get(str(r))
        if order and sorted(order) == sorted(pairs):
            chosen = [pairs[w] for w in order]
        else:
            hist = [History(None, score[i]) for i in sorted(players)]
            chosen_idx = board_order(
                hist, [(w - 1, None if b is None else b - 1) for w, b, _ in pairs.values()]
            )
            chosen = [pairs[w + 1] for w, _ in chosen_idx]
        for table, (w, b, result) in enumerate(chosen, 1):
            g = Game(r, table, players[w].name, None if b is None else players[b].name)
            g.result = result
            out.append(g)
            if b is None:
                score[w] += bye
            elif result is not None:
                pw, pb = g.points()
                score[w] += pw
                score[b] += pb
    return out


def event_toml(raw: dict[str, Any]) -> str:
    """An event file's text for the keys ``read_trf`` gives (TOML; strings as JSON writes
    them, which TOML reads the same)."""

    def value(v: Any) -> str:
        if isinstance(v, bool | int | float | str):  # true, 3, 0.5, "text": TOML's too
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }"
        raise TypeError(v)

    lines = [f"{k} = {value(v)}" for k, v in raw.items() if k != "players"]
    lines.append("players = [")
    lines += [f"  {value(p)}," for p in raw["players"]]
    lines.append("]")
    return "\n".join(lines) + "\n"


def tournament_from_trf(
    text: str, source: str = "TRF", game: str | None = None
) -> tuple[str, Tournament]:
    """The event file's text and the event with its games, from a TRF file."""
    from companion.club.event.spec import EventError, parse_event

    raw, games = read_trf(text, source, game)
    toml = event_toml(raw)
    try:
        event: Event = parse_event(toml, source)
    except EventError as e:
        raise TrfError(str(e)) from None
    for g in games:  # each table to its board, as pairing does
        if g.black is not None and g.table <= len(event.boards):
            g.board = event.boards[g.table - 1]
    return toml, Tournament(event, games)
