"""Matches between two players: alternating colours, seeded, with an Elo-style difference."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from companion.engines.adapters import adapter_for, new_state
from companion.engines.levels import LEVELS
from companion.engines.players import make_player
from companion.games import game_names, get_spec


@dataclass
class MatchResult:
    """A's wins, draws and losses against B, overall and by the colour A held."""

    a: str
    b: str
    game: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    by_colour: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's share of the points (a draw is half a point)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self) -> float | None:
        """The Elo difference A - B the score implies; None (unbounded) at 0% or 100%."""
        s = self.score
        if s <= 0 or s >= 1:
            return None
        return round(-400 * math.log10(1 / s - 1), 1) + 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "a": self.a, "b": self.b, "games": self.games,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "score": round(self.score, 3), "elo": self.elo(),
            "elo_bound": None if self.elo() is not None else _bound(self),
            "by_colour": self.by_colour,
        }  # fmt: skip


def _bound(m: MatchResult) -> str:
    """For a clean sweep: the difference is at least what one game less would have shown."""
    if m.games == 0:
        return ""
    s = (m.games - 0.5) / m.games
    d = round(400 * math.log10(s / (1 - s)), 1)
    return f">= {d}" if m.wins == m.games else f"<= {-d}"


def play_game(game: str, players: dict[str, Any], options: dict[str, Any]) -> str | None:
    """Play one game; ``players`` maps each seat (a colour as the game starts) to a player.
    The winner's seat or None."""
    adapter = adapter_for(game)
    state = adapter.prepare(new_state(game, options))
    while not adapter.is_over(state):
        move = players[adapter.mover(state)](state)
        state = adapter.play(state, move)
    return adapter.winner(state)


def run_match(
    a: str,
    b: str,
    game: str | None = None,
    games: int = 10,
    seed: int = 0,
    seconds: float = 1.0,
    options: dict[str, Any] | None = None,
) -> MatchResult:
    """``games`` games of A against B, A taking the first colour in even-numbered games;
    ``game`` defaults to the first registered, with its ``match_options`` under ``options``."""
    game = game or game_names()[0]
    adapter = adapter_for(game)
    opts = {**get_spec(game).match_options, **(options or {})}
    colours = list(new_state(game, opts).players)
    result = MatchResult(a, b, game)
    for c in colours:
        result.by_colour[c] = {"wins": 0, "draws": 0, "losses": 0}
    rng = random.Random(seed)
    for i in range(games):
        a_colour = colours[i % 2]
        b_colour = colours[1 - i % 2]
        pa = make_player(a, adapter, rng.randrange(2**32), seconds)
        pb = make_player(b, adapter, rng.randrange(2**32), seconds)
        winner = play_game(game, {a_colour: pa, b_colour: pb}, opts)
        outcome = "draws" if winner is None else "wins" if winner == a_colour else "losses"
        setattr(result, outcome, getattr(result, outcome) + 1)
        result.by_colour[a_colour][outcome] += 1
    return result


# The players below the weakest level a person would be: one who takes the score as it stands
# (greedy), one who only avoids blunders (careful, as a review judges them).
BELOW: Final = ("careful", "greedy")


def ladder_pairs() -> list[tuple[str, str]]:
    """Each level against the one below it, strongest first, then the weakest level against
    the players below it: the ladder ``binaryon match --ladder`` plays."""
    levels = [f"engine:{level}" for level in LEVELS]
    pairs = [(levels[i], levels[i - 1]) for i in range(len(levels) - 1, 0, -1)]
    return pairs + [(levels[0], below) for below in BELOW]


def ladder(
    game: str | None = None,
    games: int = 10,
    seed: int = 0,
    seconds: float = 1.0,
    options: dict[str, Any] | None = None,
    done: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """The ladder's matches (``ladder_pairs``), each ``done`` as it ends."""
    out = []
    for a, b in ladder_pairs():
        result = run_match(a, b, game, games, seed, seconds, options)
        if done is not None:
            done(result)
        out.append(result)
    return out
