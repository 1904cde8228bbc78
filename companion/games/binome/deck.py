"""The Binøme deck: each postulate card's victory points, from a TOML file.

The package ships ``deck.toml`` with the companion's own values (the printed ones are not in
the rules). Players edit a copy to match their cards. A deck can also be written as one line
of text (``identical-digits=4,...,closest-to-50=X``), which is how a game's options carry it,
so a record replays with the points it was played with.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from companion.core import toml_text
from companion.core.text_input import read_regular_file

from .postulates import IDS
from .resolution import Points, X

MAX_POINTS = 99
MAX_DECK_BYTES = 64 << 10  # the shipped deck is under 2 KiB
BUILTIN_NAME = "deck.toml"


class DeckError(ValueError):
    """A bad deck; the message is one line naming the file and the problem."""


@dataclass(frozen=True)
class Deck(Mapping[str, Points]):
    """Points per postulate id, in the canonical order of ``postulates.IDS``."""

    cards: tuple[tuple[str, Points], ...]

    def __getitem__(self, key: str) -> Points:
        for card, points in self.cards:
            if card == key:
                return points
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (card for card, _ in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def text(self) -> str:
        """One-line form, e.g. for a game option: ``id=points,...``."""
        return ",".join(f"{card}={points}" for card, points in self.cards)


def _points(value: Any) -> Points | None:
    if isinstance(value, str) and value.strip().upper() == X:
        return X
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS:
        return value
    return None


def deck_from_mapping(cards: Mapping[str, Any], source: str) -> Deck:
    """Validate ``{id: points}``; DeckError names ``source`` and the first problem."""
    for card in cards:
        if card not in IDS:
            raise DeckError(f"{source}: unknown card {card!r}")
    for card in IDS:
        if card not in cards:
            raise DeckError(f"{source}: missing card {card!r}")
    out = []
    for card in IDS:
        points = _points(cards[card])
        if points is None:
            raise DeckError(
                f'{source}: {card}: bad points {cards[card]!r} (0..{MAX_POINTS} or "X")'
            )
        out.append((card, points))
    return Deck(tuple(out))


def parse_deck_toml(text: str, source: str) -> Deck:
    try:
        data = toml_text.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not valid TOML: {exc}") from None
    extra = sorted(set(data) - {"cards"})
    if extra:
        raise DeckError(f"{source}: unknown section {extra[0]!r} (only [cards])")
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise DeckError(f"{source}: no [cards] table")
    return deck_from_mapping(cards, source)


def load_deck(path: str | Path) -> Deck:
    """Read and check a deck file; DeckError (one line, naming the file) when it is bad. Only
    a regular file of at most MAX_DECK_BYTES is read (a device, a FIFO: refused at once)."""
    try:
        raw = read_regular_file(path, MAX_DECK_BYTES)
    except OSError as exc:
        raise DeckError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_DECK_BYTES:
        raise DeckError(f"{path}: larger than {MAX_DECK_BYTES >> 10} KiB: not a deck file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError(f"{path}: not a text file") from None
    return parse_deck_toml(text, str(path))


@cache
def builtin_deck() -> Deck:
    """The deck shipped in the package (the companion's own points)."""
    from importlib import resources  # (a game whose points are in its options reads no file)

    text = resources.files(__package__).joinpath(BUILTIN_NAME).read_text(encoding="utf-8")
    return parse_deck_toml(text, BUILTIN_NAME)


def parse_deck_text(text: str, source: str = "deck") -> Deck:
    """The one-line form ``id=points,...`` (all 16 cards); '' is the built-in deck."""
    if not text.strip():
        return builtin_deck()
    cards: dict[str, Any] = {}
    for item in text.split(","):
        card, sep, value = item.partition("=")
        card, value = card.strip(), value.strip()
        if not sep:
            raise DeckError(f"{source}: {item.strip()!r} is not id=points")
        if card in cards:
            raise DeckError(f"{source}: card {card!r} listed twice")
        cards[card] = int(value) if value.isascii() and value.isdigit() else value
    return deck_from_mapping(cards, source)
