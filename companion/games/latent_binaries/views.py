"""What each viewer may see of a Latent Binaries game, as JSON-able dicts.

- ``public_view``: the table (OLED, LEDs, spectators, the journal before the end): nests, their
  caps, markers, whose step it is, the last answer, and the stashes once both setups are done
  (during the setup the stash would tell which colours a nest just took). A nest's hidden order
  appears only if a wrong order guess lifted its queen in front of both players.
- ``secret_view``: the public view plus the player's own hidden pawns.
- ``reveal``: everything, for the end of the game (records, history after the end).

A masked state (remote play) holds None for the other player's hidden pawns it does not know.
"""

from __future__ import annotations

from typing import Any

from .engine import LatentState
from .geometry import square_name
from .nest import Nest
from .options import PLAYERS, RAINBOW, XENO
from .phases import SETUP


def _public_nest(n: Nest) -> dict[str, Any]:
    out: dict[str, Any] = {
        "owner": n.owner,
        "square": square_name(n.square),
        "caps": list(n.caps),
        "set": n.is_set,
    }
    if n.shown:
        out["order"] = [n.top, n.bottom]
    return out


def public_view(state: LatentState) -> dict[str, Any]:
    """Everything both players and spectators may see: no hidden pawn."""
    setup_done = state.phase != SETUP
    challenge = None
    if state.target is not None:
        challenge = {"target": square_name(state.target), "guesses": state.guesses}
    return {
        "game": state.game,
        "phase": state.phase,
        "to_act": sorted(state.to_act),
        "mover": state.mover,
        "ply": state.ply,
        "turns": dict(zip(PLAYERS, state.turns, strict=True)),
        "nests": [_public_nest(n) for n in state.nests],
        "stash": {p: state.stash_of(p) for p in PLAYERS} if setup_done else None,
        "bases": {p: [square_name(s) for s in state.base(p)] for p in (RAINBOW, XENO)},
        "challenge": challenge,
        "answer": state.answer,
        "winner": state.winner,
        "end_reason": state.end_reason,
    }


def _hidden(n: Nest) -> dict[str, Any]:
    if not n.known:  # not set up yet, or the other board's secret
        return {"square": square_name(n.square), "top": None, "bottom": None}
    return {"square": square_name(n.square), "top": n.top, "bottom": n.bottom}


def secret_view(state: LatentState, player: str) -> dict[str, Any]:
    """The public view plus ``player``'s own hidden pawns and stash (never the opponent's)."""
    if player not in PLAYERS:
        raise ValueError(f"{player}: not a player")
    view = public_view(state)
    view["viewer"] = player
    view["own"] = [_hidden(n) for n in state.nests_of(player)]
    view["own_stash"] = state.stash_of(player)
    return view


def reveal(state: LatentState) -> dict[str, Any]:
    """Everything, secrets included: for the end of the game."""
    view = public_view(state)
    view["stash"] = {p: state.stash_of(p) for p in PLAYERS}
    view["hidden"] = [{"owner": n.owner, **_hidden(n)} for n in state.nests]
    return view
