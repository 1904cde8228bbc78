"""Round robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Players are numbered 1..n in the event file's order (n made even with a dummy, whose
opponent has the round's bye). Player n stays put; the others turn around it. In round r
player n meets ``r//2 + 1`` when r is odd (n has black) and ``n/2 + r/2`` when r is even
(n has white); on the other tables the players ``a+k`` and ``a-k`` (counted on the circle
1..n-1, ``a`` player n's opponent) meet, ``a+k`` with white. This gives the published
tables exactly (tests/club/event/test_pairing.py holds them for 4, 6, 8 and 10 players).

A double round robin plays the cycle twice, colours reversed; as C.05 advises, the last two
rounds of the first cycle swap places, so nobody has the same colour three rounds running
where the cycles meet."""

from __future__ import annotations

Pair = tuple[int, int]  # (white's number, black's number), numbers 1..n


def berger_round(n: int, r: int) -> list[Pair]:
    """Round ``r`` (1..n-1) for an even ``n``, table by table as the tables print it."""
    if n < 2 or n % 2:
        raise ValueError(f"Berger tables need an even number of players, not {n}")
    if not 1 <= r <= n - 1:
        raise ValueError(f"round {r}: {n} players play rounds 1 to {n - 1}")
    m = n - 1
    if r % 2:
        a = r // 2 + 1
        pairs = [(a, n)]
    else:
        a = n // 2 + r // 2
        pairs = [(n, a)]
    for k in range(1, n // 2):
        pairs.append(((a - 1 + k) % m + 1, (a - 1 - k) % m + 1))
    return pairs


def schedule(players: int, cycles: int = 1) -> list[list[Pair]]:
    """Every round of a round robin of ``players``; with an odd number the pairs holding the
    dummy (number players+1) stay in: the other player has the bye that round."""
    n = players + players % 2
    first = [berger_round(n, r) for r in range(1, n)]
    if cycles == 1:
        return first
    if len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    second = [[(b, a) for a, b in rnd] for rnd in first]
    return first + second
