"""Standings and tie-breaks against FIDE's published tie-break exercises: IA Mario Held,
*Exercises in Tie-Breaking* (FIDE C.07, 2023 regulations), its 16-player 5-round Swiss and its
6-player round robin, with the answers the paper gives."""

from __future__ import annotations

import pytest

from companion.club.event.spec import event_from_dict
from companion.club.event.standings import Line, standings, tiebreak
from companion.club.event.tournament import Game, Tournament
from tests.club_events.trf import points, read_trf

HELD_SWISS_5 = """\
001    2 m    Bruno                             2150 NOR           0 1990/01/01  4.0    2    10 b 1     7 w 1     1 b =    16 w 1     3 b =
001    1 m    Alyx                              2200 NOR           0 1990/01/01  3.5    1     9 w 1    13 b =     2 w =    15 b 1     4 w =
001    3 m    Charline                          2100 NOR           0 1990/01/01  3.5    3    11 w =     6 b 1     8 w 1     4 b =     2 w =
001    4 m    David                             2050 NOR           0 1990/01/01  3.5    4    12 b 1     0 - H    13 w 1     3 w =     1 b =
001   16 m    Stephan                           1450 NOR           0 1990/01/01  3.5   16     8 w =    11 b 1     7 w 1     2 b 0    15 w 1
001    6 m    Franck                            1950 NOR           0 1990/01/01  3.0    6    14 b 0     3 w 0     0 - U    10 w 1     8 b 1
001    5 m    Helene                            2000 NOR           0 1990/01/01  2.5    5    13 w 0    15 b 0    11 w 1     7 b =    10 w 1
001    8 m    Irina                             1850 NOR           0 1990/01/01  2.5    8    16 b =    14 w 1     3 b 0    13 w 1     6 w 0
001   11 m    Maria                             1700 NOR           0 1990/01/01  2.5   11     3 b =    16 w 0     5 b 0     9 w +     7 w 1
001   12 m    Nick                              1650 NOR           0 1990/01/01  2.0   12     4 w 0     0 - U    14 w +     0 - Z     0 - Z
001   14 m    Paul                              1550 NOR           0 1990/01/01  2.0   14     6 w 1     8 b 0    12 b -     0 - Z    13 b 1
001   15 m    Reine                             1500 NOR           0 1990/01/01  2.0   15     7 b 0     5 w 1    10 b 1     1 w 0    16 b 0
001    7 m    Genevieve                         1900 NOR           0 1990/01/01  1.5    7    15 w 1     2 b 0    16 b 0     5 w =    11 b 0
001    9 m    Jessica                           1800 NOR           0 1990/01/01  1.5    9     1 b 0    10 w 0     0 - H    11 b -     0 - U
001   13 m    Opal                              1600 NOR           0 1990/01/01  1.5   13     5 b 1     1 w =     4 b 0     8 b 0    14 w 0
001   10 m    Lais                              1750 NOR           0 1990/01/01  1.0   10     2 w 0     9 b 1    15 w 0     6 b 0     5 b 0
"""
HELD_ROUND_ROBIN = """\
001    1 m    Alyx                              2200 NOR           0 1990/01/01  3.5    1     5 w =     2 w 1     3 b 1     4 w 0     6 b 1
001    2 m    Bruno                             2150 NOR           0 1990/01/01  3.5    2     6 w 1     1 b 0     5 w 1     3 w =     4 b 1
001    3 m    Charline                          2100 NOR           0 1990/01/01  3.5    3     4 w 1     6 b 1     1 w 0     2 b =     5 w 1
001    4 m    David                             2050 NOR           0 1990/01/01  1.5    4     3 b 0     5 b 0     6 w =     1 b 1     2 w 0
001    5 m    Franck                            1950 NOR           0 1990/01/01  1.5    5     1 b =     4 w 1     2 b 0     6 w -     3 b 0
001    6 m    Helene                            2000 NOR           0 1990/01/01  1.5    6     2 b 0     3 w 0     4 b =     5 b +     1 w 0
"""


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
