"""A game's result said by the people who played, in seat order (the first player first),
never by their seats: ``Ann beat Bob``, ``Ann drew with Bob``, ``Ann v Bob 1-0``; a player
without a name is said by their seat's label (``ON``). A record's ``[Said]`` tag, ``history``,
the pages and the club's hub all say it so."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.games import get_spec, player_ids
from companion.journal.rows import FINISHED, GameEntry


def _listed(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def said(names: Sequence[str], winners: Sequence[str]) -> str:
    """``names``: everyone in seat order; ``winners``: those of them who won (none: a draw).
    ``Ann beat Bob``, ``Ann and Cat beat Bob``, ``Ann drew with Bob``, ``Ann, Bob and Cat
    drew``, ``Ann, Bob and Cat shared the win``."""
    won = [n for n in names if n in winners]
    lost = [n for n in names if n not in winners]
    if not won:
        if len(names) == 2:
            return f"{names[0]} drew with {names[1]}"
        return f"{_listed(names)} drew"
    if not lost:
        return f"{_listed(won)} shared the win" if len(won) > 1 else f"{won[0]} won"
    return f"{_listed(won)} beat {_listed(lost)}"


def score_line(names: Sequence[str], winners: Sequence[str]) -> str | None:
    """Two players: ``Ann v Bob 1-0`` (the first player's score first); None for more."""
    if len(names) != 2:
        return None
    first, second = (n in winners for n in names)
    score = {(True, False): "1-0", (False, True): "0-1"}.get((first, second), "1/2-1/2")
    return f"{names[0]} v {names[1]} {score}"


def people(seated: dict[str, str], seats: Sequence[str], label) -> list[str]:
    """Everyone in seat order by name, a seat without one by ``label(seat)``."""
    return [seated.get(s) or label(s) for s in seats]


def in_seat_order(game: str, options: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    """``names`` (seat -> person) in the game's seat order, the first player first (the
    journal keeps them sorted by seat id: ``off`` before ``on``). A game whose players are
    people by themselves (Binøme's ``Ann,Bob``) names every seat, named or not; seats the
    game does not have come last."""
    try:
        seats, people = _seats(game, json.dumps(options, sort_keys=True, default=str))
    except (ValueError, TypeError):  # a game this version does not know: as kept
        return dict(names)
    out = {s: names.get(s) or people.get(s, "") for s in seats if names.get(s) or people.get(s)}
    out.update((s, n) for s, n in names.items() if s not in out)
    return out


def said_by_name(
    game: str, options: dict[str, Any], players: dict[str, str], winners: list[str]
) -> tuple[str, str | None] | None:
    """A finished game's result by name, in seat order (``Ann beat Bob``, ``Ann v Bob 1-0``;
    the second None for more than two players), from who sat where and the winning seats;
    None for a game this version does not know."""
    try:
        seats, _ = _seats(game, json.dumps(options, sort_keys=True, default=str))
        spec = get_spec(game)
    except (ValueError, TypeError):
        return None
    names = people(in_seat_order(game, options, players), seats, spec.player_label)
    won = [names[seats.index(w)] for w in winners if w in seats]
    return said(names, won), score_line(names, won)


@lru_cache(maxsize=256)
def _seats(game: str, options_json: str) -> tuple[tuple[str, ...], dict[str, str]]:
    seats = player_ids(game, json.loads(options_json))
    spec = get_spec(game)
    people = {s: name for s in seats if (name := spec.person_of(s))}
    return seats, people


def seated(entry: GameEntry) -> dict[str, str]:
    """Who played each player at the end: the start's seats (``players``) unless people
    changed players during the game (Wythe's swap), which a finished game's detail
    records as ``seated``."""
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    at_end = detail.get("seated")
    if isinstance(at_end, dict) and at_end:
        names = {str(k): str(v) for k, v in at_end.items()}
    else:
        names = dict(entry.players)
    return in_seat_order(entry.game, entry.options, names)


def winner_names(entry: GameEntry) -> list[str]:
    """The people who won a finished game, all of them when several share the win (empty
    for a draw, or when nobody was named)."""
    if entry.status != FINISHED:
        return []
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    winners = detail.get("winners")
    if isinstance(winners, list) and winners:
        ids = [str(w) for w in winners]
    elif entry.result and entry.result != "draw":
        ids = [entry.result]
    else:
        return []
    people = seated(entry)
    return [people[w] for w in ids if people.get(w)]


def result_said(entry: GameEntry) -> tuple[str, str | None] | None:
    """A finished game's result by name, in seat order: (``Ann beat Bob``, ``Ann v Bob
    1-0``; the second None for more than two players); None before its end or for a game
    this version does not know."""
    if entry.status != FINISHED:
        return None
    return said_by_name(entry.game, entry.options, seated(entry), _winner_ids(entry))


def result_words(entry: GameEntry) -> str | None:
    """A list's result: by name, with the game's own summary after it (``Dan beat Ben
    (OFF wins 34-30)``); the summary alone when the result cannot be said by name."""
    words = result_said(entry)
    if words is None:
        return entry.summary
    return f"{words[0]} ({entry.summary})" if entry.summary else words[0]


def _winner_ids(entry: GameEntry) -> list[str]:
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    winners = detail.get("winners")
    if isinstance(winners, list):
        return [str(w) for w in winners]
    return [entry.result] if entry.result and entry.result != "draw" else []
