"""What a game gives remote play (``companion/club/remote.py``, docs/club.md, "Remote play"):
its remote facet, ``GameSpec.remote()``, as the engine's is ``GameSpec.engine()``.

The defaults (``Remote``) are a game of open information: both boards play the whole game,
and a move with cells is made on the board. A game that hides something from a player (a
move with a public name of its own, a secret option, a chance step drawn by one board) says
so (``hidden``); it is played across two boards only with a masked state on each board
(``MaskedRemote``: Latent Binaries, Binøme), each knowing only its own seat's secrets, else
remote play refuses it in one line. ``tests/games/test_contract.py`` holds every game to what
its facet says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# States, moves and specs are the game's own (``games/base.py``, which hands this facet out:
# this module imports nothing of it)


class Remote:
    """A game of open information on two boards (the defaults)."""

    hidden = False  # it hides something from a player until it reveals it
    masked = False  # each board keeps a masked state (only then is a hidden game played)

    def on_board(self, move: Any) -> bool:
        """Is ``move`` made on the board (pressed, placed, lifted) rather than on a player's
        page? The other board's moves made on the board are lit for the player here to make.
        By default: a move with cells."""
        return bool(move.cells)

    def mask(self, state: Any, seat: str) -> Any:
        """This new game's state as the board that plays only ``seat`` holds it: every other
        seat's secrets unknown. By default: the state itself."""
        return state

    def masked_for(self, state: Any) -> str | None:
        """The seat whose secrets a masked state knows (None: a state that knows all)."""
        return None

    def disclosed(self, state: Any, seat: str) -> dict[str, Any]:
        """On the board that plays ``seat``: the facts about ``seat``'s secrets the game has
        made public by now and that another seat's masked state needs to go on (a flat dict,
        string keys, JSON values; a key once given keeps its value). By default: none."""
        return {}

    def learn(self, state: Any, seat: str, facts: Mapping[str, Any]) -> Any:
        """A masked state told ``facts`` about ``seat``'s secrets (that board's
        ``disclosed``), kept and used when the game reaches them; ValueError (one line) for
        facts that contradict what the state knows. By default: the state itself."""
        return state

    def waiting(self, state: Any) -> frozenset[str]:
        """Seats whose facts (or drawn chance step) a masked state needs before anyone can
        act (``to_act`` is empty meanwhile). By default: none."""
        return frozenset()

    def start(
        self,
        spec: Any,
        options: dict[str, Any],
        seat: str,
        told: Mapping[str, Mapping[str, Any]],
    ) -> Any:
        """A remote game's first state as the board of ``seat`` knows it, every fact heard
        (``told``: seat -> facts) learned up front: replaying the moves from it rebuilds the
        game as it was (a state uses each fact only when play reaches it)."""
        state = self.mask(spec.new(**options), seat)
        for who, facts in told.items():
            state = self.learn(state, who, facts)
        return state


class Hidden(Remote):
    """A game that hides something and has no masked states: not played across two boards."""

    hidden = True


class MaskedRemote(Remote):
    """A game with secrets played with a masked state on each board: its states' own
    ``masked(seat)``, ``masked_for``, ``disclosed(seat)``, ``learn(seat, facts)`` and
    ``waiting`` (Latent Binaries' ``masked.py``, Binøme's)."""

    hidden = True
    masked = True

    def mask(self, state: Any, seat: str) -> Any:
        return state.masked(seat)

    def masked_for(self, state: Any) -> str | None:
        return state.masked_for

    def disclosed(self, state: Any, seat: str) -> dict[str, Any]:
        return state.disclosed(seat)

    def learn(self, state: Any, seat: str, facts: Mapping[str, Any]) -> Any:
        return state.learn(seat, facts)

    def waiting(self, state: Any) -> frozenset[str]:
        return state.waiting
