"""Standings and tie-breaks against FIDE's published tie-break exercises: IA Mario Held,
*Exercises in Tie-Breaking* (FIDE C.07, 2023 regulations), its 16-player 5-round Swiss and its
6-player round robin, with the answers the paper gives."""

from __future__ import annotations

import pytest

from companion.club.event.spec import event_from_dict
from companion.club.event.standings import Line, standings, tiebreak
from companion.club.event.tournament import Game, Tournament
from tests.club_events.trf import points, read_trf, trf_text

HELD_SWISS_5 = trf_text("held-swiss-5.trf")
HELD_ROUND_ROBIN = trf_text("held-round-robin.trf")


def _lines(text: str) -> dict[str, Line]:
    out = {}
    for number, rounds in read_trf(text).items():
        line = Line(str(number), number)
        line.rounds = [(None if o is None else str(o), points(res)) for o, _, res in rounds]
        out[str(number)] = line
    return out


def _values(text: str, name: str, players) -> dict[int, float]:
    lines = _lines(text)
    return {p: tiebreak(name, lines[str(p)], lines, set()) for p in players}


def test_buchholz_as_held_exercises_1_and_2():
    # players whose own rounds were all played (opponents' byes count as they scored)
    assert _values(HELD_SWISS_5, "buchholz", [2, 1, 3]) == {2: 13.0, 1: 12.5, 3: 15.5}


def test_buchholz_cut_1_as_held_exercise_7():
    assert _values(HELD_SWISS_5, "buchholz-cut-1", [1, 3, 16]) == {1: 11.0, 3: 13.0, 16: 11.0}


def test_buchholz_of_a_half_point_bye_counts_a_dummy_with_the_players_own_score():
    # David's round-2 bye: his 3.5 stands in for the opponent (Held's answer under the 2026
    # amendment of C.07 Art. 16.4, 14.0)
    assert _values(HELD_SWISS_5, "buchholz", [4]) == {4: 14.0}


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
