"""The interactive simulator: type square names (or commands) to act on a simulated board;
after each line the emulated OLED and the board's LEDs are drawn in the terminal.

Typed squares go to the simulated board, so each one travels the real path: board driver ->
debounce/settle -> interpreter -> rules -> journal -> OLED and LEDs.
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import TextIO

from companion.core.squares import parse_square
from companion.views.terminal import board_lines, oled_view_lines

HELP = """\
Type a square (e4) to press it (LED-switch board), turn its disc (colour board) or
place/lift a piece (presence board). Several squares on one line: e4 d5.
Buttons: confirm | undo | undo long | menu | menu long (new game).
Also: new [GAME], setup (put the simulated board in the game's position), show, help, quit."""


class Simulator:
    def __init__(self, daemon, board, out: TextIO = sys.stdout, colour: bool | None = None):
        self.daemon = daemon
        self.board = board  # a MockBoard or a SimulatedPico controller
        self.out = out
        self.colour = colour

    def draw(self) -> None:
        d = self.daemon
        lines = oled_view_lines(d.display.image, self.columns())
        leds = d.leds.frame if d.leds is not None and hasattr(d.leds, "frame") else None
        if leds is None:
            leds = d.session.spec.leds(d.session.state)
        size = math.isqrt(len(leds))  # the game's board (a mismatched board is reported)
        readings = getattr(self.board, "readings", ())
        lines += board_lines(leds, size, readings if d.board.kind != "switch" else (), self.colour)
        moves = d.session.moves
        state = d.session.state
        turn = d.session.spec.player_label(state.turn) if state.turn else "game over"
        lines.append(f"moves: {' '.join(moves[-12:]) if moves else '(none yet)'}")
        lines.append(
            f"turn: {turn}" + (f" | {d.status or d.message}" if d.status or d.message else "")
        )
        print("\n".join(lines), file=self.out, flush=True)

    def columns(self) -> int:
        """The terminal's width (80 when the output is not a terminal)."""
        try:
            return os.get_terminal_size(self.out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return 80

    def settle(self) -> None:
        """Wait until what was typed has gone all the way through (board settle included)."""
        d = self.daemon
        d.wait_idle(5)
        if d.board.kind != "switch":
            time.sleep(d.config.board.settle_ms / 1000 + 0.05)
            d.wait_idle(5)
        if hasattr(self.board, "wait_quiet"):
            self.board.wait_quiet()
            d.wait_idle(5)

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
            self.board.tap(square)
        elif kind == "polarity":
            current = self.board.readings[square]
            self.board.set_reading(square, "x" if current == "o" else "o")
        else:
            current = self.board.readings[square]
            self.board.set_reading(square, "0" if current == "1" else "1")

    def handle_line(self, line: str) -> bool:
        """Act on one typed line; False to quit."""
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
        if verb in ("confirm", "undo", "menu", "new"):
            from companion.core.events import UserCommand

            game_before = self.daemon.session.game_id
            self.daemon.post(UserCommand(" ".join(words)))
            self.settle()
            if self.daemon.session.game_id != game_before:  # a new game: set its pieces out
                self.setup_board()
        else:
            size = self.daemon.board.size
            for word in words:
                try:
                    square = parse_square(word, size)
                except ValueError as e:
                    print(f"{e} (type help)", file=self.out)
                    return True
                self.act_on_square(square)
                self.settle()
        self.settle()
        self.draw()
        return True

    def run(self, inp: TextIO = sys.stdin) -> None:
        print(HELP, file=self.out)
        self.settle()
        self.setup_board()  # the simulated pieces start out as the game has them
        self.settle()
        self.draw()
        interactive = inp.isatty()
        while True:
            if interactive:
                print("> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                break
            if not interactive:
                print(f"> {line.rstrip()}", file=self.out)
            if not self.handle_line(line):
                break
