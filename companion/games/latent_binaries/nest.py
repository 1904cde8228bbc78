"""One Latent Binaries nest: a queen on the board with its hidden pawns and guessed caps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# A hidden pawn that a masked state (the other player's board in a remote game) does not know.
UNKNOWN: Final = "?"


@dataclass(frozen=True, slots=True)
class Nest:
    """One queen on the board. ``top``/``bottom`` are the hidden pawns (None before setup);
    ``caps`` the correctly guessed colours in the order guessed; ``shown`` is True once a wrong
    order guess lifted the queen in front of both players. A masked state holds ``UNKNOWN``
    for the other player's hidden pawns until the game shows them."""

    owner: str
    square: int
    start: int
    top: str | None = None
    bottom: str | None = None
    caps: tuple[str, ...] = ()
    shown: bool = False

    @property
    def is_set(self) -> bool:
        return self.top is not None

    @property
    def known(self) -> bool:
        """Are its hidden pawns known to this state? (Not the other player's in a masked one.)"""
        return self.top is not None and self.top != UNKNOWN
