"""What the 128x64 OLED shows, drawn with luma's ``canvas`` on any luma device.

Layout (6x11 bitmap font, 21 characters a line):

    BINARYON          #12     title, move number
    ──────────────────────
    ▌ON   11111001 ▐           the player on turn is shown inverted
      OFF 11110000
    note (game-specific)
    message line 1            refusal, pass, status, result
    message line 2
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from companion.games.base import Panel

WIDTH, HEIGHT = 128, 64
CHARS = 21  # 128 px / 6 px per character
_FONT = None


def font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: identical pixels on every Pillow version and machine."""
    global _FONT
    if _FONT is None:
        _FONT = ImageFont.load_default_imagefont()
    return _FONT


@dataclass(frozen=True)
class Screen:
    panel: Panel
    message: str = ""
    status: str = ""  # a lasting condition, e.g. "board disconnected"; wins over message
    over: bool = False


def wrap(text: str, lines: int = 2) -> list[str]:
    out = textwrap.wrap(text, CHARS, break_long_words=True) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: CHARS - 2] + ".."
    return out


def draw_screen(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    f = font()
    p = screen.panel
    right = "over" if screen.over else (p.corner or f"#{p.move}")
    draw.text((0, 0), p.title[: CHARS - len(right) - 1], font=f, fill="white")
    draw.text((WIDTH - 6 * len(right), 0), right, font=f, fill="white")
    draw.line((0, 11, WIDTH - 1, 11), fill="white")
    y = 13
    label_width = max((len(r.label) for r in p.rows), default=0) + 1
    for row in p.rows[:3]:
        text = f"{row.label:<{label_width}}{row.value}"[: CHARS - 1]
        if row.to_move and not screen.over:
            draw.rectangle((0, y, WIDTH - 1, y + 9), fill="white")
            draw.text((3, y - 1), text, font=f, fill="black")
        else:
            draw.text((3, y - 1), text, font=f, fill="white")
        y += 10
    if p.note and len(p.rows) < 3:
        draw.text((0, y), p.note[:CHARS], font=f, fill="white")
    text = screen.status or screen.message
    if text:
        for i, line in enumerate(wrap(text)):
            draw.text((0, 43 + 10 * i), line, font=f, fill="white")


class OledView:
    """Draws screens on a luma device, skipping a frame identical to the last one sent
    (a full frame over I2C at 400 kHz costs ~23 ms)."""

    def __init__(self, device):
        self.device = device
        self._last: Screen | None = None
        self.frames = 0

    def show(self, screen: Screen) -> bool:
        if screen == self._last:
            return False
        from luma.core.render import canvas

        with canvas(self.device) as draw:
            draw_screen(draw, screen)
        self._last = screen
        self.frames += 1
        return True
