"""Wythe's positions for the command line: a record's final stacks scored (`binaryon score
--record`), a diagram's top colours scored (`score FILE`), and a record's legal actions
(`legal --record`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.position_text import parse_position
from companion.games.base import GameState
from companion.games.positions import Positions
from companion.games.state import own_state
from companion.games.wythe.engine import WytheState
from companion.games.wythe.report import (
    diagram_json,
    diagram_score,
    diagram_text,
    legal_json,
    score_json,
    score_text,
)
from companion.games.wythe.scoring import Score


def wythe_state(state: GameState) -> WytheState:
    return own_state(state, WytheState, "Wythe")


class WythePositions(Positions):
    def score_record(self, state: GameState) -> dict[str, Any]:
        """``binaryon score --record FILE --json`` for a Wythe record."""
        return score_json(wythe_state(state))

    def describe_record(self, state: GameState) -> str:
        """``binaryon score --record FILE`` in words."""
        return score_text(wythe_state(state)) + "\n"

    def diagram(self, text: str, options: Mapping[str, Any] | None) -> Score:
        """A position file read as the top colours (``x`` Black, ``o`` White, ``.`` empty);
        its size is the diagram's, and a size given on purpose must agree."""
        given = dict(options or {})
        opts = self.spec.resolve(given)
        n, cells = parse_position(text, opts["size"] if "size" in given else None)
        return diagram_score(cells, n)

    def score(self, text: str, options: Mapping[str, Any] | None = None) -> dict:
        """``binaryon score FILE --json``: the top colours of a diagram, scored."""
        return diagram_json(self.diagram(text, options))

    def describe_score(self, text: str, options: Mapping[str, Any] | None = None) -> str:
        """``binaryon score FILE`` in words."""
        return diagram_text(self.diagram(text, options))

    def legal_record(self, state: GameState) -> dict[str, list[str]]:
        """``binaryon legal --record FILE --json``: the legal actions in square order."""
        return legal_json(wythe_state(state))
