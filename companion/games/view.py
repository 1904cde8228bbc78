"""What a viewer sees of a game (``View``: the OLED's ``Panel``, the ``Cell``s, the LEDs, the
words) and the menu button's ``Hint``: a leaf of the game protocol (companion/games/base.py
names them too)."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class PanelRow:
    """One player's row on the OLED panel."""

    label: str  # the player as shown, e.g. "ON"
    value: str  # their live score as shown, e.g. "11111001"
    to_move: bool = False


@dataclass(frozen=True)
class Panel:
    """What the OLED shows for a game in play; the renderer lays it out."""

    title: str
    move: int
    rows: tuple[PanelRow, ...]
    note: str = ""  # one optional extra line, e.g. territory sizes
    corner: str = ""  # top-right text instead of the move number


@dataclass(frozen=True)
class Cell:
    """One cell as a viewer sees it. ``piece``: 'x' black, 'o' white, '' empty, or a short
    game-specific token; ``text`` a label drawn on it (a stack height, a marker)."""

    piece: str = ""
    text: str = ""
    colour: RGB | None = None
    height: int = 0


@dataclass(frozen=True)
class View:
    """What one viewer (the table, or one player) may see of a game."""

    panel: Panel
    cells: tuple[Cell, ...] = ()  # in layout order; empty for a game with no board
    leds: tuple[RGB, ...] = ()  # per cell
    explanation: tuple[str, ...] = ()  # the live score in words
    private: tuple[str, ...] = ()  # only in a player's own view
    actions: tuple[tuple[str, str], ...] = ()  # (move name, label) this viewer may choose


@dataclass(frozen=True)
class Hint:
    """What the menu button shows: cells to light and a line."""

    cells: tuple[int, ...]
    text: str
    colour: RGB | None = None  # None: the usual highlight colour
