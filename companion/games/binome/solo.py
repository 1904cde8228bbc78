"""How the virtual opponents of the solo mode write their digits and claim postulates. Pure.

A virtual opponent sees only what a player at the table sees: its own sheet, the rolled
digit, the postulate on the table, the cards left in the deck and the number of players.
Its random choices come from a ``random.Random`` the engine seeds from the game's ``seed``
option, the opponent's name and the ply, so a game replays exactly.

The strategy (also in docs/rules/binome.md):

- Personality, drawn once per opponent from the seed and its name: five favourite cards
  (their value counts 1.6 times), a boldness in -0.1..0.1 (lowers its claim threshold) and
  a cunning in 0..0.4 (the chance of claiming with its second-best number, to dodge the
  identical numbers the obvious choice invites). Without it every opponent would build and
  claim the same numbers and they would all cancel.

- Quality of a number for a postulate, 0..1: for an eligibility-only postulate 0 when not
  eligible, else 0.55 + 0.45 * number / 99 (ties go to the greater number); for a ranked one
  the normalised rank cubed (only the extremes tend to win), e.g. max-number (n / 99) ** 3.
- Worth of a number: its best use, the greatest quality * card value over the cards that
  count, plus 5% of the sum (versatile numbers are worth a little more). X cards count as
  (players + 1) / 2 points, favourites 1.6 times that.
- Writing: the digit goes where it raises the worth of the sheet most. A half-written
  number is worth 0.9 times the mean worth of its ten completions, an empty one 0.8 times
  the mean worth of all 100 numbers. A random nudge of up to 0.5 breaks ties and keeps the
  opponent from being fully predictable.
- Claiming: the candidate is the unused eligible number of best quality for the card (ties:
  the one worth least elsewhere). It is claimed when its quality reaches a threshold of
  0.85 - 0.35 * min(1, unused / cards left including this one) - boldness (0.1 less for a
  favourite card), nudged by up to 0.05 either way, so an opponent with numbers to spare
  claims more freely; but a number is kept when a card still in the deck values it at least
  1.5 times as much, unless the opponent has more numbers than cards left. With probability
  cunning it claims with its second-best eligible number instead, if that one also reaches
  the threshold.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from .postulates import BY_ID, IDS, digits, get
from .resolution import Points, X

SLOTS = 8
FAVOURITES = 5
FAVOURITE_WEIGHT = 1.6


@dataclass(frozen=True)
class Personality:
    favourites: frozenset[str] = frozenset()
    boldness: float = 0.0
    cunning: float = 0.0

    def weight(self, card: str) -> float:
        return FAVOURITE_WEIGHT if card in self.favourites else 1.0


PLAIN = Personality()


def personality(seed: int, name: str) -> Personality:
    """The opponent's fixed traits, from the game's seed and its name."""
    rng = random.Random(f"binome-personality/{seed}/{name}")
    favourites = frozenset(rng.sample(IDS, FAVOURITES))
    return Personality(favourites, rng.uniform(-0.1, 0.1), rng.uniform(0.0, 0.4))


def _normalised_rank(postulate_id: str, number: int) -> float:
    a, b = digits(number)
    return {
        "max-number": number / 99,
        "max-digit-sum": (a + b) / 18,
        "min-number": 1 - number / 99,
        "min-digit-sum": 1 - (a + b) / 18,
        "min-digit-difference": 1 - abs(a - b) / 9,
        "max-digit-difference": abs(a - b) / 9,
        "closest-to-50": 1 - abs(number - 50) / 50,
    }[postulate_id]


@cache
def quality(postulate_id: str, number: int) -> float:
    """How likely ``number`` is to win ``postulate_id``, as a rough 0..1 figure."""
    p = get(postulate_id)
    if not p.eligible(number):
        return 0.0
    if p.ranked:
        return _normalised_rank(postulate_id, number) ** 3
    return 0.55 + 0.45 * number / 99


def card_value(points: Points, players: int) -> float:
    return (players + 1) / 2 if points == X else float(points)


def worth(number: int, values: Mapping[str, float]) -> float:
    """A number's best use over the cards in ``values`` (card -> expected points)."""
    uses = [v * quality(card, number) for card, v in values.items()]
    return max(uses, default=0.0) + 0.05 * sum(uses)


def _values(
    deck: Mapping[str, Points], cards: Iterable[str], players: int, me: Personality
) -> dict[str, float]:
    return {card: card_value(deck[card], players) * me.weight(card) for card in cards}


@cache
def _worth_table(
    cards: tuple[tuple[str, Points], ...], players: int, me: Personality
) -> tuple[float, ...]:
    values = _values(dict(cards), dict(cards), players, me)
    return tuple(worth(n, values) for n in range(100))


def _slot_worth(first: int | None, second: int | None, table: Sequence[float]) -> float:
    if first is not None and second is not None:
        return table[first * 10 + second]
    if first is not None:
        return 0.9 * sum(table[first * 10 + d] for d in range(10)) / 10
    if second is not None:
        return 0.9 * sum(table[d * 10 + second] for d in range(10)) / 10
    return 0.8 * sum(table) / 100


def choose_cell(
    sheet: Sequence[int | None],
    digit: int,
    deck: Mapping[str, Points],
    players: int,
    rng: random.Random,
    me: Personality = PLAIN,
) -> int:
    """The free cell (slot * 2 + half, half 0 = first digit) to write ``digit`` in."""
    free = [cell for cell, d in enumerate(sheet) if d is None]
    if not free:
        raise ValueError("no free cell")
    table = _worth_table(tuple((card, deck[card]) for card in IDS), players, me)
    best_cell, best_score = free[0], float("-inf")
    for cell in free:
        slot, half = divmod(cell, 2)
        first, second = sheet[2 * slot], sheet[2 * slot + 1]
        before = _slot_worth(first, second, table)
        after = _slot_worth(*((digit, second) if half == 0 else (first, digit)), table)
        score = after - before + rng.uniform(0, 0.5)
        if score > best_score:
            best_cell, best_score = cell, score
    return best_cell


def choose_claim(
    unused: Sequence[int],
    card: str,
    deck: Mapping[str, Points],
    cards_left: Sequence[str],
    players: int,
    rng: random.Random,
    me: Personality = PLAIN,
) -> int | None:
    """The number to claim ``card`` with, or None to decline. ``cards_left``: the cards
    still in the deck after this one."""
    p = BY_ID[card]
    candidates = sorted({n for n in unused if p.eligible(n)})
    if not candidates:
        return None
    later = _values(deck, cards_left, players, me)

    def elsewhere(n: int) -> float:
        return max((v * quality(c, n) for c, v in later.items()), default=0.0)

    ranked = sorted(candidates, key=lambda n: (quality(card, n), -elsewhere(n), n), reverse=True)
    threshold = 0.85 - 0.35 * min(1.0, len(unused) / (len(cards_left) + 1)) - me.boldness
    if card in me.favourites:
        threshold -= 0.1
    threshold += rng.uniform(-0.05, 0.05)
    dodge = rng.random() < me.cunning
    number = ranked[0]
    if dodge and len(ranked) > 1 and quality(card, ranked[1]) >= threshold:
        number = ranked[1]
    q = quality(card, number)
    if q < threshold:
        return None
    spare = len(unused) > len(cards_left) + 1
    here = card_value(deck[card], players) * me.weight(card) * q
    if not spare and elsewhere(number) >= 1.5 * here:
        return None
    return number
