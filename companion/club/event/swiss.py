"""Swiss pairing by the FIDE Dutch system (Handbook C.04.3), through caissify-pairings'
Dutch engine (checked by its authors against the FIDE-endorsed bbpPairings; built on
networkx's weighted matching). This module turns an event's history into what the engine
asks for and its answer back into pairs: the engine holds the rules (score groups, S1/S2,
transpositions and exchanges, floaters, colour preferences, the absolute criteria: no
rematch, at most one bye per player, the bye to the lowest)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

WHITE, BLACK = "white", "black"


class PairingError(ValueError):
    """No pairing satisfies the absolute criteria (e.g. too many rounds for the players)."""


@dataclass
class History:
    """One player's past, by their starting rank: points, the colours of the games they
    played (unplayed rounds left out, as C.04.3 counts colours), their floats per round
    (``up``, ``down``, ``none``), byes and forfeit wins."""

    rating: int | None
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0
    forfeit_wins: int = 0


def pair_swiss(
    players: Sequence[History],
    met: set[tuple[int, int]],
    round_number: int,
    total_rounds: int,
    initial_colour: str = WHITE,
) -> list[tuple[int, int | None]]:
    """The round's pairs as (white, black) indexes into ``players`` (starting rank order);
    black None: the pairing-allocated bye. ``met``: index pairs (a < b) that played;
    ``initial_colour``: the top-ranked player's colour in round 1 (drawn by lot, C.04.3 E)."""
    from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

    state = [
        {
            "id": i + 1,
            "name": str(i + 1),
            "score": h.score,
            "rating": h.rating or 0,
            "starting_number": i + 1,
            "color_hist": list(h.colours),
            "float_history": list(h.floats),
            "bye_count": h.byes,
            "forfeit_win_count": h.forfeit_wins,
        }
        for i, h in enumerate(players)
    ]
    previous = {(a + 1, b + 1) for a, b in met}
    with warnings.catch_warnings():
        # a round after rounds of byes and forfeits only has no floats: that is right here
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        try:
            out = generate_pairings(
                "dutch",
                state,
                previous,
                round_number,
                total_rounds,
                max_byes_per_player=1,
                initial_color=initial_colour,
            )
        except (ValueError, RuntimeError) as e:
            raise PairingError(f"round {round_number} cannot be paired: {e}") from None
    pairs = [
        (p["white_id"] - 1, None if p.get("black_id") is None else p["black_id"] - 1)
        for p in sorted(out, key=lambda p: p.get("table", 0))
    ]
    _check(pairs, players, met, round_number)
    # the bye last, as the pairing lists print it
    pairs.sort(key=lambda p: p[1] is None)
    return pairs


def _check(
    pairs: list[tuple[int, int | None]],
    players: Sequence[History],
    met: set[tuple[int, int]],
    round_number: int,
) -> None:
    """The absolute criteria, on what the engine gave (when no pairing meets them it falls
    back to one that does not): everyone once, no rematch, one bye at most, only for an odd
    number of players and only to a player who has had none."""
    seen = [x for pair in pairs for x in pair if x is not None]
    byes = [w for w, b in pairs if b is None]
    if sorted(seen) != list(range(len(players))):
        why = "not everyone is paired once"
    elif any(b is not None and (min(w, b), max(w, b)) in met for w, b in pairs):
        why = "only with a rematch"
    elif len(byes) != len(players) % 2:
        why = "only with more than one bye"
    elif any(players[w].byes for w in byes):
        why = "only with a second bye for a player"
    else:
        return
    raise PairingError(
        f"round {round_number} cannot be paired by the Dutch system's absolute criteria "
        f"({why}): fewer rounds suit these players"
    )
