"""FIDE's Tournament Report File (TRF-16, Handbook C.04 Annex 2): an event written as one,
read back, checked against published files; and ``binaryon event``'s TRF actions, its
pairing numbers, scores and colours, and forfeits typed as the docs write them."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.club.event.spec import event_from_dict
from companion.club.event.swiss import PairingError
from companion.club.event.tournament import Tournament
from companion.club.event.trf import TrfError, export_trf, read_trf, tournament_from_trf
from tests.club_events.trf import trf_text


def _event(players, pairing="swiss", **more):
    raw = {"name": "March", "game": "binaryon", "pairing": pairing, "players": players}
    raw.update(more)
    return event_from_dict(raw)


def _games(t: Tournament):
    return [(g.round, g.table, g.white, g.black, g.result, g.board) for g in t.live()]


# A small event checked by hand against TRF-16's columns (tests/club_events/
# hand-checked-march.trf): 001, pairing number in 5-8, name from 15, rating in 49-52, points
# in 81-84, rank in 86-89, then from column 92 each round's opponent (4 digits), colour,
# result, ten columns a round. Round 1: Ann-Dan 0-1 by forfeit, Ben-Cat both forfeited, Eve
# the bye; round 2: Dan-Eve 1-0 by forfeit, Ann-Cat 1-0, Ben the bye.
HAND_CHECKED = trf_text("hand-checked-march.trf")


def _hand_checked_event() -> Tournament:
    players = [{"name": "Ann", "rating": 1850}, "Ben", {"name": "Cat", "rating": 1700},
               {"name": "Dan", "rating": 1600}, "Eve"]  # fmt: skip
    t = Tournament(_event(players, rounds=2))
    r1 = t.pair_next()
    assert [(g.white, g.black) for g in r1] == [("Ann", "Dan"), ("Ben", "Cat"), ("Eve", None)]
    t.enter_result("r1-t1", "-+")
    t.enter_result("r1-t2", "--")
    r2 = t.pair_next()
    assert [(g.white, g.black) for g in r2] == [("Dan", "Eve"), ("Ann", "Cat"), ("Ben", None)]
    t.enter_result("r2-t1", "+-")
    t.enter_result("r2-t2", "1-0")
    return t


def test_an_event_is_written_as_the_hand_checked_trf():
    text = export_trf(_hand_checked_event())
    ours = [line for line in text.splitlines() if not line.startswith("BNY ")]
    assert ours == HAND_CHECKED.splitlines()
    assert text.count("\nBNY {") == 1


def test_the_hand_checked_trf_without_the_projects_line_reads_back_the_same_games():
    toml, t = tournament_from_trf(HAND_CHECKED, "march.trf")
    assert _games(t) == _games(_hand_checked_event())
    assert [p.name for p in t.event.ranked()] == ["Ann", "Cat", "Dan", "Ben", "Eve"]
    assert 'game = "binaryon"' in toml and "rounds = 2" in toml
    # the bye's points as bbpPairings writes them (BBU), when not 1
    _, half = tournament_from_trf(HAND_CHECKED.replace("XXC white1\n", "XXC white1\nBBU  0.5\n"))
    assert half.event.bye == 0.5 and t.event.bye == 1.0
    assert "BBU  0.5" in export_trf(half) and "BBU" not in export_trf(t)


# Tournaments paired by bbpPairings (the FIDE-endorsed Dutch program), as carried in
# caissify-pairings' test suite (tests/fixtures/fide_official/bbp_10p5r_s42.trf,
# bbp_11p5r_s42.trf, bbp_11p5r_s43.trf): read, then written again, every player line is the
# published one (the rank column aside: the published ranks are the generator's).
@pytest.mark.parametrize("name", ["bbp-10p-s42.trf", "bbp-11p-s42.trf", "bbp-11p-s43.trf"])
def test_published_trf_files_read_and_write_back_line_for_line(name):
    text = trf_text(name)
    _, t = tournament_from_trf(text, name)
    published = [line for line in text.splitlines() if line.startswith("001")]
    ours = [line for line in export_trf(t).splitlines() if line.startswith("001")]
    assert len(ours) == len(published)
    for mine, theirs in zip(ours, published, strict=True):
        assert mine[:85] == theirs[:85]
        assert mine[89:].rstrip() == theirs[89:].rstrip()


def test_a_round_robin_writes_its_round_off_and_reads_it_back():
    t = Tournament(_event(["A", "B", "C", "D", "E"], pairing="round-robin", boards=["x", "y"]))
    while t.round < 3:
        for g in t.pair_next():
            if g.black is not None:
                t.enter_result(g.pairing, "1/2-1/2")
    text = export_trf(t)
    assert "092 Individual: Round-Robin" in text
    assert text.count("0000 - -") == 3  # one player a round has the round off
    _, back = tournament_from_trf(text)
    assert _games(back) == _games(t) and back.event == t.event
    assert export_trf(back) == text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=3, max_value=10),
    data=st.data(),
)
def test_any_swiss_round_trips_through_trf(n, data):
    rounds = data.draw(st.integers(min_value=1, max_value=min(4, n - 1)))
    ratings = data.draw(st.lists(st.integers(1000, 2800), min_size=n, max_size=n, unique=True))
    players = [{"name": f"Player {i}", "rating": r} for i, r in enumerate(ratings, 1)]
    bye = data.draw(st.sampled_from([1, 0.5, 0]))
    t = Tournament(_event(players, rounds=rounds, bye=bye, boards=[f"t{i}" for i in range(n)]))
    results = st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"])
    for r in range(rounds):
        try:
            games = t.pair_next()
        except PairingError:
            break
        for g in games:
            if g.black is not None and (r < rounds - 1 or data.draw(st.booleans())):
                t.enter_result(g.pairing, data.draw(results))
    text = export_trf(t)
    toml, back = tournament_from_trf(text)
    # the players are listed in pairing-number order: the same starting ranks
    assert back.event.ranked() == t.event.ranked()
    assert replace(back.event, players=t.event.players) == t.event
    assert _games(back) == _games(t)
    assert export_trf(back) == text


def _line(number: int, name: str, cell: str) -> str:
    """A 001 line: the pairing number, the name, one round's cell at column 92."""
    return f"001 {number:4d}      {name:<33}{' ' * 42}  {cell}".rstrip() + "\n"


@pytest.mark.parametrize(
    "text, said",
    [
        (trf_text("held-swiss-5.trf"), "only the pairing-allocated bye"),
        ("012 x\n001    1      Ann\n", "fewer than two players"),
        ("001    1      Ann\n001    3      Ben\n", "not 1 to 2"),
        ("001    x      Ann\n001    2      Ben\n", "no pairing number"),
        (_line(1, "Ann", "   2 w 1") + _line(2, "Ben", ""), "do not name each other"),
        (_line(1, "Ann", "   2 w 1") + _line(2, "Ben", "   3 b 0"), "do not name each other"),
        (_line(1, "Ann", "   2 w 1") + _line(2, "Ben", "   1 b 1"), "no result"),
        (_line(1, "Ann", "   2 w 1") + _line(2, "Ben", "   1 b x"), "no result"),
        (_line(1, "Ann", "0000 - H") + _line(2, "Ben", "0000 - U"), "pairing-allocated"),
        ("BNY {nope\n001    1      Ann\n001    2      Ben\n", "not JSON"),
    ],
)
def test_a_trf_an_event_cannot_hold_is_refused_in_one_line(text, said):
    with pytest.raises(TrfError) as e:
        read_trf(text, "in.trf")
    assert said in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------------- binaryon event


@pytest.fixture
def march(tmp_path):
    path = tmp_path / "march.toml"
    path.write_text(
        'name = "March"\ngame = "binaryon"\npairing = "swiss"\nrounds = 2\n'
        'players = [{ name = "Ann", rating = 1850 }, "Ben", { name = "Cat", rating = 1700 },'
        ' { name = "Dan", rating = 1600 }, "Eve"]\n',
        encoding="utf-8",
    )
    return str(path)


def test_forfeits_are_typed_as_the_docs_write_them(march, capsys):
    assert main(["event", march, "pair"]) == 0
    assert main(["event", march, "result", "r1-t1", "-+"]) == 0
    assert main(["event", march, "result", "r1-t2", "--"]) == 0
    out = capsys.readouterr().out
    assert "r1-t1: (1) Ann 0 v (3) Dan 0  -+  Dan won by forfeit" in out
    assert "r1-t2: (4) Ben 0 v (2) Cat 0  --  both forfeited" in out
    assert main(["event", march, "correct", "r1-t1", "+-", "--by", "Zoe", "--why", "late"]) == 0
    assert main(["event", march, "correct", "r1-t2", "--", "--by", "Zoe", "--why", "x"]) == 2
    assert "has -- already" in capsys.readouterr().err
    assert main(["event", march, "correct", "r1-t1", "--", "--why", "w", "--by", "Zoe"]) == 0
    assert "r1-t1: +- -> -- by Zoe: w" in capsys.readouterr().out


def test_pair_show_and_standings_give_pairing_numbers_scores_and_colours(march, capsys):
    main(["event", march, "pair"])
    main(["event", march, "result", "r1-t1", "1-0"])
    main(["event", march, "result", "r1-t2", "1/2-1/2"])
    capsys.readouterr()
    assert main(["event", march, "pair", "--json"]) == 0
    round2 = json.loads(capsys.readouterr().out)
    first = round2["games"][0]
    assert round2["round"] == 2 and first["pairing"] == "r2-t1"
    # FIDE's board order: the higher player's score first (Ann won, Eve had the bye's point)
    tops = [max(g["white"]["score"], g["black"]["score"]) for g in round2["games"][:-1]]
    assert tops == sorted(tops, reverse=True) and tops[0] == 1.0
    assert round2["games"][-1]["black"] is None  # the bye last
    assert main(["event", march, "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["players"][0] == {"number": 1, "name": "Ann", "rating": 1850}
    assert shown["rounds"][0]["games"][0]["white"] == {"number": 1, "name": "Ann", "score": 0.0}
    assert main(["event", march, "standings", "--json"]) == 0
    table = {s["name"]: s for s in json.loads(capsys.readouterr().out)["standings"]}
    assert table["Ann"]["number"] == 1 and table["Ann"]["colours"][0] == "w"
    assert table["Dan"]["colours"][0] == "b" and table["Eve"]["colours"][0] == "-"
    assert main(["event", march, "standings"]) == 0
    text = capsys.readouterr().out
    assert "colours" in text.splitlines()[0] and " no " in text.splitlines()[0]


def test_export_trf_and_new_from_trf_round_trip(march, tmp_path, capsys):
    main(["event", march, "pair"])
    main(["event", march, "result", "r1-t1", "-+"])
    main(["event", march, "result", "r1-t2", "1-0"])
    main(["event", march, "pair"])
    trf = str(tmp_path / "march.trf")
    assert main(["event", march, "export", "--trf", "-o", trf]) == 0
    capsys.readouterr()
    copy = str(tmp_path / "copy.toml")
    assert main(["event", copy, "new", "--from-trf", trf]) == 0
    assert "round 2 of 2, 2 results" in capsys.readouterr().out
    assert main(["event", copy, "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert main(["event", march, "show", "--json"]) == 0
    original = json.loads(capsys.readouterr().out)
    assert shown["games"] == original["games"] and len(shown["games"]) == 6
    assert shown["rounds"] == original["rounds"] and shown["players"] == original["players"]
    assert main(["event", copy, "export", "--trf"]) == 0
    assert capsys.readouterr().out == (tmp_path / "march.trf").read_text(encoding="utf-8")
    # the new event plays on: a result typed in, the round complete
    assert main(["event", copy, "result", "r2-t1", "+-"]) == 0
    # a second new over it is refused in one line, the file untouched
    before = (tmp_path / "copy.toml").read_text(encoding="utf-8")
    assert main(["event", copy, "new", "--from-trf", trf]) == 2
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "copy.toml").read_text(encoding="utf-8") == before


def test_new_from_a_bad_trf_is_one_line_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "held.trf"
    bad.write_text(trf_text("held-swiss-5.trf"), encoding="utf-8")
    target = tmp_path / "held.toml"
    assert main(["event", str(target), "new", "--from-trf", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "pairing-allocated bye" in err and err.count("\n") == 1
    assert not target.exists()
    assert main(["event", str(target), "new"]) == 2
    assert "--from-trf" in capsys.readouterr().err
