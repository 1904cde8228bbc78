"""A no-board game for 1..7 players: each round the referee rolls a d10, then every player
secretly picks a digit; a pick equal to the roll scores a point. Picks stay secret until the
game ends."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    Chance,
    GameSpec,
    GameState,
    IllegalMove,
    Move,
    Option,
    Outcome,
    Panel,
    PanelRow,
    Refusal,
    View,
)
from companion.games.remote_api import Hidden, Remote

OPTIONS = (
    Option("players", 5, "number of players", kind=int, minimum=1, maximum=7),
    Option("rounds", 2, "rounds", kind=int, minimum=1, maximum=9),
)


@dataclass(frozen=True)
class Roll(Move):
    digit: int

    @property
    def name(self) -> str:
        return f"roll {self.digit}"


@dataclass(frozen=True)
class Pick(Move):
    who: str
    digit: int

    @property
    def name(self) -> str:
        return f"pick {self.who} {self.digit}"


@dataclass(frozen=True)
class PartyState(GameState):
    game = "party"
    players: tuple[str, ...] = ("p1", "p2", "p3", "p4", "p5")
    rounds: int = 2
    roll: int | None = None
    picks: tuple[tuple[str, int], ...] = ()
    points: tuple[int, ...] = (0, 0, 0, 0, 0)
    round: int = 0
    plies: int = 0

    @property
    def turn(self) -> str | None:
        return None

    @property
    def to_act(self) -> frozenset[str]:
        if self.is_over() or self.roll is None:
            return frozenset()
        picked = {p for p, _ in self.picks}
        return frozenset(p for p in self.players if p not in picked)

    @property
    def ply(self) -> int:
        return self.plies

    def is_over(self) -> bool:
        return self.round >= self.rounds

    def chance(self) -> Chance | None:
        if self.is_over() or self.roll is not None:
            return None
        return Chance("d10", tuple(f"roll {d}" for d in range(10)))

    def legal_moves(self, player: str | None = None) -> list[Any]:
        if self.roll is None:
            return [Roll(d) for d in range(10)] if not self.is_over() and not player else []
        who = sorted(self.to_act) if player is None else [player] if player in self.to_act else []
        return [Pick(p, d) for p in who for d in range(10)]

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.is_over():
            return Refusal("game-over", "game is over")
        if isinstance(move, Roll):
            if self.roll is not None or player is not None:
                return Refusal("not-a-roll", "no roll now")
            return None
        who, digit = move.who, move.digit
        if player is not None and player != who:
            return Refusal("not-you", f"{player}: not your pick")
        if who not in self.to_act:
            return Refusal("not-your-turn", f"{who}: not your turn")
        if not 0 <= digit <= 9:
            return Refusal("bad-digit", f"{digit}: not a digit")
        return None

    def play(self, move: Any, player: str | None = None) -> PartyState:
        if (refusal := self.check(move, player)) is not None:
            raise IllegalMove(refusal)
        if isinstance(move, Roll):
            return replace(self, roll=move.digit, plies=self.plies + 1)
        picks = self.picks + ((move.who, move.digit),)
        after = replace(self, picks=picks, plies=self.plies + 1)
        if len(picks) < len(self.players):
            return after
        points = tuple(
            pts + (1 if dict(picks)[p] == self.roll else 0)
            for p, pts in zip(self.players, self.points, strict=True)
        )
        return replace(after, points=points, picks=(), roll=None, round=self.round + 1)

    def actor(self, move: Any) -> str | None:
        return None if isinstance(move, Roll) else move.who

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        best = max(self.points)
        winners = tuple(p for p, pts in zip(self.players, self.points, strict=True) if pts == best)
        return Outcome(winners=winners, summary=f"{', '.join(winners)} win {best}")

    def public_name(self, move: Any) -> str:
        return move.name if isinstance(move, Roll) else f"pick {move.who}"

    def parse_move(self, text: str) -> Any:
        words = text.split()
        try:
            if words[0] == "roll" and len(words) == 2:
                return Roll(int(words[1]))
            if words[0] == "pick" and len(words) == 3:
                return Pick(words[1], int(words[2]))
        except (IndexError, ValueError):
            pass
        raise ValueError(f"{text!r}: not a move")


class PartySpec(GameSpec):
    name = "party"
    title = "PARTY"
    options = OPTIONS
    sensor_kinds = ()

    def remote(self) -> Remote:
        """Secrets and no masked states: not played across two boards."""
        return Hidden()

    def new(self, **options: Any) -> PartyState:
        o = self.resolve(options)
        players = tuple(f"p{k + 1}" for k in range(o["players"]))
        return PartyState(players=players, rounds=o["rounds"], points=(0,) * len(players))

    def layout(self, options: dict[str, Any]):
        return None

    def view(self, state: GameState, viewer: str | None = None) -> View:
        st: PartyState = state  # type: ignore[assignment]
        rows = tuple(
            PanelRow(p.upper(), str(pts), p in st.to_act)
            for p, pts in zip(st.players, st.points, strict=True)
        )
        note = f"roll {st.roll}" if st.roll is not None else ""
        private: tuple[str, ...] = ()
        actions: tuple[tuple[str, str], ...] = ()
        if viewer is not None:
            mine = dict(st.picks).get(viewer)
            private = (f"your pick: {mine}",) if mine is not None else ("pick a digit",)
            actions = tuple((m.name, str(m.digit)) for m in st.legal_moves(viewer))
        return View(
            panel=Panel(self.title, st.round + 1, rows, note),
            explanation=tuple(f"{p}: {pts}" for p, pts in zip(st.players, st.points, strict=True)),
            private=private,
            actions=actions,
        )


SPEC = PartySpec()
