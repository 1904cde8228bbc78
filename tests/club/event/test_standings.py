"""Standings and tie-breaks against FIDE's published tie-break exercises: IA Mario Held,
*Exercises in Tie-Breaking* (FIDE C.07, 2023 regulations), its 16-player 5-round Swiss and its
6-player round robin, with the answers the paper gives."""

from __future__ import annotations

import pytest

from companion.club.event.spec import event_from_dict
from companion.club.event.standings import (
    Line,
    Round,
    direct_encounter,
    lines_of,
    standings,
    tiebreak,
)
from companion.club.event.tournament import Game, Tournament
from tests.club_events.trf import points, read_trf, trf_text

HELD_SWISS_5 = trf_text("held-swiss-5.trf")
HELD_ROUND_ROBIN = trf_text("held-round-robin.trf")


def _lines(text: str) -> dict[str, Line]:
    """TRF codes: 1 = 0 played; + - forfeits; U the pairing-allocated bye; H Z F byes asked
    for (half, zero, full point)."""
    out = {}
    for number, rounds in read_trf(text).items():
        line = Line(str(number), number)
        line.rounds = [
            Round(None if o is None else str(o), points(res), res in "1=0", res == "U")
            for o, _, res in rounds
        ]
        out[str(number)] = line
    return out


def _values(text: str, name: str, players, round_robin=False) -> dict[int, float]:
    lines = _lines(text)
    return {p: tiebreak(name, lines[str(p)], lines, set(), round_robin) for p in players}


def test_buchholz_as_held_exercises_1_and_2():
    # players whose own rounds were all played (opponents' byes count as they scored)
    assert _values(HELD_SWISS_5, "buchholz", [2, 1, 3]) == {2: 13.0, 1: 12.5, 3: 15.5}


def test_buchholz_cut_1_as_held_exercise_7():
    assert _values(HELD_SWISS_5, "buchholz-cut-1", [1, 3, 16]) == {1: 11.0, 3: 13.0, 16: 11.0}


def test_buchholz_of_a_half_point_bye_counts_a_dummy_with_the_players_own_score():
    # David's round-2 bye asked for: his own 3.5 stands in for the opponent (C.07 2023 Art.
    # 16.4). His round-1 opponent Nick won round 3 by forfeit and then took zero-point byes
    # in rounds 4 and 5: rounds missed after his last round (Art. 16.2.5) count as draws for
    # his opponents (Art. 16.3), so Nick counts 3.0, not his 2.0: 3 + 3.5 + 1.5 + 3.5 + 3.5
    assert _values(HELD_SWISS_5, "buchholz", [4, 12]) == {4: 15.0, 12: 11.5}


def test_buchholz_cut_1_cuts_a_round_chosen_not_to_be_played_first():
    # C.07 2023 Art. 16.5 (14.1): Jessica (9) asked for a half-point bye in round 3 and lost
    # round 4 by forfeit: one of those rounds' dummies (her own 1.5) is cut, not Lais's 1.0
    lines = _lines(HELD_SWISS_5)
    assert tiebreak("buchholz", lines["9"], lines, set()) == 9.0
    assert tiebreak("buchholz-cut-1", lines["9"], lines, set()) == 7.5
    # Paul (14) lost round 3 by forfeit (his own 2.0 as the dummy): that is cut, not Opal's 1.5
    assert tiebreak("buchholz-cut-1", lines["14"], lines, set()) == 9.0


def test_a_four_player_swiss_with_a_forfeit_counts_the_dummy_not_the_scheduled_opponent():
    # the case, small: A beats B, C beats D in round 1; round 2 A-C played (A wins),
    # D forfeits to B. A scheduled-opponent Buchholz gives B: A 2 + D 0 = 2; by C.07 B has
    # A (2) and a dummy with B's own 1 point: 3
    lines = {
        "A": Line("A", 1, [Round("B", 1.0), Round("C", 1.0)]),
        "B": Line("B", 2, [Round("A", 0.0), Round("D", 1.0, played=False)]),
        "C": Line("C", 3, [Round("D", 1.0), Round("A", 0.0)]),
        "D": Line("D", 4, [Round("C", 0.0), Round("B", 0.0, played=False)]),
    }
    assert tiebreak("buchholz", lines["B"], lines, set()) == 3.0
    # in a round robin the forfeit counts against the scheduled opponent
    assert tiebreak("buchholz", lines["B"], lines, set(), round_robin=True) == 2.0


def test_wins_as_held_exercise_27():
    want = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1, 11: 2, 12: 2,
            13: 1, 14: 2, 15: 2, 16: 3}  # fmt: skip
    assert _values(HELD_SWISS_5, "wins", want) == want


def _round_robin(tiebreaks: list[str]) -> Tournament:
    names = [str(i) for i in range(1, 7)]
    event = event_from_dict(
        {
            "name": "Held",
            "game": "binaryon",
            "pairing": "round-robin",
            "players": names,
            "tiebreaks": tiebreaks,
        }  # fmt: skip
    )
    t = Tournament(event)
    codes = {"1": "1-0", "0": "0-1", "=": "1/2-1/2", "+": "+-", "-": "-+"}
    for number, rounds in read_trf(HELD_ROUND_ROBIN).items():
        for r, (opp, colour, res) in enumerate(rounds, 1):
            if colour == "w":
                t.games.append(Game(r, number, str(number), str(opp), result=codes[res]))
    return t


def test_sonneborn_berger_as_held_exercise_14_forfeit_counted_against_its_opponent():
    table = standings(_round_robin(["sonneborn-berger"]))
    got = {s.name: s.tiebreaks["sonneborn-berger"] for s in table}
    assert got == {"1": 9.25, "2": 6.25, "3": 6.25, "4": 4.25, "5": 3.25, "6": 2.25}


def test_direct_encounter_ranks_as_held_exercise_26():
    table = standings(_round_robin(["direct-encounter"]))
    assert {s.name: s.rank for s in table} == {"1": 1, "2": 2, "3": 2, "4": 6, "5": 5, "6": 4}
    assert [s.name for s in table] == ["1", "2", "3", "6", "5", "4"]


def test_tie_breaks_apply_in_the_events_order():
    sb_first = standings(_round_robin(["sonneborn-berger", "direct-encounter"]))
    # 2 and 3 drew and have the same SB: still shared; 4 beats 5 on SB (4.25 to 3.25)
    assert [(s.rank, s.name) for s in sb_first] == [
        (1, "1"),
        (2, "2"),
        (2, "3"),
        (4, "4"),
        (5, "5"),
        (6, "6"),
    ]


@pytest.mark.parametrize("bad", ["1-1", "win", ""])
def test_a_bad_result_is_one_line(bad):
    t = _round_robin([])
    t.games.clear()
    t.pair_next()
    with pytest.raises(ValueError) as e:
        t.enter_result("r1-t1", bad)
    assert "\n" not in str(e.value) and "1-0" in str(e.value)


def _met(results: dict[tuple[str, str], float]) -> dict[str, Line]:
    """Lines of the games given: (a, b) -> a's points (b has the rest), all played."""
    names = sorted({n for pair in results for n in pair})
    lines = {n: Line(n, i + 1) for i, n in enumerate(names)}
    for (a, b), p in results.items():
        lines[a].rounds.append(Round(b, p))
        lines[b].rounds.append(Round(a, 1.0 - p))
    return lines


def test_direct_encounter_is_applied_again_to_those_it_leaves_tied():
    # C.07 Art. 6: five players tied, all met. Among the five: A 3.5, E 2.5, C and D 1.5,
    # B 1. Applied again to C and D alone, C's win over D separates them (once, they stay
    # tied)
    lines = _met({("A", "B"): 1.0, ("A", "C"): 1.0, ("A", "D"): 0.5, ("A", "E"): 1.0,
                  ("B", "C"): 0.5, ("B", "D"): 0.5, ("B", "E"): 0.0, ("C", "D"): 1.0,
                  ("C", "E"): 0.0, ("D", "E"): 0.5})  # fmt: skip
    values: dict[str, float] = {}
    parts = direct_encounter(list("ABCDE"), lines, False, values)
    assert parts == [["A"], ["E"], ["C"], ["D"], ["B"]]
    assert values["C"] == 1.0 and values["D"] == 0.0  # their points against each other


def test_direct_encounter_in_a_swiss_where_not_all_met_puts_ahead_only_the_uncatchable():
    # C.07 Art. 6.2: A beat B and C (2 of 2); B and C never met: at most 1 each, so A is
    # ahead; B and C stay tied. With D too, whom nobody met, D could reach 3: nobody moves
    lines = _met({("A", "B"): 1.0, ("A", "C"): 1.0})
    assert direct_encounter(["A", "B", "C"], lines, False, {}) == [["A"], ["B", "C"]]
    lines["D"] = Line("D", 4)
    parts = direct_encounter(["A", "B", "C", "D"], lines, False, {})
    assert [sorted(part) for part in parts] == [["A", "B", "C", "D"]]
    # in a round robin a forfeit counts: B's forfeit win over C puts B ahead of C
    lines = _met({("A", "B"): 1.0, ("A", "C"): 1.0})
    lines["B"].rounds.append(Round("C", 1.0, played=False))
    lines["C"].rounds.append(Round("B", 0.0, played=False))
    assert direct_encounter(["A", "B", "C"], lines, True, {}) == [["A"], ["B"], ["C"]]
    assert direct_encounter(["A", "B", "C"], lines, False, {}) == [["A"], ["B", "C"]]


def test_a_round_robins_round_off_scores_nothing_and_is_left_out():
    # 5 players, 2 rounds: Ann has round 1 off, Dan round 2 (the Berger tables). Nobody leads
    # for it (the issue: with a bye's point the players who had it led a shortened event)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    event = event_from_dict({"name": "RR", "game": "binaryon", "pairing": "round-robin",
                             "rounds": 2, "players": names})  # fmt: skip
    t = Tournament(event)
    for _ in range(2):
        for g in t.pair_next():
            if g.black is not None:
                t.enter_result(g.pairing, "1/2-1/2")
    table = {s.name: s for s in standings(t)}
    assert table["Ann"].points == 0.5 and table["Dan"].points == 0.5
    assert table["Ben"].points == 1.0
    # Ann's Sonneborn-Berger counts her one game only, no dummy for the round off
    assert table["Ann"].colours[0] == "-"
    lines = lines_of(t)
    (game,) = lines["Ann"].rounds
    opponent = lines[game.opponent].points
    assert tiebreak("sonneborn-berger", lines["Ann"], lines, set(), True) == 0.5 * opponent
