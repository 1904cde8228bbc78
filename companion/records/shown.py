"""A journaled game as anyone may see it now: the secrets of its moves once the game reveals
them, its secret options once it has ended (docs/architecture.md, "Secrets")."""

from __future__ import annotations

from typing import Any

from companion.games import get_spec
from companion.journal.rows import ABANDONED, GameEntry


def revealed(entry: GameEntry) -> bool:
    """Are the secrets of its moves public now? What the game says after its moves
    (``GameState.revealed()``: by default once it is over); an abandoned game, which
    nobody plays on, shows them too. A game that no longer replays (one this version does
    not know, a salvaged one): once it has ended for all."""
    if entry.status == ABANDONED:
        return True
    try:
        spec = get_spec(entry.game)
        state = spec.replay((m.name for m in entry.moves), **spec.resolve(dict(entry.options)))
    except ValueError:
        return entry.ended_for_all
    return state.revealed()


def has_secrets(entry: GameEntry) -> bool:
    """Does a move hold a secret (a public name apart from its name)?"""
    moves = (*entry.moves, *(t.move for t in entry.taken_back))
    return any(m.public is not None and m.public != m.name for m in moves)


def shows_secrets(entry: GameEntry) -> bool:
    """Does a move hold a secret that the game shows now? (``revealed`` replays the game:
    ask once and pass the answer on.)"""
    return has_secrets(entry) and revealed(entry)


def shown_names(entry: GameEntry, revealed: bool) -> list[str]:
    """The moves as anyone may see them now (``revealed``: ``shows_secrets()``): public
    names while the game goes on."""
    return [m.shown(revealed) for m in entry.moves]


def shown_options(entry: GameEntry) -> dict[str, Any]:
    """The options as anyone may see them now: a game's secret options (the spec's
    ``secret_options``, e.g. Binøme solo's seed) only once the game has ended."""
    if entry.ended_for_all:
        return dict(entry.options)
    try:
        secret = get_spec(entry.game).secret_options
    except ValueError:  # a game this version does not know: nothing known to be public
        return {}
    return {k: v for k, v in entry.options.items() if k not in secret}
