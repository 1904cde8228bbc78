"""Resolving a Binøme turn: the rules sheet's example, eliminations, X cards, variants."""

from __future__ import annotations

import pytest

from companion.games.binome.resolution import card_value, resolve

EXAMPLE = [("Eustache", 22), ("Algernon", 88), ("Balthazar", 88), ("Cornelia", 44)]


def test_the_rules_sheet_example_turn():
    res = resolve("identical-digits", EXAMPLE, 4)
    assert res.winners == ("Cornelia",)
    assert res.taker == "Cornelia"
    assert dict(res.eliminated) == {
        "Eustache": "beaten",
        "Algernon": "identical",
        "Balthazar": "identical",
    }
    assert dict(res.points) == {"Eustache": 0, "Algernon": 0, "Balthazar": 0, "Cornelia": 4}
    assert res.explanation == "44 wins: 88 and 88 cancelled; 22 lower"


def test_the_example_next_turn_dorothy_alone():
    res = resolve("min-digit-difference", [("Dorothy", 88)], 2)
    assert res.winners == ("Dorothy",)
    assert res.explanation == "88 wins"


def test_a_lone_ineligible_claim_is_eliminated():
    res = resolve("identical-digits", [("Ann", 23)], 4)
    assert res.winners == ()
    assert dict(res.eliminated) == {"Ann": "ineligible"}
    assert res.gained("Ann") == 0
    assert res.explanation == "card discarded: 23 not eligible"


def test_everyone_cancelled_discards_the_card():
    res = resolve("max-number", [("A", 77), ("B", 77), ("C", 12), ("D", 12)], "X")
    assert res.winners == () and res.taker is None
    assert all(p == 0 for _, p in res.points)
    assert res.explanation == "card discarded: 77 and 77 cancelled; 12 and 12 cancelled"


def test_no_claims():
    res = resolve("max-number", [], 3)
    assert res.winners == () and res.points == ()
    assert res.explanation == "card discarded: no claims"


def test_ineligible_numbers_do_not_cancel_each_other_or_others():
    # 23 twice is ineligible for identical digits: eliminated as ineligible, not identical
    res = resolve("identical-digits", [("A", 23), ("B", 23), ("C", 11)], 4)
    assert dict(res.eliminated) == {"A": "ineligible", "B": "ineligible"}
    assert res.winners == ("C",)
    assert res.explanation == "11 wins: 23 and 23 not eligible"


def test_three_way_identical():
    res = resolve("max-number", [("A", 90), ("B", 90), ("C", 90), ("D", 10)], 3)
    assert res.winners == ("D",)
    assert res.explanation == "10 wins: 90 and 90 and 90 cancelled"


def test_beaten_reasons_name_the_ranking():
    res = resolve("closest-to-50", [("A", 40), ("B", 60), ("C", 52)], 2)
    assert res.winners == ("C",)
    assert res.explanation == "52 wins: 40 and 60 further from 50"
    res = resolve("closest-to-50", [("A", 49), ("B", 51)], 2)
    assert res.explanation == "51 wins: 49 lower"
    res = resolve("min-number", [("A", 40), ("B", 3)], 2)
    assert res.explanation == "03 wins: 40 higher"


def test_x_points_count_every_claimant_eliminated_included():
    claims = [("A", 50), ("B", 50), ("C", 13), ("D", 70), ("E", 7)]
    res = resolve("closest-to-50", claims, "X")
    assert res.winners == ("D",)
    assert res.gained("D") == 5
    assert card_value("X", 3) == 3 and card_value(4, 9) == 4


def test_battle_royale_needs_three_claimants():
    two = resolve("max-number", [("A", 50), ("B", 60)], 3, battle_royale=True)
    assert two.gained("B") == 3
    three = resolve("max-number", [("A", 50), ("B", 60), ("C", 1)], 3, battle_royale=True)
    assert three.gained("B") == 4
    # eliminated claimants count towards the three
    elim = resolve("contains-9", [("A", 50), ("B", 60), ("C", 19)], 3, battle_royale=True)
    assert elim.winners == ("C",) and elim.gained("C") == 4
    # X and the bonus add up
    x = resolve("max-number", [("A", 50), ("B", 60), ("C", 1)], "X", battle_royale=True)
    assert x.gained("B") == 4


def test_battle_royale_gives_nothing_when_the_card_is_discarded():
    res = resolve("contains-9", [("A", 50), ("B", 60), ("C", 1)], 3, battle_royale=True)
    assert res.winners == () and all(p == 0 for _, p in res.points)


def test_same_boat_after_identical_numbers_every_remaining_claimant_scores():
    res = resolve("identical-digits", EXAMPLE + [("Dorothy", 12)], 4, same_boat=True)
    assert res.winners == ("Cornelia", "Eustache")  # best first: Cornelia takes the chair
    assert res.gained("Cornelia") == 4 and res.gained("Eustache") == 4
    assert dict(res.eliminated) == {
        "Algernon": "identical",
        "Balthazar": "identical",
        "Dorothy": "ineligible",
    }
    assert res.explanation == "44 and 22 win: 12 not eligible; 88 and 88 cancelled"


def test_same_boat_without_identical_numbers_only_the_best_wins():
    res = resolve("max-number", [("A", 50), ("B", 60), ("C", 1)], 3, same_boat=True)
    assert res.winners == ("B",)
    assert dict(res.eliminated) == {"A": "beaten", "C": "beaten"}


def test_same_boat_and_battle_royale_together():
    claims = [("A", 50), ("B", 50), ("C", 1), ("D", 60)]
    res = resolve("max-number", claims, 2, same_boat=True, battle_royale=True)
    assert res.winners == ("D", "C")
    assert res.gained("D") == 3 and res.gained("C") == 3 and res.gained("A") == 0


def test_bad_claims_are_refused():
    with pytest.raises(ValueError, match="A claims twice"):
        resolve("max-number", [("A", 1), ("A", 2)], 2)
    with pytest.raises(ValueError, match="not a two-digit number"):
        resolve("max-number", [("A", 100)], 2)
    with pytest.raises(ValueError, match="unknown postulate"):
        resolve("max", [("A", 1)], 2)


def test_json_shape():
    res = resolve("identical-digits", EXAMPLE, 4)
    assert res.to_json() == {
        "postulate": "identical-digits",
        "winners": ["Cornelia"],
        "eliminated": {"Eustache": "beaten", "Algernon": "identical", "Balthazar": "identical"},
        "points": {"Eustache": 0, "Algernon": 0, "Balthazar": 0, "Cornelia": 4},
    }
