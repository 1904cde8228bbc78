"""Wythe in game records (see docs/records.md): tags to options and people, the swap note, and
a replay that refuses an illegal record whole with one line naming the line, move and rule.

Tags: ``[Game "wythe"]``, ``[Options "size=8 pie=true"]``, ``[Black "Ana"]``, ``[White "Ben"]``.
``Black`` and ``White`` name the people in the seats they took at the start (Black moves
first). When White swaps on their first turn the people exchange colours: Ben then plays Black
(and owns the piece already placed) and Ana plays White, moving next. A record says so in a
``[Swap "..."]`` tag (``swap_tag``), which a reader checks against the moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote

from ..base import IllegalMove
from .engine import WytheState
from .moves import BLACK, PLAYERS, SWAP, WHITE, other
from .options import resolve

GAME = "wythe"
SWAP_TAG = "Swap"

# The rule each refusal code stands for, as a record error names it.
RULES: dict[str, str] = {
    "game-over": "game over: two passes in a row ended it",
    "not-your-turn": "turn order",
    "not-a-move": "notation",
    "not-a-square": "notation",
    "same-square": "adjacent-halves rule",
    "not-adjacent": "adjacent-halves rule",
    "unequal-heights": "equal-heights rule",
    "like-colour": "like-colour rule",
    "covers-piece": "uncovered-bit rule",
    "must-place": "pass rule",
    "swap-too-late": "pie rule",
    "no-pie": "pie rule",
    "no-fit": "placement rules",
}


class WytheRecordError(ValueError):
    """A record Wythe cannot accept; the message is one line."""


def rule_name(code: str) -> str:
    return RULES.get(code, code)


def _tag(tags: Mapping[str, str], name: str) -> str | None:
    for key, value in tags.items():
        if key.lower() == name.lower():
            return value
    return None


def options_from_tags(tags: Mapping[str, str]) -> dict[str, Any]:
    """The rule options of a record's tags (``Options "size=8 pie=true"``, values
    percent-encoded), defaults filled in; WytheRecordError naming the problem."""
    game = _tag(tags, "Game")
    if game is not None and game.strip().lower() != GAME:
        raise WytheRecordError(f"Game {game!r} is not wythe")
    given: dict[str, str] = {}
    for word in (_tag(tags, "Options") or "").split():
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise WytheRecordError(f"Options: {word!r} is not NAME=VALUE")
        given[name] = unquote(value)
    try:
        return resolve(given)
    except ValueError as e:
        raise WytheRecordError(f"Options: {e}") from None


def players_from_tags(tags: Mapping[str, str]) -> dict[str, str]:
    """{"black": person, "white": person} as seated at the start (missing tags left out)."""
    out = {}
    for colour in PLAYERS:
        value = _tag(tags, colour.capitalize())
        if value:
            out[colour] = value
    return out


def seats(state: WytheState, players: Mapping[str, str]) -> dict[str, str]:
    """Who plays each colour now: after a swap the people of ``players`` (the start's seats)
    exchange colours."""
    if not state.swapped:
        return dict(players)
    return {colour: players[other(colour)] for colour in PLAYERS if other(colour) in players}


def _person(players: Mapping[str, str], colour: str) -> str:
    return players.get(colour) or f"the {colour} player"


def swap_note(state: WytheState, players: Mapping[str, str]) -> str | None:
    """The sentence a record or display gives a swap, e.g. 'Ben swapped at move 2: Ben plays
    Black, Ana plays White'; None when nobody swapped."""
    if not state.swapped:
        return None
    first, second = _person(players, BLACK), _person(players, WHITE)
    return f"{second} swapped at move 2: {second} plays Black, {first} plays White"


def swap_tag(state: WytheState, players: Mapping[str, str]) -> tuple[str, str] | None:
    """The ``[Swap "..."]`` tag to write with a record of ``state`` (None: no swap)."""
    note = swap_note(state, players)
    return None if note is None else (SWAP_TAG, note)


def replay(
    moves: Iterable[str | tuple[str, int]],
    options: Mapping[str, Any] | None = None,
    source: str = "record",
) -> WytheState:
    """Play the move tokens (each a name, or a (name, line) pair) from the start. The first
    illegal one raises WytheRecordError: '<source>:<line>: move <k> <name> breaks the <rule>:
    <reason>' (no line part when tokens carry none)."""
    state = WytheState._start(options)
    for k, item in enumerate(moves, 1):
        text, line = (item, None) if isinstance(item, str) else item
        where = source if line is None else f"{source}:{line}"
        try:
            move = state.parse_move(text)
        except ValueError as e:
            raise WytheRecordError(f"{where}: move {k} {text}: not Wythe notation: {e}") from None
        try:
            state = state.play(move)
        except IllegalMove as e:
            rule = rule_name(e.refusal.code)
            raise WytheRecordError(
                f"{where}: move {k} {text} breaks the {rule}: {e.refusal.reason}"
            ) from None
    return state


def check_swap_tag(tags: Mapping[str, str], state: WytheState, source: str = "record") -> None:
    """A ``Swap`` tag must match the moves: present exactly when the moves hold a swap."""
    has_tag = _tag(tags, SWAP_TAG) is not None
    if has_tag and not state.swapped:
        raise WytheRecordError(f"{source}: [Swap] tag but no swap among the moves")
    if state.swapped and not has_tag:
        return  # an older or hand-written record: the moves say it; nothing to refuse


def read(
    tags: Mapping[str, str],
    moves: Iterable[str | tuple[str, int]],
    source: str = "record",
) -> tuple[WytheState, dict[str, str]]:
    """Options from the tags, the moves replayed, and who plays each colour at the end."""
    state = replay(moves, options_from_tags(tags), source)
    check_swap_tag(tags, state, source)
    return state, seats(state, players_from_tags(tags))


__all__ = [
    "GAME",
    "RULES",
    "SWAP",
    "SWAP_TAG",
    "WytheRecordError",
    "check_swap_tag",
    "options_from_tags",
    "players_from_tags",
    "read",
    "replay",
    "rule_name",
    "seats",
    "swap_note",
    "swap_tag",
]
