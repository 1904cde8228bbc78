"""Hosting Binøme: no board; the OLED shows the scores and the roll or the postulate, the
table page explains each resolution, each player's page holds their sheet and their choices.

Nothing secret reaches the table (``view(state, None)``): no sheet, no number not yet
claimed in a resolved turn, no claim before its turn resolves (with ``secrets``, not even
whether a player claimed). A player's page (``view(state, player)``) adds that player's own
sheet and choices. The sheets become public when the game is over.

A state masked for one seat (remote play, masked.py) shows the table exactly what the full
game shows, its own seat's page as the full game does, and another seat's page as the table
(it does not know that seat's sheet).
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Any, ClassVar, Final

from companion.games.base import ClockRules, GameSpec, GameState, Move, Outcome, Refusal
from companion.games.binome.moves import Claim, Decline, Write
from companion.games.binome.options import OPTIONS, resolve_game_options, seat_order
from companion.games.binome.postulates import BY_ID, number_text
from companion.games.binome.resolution import X, join_names

if TYPE_CHECKING:
    from companion.games.binome.engine import BinomeState
    from companion.games.interpreter import Interpreter
    from companion.games.layout import Layout
    from companion.games.remote_api import Remote
    from companion.games.review_api import OwnReview
    from companion.games.view import RGB, Hint, Panel, View

# The engine, the input, the chair's words, the remote play and the views are imported by
# the methods that play, read or draw a game: `history` and `export` only ask the players
# (in seat order, from the options) and the options.

OLED_CHARS: Final = 21  # characters per OLED line; a hint has two lines
BOARD: Final = 8  # the LEDs are drawn for the usual 8x8 board (one colour per square)

# Card titles short enough for the OLED note with their points (at most 16 characters).
SHORT: Final[dict[str, str]] = {
    "identical-digits": "Identical digits",
    "divisible-by-10": "Divisible by 10",
    "contains-0": "Contains 0",
    "divisible-by-5": "Divisible by 5",
    "contains-5": "Contains 5",
    "contains-9": "Contains 9",
    "contains-1": "Contains 1",
    "first-divisible-by-second": "1st div by 2nd",
    "digit-sum-10": "Digit sum 10",
    "max-number": "Max number",
    "max-digit-sum": "Max digit sum",
    "min-number": "Min number",
    "min-digit-sum": "Min digit sum",
    "min-digit-difference": "Min digit gap",
    "max-digit-difference": "Max digit gap",
    "closest-to-50": "Closest to 50",
}

ROLL_RGB: RGB = (255, 140, 0)
DECK_RGB: RGB = (0, 90, 255)
DONE_RGB: RGB = (0, 40, 0)
OFF: RGB = (0, 0, 0)

# 3x5 digits for the LEDs, top row first ('#' lit).
GLYPHS: Final[dict[int, tuple[str, ...]]] = {
    0: ("###", "#.#", "#.#", "#.#", "###"),
    1: (".#.", "##.", ".#.", ".#.", "###"),
    2: ("###", "..#", "###", "#..", "###"),
    3: ("###", "..#", ".##", "..#", "###"),
    4: ("#.#", "#.#", "###", "..#", "..#"),
    5: ("###", "#..", "###", "..#", "###"),
    6: ("###", "#..", "###", "#.#", "###"),
    7: ("###", "..#", ".#.", ".#.", ".#."),
    8: ("###", "#.#", "###", "#.#", "###"),
    9: ("###", "#.#", "###", "..#", "###"),
}


def card_label(state: BinomeState, card: str) -> str:
    """'Identical digits 4pt' (X cards: 'Max number Xpt')."""
    points = state.deck[card]
    return f"{SHORT[card]} {'X' if points == X else points}pt"


def card_points_text(state: BinomeState, card: str) -> str:
    points = state.deck[card]
    return "X points (one per claimant)" if points == X else f"{points} points"


def cell_label(cell: int) -> str:
    slot, half = divmod(cell, 2)
    return f"number {slot + 1}, {'first' if half == 0 else 'second'} digit"


class BinomeClock(ClockRules):
    default: ClassVar[str] = "3:00+5"  # docs/rules/binome.md, "Time"

    def step_seconds(self, options: dict[str, Any]) -> int:
        return int(options.get("step_seconds", 0) or 0)

    def timed_out(self, state: GameState, player: str) -> Move | None:
        """A digit not written in time goes to the player's first free half; a claim not
        made in time is a pass (docs/rules/binome.md, "Time")."""
        from companion.games.binome.engine import CLAIM, WRITE

        st: BinomeState = state  # type: ignore[assignment]
        if player not in st.to_act or st.veils(player):  # another board times its own seat
            return None
        if st.phase == WRITE:
            return next((m for m in st.legal_moves(player) if isinstance(m, Write)), None)
        if st.phase == CLAIM:
            return Decline(player)
        return None

    def on_time(self, state: GameState, flagged: str) -> Outcome:
        """The flagged player is out; the others' points decide, equal top scores sharing
        the win (docs/rules/binome.md, "Time")."""
        st: BinomeState = state  # type: ignore[assignment]
        others = [(s, p) for p, s in zip(st.names, st.scores, strict=True) if p != flagged]
        if not others:  # solo against nobody: nobody wins
            return Outcome(
                (), f"{flagged} out of time", {"on_time": flagged}, "time ran out", "time"
            )
        top = max(s for s, _ in others)
        winners = tuple(p for s, p in others if s == top)
        summary = (
            f"{winners[0]} wins on time with {top}"
            if len(winners) == 1
            else f"{join_names(winners)} win on time on {top}"
        )
        detail = {"on_time": flagged, "scores": dict(zip(st.names, st.scores, strict=True))}
        return Outcome(winners, summary, detail, f"{flagged}'s time ran out", "time")


class BinomeSpec(GameSpec):
    name = "binome"
    title = "BINOME"
    long_title = "Binøme"
    options = OPTIONS
    sensor_kinds = ()
    secret_options = ("seed",)  # the virtual players' sheets follow from it

    def clock_rules(self) -> BinomeClock:
        return BinomeClock(self)

    def remote(self) -> Remote:
        """Masked states (masked.py): each board knows only its own seat's sheet and claims."""
        from companion.games.remote_api import MaskedRemote

        return MaskedRemote()

    def review(self) -> OwnReview:
        """Each turn told and each claim or pass held against what the player's own sheet
        held (review.py); ValueError for a game not over: its sheets are secret till then."""
        from companion.games.binome.review import review

        return review

    def recorded_move(
        self, state: GameState, move: Move, refusal: Refusal
    ) -> tuple[Move, str] | None:
        """A record from a real table (or an older companion) where a player claimed with no
        eligible number: the printed rules eliminate a number chosen by mistake from the
        turn, so the claim is read as confirmed (``burn``): eliminated, its number used up."""
        if refusal.code != "no-eligible" or not isinstance(move, Claim) or move.burn:
            return None
        mended = Claim(move.number, move.player, burn=True)
        if state.check(mended) is not None:
            return None
        return mended, "a number chosen by mistake is eliminated from the turn"

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """The options checked together; the deck file is read here (once, at the start)."""
        return resolve_game_options(given)

    def new(self, **options: Any) -> BinomeState:
        from companion.games.binome.engine import new_game

        return new_game(**options)

    def layout(self, options: dict[str, Any]) -> Layout | None:
        return None

    def players(self, options: dict[str, Any]) -> tuple[str, ...]:
        return seat_order(self.resolve(options))  # as a new game seats them: none made to ask

    def player_label(self, player: str) -> str:
        return player.upper()

    def person_of(self, player: str) -> str | None:
        """Players named in the options are people by their names (``Ann``); ``p1`` (a count
        of players) and the virtual ``bot1`` are not."""
        if re.fullmatch(r"(p|bot)\d+", player):
            return None
        return player

    def interpreter(self, kind: str) -> Interpreter:
        from companion.games.binome.input import BinomeInput

        return BinomeInput(kind)

    # ----------------------------------------------------------------- what is seen
    def view(self, state: GameState, viewer: str | None = None) -> View:
        from companion.games.view import View

        st: BinomeState = state  # type: ignore[assignment]
        own = viewer if viewer in st.players and not st.veils(viewer) else None
        return View(
            panel=self.panel(st),
            leds=self.leds(st),
            explanation=tuple(self.explanation(st)),
            private=tuple(self.private_lines(st, own) + self._entered_for(st, own, "lines"))
            if own
            else (),
            actions=tuple(self.actions(st, own) + self._entered_for(st, own, "actions"))
            if own
            else (),
        )

    def _entered_for(self, st: BinomeState, viewer: str, part: str) -> list:
        """On the chairperson's page: the sheets and moves of the players without a phone,
        whom the chair enters for (their numbers are told to the chair, not the table)."""
        from companion.games.binome.engine import CLAIM

        if viewer != st.chair:
            return []
        out: list = []
        for p in st.players:
            if p == viewer or p not in st.phoneless:
                continue
            if part == "lines":
                out.append(f"{p} (no phone): {' '.join(st.numbers(p))}")
                if st.phase == CLAIM and p in st.to_act:
                    out.append(f"for {p}: " + self.eligible_line(st, p, "their"))
            else:
                out += [(name, f"for {p}: {label}") for name, label in self.actions(st, p)]
        return out

    def panel(self, st: BinomeState) -> Panel:
        from companion.games.binome.engine import OVER, ROLLS, WRITE
        from companion.games.view import Panel, PanelRow

        acting = st.to_act
        rows = tuple(
            PanelRow(self.player_label(p), str(s), p in acting)
            for p, s in zip(st.players, st.scores, strict=True)
        )
        phase = st.phase
        if phase == OVER:
            note, corner = st.end_reason(), ""
        elif st.card is not None:
            note, corner = card_label(st, st.card), f"deck {len(st.remaining)}"
        elif phase == WRITE:
            note, corner = f"ROLL {st.digit}", f"roll {len(st.rolls)}/{ROLLS}"
        else:  # the referee's step: a roll or a draw about to come
            note, corner = "", f"deck {len(st.remaining)}"
        return Panel(self.title, st.ply, rows, note, corner)

    def announce(self, before: GameState, after: GameState) -> str:
        """A turn that resolved: who won it and why ("44 wins: 88 and 88 cancelled")."""
        done = len(after.history)  # type: ignore[attr-defined]
        if done == len(before.history):  # type: ignore[attr-defined]
            return ""
        return after.history[-1].explanation  # type: ignore[attr-defined]

    def spoken(self, before: GameState, move: Move, after: GameState) -> str:
        """The chair's line (``spoken.py``)."""
        from companion.games.binome.spoken import spoken as chair_line

        return chair_line(before, move, after)  # type: ignore[arg-type]

    def explanation(self, st: BinomeState) -> list[str]:
        """The table's account: the step now, the last resolution, the scores, the deck."""
        from companion.games.binome.engine import CLAIM, OVER, ROLLS, WRITE

        lines: list[str] = []
        phase = st.phase
        if phase == OVER:
            outcome = st.outcome()
            assert outcome is not None
            lines.append(f"Game over: {outcome.summary} ({outcome.reason}); {st.end_reason()}.")
        elif phase == WRITE:
            waiting = [p for p in st.players if p in st.to_act]
            lines.append(
                f"Part 1, roll {len(st.rolls)} of {ROLLS}: everybody writes the digit "
                f"{st.digit}. Waiting for {join_names(waiting)}."
            )
        elif phase == CLAIM and st.card is not None:
            p = BY_ID[st.card]
            lines.append(
                f"Part 2: {st.chair} chairs. Postulate: {p.title} "
                f"({card_points_text(st, st.card)})."
            )
            lines.append(self._claims_so_far(st))
        last = st.last_resolution
        if last is not None:
            claims = ", ".join(f"{p} {number_text(n)}" for p, n in last.claims) or "nobody"
            gains = ", ".join(f"{p} +{g}" for p, g in last.points if g) or "nobody scores"
            lines.append(
                f"Last turn, {BY_ID[last.postulate].title}: {last.explanation} "
                f"(claims: {claims}; {gains})."
            )
        scores = ", ".join(f"{p} {s}" for p, s in zip(st.players, st.scores, strict=True))
        lines.append(f"Score: {scores}.")
        if st.rolls and len(st.rolls) == ROLLS and phase != WRITE:
            lines.append(f"Deck: {len(st.remaining)} of 16 cards left.")
        if st.announced:
            lines.append(f"One number left: {join_names(st.announced)}.")
        if phase == OVER:
            for p in st.players:
                lines.append(f"{p}'s sheet: {' '.join(st.numbers(p))}.")
        return lines

    def _claims_so_far(self, st: BinomeState) -> str:
        decided = [p for p, _ in st.decided]
        if st.options["secrets"]:
            waiting = [p for p in st.players if p not in decided]
            return f"Chosen in secret: {join_names(decided) if decided else 'nobody yet'}; " + (
                f"waiting for {join_names(waiting)}."
            )
        said = [f"{p} {'claims' if n is not None else 'passes'}" for p, n in st.decided]
        turn = st.turn
        head = ", ".join(said) if said else "no claims yet"
        return f"{head}; {turn} to choose." if turn else f"{head}."

    def private_lines(self, st: BinomeState, player: str) -> list[str]:
        """``player``'s own sheet and choices (only on their page)."""
        from companion.games.binome.engine import CLAIM, SLOTS

        i = st.index(player)
        lines = []
        sheet = st.numbers(player)
        for slot in range(SLOTS):
            used = " (used)" if st.used[i][slot] else ""
            lines.append(f"your number {slot + 1}: {sheet[slot]}{used}")
        mine = dict(st.decided)
        if player in mine:
            n = mine[player]
            lines.append(
                "your choice this turn: " + ("pass" if n is None else f"claim {number_text(n)}")
            )
        if st.digit is not None and player in st.to_act:
            lines.append(f"your digit to write: {st.digit}")
        if st.phase == CLAIM and player in st.to_act:
            lines.append(self.eligible_line(st, player))
        return lines

    def eligible_line(self, st: BinomeState, player: str, whose: str = "your") -> str:
        """Which of ``player``'s numbers meet the postulate now ('eligible for Contains 5:
        56 (number 5)'), or that none does (then they can only pass)."""
        assert st.card is not None
        title = SHORT[st.card]
        eligible = set(st.eligible_numbers(player))
        if not eligible:
            return f"no eligible number for {title}: {whose} only choice is to pass"
        i = st.index(player)
        found = [
            f"{text} (number {s + 1})"
            for s, text in enumerate(st.numbers(player))
            if not st.used[i][s] and text.isdigit() and int(text) in eligible
        ]
        return f"eligible for {title}: {', '.join(found)}"

    def actions(self, st: BinomeState, player: str) -> list[tuple[str, str]]:
        """``player``'s legal moves with what they do."""
        out = []
        for move in st.legal_moves(player):
            name = move.name
            if isinstance(move, Write):
                out.append((name, f"write {st.digit} into {cell_label(move.cell)}"))
            elif isinstance(move, Claim):
                slots = [
                    s + 1
                    for s, text in enumerate(st.numbers(player))
                    if text == number_text(move.number) and not st.used[st.index(player)][s]
                ]
                where = f" (number {slots[0]})" if slots else ""
                text = f"claim with {number_text(move.number)}{where}"
                if move.burn:  # asked without the burn: the refusal asks to confirm it
                    name = Claim(move.number, move.player).name
                    text += ": not eligible"
                out.append((name, text))
            elif isinstance(move, Decline):
                out.append((name, "pass (keep my numbers)"))
        return out

    def leds(self, st: BinomeState) -> tuple[RGB, ...]:
        """One colour per square of an 8x8 board: the digit to write large in part 1 with
        the rolls done along the bottom; in part 2 one light per card left in the deck."""
        from companion.games.binome.engine import OVER, WRITE

        out = [OFF] * (BOARD * BOARD)
        if st.phase == WRITE and st.digit is not None:
            for r, row in enumerate(GLYPHS[st.digit]):
                rank = 6 - r
                for f, c in enumerate(row):
                    if c == "#":
                        out[rank * BOARD + 3 + f] = ROLL_RGB
            for k in range(len(st.rolls)):
                out[k] = DONE_RGB
        elif st.phase != OVER:
            for k in range(len(st.remaining)):
                out[k] = DECK_RGB
        return tuple(out)

    def hint(self, state: GameState, step: int) -> Hint:
        """The menu button: the postulate in full (part 2) or the digit (part 1)."""
        from companion.games.view import Hint

        st: BinomeState = state  # type: ignore[assignment]
        if st.card is not None:
            p = BY_ID[st.card]
            points = st.deck[st.card]
            worth = "one point per claimant" if points == X else f"{points} points"
            for title in (p.title, SHORT[st.card]):  # the card's own title when it fits
                if len(textwrap.wrap(f"{title}: {worth}", OLED_CHARS)) <= 2:
                    break
            return Hint((), f"{title}: {worth}")
        if st.digit is not None:
            return Hint((), f"write the {st.digit} in a free half of a number")
        return Hint((), st.end_reason() if st.is_over() else "")


SPEC = BinomeSpec()
