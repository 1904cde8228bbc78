"""A remote game with secrets, as one board plays it (docs/club.md, "Remote play"): the
session's part, as functions over states and the journal's ``Masked`` row.

Each board knows only its own seat's secrets: its session keeps a masked state (masked by
the game's remote facet, ``GameSpec.remote()``) and the journal's row of what it knows
(``Session.seat_knowledge``: the seat, the facts told). The other board's secret moves are
journaled by their public names; what that board discloses as the game reveals it (a
guess's answer, a turn's claims) is learned (``learned``) and kept in the journal, so a
restart learns it again before replaying the moves. At the end each board tells the full
names of its own moves; with them the other rebuilds the whole game from an unmasked start
(``revealed_game``), so both journals end with the same game, every secret in it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from companion.games.base import GameSpec, GameState, Move, Outcome
from companion.journal.api import Masked
from companion.referee.played import Played, played_move, replayed_move

# the seat a new game's board knows alone (a remote game with secrets), or None: all of it
LocalSeat = Callable[[GameSpec, dict[str, Any]], str | None]


def first_state(
    spec: GameSpec, options: dict[str, Any], state: GameState, local_seat: LocalSeat | None
) -> tuple[GameState, Masked | None]:
    """A new game's first state, masked when the board plays a remote game with secrets,
    with the journal's row of what this board knows (None: all of it)."""
    seat = local_seat(spec, options) if local_seat is not None else None
    remote = spec.remote()
    if seat is None or not remote.masked or seat not in state.players:
        return state, None
    try:
        masked = remote.mask(state, seat)
    except ValueError:  # options that cannot be masked: not played remotely (it says so)
        return state, None
    return masked, Masked(seat, {})


def learned(
    spec: GameSpec, state: GameState, known: Masked, seat: str, facts: Mapping[str, Any]
) -> tuple[GameState, Masked] | None:
    """The state told ``facts`` about ``seat``'s secrets and the row that keeps them; None
    when nothing is new (or ``seat`` is this board's own). ValueError (one line): facts
    that contradict the game here."""
    if seat == known.seat:
        return None
    told = known.told.get(seat, {})
    new = {k: v for k, v in facts.items() if told.get(k) != v}
    if not new:
        return None
    after = spec.remote().learn(state, seat, new)
    return after, Masked(known.seat, {**known.told, seat: {**told, **new}})


class Revealed(NamedTuple):
    """The whole game rebuilt from every full name: its moves as journaled, its states (the
    unmasked start first), and its result."""

    played: list[Played]
    states: list[GameState]
    outcome: Outcome


def revealed_game(
    spec: GameSpec, options: dict[str, Any], full: Sequence[str], here: GameState, moves: int
) -> Revealed | str:
    """The game of ``moves`` moves that ended in ``here`` replayed from an unmasked start
    with every full name (the other board's secret moves told, in the order both boards
    keep: ``club/remote_stream.py``); it must end as it did here. Why not, in one line."""
    if len(full) != moves:
        return f"{len(full)} moves, this board has {moves}"
    states: list[GameState] = [spec.new(**options)]
    played: list[Played] = []
    try:
        for after, move, before in spec.steps_from(states[0], full):
            played.append(replayed_move(before, move))
            states.append(after)
    except ValueError as e:
        return f"the revealed moves do not replay ({e})"
    end = states[-1]
    outcome, shown = end.outcome(), here.outcome()
    if not end.is_over() or outcome is None or shown is None:
        return "the revealed moves do not end the game"
    if (outcome.winners, outcome.summary) != (shown.winners, shown.summary):
        return f"the revealed moves end otherwise ({outcome.summary})"
    return Revealed(played, states, outcome)


def drawn_step(state: GameState, move: Move) -> tuple[Played, GameState] | None:
    """A chance step drawn at the other board, played here as the referee's (it reveals
    something: undo stops there); None when it is not due here."""
    if state.check(move, None) is not None:
        return None
    return dataclasses.replace(played_move(state, move, True), reveals=True), state.play(move)
