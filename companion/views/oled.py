"""What the 128x64 OLED shows, drawn with luma's ``canvas`` on any luma device.

Layout (a bold 6x10 pixel font, 21 characters a line):

    BINARYON      move 12     title, move number
    ──────────────────────
    ▌ON   11111001 ▐           the player on turn is shown inverted
      OFF 11110000
    note (game-specific)
    message line 1            refusal, pass, status, result
    message line 2

With a game clock, two players' times sit at the right end of their rows (``4:59``, tenths
under 10 s: ``9.4``), the running one marked with a small arrow; with more than two players
only the time of the player on move is shown, inverted, in the title line before the corner.
A paused clock says ``paused`` in the corner.

Four to eight players take two columns of ``NAME   pts`` (10 characters each) on two to
four lines; with four lines the message keeps one line. When the rows leave no line for the
note, the note takes the message lines while there is no message.
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont, PcfFontFile

from companion.core.terminal_text import display_width, pad
from companion.games.base import Panel

WIDTH, HEIGHT = 128, 64
CHARS = 21  # 128 px / 6 px per character
# Schumacher "Clean" bold 6x10 (X.Org font-schumacher-misc, via Debian's xfonts-base; a
# permissive X11-style licence: fonts/LICENSE-clB6x10.txt). Bold strokes with a gap between
# characters, so 11111111 reads as eight ones on a 0.96" panel, not as a comb.
FONT_FILE = "clB6x10.pcf"
_FONT = None


def font() -> ImageFont.ImageFont:
    """The bundled bitmap font: identical pixels on every Pillow version and machine."""
    global _FONT
    if _FONT is None:
        data = resources.files("companion.views").joinpath("fonts", FONT_FILE)
        with data.open("rb") as fp:
            _FONT = PcfFontFile.PcfFontFile(fp).to_imagefont()
    return _FONT


@dataclass(frozen=True)
class ScreenClock:
    """The game clock as the OLED shows it: ``rows`` the time of each panel row (two
    players; "" for a row without one), else ``mover`` the time of the player on move
    alone; ``running`` the row whose time runs (None: none)."""

    rows: tuple[str, ...] = ()
    mover: str = ""
    running: int | None = None
    paused: bool = False


@dataclass(frozen=True)
class Screen:
    panel: Panel
    message: str = ""
    status: str = ""  # a lasting condition, e.g. "board disconnected"; wins over message
    over: bool = False
    qr: tuple[str, str] | None = None  # (label, URL): a page's QR code fills the screen
    clock: ScreenClock | None = None


def plain(text: str) -> str:
    """The text in the font's characters (ASCII): accents dropped ('Zoë' -> 'Zoe'), any
    other character shown as '?'."""
    if text.isascii():
        return text
    bare = unicodedata.normalize("NFKD", text)
    return "".join(c if c.isascii() else "?" for c in bare if not unicodedata.combining(c))


def _say(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: Any = "white") -> None:
    draw.text(xy, plain(text), font=font(), fill=fill)


def _say_lines(draw: ImageDraw.ImageDraw, y: int, lines: list[str]) -> None:
    """Lines one under the other from ``y``, at the left edge."""
    for i, line in enumerate(lines):
        _say(draw, (0, y + 10 * i), line)


def wrap(text: str, lines: int = 2) -> list[str]:
    out = textwrap.wrap(text, CHARS, break_long_words=True) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: CHARS - 2] + ".."
    return out


def move_label(move: int, title_chars: int) -> str:
    """'move 12' when it fits beside the title, else '#12'."""
    word = f"move {move}"
    return word if title_chars + 1 + len(word) <= CHARS else f"#{move}"


def result_parts(screen: Screen) -> tuple[str, str] | None:
    """At the end, a result that needs more than the note's line ('ON wins: tie at ..: why'),
    given as the note or repeated by the message: its head for the title's corner and the
    rest for the three lines under the rows. None when the usual layout suffices."""
    p = screen.panel
    if not screen.over or screen.status or len(p.rows) > 2 or not p.note:
        return None
    text = screen.message or p.note
    if not text.startswith(p.note.split(": ", 1)[0]) or len(text) <= CHARS:
        return None
    head, _, rest = text.partition(": ")
    if not rest or len(p.title) + 1 + len(head) > CHARS:
        return None
    return head, rest


def said_once(screen: Screen) -> str | None:
    """At the end, when the message repeats the note ('OFF wins' and 'OFF wins', 'XENO wins'
    and 'XENO wins: e4 sees b1'): the longer of the two, shown once on the lines under the
    rows. None otherwise."""
    note, message = screen.panel.note, screen.message
    if not screen.over or screen.status or not note or not message:
        return None
    if message.startswith(note):
        return message
    if note.startswith(message):
        return note
    # the same result in other words ('White wins: 1x8 to 0' / 'WHITE wins 8-4: one group of
    # 8 to none'): its head, before the reason, names the same winner; the fuller one is shown
    head_n, head_m = (t.split(":")[0].split()[:2] for t in (note.lower(), message.lower()))
    if len(head_n) == 2 and head_n == head_m and head_n[1] in ("wins", "win"):
        return message if len(message) >= len(note) else note
    return None


def corner(screen: Screen) -> str:
    """The title line's right end: 'over', 'paused' (the clock), the game's corner or the
    move number."""
    p = screen.panel
    if screen.over:
        return "over"
    if screen.clock is not None and screen.clock.paused:
        return "paused"
    mover = len(screen.clock.mover) + 1 if screen.clock is not None and screen.clock.mover else 0
    return p.corner or move_label(p.move, len(p.title) + mover)


def draw_screen(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    if screen.qr is not None:
        _draw_qr(draw, *screen.qr)
        return
    p = screen.panel
    result = result_parts(screen)
    right = corner(screen)
    if result is not None:
        right = result[0]
    mover = screen.clock.mover if screen.clock is not None and result is None else ""
    title_chars = CHARS - len(right) - 1 - (len(mover) + 1 if mover else 0)
    _say(draw, (0, 0), p.title[: max(0, title_chars)])
    _say(draw, (WIDTH - 6 * len(right), 0), right)
    if mover:  # inverted, just before the corner
        x = WIDTH - 6 * (len(right) + 1 + len(mover)) - 2
        draw.rectangle((x - 1, 0, x + 6 * len(mover), 9), fill="white")
        _say(draw, (x, 0), mover, "black")
    draw.line((0, 11, WIDTH - 1, 11), fill="white")
    lines = _draw_two_columns(draw, screen) if len(p.rows) > 3 else _draw_rows(draw, screen)
    y = 13 + 10 * lines
    if result is not None:  # the whole result, its reason on the lines under the rows
        _say_lines(draw, y, wrap(result[1], 3))
        return
    message_lines = 2 if lines <= 3 else 1
    text = screen.status or screen.message
    if (once := said_once(screen)) is not None:  # the result, not its repeat under it
        _say_lines(draw, y, wrap(once, (HEIGHT - y) // 10))
        return
    if p.note and lines < 3:
        _say(draw, (0, y), p.note[:CHARS])
    elif p.note and not text:  # no line left above: the note takes the free message lines
        if message_lines == 2 and len(p.note) <= CHARS // 2:
            _draw_large(draw, (0, 42), p.note)  # short enough to be read across the table
            return
        text = p.note
    if text:
        first = HEIGHT - 1 - 10 * message_lines  # 43 (two lines) or 53 (one)
        _say_lines(draw, first, wrap(text, message_lines))


def _draw_rows(draw: ImageDraw.ImageDraw, screen: Screen) -> int:
    """Up to three players, one line each (label, then the value); returns the lines used."""
    p = screen.panel
    y = 13
    label_width = max((len(r.label) for r in p.rows), default=0) + 1
    times = screen.clock.rows if screen.clock is not None else ()
    room = max((len(t) for t in times), default=0)
    # the row's text stops short of the widest time and its arrow (5 px) with a 2 px gap
    chars = (WIDTH - 1 - 6 * room - 10) // 6 if room else CHARS - 1
    for k, row in enumerate(p.rows[:3]):
        text = f"{row.label:<{label_width}}{row.value}"[:chars]
        inverted = row.to_move and not screen.over
        ink = "black" if inverted else "white"
        if inverted:
            draw.rectangle((0, y, WIDTH - 1, y + 9), fill="white")
        _say(draw, (3, y + 1), text, ink)
        time = times[k] if k < len(times) else ""
        if time:
            x = WIDTH - 1 - 6 * len(time)
            _say(draw, (x, y + 1), time, ink)
            if screen.clock is not None and screen.clock.running == k and not screen.over:
                _running_mark(draw, x - 5, y + 2, ink)
        y += 10
    return len(p.rows[:3])


def _running_mark(draw: ImageDraw.ImageDraw, x: int, y: int, ink: str) -> None:
    """A small arrow (3x7 px) pointing at the time that runs."""
    draw.polygon(((x, y), (x + 3, y + 3), (x, y + 6)), fill=ink)


def _draw_large(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str) -> None:
    """``text`` at twice the font's size (nearest-neighbour, so the pixels stay crisp)."""
    small = Image.new("1", (6 * len(text), 10))
    _say(ImageDraw.Draw(small), (0, 0), text, 1)
    draw.bitmap(xy, small.resize((12 * len(text), 20), Image.Resampling.NEAREST), fill="white")


COLUMN_CHARS = 10  # characters in each of the two columns (60 of the 64 px)


def column_text(label: str, value: str, width: int = COLUMN_CHARS) -> str:
    """'NAME    12': the label cut to leave the value its room, the value right-aligned."""
    value = value[:width]
    room = width - len(value) - 1
    return f"{label[:room]:<{room}} {value}" if room > 0 else value


def _draw_two_columns(draw: ImageDraw.ImageDraw, screen: Screen) -> int:
    """Four to eight players in two columns (the first column filled first, top down), at
    most four lines; returns the lines used."""
    rows = screen.panel.rows[:8]
    lines = (len(rows) + 1) // 2
    for k, row in enumerate(rows):
        column, line = divmod(k, lines)
        x, y = 64 * column, 13 + 10 * line
        inverted = row.to_move and not screen.over
        if inverted:
            draw.rectangle((x, y, x + 62, y + 9), fill="white")
        ink = "black" if inverted else "white"
        _say(draw, (x + 2, y + 1), column_text(row.label, row.value), ink)
    return lines


def _draw_qr(draw: ImageDraw.ImageDraw, label: str, url: str) -> None:
    """A page's QR code on the left half (lit margin: phones read it off a dark panel), what
    it opens on the right, and how to move on."""
    from companion.views.web.qr import QRTooBig, qr_image

    try:
        draw.bitmap((0, 0), qr_image(url, 64), fill="white")
    except QRTooBig:
        _say(draw, (0, 26), "address too long")
    for i, line in enumerate((label[:10], "page", "", "menu: next", "undo: back")):
        _say(draw, (68, 1 + 12 * i), line)


def screen_text(screen: Screen) -> list[str]:
    """The screen as plain text lines (for small terminals): title and corner, one line per
    row ('>' marks the player to move), the note, the message or status."""
    p = screen.panel
    if screen.qr is not None:
        return [f"{screen.qr[0]} page: {screen.qr[1]}"]
    result = result_parts(screen)
    right = result[0] if result is not None else corner(screen)
    clock = screen.clock
    if clock is not None and clock.mover and result is None:
        right = f"{clock.mover} {right}"
    out = [f"{p.title[: CHARS - len(right) - 1]:<{CHARS - len(right)}}{right}"]
    width = max((display_width(r.label) for r in p.rows), default=0) + 1
    times = clock.rows if clock is not None else ()
    for k, row in enumerate(p.rows):
        mark = ">" if row.to_move and not screen.over else " "
        time = times[k] if k < len(times) else ""
        if time:
            runs = "*" if clock is not None and clock.running == k and not screen.over else ""
            time = f"  {runs}{time}"
        out.append(f"{mark}{pad(row.label, width)}{row.value}{time}")
    if result is not None:
        return out + wrap(result[1], 3)
    text = screen.status or screen.message
    if (once := said_once(screen)) is not None:
        return out + wrap(once, 3)
    if p.note and p.note != text:
        out += wrap(p.note, 3)
    if text:
        out += wrap(text, 3)
    return out


class OledView:
    """Draws screens on a luma device, skipping a frame identical to the last one sent
    (a full frame over I2C at 400 kHz costs ~23 ms)."""

    def __init__(self, device):
        self.device = device
        self._last: Screen | None = None
        self.frames = 0

    @property
    def last(self) -> Screen | None:
        """The screen shown now (None before the first)."""
        return self._last

    def show(self, screen: Screen) -> bool:
        if screen == self._last:
            return False
        from luma.core.render import canvas

        with canvas(self.device) as draw:
            draw_screen(draw, screen)
        self._last = screen
        self.frames += 1
        return True
