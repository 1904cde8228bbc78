"""Remote play of Latent Binaries: the state as one player's board holds it (``masked``).

In a game across two boards each board keeps a masked state: its own player's hidden pawns,
never the other's (``UNKNOWN`` in the other's nests until the game shows them). The other's
setups come by their public name (``setup c6``, checked as far as the board can: a nest of
theirs, not set up yet). What the rules make public from the other's secrets comes as facts
(``facts.py``): their stash once both setups are complete, and the answer to each guess on
their nests. The state waits (``waiting``) for the fact it needs and goes on once it is
learned; facts heard early are kept until play reaches them (a restart learns them all, then
replays the moves). ``disclosed`` gives the facts about the board's own player.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..base import IllegalMove, Refusal
from .facts import (
    STASH,
    Fact,
    FactState,
    answer_key,
    answer_problem,
    heard,
    jsonable,
    read_facts,
    truth,
)
from .geometry import square_name
from .moves import Challenge, Order, PublicSetup
from .options import PLAYERS, other


class MaskedState(FactState, Protocol):
    """What these functions read of a state (``engine.LatentState`` is one, a frozen
    dataclass they ``replace``): the seat whose secrets it knows (None: all), the facts it
    told and heard, the fact it awaits and the guess that waits for it."""

    @property
    def seat(self) -> str | None: ...

    @property
    def told(self) -> tuple[Fact, ...]: ...

    @property
    def awaiting(self) -> str: ...

    @property
    def pending(self) -> Challenge | Order | None: ...

    @property
    def plies(self) -> int: ...

    @property
    def stash(self) -> tuple[tuple[int, ...], tuple[int, ...]]: ...

    def answered(self, move: Challenge | Order, value: Hashable) -> Any: ...


LatentState = TypeVar("LatentState", bound=MaskedState)  # the state given is the one returned

# Functions over ``engine.LatentState`` (its ``seat``, ``told``, ``heard``, ``awaiting`` and
# ``pending``): the state's remote-play hooks and its rules call them.


def masked_for_seat(state: LatentState, seat: str) -> LatentState:
    """This new game as the board of ``seat`` holds it: the other's setups come by their
    public names, their stash and the answers to guesses on their nests as facts."""
    if seat not in PLAYERS:
        raise ValueError(f"{seat}: not a player")
    if state.plies or state.seat is not None:
        raise ValueError("only a new game's full state can be masked")
    return replace(state, seat=seat)


def waiting(state: LatentState) -> frozenset[str]:
    return frozenset({other(state.seat)}) if state.awaiting and state.seat else frozenset()


def disclosed(state: LatentState, seat: str) -> dict[str, Any]:
    """The facts about ``seat``'s secrets made public so far, from what this state knows
    (none about the other seat of a masked state): ``stash`` and ``answer <ply>``."""
    if seat not in PLAYERS:
        raise ValueError(f"{seat}: not a player")
    return {k: jsonable(v) for s, k, v in state.told if s == seat}


def learn(state: LatentState, seat: str, facts: Mapping[str, Any]) -> LatentState:
    """The facts ``seat``'s board told, kept for when play reaches them; resumes the
    state when it waited for one. ValueError (one line) for a malformed fact or one that
    contradicts what this state knows (then nothing is learned)."""
    if seat not in PLAYERS:
        raise ValueError(f"{seat}: not a player")
    given = read_facts(state.rules, seat, facts)
    if state.seat in (None, seat):  # its own secrets: what it told must agree
        for s, k, v in state.told:
            if s == seat and k in given and given[k] != v:
                raise ValueError(f"{k}: {seat} told {jsonable(v)}, not {jsonable(given[k])}")
        return state
    known = {k: v for s, k, v in state.heard if s == seat}
    for k, v in given.items():
        if k in known and known[k] != v:
            raise ValueError(f"{k}: {seat} said {jsonable(known[k])} before")
    if state.pending is not None and state.awaiting in given:
        problem = answer_problem(state, seat, state.pending, given[state.awaiting])
        if problem is not None:
            raise ValueError(f"{state.awaiting}: {problem}")
    merged = {(seat, k): v for k, v in given.items()} | {(s, k): v for s, k, v in state.heard}
    s = replace(state, heard=tuple(sorted((s, k, v) for (s, k), v in merged.items())))
    if not s.awaiting or s.awaiting not in given:
        return s
    if s.pending is None:
        return resume_stash(s)
    value = given[s.awaiting]
    return replace(s, awaiting="", pending=None).answered(s.pending, value)


def public_setup_refusal(state: LatentState, owner: str, move: PublicSetup) -> Refusal | None:
    """The other board's setup, checked as far as it can be without its colours."""
    name = square_name(move.square)
    if state.seat in (None, owner):
        return Refusal("remote-secret", f"{name}: name its two colours")
    nest = state.nest_at(move.square)
    if nest is None or nest.owner != owner:
        return Refusal("not-a-start", f"{name}: no {owner} nest to set up")
    if nest.is_set:
        return Refusal("already-set", f"{name}: already set up")
    return None


def resume_stash(state: LatentState) -> LatentState:
    assert state.seat is not None
    counts = heard(state, other(state.seat), STASH)
    assert isinstance(counts, tuple)
    stash = list(state.stash)
    stash[PLAYERS.index(other(state.seat))] = counts
    return replace(state, stash=(stash[0], stash[1]), awaiting="")


def guessed(state: LatentState, move: Challenge | Order) -> LatentState:
    """A guess played (``plies`` counts it): answered from the nest when this state knows
    its pawns, else from the fact its owner's board told, else it waits for that fact."""
    nest = state.nest_at(move.target)
    assert nest is not None
    key = answer_key(state.plies - 1)
    if nest.known:  # its own nest (or one whose order was shown)
        value = truth(nest, move, state.rules.order_reveal)
        if state.seat in (None, nest.owner):
            return replace(state, told=state.told + ((nest.owner, key, value),)).answered(
                move, value
            )
        return state.answered(move, value)
    value = heard(state, nest.owner, key)
    if value is None:
        return replace(state, awaiting=key, pending=move)
    problem = answer_problem(state, nest.owner, move, value)
    if problem is not None:
        raise IllegalMove(Refusal("remote-fact", f"{key}: {problem}"[:42]))
    return state.answered(move, value)
