"""A two-player game with hidden information on a 3x3 board: both players secretly hide a
treasure on a cell (at once), then take turns to press a cell; the first to press the other's
treasure wins. A player's own treasure is on their page only, until the game ends."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.core.squares import parse_square, square_name
from companion.games.base import (
    Action,
    Cell,
    GameSpec,
    GameState,
    IllegalMove,
    Interpreter,
    Layout,
    Move,
    Outcome,
    Panel,
    PanelRow,
    Place,
    Play,
    Refusal,
    View,
    parse_place,
    places,
)
from companion.games.remote_api import Hidden, Remote

PLAYERS = ("left", "right")


@dataclass(frozen=True)
class Hide(Move):
    """``player`` hides their treasure on ``cell`` (a secret until the end)."""

    player: str
    cell: int

    @property
    def name(self) -> str:
        return f"hide {self.player} {square_name(self.cell, 3)}"


def place(cell: int) -> Place:
    return places(3)[cell]


@dataclass(frozen=True)
class HiddenState(GameState):
    game = "hidden"
    players = PLAYERS
    treasure: tuple[int | None, int | None] = (None, None)
    pressed: tuple[int, ...] = ()
    mover: str = "left"
    winner: str | None = None
    plies: int = 0

    @property
    def setting_up(self) -> bool:
        return None in self.treasure

    @property
    def turn(self) -> str | None:
        return None if self.winner or self.setting_up else self.mover

    @property
    def to_act(self) -> frozenset[str]:
        if self.setting_up:
            return frozenset(p for p, t in zip(PLAYERS, self.treasure, strict=True) if t is None)
        return super().to_act

    @property
    def ply(self) -> int:
        return self.plies

    def is_over(self) -> bool:
        return self.winner is not None or (not self.setting_up and len(self.pressed) == 9)

    def legal_moves(self, player: str | None = None) -> list[Any]:
        if self.is_over():
            return []
        if self.setting_up:
            who = [p for p in sorted(self.to_act) if player in (None, p)]
            return [Hide(p, c) for p in who for c in range(9)]
        if player not in (None, self.mover):
            return []
        return [place(c) for c in range(9) if c not in self.pressed]

    def check(self, move: Any, player: str | None = None) -> Refusal | None:
        if self.is_over():
            return Refusal("game-over", "game is over")
        if isinstance(move, Hide):
            if player not in (None, move.player) or move.player not in self.to_act:
                return Refusal("not-your-turn", "not your turn to hide")
            return None
        if self.setting_up:
            return Refusal("hide-first", "hide your treasure first")
        if (refusal := self.own_turn(player)) is not None:
            return refusal
        if move.cell in self.pressed:
            return Refusal("pressed", f"{move.name}: already pressed")
        return None

    def play(self, move: Any, player: str | None = None) -> HiddenState:
        if (refusal := self.check(move, player)) is not None:
            raise IllegalMove(refusal)
        if isinstance(move, Hide):
            k = PLAYERS.index(move.player)
            t = list(self.treasure)
            t[k] = move.cell
            return replace(self, treasure=(t[0], t[1]), plies=self.plies + 1)
        other = PLAYERS[1 - PLAYERS.index(self.mover)]
        found = self.treasure[PLAYERS.index(other)] == move.cell
        return replace(
            self,
            pressed=self.pressed + (move.cell,),
            mover=other,
            winner=self.mover if found else None,
            plies=self.plies + 1,
        )

    def actor(self, move: Any) -> str | None:
        return move.player if isinstance(move, Hide) else self.mover

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        if self.winner is None:
            return Outcome(summary="draw: nobody found it")
        return Outcome((self.winner,), f"{self.winner.upper()} wins")

    def public_name(self, move: Any) -> str:
        return f"hide {move.player}" if isinstance(move, Hide) else move.name

    def parse_move(self, text: str) -> Any:
        words = text.split()
        if len(words) == 3 and words[0] == "hide" and words[1] in PLAYERS:
            return Hide(words[1], parse_square(words[2], 3))
        return parse_place(text, 3)

    def cells(self) -> list[str]:
        return ["o" if c in self.pressed else "." for c in range(9)]


class HiddenInput(Interpreter):
    def press(self, state: GameState, cell: int) -> Action:
        return Play(place(cell))


class HiddenSpec(GameSpec):
    name = "hidden"
    title = "HIDDEN"
    options = ()
    sensor_kinds = ("switch",)

    def remote(self) -> Remote:
        """Secrets and no masked states: not played across two boards."""
        return Hidden()

    def new(self, **options: Any) -> HiddenState:
        return HiddenState()

    def layout(self, options: dict[str, Any]) -> Layout:
        return Layout(3, 3, board=8)  # centred on the 8x8 board

    def interpreter(self, kind: str) -> Interpreter:
        return HiddenInput(kind)

    def view(self, state: GameState, viewer: str | None = None) -> View:
        st: HiddenState = state  # type: ignore[assignment]
        rows = tuple(PanelRow(p.upper(), "", p in st.to_act) for p in PLAYERS)
        private: tuple[str, ...] = ()
        actions: tuple[tuple[str, str], ...] = ()
        if viewer in PLAYERS:
            mine = st.treasure[PLAYERS.index(viewer)]
            private = (f"your treasure: {square_name(mine, 3)}",) if mine is not None else ()
            actions = tuple(
                (m.name, f"hide on {square_name(m.cell, 3)}")
                for m in st.legal_moves(viewer)
                if isinstance(m, Hide)
            )
        shown = st.is_over()
        cells = tuple(
            Cell(
                piece="o" if c in st.pressed else "", text="T" if shown and c in st.treasure else ""
            )
            for c in range(9)
        )
        leds = tuple((0, 80, 0) if c in st.pressed else (0, 0, 0) for c in range(9))
        return View(Panel(self.title, st.ply + 1, rows), cells, leds, (), private, actions)


SPEC = HiddenSpec()
