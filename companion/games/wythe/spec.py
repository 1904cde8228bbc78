"""Hosting Wythe: options, the OLED panel, the LEDs (top colour, brightness by height), the
hints, the cells the pages draw, and the score of a record (``binaryon score --record``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.base import ClockRules, GameSpec, GameState, Move, Option
from companion.games.state import own_state
from companion.games.wythe.moves import BLACK, OLED_WIDTH, PASS, PLAYERS, SWAP, WHITE, other
from companion.games.wythe.options import OPTIONS

if TYPE_CHECKING:
    from companion.games.interpreter import Interpreter
    from companion.games.view import RGB, Hint, Panel, View
    from companion.games.wythe.adapter import WytheAdapter
    from companion.games.wythe.engine import WytheState
    from companion.games.wythe.positions import WythePositions

# The engine, its adapter and words, the positions' text, the views and the input are
# imported by the methods that play, read or draw a position: `history` and `export` only
# ask the players and the options.

TOP_RGB: dict[str, RGB] = {BLACK: (0, 70, 255), WHITE: (255, 190, 110)}
GROUP_RGB: dict[str, RGB] = {BLACK: (0, 20, 90), WHITE: (110, 70, 20)}
OFF: RGB = (0, 0, 0)


def _state(state: GameState) -> WytheState:
    from companion.games.wythe.engine import WytheState

    return own_state(state, WytheState, "Wythe")


def _dim(rgb: RGB, height: int) -> RGB:
    """Brighter for a higher stack: a quarter at height 1, full at the highest possible."""
    from companion.games.wythe.engine import MAX_HEIGHT

    k = (1 + 3 * (height - 1) / (MAX_HEIGHT - 1)) / 4
    return (round(rgb[0] * k), round(rgb[1] * k), round(rgb[2] * k))


def score_value(state: WytheState, player: str, width: int = OLED_WIDTH - 7) -> str:
    """A player's score and group table for the OLED row: '5 3x5 1x3 4x1' (count x size:
    three groups of 5, ...; largest size first), cut to ``width`` characters with a '+'."""
    sc = state.score()
    text = str(sc.of(player))
    for size, count in sorted(sc.groups(player).items(), reverse=True):
        part = f" {count}x{size}"
        if len(text) + len(part) > width:
            return text + "+" if len(text) < width else text
        text += part
    return text


def lead_note(state: WytheState) -> str:
    """The panel's note (one OLED line): the swap offer, a pass to come, or who leads."""
    from companion.games.wythe.report import turn_note

    note = turn_note(state)
    if note:
        return note
    sc = state.score()
    if sc.leader is None:
        return ""
    who = sc.leader.capitalize()
    verb = "wins" if state.is_over() else "leads"
    if sc.reason == "last-mover":
        return f"{who} {verb}: 0-0 rule"
    s = sc.of(sc.leader)
    mine, theirs = sc.groups(sc.leader).get(s, 0), sc.groups(other(sc.leader)).get(s, 0)
    note = f"{who} {verb}: {mine}x{s} to {theirs}"  # count x size, as in the rows
    return note if len(note) <= OLED_WIDTH else f"{who}: {mine}x{s} to {theirs}"


class WytheClock(ClockRules):
    default: ClassVar[str] = "10:00+5"  # docs/rules/wythe.md, "Time"


class WytheSpec(GameSpec):
    name: ClassVar[str] = "wythe"
    title: ClassVar[str] = "WYTHE"
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    sensor_kinds: ClassVar[tuple[str, ...]] = ("switch", "presence")
    # where a piece fits, the mover's groups that make their score, the opponent's
    hint_steps: ClassVar[int] = 3
    # (none: a match plays with the pie rule, since the engine's players are seats, which
    # a swap moves to the other colour)
    match_options: ClassVar[dict[str, Any]] = {}

    def clock_rules(self) -> WytheClock:
        return WytheClock(self)

    def positions(self) -> WythePositions:
        from companion.games.wythe.positions import WythePositions

        return WythePositions(self)

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return PLAYERS  # the seats, whatever the options: no game made to ask

    def new(self, **options: Any) -> WytheState:
        from companion.games.wythe.engine import WytheState

        return WytheState._start(options)  # checks the options

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.wythe.input import WytheInput

        return WytheInput(kind)

    # ----------------------------------------------------------------- the engines
    def engine(self) -> WytheAdapter:
        from companion.games.wythe.adapter import WytheAdapter

        return WytheAdapter()

    def move_effect(self, before: GameState, after: GameState) -> list[str]:
        from companion.games.wythe.adapter import effect

        return effect(_state(before), _state(after))

    def line_effect(self, before: GameState, end: GameState) -> list[str]:
        from companion.games.wythe.words import line_effect

        return line_effect(_state(before), _state(end))

    def move_words(self, before: GameState, move: Move) -> str:
        from companion.games.wythe.words import move_words

        return move_words(_state(before), move)

    # ----------------------------------------------------------------- views
    def view(self, state: GameState, viewer: str | None = None) -> View:
        """Wythe has no secrets: every viewer sees the same."""
        from companion.games.view import Cell, View
        from companion.games.wythe.report import groups_words, lead_line, result_sentence

        st = _state(state)
        sc = st.score()
        explanation = [f"{p.capitalize()}: {groups_words(sc.groups(p))}" for p in PLAYERS]
        explanation.append(lead_line(st))
        if st.swapped:
            explanation.append("White swapped: the first player now plays White")
        if st.is_over():
            explanation.append(result_sentence(st))
        # The buttons: on the table, and on the page of the player whose turn it is (the swap
        # offered to Black's page would only be refused).
        mine = viewer is None or viewer in st.to_act
        actions = tuple(
            (m.name, m.name)
            for m in (SWAP, PASS)
            if mine and not st.is_over() and st.check(m) is None
        )
        heights = st.heights()
        cells = st.cells()
        return View(
            panel=self.panel(st),
            cells=tuple(
                Cell(
                    piece="" if c == "." else c,
                    text=str(h) if h > 1 else "",
                    colour=TOP_RGB[BLACK if c == "x" else WHITE] if h else None,
                    height=h,
                )
                for c, h in zip(cells, heights, strict=True)
            ),
            leds=tuple(self.leds(st)),
            explanation=tuple(explanation),
            actions=actions,
        )

    def panel(self, state: GameState) -> Panel:
        from companion.games.view import Panel, PanelRow

        st = _state(state)
        over = st.is_over()
        rows = tuple(
            PanelRow(p.upper(), score_value(st, p), not over and st.turn == p) for p in PLAYERS
        )
        return Panel(self.title, st.ply if over else st.ply + 1, rows, lead_note(st))

    def leds(self, state: GameState) -> list[RGB]:
        st = _state(state)
        out: list[RGB] = []
        for c, h in zip(st.cells(), st.heights(), strict=True):
            out.append(OFF if c == "." else _dim(TOP_RGB[BLACK if c == "x" else WHITE], h))
        return out

    def highlight(self, state: GameState) -> tuple[int, ...]:
        """The winner's groups of their score's size at the end (none after a 0-0)."""
        from companion.games.wythe.report import deciding_groups

        st = _state(state)
        outcome = st.outcome()
        if outcome is None or outcome.winner is None:
            return ()
        return tuple(sorted(s for g in deciding_groups(st, outcome.winner) for s in g))

    def hint(self, state: GameState, step: int) -> Hint:
        """Menu presses cycle: the squares where a piece fits, then the mover's groups that make
        their score, then the opponent's (after the game: Black's and White's)."""
        from companion.games.view import Hint
        from companion.games.wythe.report import deciding_groups

        st = _state(state)
        if st.is_over():
            player = PLAYERS[step % 2]
        elif step % 3 == 0:
            who = st.mover.capitalize()
            moves = st.placements()
            if not moves:
                return Hint((), f"{who} must pass")
            squares = tuple(sorted({x for m in moves for x in m.cells}))
            noun = "placement" if len(moves) == 1 else "placements"
            return Hint(squares, f"{len(moves)} {noun} for {who}")
        else:
            player = st.mover if step % 3 == 1 else other(st.mover)
        sc = st.score()
        s = sc.of(player)
        groups = deciding_groups(st, player)
        name = player.capitalize()
        if not s:
            return Hint((), f"{name} scores 0: no size with more groups")
        theirs = sc.groups(other(player)).get(s, 0)
        noun = "group" if len(groups) == 1 else "groups"
        text = f"{name} scores {s}: {len(groups)} {noun} of {s} to {theirs}"
        return Hint(tuple(sorted(x for g in groups for x in g)), text, GROUP_RGB[player])

    def player_label(self, player: str) -> str:
        return player.upper()

    # ----------------------------------------------------------------- the CLI
    def rule_of(self, code: str) -> str:
        from companion.games.wythe.records import rule_name

        name = rule_name(code)
        return name if name != code else ""

    def record_tags(self, state: GameState, people: dict[str, str]) -> dict[str, str]:
        from companion.games.wythe.records import swap_tag

        tag = swap_tag(state, people)  # type: ignore[arg-type]
        return {} if tag is None else {tag[0]: tag[1]}


SPEC = WytheSpec()
