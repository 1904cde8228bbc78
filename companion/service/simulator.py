"""The interactive simulator: type square names (or commands) to act on a simulated board;
the emulated OLED and the board's LEDs are drawn in the terminal after each line, and again
whenever the table changes by itself (a move on a web page, the engine's move, a message
running out), without waiting for input.

Typed squares go to the simulated board, so each one travels the real path: board driver ->
debounce/settle -> interpreter -> rules -> journal -> OLED and LEDs. They are the game's own
squares, as its hints, moves and pages name them (a game smaller than the board, like Latent
Binaries' frame on files b-f, is labelled with its own files and ranks).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO

from companion.core.terminal_text import for_terminal
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.controls import typing_player
from companion.views.oled import screen_text
from companion.views.terminal import board_lines, framed, legend, oled_view_lines, use_colour

TYPED_WAIT = 10.0  # seconds a typed line waits for the engine or a review (see settle)
SCRIPTED_WAIT = 120.0

HELP = """\
Type a square (e4) to press it (LED-switch board), turn its disc (colour board) or
place/lift a piece (presence board). Several squares on one line: e4 d5.
Buttons: confirm | confirm long (the game's position on the LEDs, the way out in words) |
undo | undo long | menu (hints: the game's own, then the engine's move) |
menu long (the new-game menu: menu = next game, confirm = start, undo = back) |
talk (push-to-talk held, listening with [voice] push_to_talk; talk again lets it go).
Also: move NAME [as PLAYER] (a move in the game's notation, e.g. move pass; a move that is
no square needs no "move"; Binøme: write 1a or 1a, claim 33, pass, for the player to act),
new [GAME] [OPTION=VALUE ...] (the command line's options unless given; the game in progress
is paused), resume ID (a paused game), setup (put the simulated board in the game's
position), show, help, quit."""


class Simulator:
    def __init__(self, daemon, board, out: TextIO | None = None, colour: bool | None = None):
        self.daemon = daemon
        self.board = board  # a MockBoard or a SimulatedPico controller
        self.out = out if out is not None else sys.stdout
        self.colour = colour
        self.inp: TextIO = sys.stdin
        self.interactive = False
        self._drawing = threading.Lock()
        self._typing = False  # a typed line is being handled: it draws when done
        self._shown: tuple | None = None  # what the last picture showed (see picture_key)

    def draw(self) -> None:
        with self._drawing:
            self._shown = self.picture_key()
            self._draw()

    def picture_key(self) -> tuple:
        """What the picture shows that can change: the OLED's screen, the moves, the turn, the
        message and the marked squares (not the LEDs' blinking, which would redraw forever)."""
        d = self.daemon
        state = d.session.state
        return (
            d.oled.last,
            d.session.game_id,
            tuple(d.session.moves_seen_by(None)),
            tuple(sorted(state.to_act)),
            state.is_over(),
            d.status or d.message,
            tuple(sorted(self.flags().items())),
            tuple(getattr(self.board, "readings", ())),
        )

    def changed(self) -> None:
        """Told after every render, in the daemon's thread: draw again when the table changed
        and no typed line is being handled (that one draws when it is done)."""
        if self._typing:
            return
        with self._drawing:
            if self._typing or self.picture_key() == self._shown:
                return
            self._shown = self.picture_key()
            if self.interactive:  # from the start of the prompt's line, not after "> "
                ansi = os.environ.get("TERM", "dumb") != "dumb"
                print("\r\x1b[K" if ansi else "\n", end="", file=self.out)
            self._draw()
            if self.interactive:  # the prompt again, with what was typed so far
                print(f"> {_typed_so_far()}", end="", file=self.out, flush=True)

    def _draw(self) -> None:
        d = self.daemon
        screen = d.oled.last
        leds = d.leds.frame if d.leds is not None and hasattr(d.leds, "frame") else None
        if leds is None:
            leds = d.session.spec.leds(d.session.state)
        size = math.isqrt(len(leds))  # the game's board (a mismatched board is reported)
        colour = use_colour() if self.colour is None else self.colour
        readings = getattr(self.board, "readings", ())
        board = board_lines(
            leds,
            size,
            readings if d.board.kind != "switch" else (),
            colour,
            self.pieces(size),
            self.flags(),
            d.map.name if d.map.size == size else None,
        )
        board.append(legend(colour))
        oled = oled_view_lines(d.display.image, self.columns())
        rows = self.rows()
        if screen is not None and rows is not None and len(oled) + len(board) + 3 > rows:
            oled = framed([for_terminal(t) for t in screen_text(screen)], "OLED")  # as text
        lines = oled + board  # then the status: moves, score, turn and message
        moves = d.session.moves_seen_by(None)  # the table's view: no secrets
        state = d.session.state
        named = d.session.players_named()  # the person playing each player now
        acting = [
            " ".join(filter(None, (named.get(p, ""), d.session.spec.player_label(p))))
            for p in state.players
            if p in state.to_act
        ]
        turn = ", ".join(acting) if acting else ("game over" if state.is_over() else "referee")
        status = [f"moves: {' '.join(moves[-12:]) if moves else '(none yet)'}"]
        if screen is not None and screen.panel.rows and screen.qr is None:  # always in sight
            status.append("score: " + "  ".join(f"{r.label} {r.value}" for r in screen.panel.rows))
        status += self.page_lines()
        said = self.said()
        status.append(f"turn: {turn}" + (f" | {said}" if said else ""))
        lines += [for_terminal(t) for t in status]  # players' names are user text
        print("\n".join(lines), file=self.out, flush=True)

    def said(self) -> str:
        """What the table says now, as the OLED shows it: a lasting condition, else the
        message, else a move waiting to be made (``t1's move: d5: press it``, which stays
        after the message that told it ran out)."""
        d = self.daemon
        screen = d.oled.last
        if screen is not None and screen.qr is None:
            return screen.status or screen.message
        return d.status or d.message

    def pieces(self, size: int) -> list[str]:
        """The game's piece on each square of the board drawn: x black, o white, or the
        game's own one-letter token (Latent Binaries' nests R and X, its markers g), so a
        terminal without colour shows them too."""
        d = self.daemon
        out = [""] * (size * size)
        frame = d.frame  # the view the OLED and the LEDs were drawn from
        view = frame.view if frame is not None else d.session.spec.view(d.session.state)
        cells = view.cells
        squares = d.map.to_squares(tuple(range(len(cells)))) if d.map.squares else ()
        for cell, square in zip(cells, squares, strict=False):
            if square < len(out) and cell.piece:
                out[square] = cell.piece[:1]
        return out

    def flags(self) -> dict[int, str]:
        """Squares the table marks: refused, differs (blinking), hint."""
        marked = self.daemon.marks()
        out = {sq: "hint" for sq in marked.hint}
        out.update({sq: "differ" for sq in marked.differ})
        if marked.refused is not None:
            out[marked.refused] = "refused"
        return out

    def columns(self) -> int:
        """The terminal's width (80 when the output is not a terminal)."""
        try:
            return os.get_terminal_size(self.out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return 80

    def rows(self) -> int | None:
        """The terminal's height (None when the output is not a terminal)."""
        try:
            return os.get_terminal_size(self.out.fileno()).lines
        except (OSError, ValueError, AttributeError):
            return None

    def settle(self, timeout: float | None = None) -> None:
        """Wait until what was typed has gone all the way through (board settle included),
        so the next line acts on the game as this one left it. The engine's move or a review
        is waited for up to ``TYPED_WAIT`` seconds at a terminal (the prompt comes back, the
        progress is drawn) and ``SCRIPTED_WAIT`` from a script (its next line is meant for
        what comes after: on a loaded machine a review at low priority takes its time)."""
        d = self.daemon
        if timeout is None:
            timeout = TYPED_WAIT if self.interactive else SCRIPTED_WAIT
        deadline = time.monotonic() + timeout
        while True:
            d.wait_idle(5)
            if hasattr(self.board, "wait_quiet"):
                self.board.wait_quiet()
                d.wait_idle(5)
            if d.quiet() or time.monotonic() > deadline:
                return
            time.sleep(0.005)

    def setup_board(self) -> None:
        """A person setting the pieces out for the game (sensor boards only)."""
        if self.daemon.board.kind == "switch":
            return
        for square, value in enumerate(self.daemon.expected_readings()):
            if self.board.readings[square] != value:
                self.board.set_reading(square, value)

    def act_on_square(self, square: int) -> None:
        kind = self.daemon.board.kind
        if kind == "switch":
            if isinstance(self.board, MockBoard):
                self.board.tap(square, clean=True)  # one whole press, however fast typed
            else:
                self.board.tap(square)  # the simulated Pico debounces it like a real one
        elif kind == "polarity":
            current = self.board.readings[square]
            self.board.set_reading(square, "x" if current == "o" else "o")
        else:
            current = self.board.readings[square]
            self.board.set_reading(square, "0" if current == "1" else "1")

    @contextlib.contextmanager
    def typing(self) -> Iterator[None]:
        """While a typed line is handled: ``changed`` draws nothing (the line draws when it is
        done), and a change made meanwhile is drawn after it."""
        self._typing = True
        try:
            yield
        finally:
            self._typing = False
            self.daemon.post_call(lambda: None)  # a change made while drawing is drawn too

    def handle_line(self, line: str) -> bool:
        """Act on one typed line; False to quit."""
        with self.typing():
            return self._handle_line(line)

    def _handle_line(self, line: str) -> bool:
        words = line.strip().split()
        if not words:
            return True
        verb = words[0].lower()
        if verb in ("quit", "exit", "q"):
            return False
        if verb in ("help", "?"):
            print(HELP, file=self.out)
            return True
        if verb == "show":
            self.draw()
            return True
        if verb == "setup":
            self.setup_board()
            self.settle()
            self.draw()
            return True
        if verb in ("confirm", "undo", "menu", "new", "move", "resume"):
            from companion.core.events import UserCommand

            game_before = self.daemon.session.game_id
            self.daemon.post(UserCommand(" ".join(words)))
            self.settle()
            if self.daemon.session.game_id != game_before:  # a new game: set its pieces out
                self.setup_board()
        else:
            try:  # the game's own squares (the frame's a-e for Latent Binaries on b-f)
                if self.daemon.map.layout is None:  # no board: the line is a move
                    raise ValueError("no board")
                squares = [self.daemon.map.square_named(word) for word in words]
            except ValueError as e:
                error = self.not_a_move(" ".join(words))
                if error and self.daemon.map.layout is not None:
                    error = str(e)  # neither a square nor a move: the square is meant
                if error:
                    print(for_terminal(f"{error} (type help)"), file=self.out)
                    return True
                from companion.core.events import UserCommand

                self.daemon.post(UserCommand("move " + " ".join(words)))
                squares = []
            for square in squares:
                self.act_on_square(square)
                self.settle()
        self.settle()
        self.draw()
        return True

    def not_a_move(self, text: str) -> str:
        """Why ``text`` is no move in the game's notation ('' when it is one)."""
        try:
            self.daemon.session.state.parse_move(text)
        except ValueError as e:
            return str(e)
        return ""

    def page_lines(self) -> list[str]:
        """A game played without a board (Binøme): the terminal is the page of the player a
        typed move is for (``typing_player``): what that page shows them (their sheet), and
        how to type a move for them."""
        d = self.daemon
        state = d.session.state
        if d.map.layout is not None or state.is_over():
            return []
        player = typing_player(state)
        if player is None:
            return []
        view = d.session.spec.view(state, player)
        label = d.session.spec.player_label(player)
        lines = [f"{label}'s page: " + "; ".join(view.private)] if view.private else []
        if view.actions:
            example = view.actions[-1][0]
            if example.lower().startswith(player.lower() + " "):
                example = example[len(player) + 1 :]  # the name may be left out
            lines.append(f"{label} to play: type a move, e.g. {example}")
        return lines

    def read_line(self, prompt: str) -> str:
        """One typed line ('' at the end of the input); line editing and history at a tty."""
        if self.interactive and self.inp is sys.stdin:
            try:
                return input(prompt) + "\n"
            except EOFError:
                return ""
        if self.interactive:
            print(prompt, end="", file=self.out, flush=True)
        return self.inp.readline()

    def run(self, inp: TextIO | None = None) -> None:
        inp = inp if inp is not None else sys.stdin  # read when called (tests replace it)
        self.inp = inp
        self.interactive = inp.isatty()
        if self.interactive and inp is sys.stdin:
            with contextlib.suppress(ImportError):  # line editing and history for input()
                import readline  # noqa: F401
        print(HELP, file=self.out)
        self.settle()
        self.setup_board()  # the simulated pieces start out as the game has them
        self.settle()
        self.draw()
        interactive = self.interactive
        self.daemon.listeners.append(self.changed)
        try:
            while True:
                line = self.read_line("> ")
                if not line:
                    break
                if not interactive:
                    with self._drawing:
                        print(f"> {line.rstrip()}", file=self.out)
                if not self.handle_line(line):
                    break
        finally:
            with contextlib.suppress(ValueError):
                self.daemon.listeners.remove(self.changed)


def _typed_so_far() -> str:
    """What is typed on the line being edited (readline's buffer), if readline is in use."""
    readline = sys.modules.get("readline")
    try:
        return readline.get_line_buffer() if readline is not None else ""
    except Exception:  # another line editor, or none
        return ""
