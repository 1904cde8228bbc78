"""Hosting Latent Binaries: the layout on the 8x8 board, what the table and each player see,
hints, and the input. The table view (OLED, LEDs, table page) never holds a hidden pawn; a
player's view adds that player's own pawns and their setup and guess buttons.

A masked state (remote play, ``masked.py``) gives the same views as the full game once the
facts due are learned: the public one, and its own player's; the other player's view is the
public one (their secrets are not on this board). While it waits for a fact, the panel's note
and the explanation's prompt say ``waiting for xeno`` instead, and a stash not yet told is left
out of the explanation: the only differences."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.base import ClockRules, GameSpec, GameState, Option
from companion.games.latent_binaries.facts import STASH
from companion.games.latent_binaries.geometry import (
    BETWEEN,
    GOAL_ROWS,
    SQUARES,
    STEPS,
    square_name,
    squares_of,
)
from companion.games.latent_binaries.moves import END, PASS, Challenge, Marker, Order, Setup, Step
from companion.games.latent_binaries.options import OPTIONS, PLAYERS, other, resolve
from companion.games.latent_binaries.phases import CHALLENGE, MARKER, MOVE, OVER, PROMPTS, SETUP
from companion.games.positions import Positions
from companion.games.remote_api import MaskedRemote, Remote
from companion.games.state import own_state

if TYPE_CHECKING:
    from companion.games.interpreter import Interpreter
    from companion.games.latent_binaries.engine import LatentState
    from companion.games.layout import Layout
    from companion.games.review_api import OwnReview
    from companion.games.view import RGB, Cell, Hint, Panel, View

# The engine, the input, the position's text and the views are imported by the methods that
# play, read or draw a game: `history` and `export` only ask the players and the options.

NEST_RGB: dict[str, RGB] = {"rainbow": (220, 70, 0), "xeno": (0, 110, 220)}
MARKER_RGB: RGB = (110, 110, 110)
GOAL_RGB: RGB = (6, 6, 6)  # empty goal-row cells glow faintly, so the frame shows
OFF: RGB = (0, 0, 0)
PIECE = {"rainbow": "R", "xeno": "X"}
SHORT = {SETUP: "setup: on your page", MOVE: "move a nest", CHALLENGE: "guess on your page"}
SHORT |= {MARKER: "move a goal marker"}


def _state(state: GameState) -> LatentState:
    from companion.games.latent_binaries.engine import LatentState

    return own_state(state, LatentState, "Latent Binaries")


def short_answer(state: LatentState) -> str:
    """The last answer in one OLED line (21 characters)."""
    a = state.answer
    if a.startswith("correct: cap the nest on "):
        sq, colour = a.split()[5], a.split()[-1]
        return f"right: {sq} {colour}"
    if a.startswith("correct: remove"):
        return f"right: {a.split()[5].rstrip(',')} removed"
    if a.startswith("wrong: ") and "on top" in a:
        return f"wrong: {a.split()[1]} on top"[:21]
    if a.startswith("wrong"):
        return "wrong guess"
    return ""


def _nests(k: int) -> str:
    return f"{k} nest" if k == 1 else f"{k} nests"


def _waiting(state: LatentState) -> str:
    return "waiting for " + ", ".join(sorted(state.waiting))


def _guess_label(move: Any) -> str:
    if isinstance(move, Challenge):
        return f"{square_name(move.target)}: {move.colour}?"
    if isinstance(move, Order):
        return f"{square_name(move.target)}: {move.top} over {move.bottom}?"
    if isinstance(move, Setup):
        return f"{square_name(move.square)}: {move.top} over {move.bottom}"
    return {END: "end the challenge", PASS: "pass"}.get(move, str(move))


class LatentClock(ClockRules):
    default: ClassVar[str] = "15:00+10"  # docs/rules/latent-binaries.md, "Time"


class LatentPositions(Positions):
    movers: ClassVar[tuple[str, ...]] = PLAYERS  # `legal FILE` (no engine)

    def legal(
        self,
        text: str,
        mover: str,
        options: Mapping[str, Any] | None = None,
        last: str | None = None,
    ) -> dict[str, list[str]]:
        """``binaryon legal --game latent-binaries``: {"moves": [...], "winning": [...]} for
        a public position text; ValueError (one line) for a bad position or mover."""
        from companion.games.latent_binaries.position import legal, parse_position

        return legal(parse_position(text), mover)


class LatentSpec(GameSpec):
    name: ClassVar[str] = "latent-binaries"  # the engine's GAME (loaded when a game is made)
    title: ClassVar[str] = "LATENT"
    long_title: ClassVar[str] = "Latent Binaries"
    paired_moves: ClassVar[bool] = False  # a turn: a move, a challenge, a marker
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    sensor_kinds: ClassVar[tuple[str, ...]] = ("switch", "presence")

    def clock_rules(self) -> LatentClock:
        return LatentClock(self)

    def positions(self) -> LatentPositions:
        return LatentPositions(self)

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        return resolve(given)

    def new(self, **options: Any) -> LatentState:
        from companion.games.latent_binaries.engine import new_game

        return new_game(**options)

    def layout(self, options: dict[str, Any]) -> Layout:
        """The 5x7 frame on files b-f, ranks 1-7 of the 8x8 board."""
        from companion.games.layout import Layout

        return Layout(5, 7, origin=(1, 0), board=8)

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return PLAYERS

    def remote(self) -> Remote:
        """Masked states (masked.py, "Remote play" in the rules)."""
        return LatentRemote()

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.latent_binaries.input import LatentInput

        return LatentInput(kind)

    # ----------------------------------------------------------------- views
    def announce(self, before: GameState, after: GameState) -> str:
        """The referee's answer to a guess or a win ("correct: cap the nest on c3 with
        green"): what the players must do on the board."""
        answer = after.answer  # type: ignore[attr-defined]
        return answer if answer and answer != before.answer else ""  # type: ignore[attr-defined]

    def view(self, state: GameState, viewer: str | None = None) -> View:
        from companion.games.view import View

        st = _state(state)
        if viewer is not None and viewer not in PLAYERS:
            raise ValueError(f"{viewer}: not a player")
        if st.seat not in (None, viewer):  # the other player's secrets are not on this board
            viewer = None
        return View(
            panel=self.panel(st),
            cells=tuple(self._cells(st, viewer)),
            leds=tuple(self.leds(st)),
            explanation=tuple(self._explanation(st)),
            private=tuple(self._private(st, viewer)) if viewer else (),
            actions=tuple((m.name, _guess_label(m)) for m in self._actions(st, viewer)),
        )

    def panel(self, st: LatentState) -> Panel:
        from companion.games.view import Panel, PanelRow

        rows = tuple(
            PanelRow(p.upper(), _nests(len(st.nests_of(p))), p in st.to_act) for p in PLAYERS
        )
        if st.phase == OVER:
            outcome = st.outcome()
            note = outcome.summary if outcome else "game over"
        elif st.waiting:
            note = _waiting(st)
        else:
            note = short_answer(st) if st.phase != SETUP else ""
            note = note or SHORT[st.phase]
        return Panel(self.title, st.ply if st.phase == OVER else st.ply + 1, rows, note)

    def _cells(self, st: LatentState, viewer: str | None) -> list[Cell]:
        from companion.games.latent_binaries.input import marker_cells
        from companion.games.view import Cell

        cells = [Cell() for _ in range(SQUARES)]
        for c in marker_cells(st):
            cells[c] = Cell(piece="g", colour=MARKER_RGB)
        for n in st.nests:
            # The hidden order: on the owner's own page, or once a wrong order guess showed it.
            if (n.owner == viewer and n.is_set) or n.shown:
                text = f"{n.top}/{n.bottom}"
            else:
                text = "+".join(c[:3] for c in n.caps)
            cells[n.square] = Cell(piece=PIECE[n.owner], text=text, colour=NEST_RGB[n.owner])
        return cells

    def leds(self, st: LatentState) -> list[RGB]:
        from companion.games.latent_binaries.input import marker_cells

        out = [GOAL_RGB if GOAL_ROWS >> c & 1 else OFF for c in range(SQUARES)]
        for c in marker_cells(st):
            out[c] = MARKER_RGB
        for n in st.nests:
            out[n.square] = NEST_RGB[n.owner]
        return out

    def _explanation(self, st: LatentState) -> list[str]:
        lines = []
        if st.answer:
            lines.append(st.answer)
        if st.phase == SETUP:
            waiting = ", ".join(sorted(st.to_act))
            lines.append(f"hidden setup: waiting for {waiting}")
        elif st.waiting:
            lines.append(_waiting(st))
        elif st.phase != OVER and st.mover is not None:
            lines.append(f"{st.mover}: {PROMPTS[st.phase]}")
        if st.phase != SETUP:
            for p in PLAYERS:
                if st.awaiting == STASH and p in st.waiting:
                    continue
                stash = ", ".join(f"{c} {k}" for c, k in st.stash_of(p).items())
                lines.append(f"{p} stash: {stash}")
        if st.phase == OVER and (outcome := st.outcome()) is not None:
            lines.append(f"{outcome.summary}: {outcome.reason}")
        return lines

    def _private(self, st: LatentState, viewer: str) -> list[str]:
        own = st.nests_of(viewer)
        lines = [f"you are {viewer}"]
        for n in own:
            hidden = f"hides {n.top} over {n.bottom}" if n.is_set else "not set up yet"
            lines.append(f"{square_name(n.square)} {hidden}")
        stash = ", ".join(f"{c} {k}" for c, k in st.stash_of(viewer).items())
        lines.append(f"your stash: {stash}")
        return lines

    def _actions(self, st: LatentState, viewer: str | None) -> list[Any]:
        """Moves made with a button rather than the board: setups (only on the owner's page),
        guesses and ``end`` (on the mover's page and the table)."""
        if st.phase == SETUP:
            return st.legal_moves(viewer) if viewer is not None else []
        if st.phase == CHALLENGE and viewer in (None, st.mover):
            return st.legal_moves()
        return []

    # ----------------------------------------------------------------- hints and the end
    def highlight(self, state: GameState) -> tuple[int, ...]:
        """The winning line at the end: the nest, the squares between, the marker."""
        st = _state(state)
        if st.line is None:
            return ()
        a, b = st.line
        return tuple(sorted({a, b, *squares_of(BETWEEN[(a, b)])}))

    def hint(self, state: GameState, step: int) -> Hint:
        """What the mover may do now: nests that can move, nests in sight, markers that jump;
        odd presses show the opponent's base."""
        from companion.games.latent_binaries.input import fit
        from companion.games.view import Hint

        st = _state(state)
        if st.phase == OVER:
            outcome = st.outcome()
            return Hint(self.highlight(st), outcome.summary if outcome else "")
        if st.waiting:
            return Hint((), _waiting(st))
        if st.phase == SETUP or st.mover is None:
            return Hint((), SHORT[SETUP])
        mover = st.mover
        if step % 2:
            base = st.base(other(mover))
            return Hint(base, fit("goal:", list(base)))
        if st.phase == MOVE:
            occ = st.occupied()
            cells = [n.square for n in st.nests_of(mover) if STEPS[n.square] & ~occ]
            return Hint(tuple(cells), fit("can move:", cells) if cells else "no nest can move")
        if st.phase == CHALLENGE:
            cells = [n.square for n in st.in_sight(mover)]
            return Hint(tuple(cells), fit("in sight:", cells))
        cells = sorted({m.src for m in st.legal_moves() if isinstance(m, Marker)})
        return Hint(tuple(cells), fit("jumps:", cells))

    def review(self) -> OwnReview:
        """Each guess held to what the guesser knew then (review.py); ValueError before the
        game has revealed its secrets: nothing hidden is read for it."""
        from companion.games.latent_binaries.review import review

        return review

    def player_label(self, player: str) -> str:
        return player.upper()


SPEC = LatentSpec()


class LatentRemote(MaskedRemote):
    def on_board(self, move: Any) -> bool:
        """Only a nest's step and a marker's jump are made on the board: setups and guesses
        are made on the pages (their cells are for hints)."""
        return isinstance(move, Step | Marker)
