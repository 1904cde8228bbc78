"""Wythe's CLI outputs (score JSON and words, legal moves JSON, the OLED lead line) and its
record helpers (tags to options and people, the swap, refusing an illegal record whole)."""

from __future__ import annotations

import json
import random

import pytest

from companion.cli.main import main
from companion.games import get_spec
from companion.games.wythe.moves import BLACK, WHITE
from companion.games.wythe.records import (
    WytheRecordError,
    check_swap_tag,
    options_from_tags,
    players_from_tags,
    read,
    replay,
    rule_name,
    seats,
    swap_note,
    swap_tag,
)
from companion.games.wythe.report import (
    deciding_groups,
    group_squares,
    groups_words,
    lead_line,
    legal_json,
    result_sentence,
    score_json,
    score_row,
    score_text,
    turn_note,
)
from tests.games.wythe.test_engine import BLOCKED, ZERO_ZERO, play, start
from tests.positions import sq

PEOPLE = {BLACK: "Ana", WHITE: "Ben"}


# --------------------------------------------------------------------------- score


def test_score_json_before_any_placement():
    assert score_json(start()) == {
        "game": "wythe",
        "black": {"score": 0, "groups": {}},
        "white": {"score": 0, "groups": {}},
        "winner": None,
    }


def test_score_json_of_a_finished_game():
    s = play(start(size=4), BLOCKED + " pass pass")
    got = score_json(s)
    assert got == {
        "game": "wythe",
        "black": {"score": 4, "groups": {"4": 2}},
        "white": {"score": 8, "groups": {"8": 1}},
        "winner": "white",
    }
    assert json.loads(json.dumps(got)) == got


def test_score_json_groups_are_sorted_by_size_and_the_tie_rule_names_a_winner():
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    got = score_json(s)
    # black: d4, a1, h8, c4 joined to d4 -> 2, 1, 1; white: d5, a2, h7, b4 -> 1 x 4
    assert got["black"] == {"score": 2, "groups": {"1": 2, "2": 1}}
    assert got["white"] == {"score": 1, "groups": {"1": 4}}
    assert list(got["black"]["groups"]) == ["1", "2"]
    assert got["winner"] == "black"
    assert score_json(play(start(), "d4-d5"))["winner"] == "white"  # 0-0, Black placed last


def test_score_text_says_the_table_the_scores_and_who_leads():
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    assert score_text(s).splitlines() == [
        "Black: one group of 2, two of 1",
        "White: four groups of 1",
        "Black scores 2: one group of 2 to White's none.",
        "White scores 1: four groups of 1 to Black's two.",
        "Black leads 2-1.",
    ]
    over = play(start(size=4), BLOCKED + " pass pass")
    assert score_text(over).splitlines()[-1] == "White wins 8-4."
    assert score_text(start()).splitlines() == [
        "Black: no groups",
        "White: no groups",
        "Black scores 0: no size where Black has more groups.",
        "White scores 0: no size where White has more groups.",
        "No piece placed yet.",
    ]


def test_the_tie_rule_in_words():
    s = play(start(size=4), ZERO_ZERO)
    loser = s.last_placer.capitalize()
    winner = "White" if loser == "Black" else "Black"
    assert result_sentence(s) == f"0-0: {loser} made the last placement, so {winner} wins."
    assert lead_line(s) == f"0-0: {loser} placed last"


def test_lead_line_fits_two_oled_lines():
    s = play(start(size=4), BLOCKED)
    assert lead_line(s) == "White 8: one group of 8 to none"
    assert lead_line(start()) == "no piece placed yet"
    for n in (4, 8, 16):
        state = start(size=n)
        rng = random.Random(n)
        while moves := state.legal_moves():
            state = state.play(rng.choice(moves))
            assert len(lead_line(state)) <= 42


def test_groups_in_words_and_the_short_row():
    assert groups_words({5: 3, 3: 1, 1: 4}) == "three groups of 5, one of 3, four of 1"
    assert groups_words({14: 1}) == "one group of 14"
    assert groups_words({2: 13}) == "13 groups of 2"
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    assert score_row(s, BLACK) == "2  2x1 1x2" and score_row(s, WHITE) == "1  1x4"


# --------------------------------------------------------------------------- legal


def test_legal_json():
    s = start(size=4)
    moves = legal_json(s)["moves"]
    assert len(moves) == 48 and moves[:3] == ["a1-b1", "a1-a2", "b1-a1"]
    assert moves == sorted(moves, key=lambda m: [s.parse_move(m)])
    after = play(s, "a1-b1")
    assert legal_json(after)["moves"][-1] == "swap"
    assert "swap" not in legal_json(play(after, "c1-d1"))["moves"]
    blocked = play(s, BLOCKED)
    assert legal_json(blocked) == {"moves": ["pass"]}
    assert legal_json(play(blocked, "pass pass")) == {"moves": []}


# --------------------------------------------------------------------------- records


def test_options_and_people_from_tags():
    tags = {"Game": "wythe", "Options": "size=6 pie=false", "Black": "Ana", "White": "Ben"}
    assert options_from_tags(tags) == {"size": 6, "pie": False}
    assert options_from_tags({"game": "wythe"}) == {"size": 8, "pie": True}
    assert players_from_tags(tags) == PEOPLE
    assert players_from_tags({"black": "Ana"}) == {BLACK: "Ana"}
    with pytest.raises(WytheRecordError, match="Options: size: 3 is below 4"):
        options_from_tags({"Options": "size=3"})
    with pytest.raises(WytheRecordError, match="is not NAME=VALUE"):
        options_from_tags({"Options": "size"})
    with pytest.raises(WytheRecordError, match="not wythe"):
        options_from_tags({"Game": "binary"})


def test_after_a_swap_the_people_exchange_colours():
    s = replay(["d4-d5", "swap"])
    assert seats(s, PEOPLE) == {BLACK: "Ben", WHITE: "Ana"}
    assert swap_note(s, PEOPLE) == "Ben swapped at move 2: Ben plays Black, Ana plays White"
    assert swap_tag(s, PEOPLE) == ("Swap", swap_note(s, PEOPLE))
    assert swap_note(s, {}) == (
        "the white player swapped at move 2: the white player plays Black, "
        "the black player plays White"
    )
    plain = replay(["d4-d5", "e4-e5"])
    assert seats(plain, PEOPLE) == PEOPLE and swap_note(plain, PEOPLE) is None
    assert swap_tag(plain, PEOPLE) is None


def test_read_a_whole_record():
    tags = {"Game": "wythe", "Options": "size=4 pie=true", "Black": "Ana", "White": "Ben"}
    tags["Swap"] = "Ben swapped at move 2: Ben plays Black, Ana plays White"
    state, people = read(tags, [("a1-b1", 8), ("swap", 8), ("c1-d1", 9)], "g.txt")
    assert state.swapped and state.turn == BLACK and people == {BLACK: "Ben", WHITE: "Ana"}
    with pytest.raises(WytheRecordError, match=r"g.txt: \[Swap\] tag but no swap"):
        read(tags, ["a1-b1", "c1-d1"], "g.txt")
    check_swap_tag({}, state)  # a record without the tag: the moves say it


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (["d4-d5", "d5-d4"], "g.txt:2: move 2 d5-d4 breaks the uncovered-bit rule: "
         "d5-d4: would bury d4-d5"),
        (["d4-d5", "e4-d4"], "g.txt:2: move 2 e4-d4 breaks the equal-heights rule: "
         "heights differ: e4 0, d4 1"),
        (["d4-d5", "e4-e5", "d4-e4"], "g.txt:3: move 3 d4-e4 breaks the like-colour rule: "
         "d4: black on black"),
        (["d4-d6"], "g.txt:2: move 1 d4-d6 breaks the adjacent-halves rule: d6: not next to d4"),
        (["d4-d5", "e4-e5", "swap"], "g.txt:3: move 3 swap breaks the pie rule: "
         "swap: only White's 1st turn"),
        (["d4-d5", "pass"], "g.txt:2: move 2 pass breaks the pass rule: "
         "pass: a piece still fits"),
        (["d4-d5", "e9-e8"], "g.txt:2: move 2 e9-e8: not Wythe notation: e9: not on a 8x8"),
    ],
)  # fmt: skip
def test_an_illegal_record_is_refused_with_line_move_and_rule(moves, message):
    lines = [(m, 2 + i // 2) for i, m in enumerate(moves)]
    with pytest.raises(WytheRecordError) as err:
        replay(lines, {"size": 8}, "g.txt")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_replay_after_the_end_and_without_lines():
    moves = [*BLOCKED.split(), "pass", "pass", "a1-b1"]
    with pytest.raises(WytheRecordError, match="^rec: move 11 a1-b1 breaks the game over"):
        replay(moves, {"size": 4}, "rec")
    assert rule_name("covers-piece") == "uncovered-bit rule"
    assert rule_name("something-new") == "something-new"


def test_replay_gives_the_same_state_as_playing():
    names = ["a1-b1", "c1-d1", "b2-a2", "d2-c2", "b1-c1", "c2-b2", "b2-b1"]
    state = replay(names, {"size": 4})
    direct = get_spec("wythe").replay(names, size=4)
    assert state.cells() == direct.cells() and state.pieces == direct.pieces


# --------------------------------------------------------------------------- hints, notes


def test_deciding_groups_are_the_groups_of_the_score_size():
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4")
    assert deciding_groups(s, BLACK) == [[sq("c4"), sq("d4")]]
    assert deciding_groups(s, WHITE) == [[sq("a2")], [sq("b4")], [sq("d5")], [sq("h7")]]
    assert deciding_groups(play(start(), "d4-d5"), BLACK) == []  # scores 0
    assert group_squares(0b0110_0001, 4) == [[0], [5, 6]]


def test_turn_notes():
    assert turn_note(start()) == ""
    assert turn_note(play(start(), "d4-d5")) == "White: place or swap"
    assert turn_note(play(start(pie=False), "d4-d5")) == ""
    blocked = play(start(size=4), BLOCKED)
    assert turn_note(blocked) == "Black must pass"
    assert turn_note(play(blocked, "pass pass")) == ""


def test_score_reads_a_wythe_diagram(tmp_path, capsys):
    """docs/rules/wythe.md documents `score --game wythe FILE`: the top colours' groups."""
    diagram = tmp_path / "w.txt"
    diagram.write_text("x x . .\no o o .\n. . x .\n. . . .\n")
    assert main(["score", "--game", "wythe", str(diagram)]) == 0
    words = capsys.readouterr().out.splitlines()
    assert words[0] == "Black: one group of 2, one of 1" and words[-1] == "White leads 3-2."
    assert main(["score", "--game", "wythe", str(diagram), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["winner"] == "white" and scored["black"]["groups"] == {"1": 1, "2": 1}
    diagram.write_text("x . o .\n. . . .\n. . . .\n. . . .\n")  # 0-0: nobody can say
    assert main(["score", "--game", "wythe", str(diagram), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] is None
