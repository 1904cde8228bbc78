"""The 16 Binøme postulates: who is eligible and how the eligible numbers rank. Pure.

A number is an int 0..99 written with exactly two digits ('05'). Each postulate gives a rank
key (higher is better); equal keys go to the greater number, so the eligibility-only
postulates (key 0 for everyone) are won by the greatest number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final


def digits(number: int) -> tuple[int, int]:
    """(first, second) digit of a two-digit number."""
    return divmod(number, 10)


def number_text(number: int) -> str:
    return f"{number:02d}"


def parse_number(text: str) -> int:
    """'05' -> 5; ValueError unless exactly two digits 0-9."""
    t = text.strip()
    if len(t) != 2 or not (t.isascii() and t.isdigit()):
        raise ValueError(f"{text!r}: a number is exactly two digits (e.g. 05)")
    return int(t)


@dataclass(frozen=True)
class Postulate:
    id: str
    title: str  # as printed on the card
    eligible: Callable[[int], bool]
    key: Callable[[int], int]  # rank among eligible numbers: higher is better
    worse: str  # what a beaten number is, e.g. "lower", "further from 50"

    def rank(self, number: int) -> tuple[int, int]:
        """Sort key: better ranks higher; ties go to the greater number."""
        return (self.key(number), number)

    @property
    def ranked(self) -> bool:
        """True for the postulates every number is eligible for (only the ranking matters)."""
        return all(self.eligible(n) for n in range(100))


def _always(_n: int) -> bool:
    return True


def _flat(_n: int) -> int:
    return 0


def _first_divisible_by_second(n: int) -> bool:
    a, b = digits(n)
    return b != 0 and a % b == 0


def _difference(n: int) -> int:
    a, b = digits(n)
    return abs(a - b)


def _digit_sum(n: int) -> int:
    return sum(digits(n))


POSTULATES: Final[tuple[Postulate, ...]] = (
    Postulate("identical-digits", "Two identical digits",
              lambda n: digits(n)[0] == digits(n)[1], _flat, "lower"),
    Postulate("divisible-by-10", "Divisible by 10", lambda n: n % 10 == 0, _flat, "lower"),
    Postulate("contains-0", "Contains 0", lambda n: 0 in digits(n), _flat, "lower"),
    Postulate("divisible-by-5", "Divisible by 5", lambda n: n % 5 == 0, _flat, "lower"),
    Postulate("contains-5", "Contains 5", lambda n: 5 in digits(n), _flat, "lower"),
    Postulate("contains-9", "Contains 9", lambda n: 9 in digits(n), _flat, "lower"),
    Postulate("contains-1", "Contains 1", lambda n: 1 in digits(n), _flat, "lower"),
    Postulate("first-divisible-by-second", "First digit divisible by the second",
              _first_divisible_by_second, _flat, "lower"),
    Postulate("digit-sum-10", "Sum of digits equals 10",
              lambda n: _digit_sum(n) == 10, _flat, "lower"),
    Postulate("max-number", "Maximum number", _always, lambda n: n, "lower"),
    Postulate("max-digit-sum", "Maximum sum of digits", _always, _digit_sum, "smaller sum"),
    Postulate("min-number", "Minimum number", _always, lambda n: -n, "higher"),
    Postulate("min-digit-sum", "Minimum sum of digits", _always,
              lambda n: -_digit_sum(n), "larger sum"),
    Postulate("min-digit-difference", "Minimum difference between digits", _always,
              lambda n: -_difference(n), "larger gap"),
    Postulate("max-digit-difference", "Maximum difference between digits", _always,
              _difference, "smaller gap"),
    Postulate("closest-to-50", "Closest to 50", _always,
              lambda n: -abs(n - 50), "further from 50"),
)  # fmt: skip

BY_ID: Final[dict[str, Postulate]] = {p.id: p for p in POSTULATES}
IDS: Final[tuple[str, ...]] = tuple(BY_ID)


def get(postulate_id: str) -> Postulate:
    """The postulate with this id; ValueError naming it otherwise."""
    try:
        return BY_ID[postulate_id]
    except KeyError:
        raise ValueError(f"unknown postulate {postulate_id!r}") from None
