"""The simulator's view in a plain terminal (works over SSH): the emulated OLED drawn in
Braille dots from the very image the OLED gets, and the board with each square's LED colour."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from PIL import Image

from companion.core.squares import FILES
from companion.core.terminal_text import display_width, pad

_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20),
         (0, 3, 0x40), (1, 3, 0x80))  # fmt: skip


def oled_lines(image: Image.Image) -> list[str]:
    """A 1-bit image as Braille characters, 2x4 pixels each (128x64 -> 64x16)."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    lines = []
    for y in range(0, h, 4):
        row = []
        for x in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _DOTS:
                if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        lines.append("".join(row))
    return lines


def oled_block_lines(image: Image.Image) -> list[str]:
    """A 1-bit image as half blocks, one pixel wide and two high each (128x64 -> 128x32):
    the OLED's own pixels, readable, for terminals at least 130 columns wide."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    chars = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
    return [
        "".join(
            chars[(1 if px[x, y] else 0, 1 if y + 1 < h and px[x, y + 1] else 0)] for x in range(w)
        )
        for y in range(0, h, 2)
    ]


def oled_view_lines(image: Image.Image, columns: int) -> list[str]:
    """The OLED drawn as large as the terminal allows."""
    if columns >= image.size[0] + 2:
        return framed(oled_block_lines(image), "OLED")
    return framed(oled_lines(image), "OLED")


def framed(lines: list[str], title: str = "") -> list[str]:
    """``lines`` in a box, its right edge straight whatever the characters (wide ones count
    two columns)."""
    width = max(display_width(s) for s in lines)
    top = "┌" + (f" {title} " if title else "").center(width, "─") + "┐"
    return [top] + ["│" + pad(s, width) + "│" for s in lines] + ["└" + "─" * width + "┘"]


def use_colour() -> bool:
    return (
        sys.stdout.isatty()
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM", "dumb") != "dumb"
    )


DIM_FLOOR = 70  # a faintly lit square (Binary's light squares) still shows on a dark terminal
FLAGS = {"refused": "!", "differ": "?", "hint": "*"}
LEGEND_PLAIN = "x black  o white  . dark  - light square  ! refused  ? differs  * hint"
LEGEND_COLOUR = "x black  o white  background = LED  ! refused  ? differs  * hint"


def _flag_from_led(rgb: tuple[int, int, int]) -> str:
    if rgb[0] > 120 and rgb[1] < 60:
        return "!"
    if rgb[1] > 120 and rgb[0] < 60 and rgb[2] < 60:
        return "*"
    return ""


def _cell(rgb: tuple[int, int, int], reading: str, colour: bool, piece: str = "", flag=None) -> str:
    """One square, three characters: the piece (x black, o white) or what the board reads,
    then its flag (refused, differs, hint)."""
    lit = sum(rgb) > 30
    flag = _flag_from_led(rgb) if flag is None else flag
    letter = piece or {"x": "x", "o": "o", "1": "#"}.get(reading, "")
    if colour:
        dim = 0 < sum(rgb) <= 30
        r, g, b = (max(DIM_FLOOR, c * 2) if dim else min(255, c * 2) for c in rgb)
        fg = "30" if lit or dim else "37"
        # the plain marks too, so a terminal that shows no colours still shows every square
        mark = letter or ("O" if lit else "-" if dim else ".")
        text = f" {mark}{flag or ' '}"
        return f"\x1b[48;2;{r};{g};{b}m\x1b[{fg}m{text}\x1b[0m"
    if letter:
        return f" {letter}{flag or ' '}"
    if flag:
        return f" {flag} "
    if lit:
        return " O "
    return " - " if sum(rgb) > 0 else " . "


def board_lines(
    leds: Sequence[tuple[int, int, int]],
    size: int,
    readings: Sequence[str] = (),
    colour=None,
    pieces: Sequence[str] = (),
    flags: dict[int, str] | None = None,
    name: Callable[[int], str | None] | None = None,
) -> list[str]:
    """The board, rank 8 at the top, each square coloured as its LED. ``pieces`` (x black,
    o white, per square) come from the game; ``flags`` mark squares by name ("refused",
    "differ", "hint"), else red and green LEDs are read as refused and hint. ``name`` gives a
    square's name as the game says it (None outside the game's area), for the file letters
    and rank numbers along the edges."""
    colour = use_colour() if colour is None else colour
    out = []
    for rank in range(size - 1, -1, -1):
        cells = []
        for file in range(size):
            i = rank * size + file
            reading = readings[i] if i < len(readings) else ""
            piece = pieces[i] if i < len(pieces) else ""
            flag = None if flags is None else FLAGS.get(flags.get(i, ""), "")
            cells.append(_cell(leds[i], reading, colour, piece, flag))
        out.append(f"{_rank_label(rank, size, name):>2} " + "".join(cells))
    out.append("   " + "".join(f" {_file_label(f, size, name)} " for f in range(size)))
    return out


def _rank_label(rank: int, size: int, name: Callable[[int], str | None] | None) -> str:
    if name is None:
        return str(rank + 1)
    names = [name(rank * size + f) for f in range(size)]
    return next((n[1:] for n in names if n), "")


def _file_label(file: int, size: int, name: Callable[[int], str | None] | None) -> str:
    if name is None:
        return FILES[file]
    names = [name(r * size + file) for r in range(size)]
    return next((n[0] for n in names if n), " ")


def legend(colour: bool) -> str:
    return LEGEND_COLOUR if colour else LEGEND_PLAIN
