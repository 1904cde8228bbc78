"""Binøme move notation: the public names others may see and reading a name back into a move
(the full names the journal keeps are the moves' own, in ``moves``)."""

from __future__ import annotations

from typing import Any

from .moves import VEILED, BinomeMove, Claim, Decline, Draw, Roll, Veiled, Write, parse_cell
from .options import RESERVED
from .postulates import BY_ID, parse_number


class BinomeNotation:
    """Public names and parsing for ``engine.BinomeState`` (mixed into it; reads ``names``
    and ``options``)."""

    def public_name(self, move: Any) -> str:
        """The notation others may see now: no cell, no number; with ``secrets`` not even
        whether the player claimed. Another seat's move heard by a remote board is its public
        name already (``Veiled``)."""
        if isinstance(move, Roll | Draw | Veiled):
            return move.name
        who = move.player
        if isinstance(move, Claim) and who is not None and self.asked_number(who):
            return move.name  # a number told aloud on paper (paper.py)
        if isinstance(move, Write):
            return f"{who} write"
        if self.options["secrets"]:
            return f"{who} chose"
        return f"{who} claim" if isinstance(move, Claim) else f"{who} pass"

    def parse_move(self, text: str) -> BinomeMove:
        words = text.split()
        if not words:
            raise ValueError("empty move")
        verb = words[0].lower()
        if verb == "roll" and len(words) == 2:
            if len(words[1]) != 1 or not words[1].isdigit():
                raise ValueError(f"{words[1]!r}: a die shows 0-9")
            return Roll(int(words[1]))
        if verb == "draw" and len(words) == 2:
            if words[1] not in BY_ID:
                raise ValueError(f"{words[1]!r}: no such postulate")
            return Draw(words[1])
        if len(words) == 1 and (cell := _cell_or_none(words[0])) is not None:
            return Write(cell, None)  # "1a": write the digit there (the page says whose)
        player = None
        if verb not in RESERVED:
            player = self._player_named(words[0])
            words = words[1:]
            if not words:
                raise ValueError(f"{text.strip()!r}: write, claim or pass?")
            verb = words[0].lower()
        if len(words) == 1 and (cell := _cell_or_none(words[0])) is not None:
            return Write(cell, player)  # "Ann 1a"
        if verb == "write" and len(words) == 2:
            return Write(parse_cell(words[1]), player)
        if verb == "claim" and len(words) == 2:
            return Claim(parse_number(words[1]), player)
        if verb == "claim" and len(words) == 3 and words[2].lower() == "burn":
            return Claim(parse_number(words[1]), player, burn=True)
        if verb == "pass" and len(words) == 1:
            return Decline(player)
        if (
            verb in VEILED
            and len(words) == 1
            and player
            and (self.mask is not None or self.veils(player))
        ):
            # another seat's move as a remote board hears it; a paper sheet's (paper.py)
            return Veiled(verb, player)
        raise ValueError(f"{text.strip()!r}: not a Binøme move")

    def _player_named(self, text: str) -> str:
        for name in self.names:
            if name.lower() == text.lower():
                return name
        raise ValueError(f"{text!r}: not a player")


def _cell_or_none(text: str) -> int | None:
    """The cell a word names ('1a'..'8b'), or None."""
    try:
        return parse_cell(text)
    except ValueError:
        return None
