"""Swiss pairing by the FIDE Dutch system (Handbook C.04.3). The project's Dutch engine
(``dutch``) chooses who meets whom (score brackets, S1/S2, transpositions and exchanges,
floaters, the absolute criteria: no rematch, at most one bye per player, the bye to the
lowest); this module turns an event's history into what the engine asks for, then gives each
pair its colours by C.04.3 E (``colours``) and orders the boards by C.04.2 (``board_order``)."""

from __future__ import annotations

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
    from companion.club.event.dutch import Entrant, Unpairable, pair_round

    entrants = [
        Entrant(
            score2=round(h.score * 2),
            colours="".join("w" if c == WHITE else "b" for c in h.colours),
            floats=tuple(h.floats),
            bye_eligible=not h.byes and not h.forfeit_wins,
        )
        for h in players
    ]
    try:
        found = pair_round(entrants, met, round_number - 1, total_rounds)
    except Unpairable as e:
        raise PairingError(
            f"round {round_number} cannot be paired by the Dutch system's absolute criteria "
            f"({e}): fewer rounds suit these players"
        ) from None
    pairs = [(a, None) if b is None else colours(players, a, b, initial_colour) for a, b in found]
    _check(pairs, players, met, round_number)
    return board_order(players, pairs)


# ---------------------------------------------------------------------- colours (C.04.3 E)

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


def preference(colours_played: Sequence[str]) -> tuple[str | None, int]:
    """A player's colour preference and its strength (C.04.3 A.6), from the colours of the
    games they played: absolute when the colour difference is beyond +-1 or the last two
    games had one colour; strong when it is +-1; mild (alternate) when it is 0; none before
    a first game."""
    if not colours_played:
        return None, NONE
    diff = colours_played.count(WHITE) - colours_played.count(BLACK)
    last = colours_played[-1]
    other = BLACK if last == WHITE else WHITE
    if diff > 1 or diff < -1:
        return (BLACK if diff > 0 else WHITE), ABSOLUTE
    if len(colours_played) >= 2 and colours_played[-2] == last:
        return other, ABSOLUTE
    if diff:
        return (BLACK if diff > 0 else WHITE), STRONG
    return other, MILD


def ranks_above(players: Sequence[History], a: int, b: int) -> bool:
    """``a`` is ranked above ``b`` for pairing (C.04.3 A.2): more points, then the lower
    pairing number (the starting rank, ``players``' order)."""
    return (-players[a].score, a) < (-players[b].score, b)


def colours(
    players: Sequence[History], a: int, b: int, initial_colour: str = WHITE
) -> tuple[int, int]:
    """The pair (white, black) of ``a`` and ``b`` by C.04.3 E, rule by rule: E.1 both
    preferences granted when they differ; E.2 else the stronger one (both absolute: the wider
    colour difference); E.3 alternate from the latest round in which one had white and the
    other black (played games only, each player's own sequence: C.04.2 D.5); E.4 the
    higher-ranked player's preference; E.5 the higher-ranked player has the initial colour
    with an odd pairing number, the other with an even one."""
    hi, lo = (a, b) if ranks_above(players, a, b) else (b, a)
    ch, cl = players[hi].colours, players[lo].colours
    (ph, sh), (pl, sl) = preference(ch), preference(cl)

    def give(player: int, colour: str) -> tuple[int, int]:
        other = lo if player == hi else hi
        return (player, other) if colour == WHITE else (other, player)

    # E.1
    if ph is not None and pl is not None and ph != pl:
        return give(hi, ph)
    if ph is None and pl is not None:
        return give(lo, pl)
    if pl is None and ph is not None:
        return give(hi, ph)
    # E.2 (same preference, or none at all)
    if ph is not None and pl is not None:
        if sh != sl:
            return give(hi, ph) if sh > sl else give(lo, pl)
        if sh == ABSOLUTE:
            dh = abs(ch.count(WHITE) - ch.count(BLACK))
            dl = abs(cl.count(WHITE) - cl.count(BLACK))
            if dh != dl:
                return give(hi, ph) if dh > dl else give(lo, pl)
    # E.3
    for x, y in zip(reversed(ch), reversed(cl), strict=False):
        if x != y:
            return give(hi, BLACK if x == WHITE else WHITE)
    # E.4
    if ph is not None:
        return give(hi, ph)
    # E.5: pairing numbers count from 1
    other = BLACK if initial_colour == WHITE else WHITE
    return give(hi, initial_colour if hi % 2 == 0 else other)


def board_order(
    players: Sequence[History], pairs: Sequence[tuple[int, int | None]]
) -> list[tuple[int, int | None]]:
    """The boards in FIDE's order (C.04.2, the pairings as published; the same as C.04.1
    F.1): the higher player's score first, then the other player's score (the pair's sum),
    then the higher player's rank; the bye last."""

    def key(pair: tuple[int, int | None]) -> tuple:
        w, b = pair
        if b is None:
            return (1, 0.0, 0.0, w)
        hi, lo = (w, b) if ranks_above(players, w, b) else (b, w)
        return (0, -players[hi].score, -players[lo].score, hi)

    return sorted(pairs, key=key)


def _check(
    pairs: list[tuple[int, int | None]],
    players: Sequence[History],
    met: set[tuple[int, int]],
    round_number: int,
) -> None:
    """The absolute criteria, checked once more on what the engine gave: everyone once, no
    rematch, one bye at most, only for an odd number of players and only to a player who has
    had none and won no game by forfeit."""
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
    elif any(players[w].forfeit_wins for w in byes):
        # C.04.1 c: nor to a player who already scored a point without playing
        why = "only with the bye for a player who won by forfeit"
    else:
        return
    raise PairingError(
        f"round {round_number} cannot be paired by the Dutch system's absolute criteria "
        f"({why}): fewer rounds suit these players"
    )
