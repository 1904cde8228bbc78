"""The 16 Binøme postulates at their edges: 00, 05, 50, 99 and ties."""

from __future__ import annotations

import pytest

from companion.games.binome.postulates import IDS, POSTULATES, get, parse_number
from companion.games.binome.resolution import resolve

EDGES = (0, 5, 50, 99)

# postulate -> which of 00, 05, 50, 99 are eligible
ELIGIBLE = {
    "identical-digits": (True, False, False, True),
    "divisible-by-10": (True, False, True, False),
    "contains-0": (True, True, True, False),
    "divisible-by-5": (True, True, True, False),
    "contains-5": (False, True, True, False),
    "contains-9": (False, False, False, True),
    "contains-1": (False, False, False, False),
    "first-divisible-by-second": (False, True, False, True),
    "digit-sum-10": (False, False, False, False),
    "max-number": (True, True, True, True),
    "max-digit-sum": (True, True, True, True),
    "min-number": (True, True, True, True),
    "min-digit-sum": (True, True, True, True),
    "min-digit-difference": (True, True, True, True),
    "max-digit-difference": (True, True, True, True),
    "closest-to-50": (True, True, True, True),
}

# postulate -> the number that wins when A=00, B=05, C=50, D=99 all claim (None: discarded)
WINNER_OF_EDGES = {
    "identical-digits": 99,
    "divisible-by-10": 50,
    "contains-0": 50,
    "divisible-by-5": 50,
    "contains-5": 50,
    "contains-9": 99,
    "contains-1": None,
    "first-divisible-by-second": 99,
    "digit-sum-10": None,
    "max-number": 99,
    "max-digit-sum": 99,
    "min-number": 0,
    "min-digit-sum": 0,
    "min-digit-difference": 99,  # 00 and 99 both differ by 0: the greater wins
    "max-digit-difference": 50,  # 05 and 50 both differ by 5: the greater wins
    "closest-to-50": 50,
}


def test_the_ids_are_the_issues_sixteen_in_order():
    assert tuple(ELIGIBLE) == IDS
    assert len(POSTULATES) == 16


@pytest.mark.parametrize("postulate", IDS)
def test_eligibility_at_the_edges(postulate):
    p = get(postulate)
    assert tuple(p.eligible(n) for n in EDGES) == ELIGIBLE[postulate]


@pytest.mark.parametrize("postulate", IDS)
def test_who_wins_among_the_edges(postulate):
    claims = [("A", 0), ("B", 5), ("C", 50), ("D", 99)]
    res = resolve(postulate, claims, 3)
    expected = WINNER_OF_EDGES[postulate]
    number = dict(claims)
    assert [number[w] for w in res.winners] == ([] if expected is None else [expected])
    for name, n in claims:
        reason = dict(res.eliminated).get(name)
        if not get(postulate).eligible(n):
            assert reason == "ineligible"
        elif n != expected:
            assert reason == "beaten"


@pytest.mark.parametrize(
    ("postulate", "numbers", "winner"),
    [
        ("closest-to-50", (49, 51), 51),  # equally close: the greater
        ("closest-to-50", (0, 99), 99),  # 50 and 49 away
        ("closest-to-50", (45, 55), 55),
        ("min-digit-sum", (5, 50), 50),  # both sum 5
        ("min-digit-sum", (0, 1), 0),
        ("max-digit-sum", (18, 81), 81),
        ("max-digit-sum", (99, 98), 99),
        ("min-digit-difference", (0, 11), 11),
        ("min-digit-difference", (12, 21), 21),
        ("max-digit-difference", (90, 9), 90),
        ("max-digit-difference", (90, 91), 90),
        ("min-number", (0, 5), 0),
        ("max-number", (98, 99), 99),
        ("contains-0", (0, 90), 90),
        ("divisible-by-5", (5, 95), 95),
        ("first-divisible-by-second", (5, 11), 11),
        ("first-divisible-by-second", (84, 93), 93),
        ("digit-sum-10", (19, 91), 91),
        ("digit-sum-10", (55, 46), 55),
        ("contains-1", (1, 10), 10),
    ],
)
def test_ranking_and_ties(postulate, numbers, winner):
    res = resolve(postulate, [("A", numbers[0]), ("B", numbers[1])], 2)
    assert res.winners == ("A" if numbers[0] == winner else "B",)


def test_first_digit_divisible_by_second_reading():
    p = get("first-divisible-by-second")
    assert p.eligible(5)  # 0 is divisible by 5
    assert not p.eligible(0) and not p.eligible(50)  # second digit 0: never
    assert all(p.eligible(n) for n in range(1, 100, 10))  # anything / 1
    assert [n for n in range(10, 20) if p.eligible(n)] == [11]  # 1 / 1 only
    assert p.eligible(84) and p.eligible(63) and not p.eligible(64)


def test_contains_counts_either_digit():
    for pid, d in (("contains-0", 0), ("contains-5", 5), ("contains-9", 9), ("contains-1", 1)):
        p = get(pid)
        assert [n for n in range(100) if p.eligible(n)] == sorted(
            {d * 10 + k for k in range(10)} | {k * 10 + d for k in range(10)}
        )


def test_digit_sum_10_has_nine_numbers():
    p = get("digit-sum-10")
    assert [n for n in range(100) if p.eligible(n)] == [19, 28, 37, 46, 55, 64, 73, 82, 91]


@pytest.mark.parametrize("text", ["5", "005", "a5", " ", "-5", "5.", "٠٥"])
def test_numbers_are_exactly_two_ascii_digits(text):
    with pytest.raises(ValueError, match="two digits"):
        parse_number(text)


def test_two_digit_numbers_parse():
    assert [parse_number(t) for t in ("00", "05", "50", "99")] == [0, 5, 50, 99]


def test_unknown_postulate():
    with pytest.raises(ValueError, match="unknown postulate 'max-numbers'"):
        get("max-numbers")
