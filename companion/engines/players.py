"""Players for matches: the engine at a level, a greedy player, a careful one (the greedy
player who never plays a move a review would call a blunder: a person with the tutor on) and
a random one.

A player is a callable ``(state) -> move``. Each holds its own seeded RNG, so a match is the
same every time it is run with the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.engines.levels import LEVELS

if TYPE_CHECKING:
    from companion.engines.search import Adapter

Player = Callable[[Any], Any]


def random_player(adapter: Adapter, rng: random.Random) -> Player:
    """Any legal move, uniformly."""

    def play(state: Any) -> Any:
        return rng.choice(adapter.moves(adapter.prepare(state)))

    return play


def greedy_player(adapter: Adapter, rng: random.Random) -> Player:
    """The move that maximises the adapter's ``score_difference`` right after it (the score
    as it stands, own minus the opponent's); ties broken at random."""

    def play(state: Any) -> Any:
        state = adapter.prepare(state)
        me = adapter.mover(state)
        best: list[Any] = []
        best_value = None
        for move in adapter.moves(state):
            v = adapter.score_difference(adapter.play(state, move), me)
            if best_value is None or v > best_value:
                best, best_value = [move], v
            elif v == best_value:
                best.append(move)
        return rng.choice(best)

    return play


def careful_player(adapter: Adapter, rng: random.Random, nodes: int = 1500) -> Player:
    """The greedy player with the tutor on: the move that maximises the score as it stands
    among those a review would not call a blunder (``review.judge`` with ``nodes`` a move);
    the engine's best when all are."""
    from companion.engines.review import BLUNDER, judge

    def play(state: Any) -> Any:
        labels = judge(adapter, state, nodes)
        safe = [m for m, label in labels.items() if label != BLUNDER]
        if not safe:
            safe = [m for m, label in labels.items() if label == "best"]
        prepared = adapter.prepare(state)
        me = adapter.mover(prepared)
        scored = [(adapter.score_difference(adapter.play(prepared, m), me), m) for m in safe]
        top = max(v for v, _ in scored)
        return rng.choice([m for v, m in scored if v == top])

    return play


def engine_player(
    adapter: Adapter, rng: random.Random, level: str = "default", seconds: float = 1.0
) -> Player:
    from companion.engines.search import choose

    def play(state: Any) -> Any:
        return choose(adapter, state, level, seconds, rng).move

    return play


def parse_player(text: str) -> tuple[str, str | None]:
    """'engine:casual' -> ('engine', 'casual'); ValueError with a one-line reason."""
    kind, _, level = text.partition(":")
    if kind == "engine":
        level = level or "default"
        if level not in LEVELS:
            raise ValueError(f"{text}: level must be one of {', '.join(LEVELS)}")
        return kind, level
    if kind in ("greedy", "random", "careful") and not level:
        return kind, None
    raise ValueError(f"{text}: a player is engine[:LEVEL], greedy, careful or random")


def make_player(text: str, adapter: Adapter, seed: int, seconds: float = 1.0) -> Player:
    kind, level = parse_player(text)
    rng = random.Random(seed)
    if kind == "engine":
        assert level is not None
        return engine_player(adapter, rng, level, seconds)
    if kind == "greedy":
        return greedy_player(adapter, rng)
    if kind == "careful":
        return careful_player(adapter, rng)
    return random_player(adapter, rng)


def parse_opponent(text: str) -> str | None:
    """'engine' or 'engine:LEVEL' -> the level; '' -> None; ValueError with one line."""
    text = text.strip()
    if not text:
        return None
    kind, _, level = text.partition(":")
    if kind != "engine":
        raise ValueError(f"opponent {text!r}: use engine, engine:LEVEL or remote:BOARD")
    level = level or "default"
    if level not in LEVELS:
        raise ValueError(f"opponent {text!r}: levels are {', '.join(LEVELS)}")
    return level
