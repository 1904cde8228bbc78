"""Remote play: the facts one board tells the other about its own player's secrets.

In a game across two boards each board holds a *masked* state (``LatentState.masked``): its
own player's hidden pawns, never the other's. The other board's setups come by their public
name (``setup c6``). Two things the rules make public need the other board's secrets, so that
board tells them as *facts* (``disclosed``; the receiving state ``learn``s them):

- ``"stash"``: the player's stash counts (a list, in the order of their colours) as the setup
  left it, once both setups are complete (the rules show the stashes then);
- ``"answer <ply>"``: the answer to the guess played as move ``<ply>`` (0-based: the state's
  ``plies`` before the guess) on one of the player's nests: ``"right"`` or ``"wrong"``, and
  for a wrong order guess with ``order_reveal`` the true order ``[top, bottom]``.

A masked state waits (``waiting``) for the fact it needs at that point and goes on when it is
learned; facts heard early are kept until play reaches them. This module reads and checks
facts; the state's hooks are in ``masked.py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Final, Protocol

from .moves import Challenge, Order
from .nest import Nest
from .options import MIN_LEFT, Rules

STASH: Final = "stash"
ANSWER: Final = "answer "
RIGHT, WRONG = "right", "wrong"

# One fact as a state keeps it: (seat, key, value), value hashable (tuples for JSON lists).
Fact = tuple[str, str, Hashable]


class FactState(Protocol):
    """What the fact checks read from a state (``engine.LatentState`` is one)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def heard(self) -> tuple[Fact, ...]: ...

    def nest_at(self, square: int) -> Nest | None: ...

    def nests_of(self, player: str) -> tuple[Nest, ...]: ...


def answer_key(ply: int) -> str:
    return f"{ANSWER}{ply}"


def truth(nest: Nest, move: Challenge | Order, order_reveal: bool) -> Hashable:
    """The answer to ``move`` on ``nest``, whose hidden pawns this state knows."""
    if isinstance(move, Challenge):
        return RIGHT if move.colour in (nest.top, nest.bottom) else WRONG
    if (move.top, move.bottom) == (nest.top, nest.bottom):
        return RIGHT
    return (nest.top, nest.bottom) if order_reveal else WRONG


def jsonable(value: Hashable) -> Any:
    return list(value) if isinstance(value, tuple) else value


def heard(state: FactState, seat: str, key: str) -> Hashable | None:
    """The value of a fact ``state`` has heard about ``seat`` (None: not heard)."""
    for s, k, v in state.heard:
        if s == seat and k == key:
            return v
    return None


def read_facts(rules: Rules, seat: str, facts: Mapping[str, Any]) -> dict[str, Hashable]:
    """The facts about ``seat`` in the form a state keeps them; ValueError (one line) for
    one that is malformed."""
    if not isinstance(facts, Mapping):
        raise ValueError(f"facts about {seat}: expected a dict")
    out: dict[str, Hashable] = {}
    for key, value in facts.items():
        if key == STASH:
            out[key] = _stash(rules, seat, value)
        elif isinstance(key, str) and key.startswith(ANSWER) and _is_ply(key[len(ANSWER) :]):
            out[key] = _answer(rules, seat, key, value)
        else:
            raise ValueError(f"{str(key)[:24]!r}: not a fact of latent-binaries")
    return out


def _is_ply(text: str) -> bool:
    return text.isascii() and text.isdigit() and str(int(text)) == text


def _stash(rules: Rules, seat: str, value: Any) -> tuple[int, ...]:
    cols = rules.colours_of(seat)
    if (
        not isinstance(value, list | tuple)
        or len(value) != len(cols)
        or not all(type(v) is int for v in value)
    ):
        raise ValueError(f"stash: {len(cols)} counts expected for {seat}")
    hidden = [rules.pawns - v for v in value]
    if any(v < MIN_LEFT or not 0 <= h <= rules.nests for v, h in zip(value, hidden, strict=True)):
        raise ValueError(f"stash: {list(value)} cannot follow {seat}'s setup")
    if sum(hidden) != 2 * rules.nests:
        raise ValueError(f"stash: {sum(hidden)} pawns hidden, {2 * rules.nests} expected")
    return tuple(value)


def _answer(rules: Rules, seat: str, key: str, value: Any) -> Hashable:
    if isinstance(value, str) and value in (RIGHT, WRONG):
        return value
    cols = rules.colours_of(seat)
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(c, str) and c in cols for c in value)
        and value[0] != value[1]
    ):
        if not rules.order_reveal:
            raise ValueError(f"{key}: no order is shown in this game")
        return (value[0], value[1])
    raise ValueError(f"{key}: right, wrong or [top, bottom] of {seat}'s colours")


def answer_problem(
    state: FactState, seat: str, move: Challenge | Order, value: Hashable
) -> str | None:
    """Why ``value`` cannot answer ``move``, a guess on one of ``seat``'s nests, in ``state``
    (what ``state`` knows contradicts it), or None."""
    nest = state.nest_at(move.target)
    assert nest is not None
    if isinstance(move, Challenge):
        if value not in (RIGHT, WRONG):
            return "a challenge is answered right or wrong"
        setup = heard(state, seat, STASH)
        if value == RIGHT and isinstance(setup, tuple):
            k = state.rules.colours_of(seat).index(move.colour)
            hid = state.rules.pawns - setup[k]
            known = sum(
                1 for n in state.nests_of(seat) if move.colour in (*n.caps, n.top, n.bottom)
            )
            if known >= hid:
                return f"{seat} hid no other {move.colour}"
        return None
    if value == RIGHT:
        return None
    if value == WRONG:
        return "the true order is shown" if state.rules.order_reveal else None
    assert isinstance(value, tuple)
    if sorted(value) != sorted(nest.caps):
        return f"{'/'.join(value)} are not its caps"
    if value == (move.top, move.bottom):
        return "that is the order guessed"
    return None


def waiting_reason(seat: str, awaiting: str) -> str:
    """What a masked state waits for, in a short line: ``wait for xeno's answer``."""
    return f"wait for {seat}'s {'stash' if awaiting == STASH else 'answer'}"
