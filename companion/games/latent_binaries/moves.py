"""Latent Binaries moves and their notation (what the journal stores).

    setup c2 red/blue     Rainbow hides red (top) over blue (bottom) in the nest on c2
                          (public name: ``setup c2``, the colours stay secret)
    c2-c3                 move the nest on c2 one square to c3
    pass                  no nest of the mover can move (played by the referee)
    challenge c5 green    guess that green is hidden in the nest on c5
    order c5 green/red    guess the order of the two caps of c5: green on top of red
    end                   stop guessing (allowed after at least one guess)
    marker a7-c7          the goal marker on a7 jumps the one on b7 and lands on c7

In a remote game the board of one player knows only its own secrets: there the other
player's setups come by their public name (``setup c6``, a ``PublicSetup``).

Colours may be typed as a unique initial (``challenge c5 g``); names are always written in full.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..base import Move, Word
from .geometry import parse_square, square_name

END: Final = Word("end")
PASS: Final = Word("pass")


@dataclass(frozen=True, slots=True)
class Setup(Move):
    square: int
    top: str
    bottom: str

    @property
    def name(self) -> str:
        return f"setup {square_name(self.square)} {self.top}/{self.bottom}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.square,)


@dataclass(frozen=True, slots=True)
class PublicSetup(Move):
    """The other player's setup as a masked state (``engine.LatentState.masked``) gets it:
    the nest is set up, its colours stay on its owner's board."""

    square: int

    @property
    def name(self) -> str:
        return f"setup {square_name(self.square)}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.square,)


@dataclass(frozen=True, slots=True)
class Step(Move):
    src: int
    dst: int

    @property
    def name(self) -> str:
        return f"{square_name(self.src)}-{square_name(self.dst)}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.src, self.dst)


@dataclass(frozen=True, slots=True)
class Challenge(Move):
    target: int
    colour: str

    @property
    def name(self) -> str:
        return f"challenge {square_name(self.target)} {self.colour}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.target,)


@dataclass(frozen=True, slots=True)
class Order(Move):
    target: int
    top: str
    bottom: str

    @property
    def name(self) -> str:
        return f"order {square_name(self.target)} {self.top}/{self.bottom}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.target,)


@dataclass(frozen=True, slots=True)
class Marker(Move):
    src: int
    dst: int

    @property
    def name(self) -> str:
        return f"marker {square_name(self.src)}-{square_name(self.dst)}"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.src, self.dst)


LatentMove = Setup | PublicSetup | Step | Challenge | Order | Marker | Word


def public_name(move: LatentMove) -> str:
    """What the other player may see before the end: a setup hides its colours."""
    if isinstance(move, Setup):
        return f"setup {square_name(move.square)}"
    return move.name


def _pair(text: str, what: str) -> tuple[str, str]:
    parts = text.split("/")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise ValueError(f"{what}: write top/bottom, e.g. red/blue")
    return parts[0].strip(), parts[1].strip()


def _from_to(text: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) != 2:
        raise ValueError(f"{text}: write from-to, e.g. c2-c3")
    return parse_square(parts[0]), parse_square(parts[1])


def parse_move(
    text: str, colour_word=lambda w: w.lower(), public_setup: bool = False
) -> LatentMove:
    """Notation -> move; ValueError with a short reason. ``colour_word`` maps a typed colour
    to its full name (unknown words are kept, so the engine can refuse them with a code).
    ``public_setup``: ``setup c6`` (no colours) is a move too (a masked state's)."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty move")
    head, rest = words[0], words[1:]
    if head in (END.name, PASS.name) and not rest:
        return END if head == END.name else PASS
    if head == "setup" and len(rest) == 1 and public_setup:
        return PublicSetup(parse_square(rest[0]))
    if head == "setup" and len(rest) == 2:
        top, bottom = _pair(rest[1], "setup")
        return Setup(parse_square(rest[0]), colour_word(top), colour_word(bottom))
    if head == "challenge" and len(rest) == 2:
        return Challenge(parse_square(rest[0]), colour_word(rest[1]))
    if head == "order" and len(rest) == 2:
        top, bottom = _pair(rest[1], "order")
        return Order(parse_square(rest[0]), colour_word(top), colour_word(bottom))
    if head == "marker" and len(rest) == 1:
        src, dst = _from_to(rest[0])
        return Marker(src, dst)
    if len(words) == 1 and "-" in head:
        src, dst = _from_to(head)
        return Step(src, dst)
    raise ValueError(f"{text.strip()[:20]}: not a move")
