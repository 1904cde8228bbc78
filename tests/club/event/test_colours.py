"""The Swiss's colours (FIDE Dutch system, Handbook C.04.3 E), board order (C.04.2) and
floats after forfeits (C.04.3 A.4): each colour rule as a property, and whole rounds where
the rules decide."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.club.event.spec import event_from_dict
from companion.club.event.swiss import (
    ABSOLUTE,
    BLACK,
    MILD,
    NONE,
    STRONG,
    WHITE,
    History,
    PairingError,
    board_order,
    colours,
    preference,
)
from companion.club.event.tournament import Tournament
from tests.club_events.trf import read_trf, trf_text

seq = st.lists(st.sampled_from([WHITE, BLACK]), max_size=6)
score = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])


def _other(c: str) -> str:
    return BLACK if c == WHITE else WHITE


def _pair(ha: History, hb: History, initial: str = WHITE, a: int = 0, b: int = 1):
    players = [History(None), History(None)] + [History(None)] * 6
    players[a], players[b] = ha, hb
    return colours(players, a, b, initial)


def _colour_of(pair: tuple[int, int], who: int) -> str:
    return WHITE if pair[0] == who else BLACK


def test_preferences_by_c0403_a6():
    assert preference([]) == (None, NONE)
    assert preference([WHITE]) == (BLACK, STRONG)  # difference +1
    assert preference([WHITE, BLACK]) == (WHITE, MILD)  # difference 0: alternate
    assert preference([BLACK, WHITE, WHITE]) == (BLACK, ABSOLUTE)  # same colour twice
    assert preference([WHITE, BLACK, WHITE, WHITE, BLACK, WHITE]) == (BLACK, ABSOLUTE)  # +2


@settings(max_examples=200, deadline=None)
@given(ca=seq, cb=seq, sa=score, sb=score, initial=st.sampled_from([WHITE, BLACK]))
def test_e1_different_preferences_are_both_granted(ca, cb, sa, sb, initial):
    (pa, _), (pb, _) = preference(ca), preference(cb)
    pair = _pair(History(None, sa, ca), History(None, sb, cb), initial)
    if pa is not None and pb is not None and pa != pb:
        assert _colour_of(pair, 0) == pa and _colour_of(pair, 1) == pb
    elif pa is not None and pb is None:
        assert _colour_of(pair, 0) == pa
    elif pb is not None and pa is None:
        assert _colour_of(pair, 1) == pb


@settings(max_examples=200, deadline=None)
@given(ca=seq, cb=seq, sa=score, sb=score)
def test_e2_the_stronger_of_two_same_preferences_is_granted(ca, cb, sa, sb):
    (pa, xa), (pb, xb) = preference(ca), preference(cb)
    if pa is None or pa != pb:
        return
    pair = _pair(History(None, sa, ca), History(None, sb, cb))
    if xa != xb:
        stronger = 0 if xa > xb else 1
        assert _colour_of(pair, stronger) == pa
    elif xa == ABSOLUTE:  # both absolute: the wider colour difference wins
        da = abs(ca.count(WHITE) - ca.count(BLACK))
        db = abs(cb.count(WHITE) - cb.count(BLACK))
        if da != db:
            assert _colour_of(pair, 0 if da > db else 1) == pa


@settings(max_examples=300, deadline=None)
@given(ca=seq, cb=seq, sa=score, sb=score)
def test_e3_equal_preferences_alternate_from_the_latest_round_the_colours_differed(ca, cb, sa, sb):
    (pa, xa), (pb, xb) = preference(ca), preference(cb)
    if pa is None or pa != pb or xa != xb:
        return
    if xa == ABSOLUTE and abs(ca.count(WHITE) - ca.count(BLACK)) != abs(
        cb.count(WHITE) - cb.count(BLACK)
    ):
        return
    differ = [(x, y) for x, y in zip(reversed(ca), reversed(cb), strict=False) if x != y]
    if not differ:
        return
    pair = _pair(History(None, sa, ca), History(None, sb, cb))
    x, _ = differ[0]
    assert _colour_of(pair, 0) == _other(x)


@settings(max_examples=300, deadline=None)
@given(c=seq, sa=score, sb=score, a=st.integers(0, 7), b=st.integers(0, 7))
def test_e4_with_the_same_history_the_higher_ranked_player_has_the_preference(c, sa, sb, a, b):
    # the case: the higher-ranked is the one with more points, the pairing number
    # only deciding between equal scores (C.04.3 A.2), not the lower pairing number alone
    if a == b or not c:
        return
    pair = _pair(History(None, sa, list(c)), History(None, sb, list(c)), a=a, b=b)
    higher = a if (-sa, a) < (-sb, b) else b
    assert _colour_of(pair, higher) == preference(c)[0]


@given(a=st.integers(0, 7), b=st.integers(0, 7), initial=st.sampled_from([WHITE, BLACK]))
def test_e5_without_preferences_the_pairing_number_decides(a, b, initial):
    if a == b:
        return
    pair = _pair(History(None), History(None), initial, a=a, b=b)
    higher = min(a, b)
    want = initial if (higher + 1) % 2 == 1 else _other(initial)
    assert _colour_of(pair, higher) == want


def test_e4_more_points_beats_a_lower_pairing_number():
    # pairing number 1 (0.5 points) and 2 (1.5 points), both W then B: mild white each; the
    # rules give white to number 2, who is ranked higher on points
    one = History(None, 0.5, [WHITE, BLACK])
    two = History(None, 1.5, [WHITE, BLACK])
    assert colours([one, two], 0, 1) == (1, 0)


def test_e3_counts_played_games_only_each_players_own_sequence():
    # C.04.1 F.3 (FIDE Handbook, the Dutch system as published before 2017): a colour history
    # "BWW-B" counts as "-BWWB" for E.3: rounds without a game are left out of each player's
    # own sequence. A played B W W - B, C played W B W B: aligned from the latest game
    a = History(None, 2.0, [BLACK, WHITE, WHITE, BLACK])
    c = History(None, 2.0, [WHITE, BLACK, WHITE, BLACK])
    # both mild white; latest games B/B, then W/W, then W/B: A had white there, so A black
    assert preference(a.colours)[0] == preference(c.colours)[0] == WHITE
    assert colours([a, c], 0, 1) == (1, 0)


def test_board_order_is_the_higher_players_score_then_the_others_then_rank():
    players = [
        History(None, 2.0),  # 0
        History(None, 1.0),  # 1
        History(None, 2.0),  # 2
        History(None, 2.0),  # 3
        History(None, 2.0),  # 4
        History(None, 0.0),  # 5
        History(None, 1.0),  # 6
    ]
    # sums: (0,5) 2, (2,3) 4, (1,6) 2, (4,None) bye. The higher player's score first: (2,3)
    # and (0,5) both have a 2-point player on top; then the other's score: 2 before 0
    pairs = [(1, 6), (5, 0), (3, 2), (4, None)]
    assert board_order(players, pairs) == [(3, 2), (5, 0), (1, 6), (4, None)]
    # the case: 2.0 + 0.0 goes above 1.5 + 1.5 (a sum would put it below)
    players = [History(None, 2.0), History(None, 1.5), History(None, 1.5), History(None, 0.0)]
    assert board_order(players, [(1, 2), (3, 0)]) == [(3, 0), (1, 2)]


def _event(n: int, rounds: int):
    return event_from_dict(
        {
            "name": "club",
            "game": "binaryon",
            "pairing": "swiss",
            "rounds": rounds,
            "players": [{"name": f"P{i}", "rating": 2000 - 10 * i} for i in range(1, n + 1)],
        }
    )


def test_a_forfeit_win_is_a_downfloat_and_a_forfeit_no_colour():
    t = Tournament(_event(6, 3))
    games = t.pair_next()
    t.enter_result(games[0].pairing, "+-")
    t.enter_result(games[1].pairing, "1-0")
    t.enter_result(games[2].pairing, "--")
    ranked = [p.name for p in t.event.ranked()]
    hist, met = t.histories(ranked)
    w, b = ranked.index(games[0].white), ranked.index(games[0].black)
    assert hist[w].floats == ["down"] and hist[w].colours == [] and hist[w].forfeit_wins == 1
    assert hist[b].floats == ["none"] and hist[b].colours == []
    assert (min(w, b), max(w, b)) not in met
    dw, db = ranked.index(games[2].white), ranked.index(games[2].black)
    assert hist[dw].floats == hist[db].floats == ["none"]


def test_a_round_with_the_rank_case_gives_the_preference_to_the_player_with_more_points():
    # round 1: P1-P4, P5-P2, P3-P6; P1 and P5 win, P3 and P6 draw. Round 2 pairs P6 (0.5
    # point, had black) with P4 (0, had black): both prefer white (strong). C.04.3 E.4 gives
    # it to P6, ranked higher on points (A.2), though P4 has the lower pairing number
    t = Tournament(_event(6, 3))
    r1 = t.pair_next()
    assert [(g.white, g.black) for g in r1] == [("P1", "P4"), ("P5", "P2"), ("P3", "P6")]
    for g, result in zip(r1, ["1-0", "1-0", "1/2-1/2"], strict=True):
        t.enter_result(g.pairing, result)
    r2 = [(g.white, g.black) for g in t.pair_next()]
    assert r2 == [("P5", "P1"), ("P2", "P3"), ("P6", "P4")]


def test_the_bye_never_goes_to_a_player_who_won_by_forfeit():
    # C.04.1 c: the pairing-allocated bye goes to nobody who had it or scored a point without
    # playing. 7 players, 6 rounds: before round 6 the only players without a bye, P3 and
    # P5, each won a game by forfeit, so round 6 cannot be paired (bbpPairings, the
    # FIDE-endorsed program, finds no valid pairing for it either)
    players = [{"name": f"P{i}", "rating": r}
               for i, r in enumerate([2518, 2344, 2221, 2111, 2090, 2054, 1886], 1)]  # fmt: skip
    t = Tournament(
        event_from_dict(
            {
                "name": "club",
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": 6,
                "initial_colour": "black",
                "players": players,
            }
        )  # fmt: skip
    )
    results = [["1-0", "-+", "0-1"], ["+-", "+-", "0-1"], ["--", "1-0", "0-1"],
               ["1-0", "1-0", "1/2-1/2"], ["+-", "0-1", "--"]]  # fmt: skip
    for played in results:
        games = [g for g in t.pair_next() if g.black is not None]
        for g, result in zip(games, played, strict=True):
            t.enter_result(g.pairing, result)
    byes = {g.white for g in t.live() if g.black is None}
    assert byes == {"P7", "P6", "P1", "P4", "P2"}
    with pytest.raises(PairingError, match="won by forfeit"):
        t.pair_next()
    assert t.round == 5


@pytest.mark.parametrize("bye, float_", [(1, "down"), (0.5, "down"), (0, "none")])
def test_the_bye_is_a_downfloat_when_it_scores(bye, float_):
    # C.04.3 A.4 as bbpPairings reads it: a round not played floats down when it scored
    t = Tournament(
        event_from_dict(
            {
                "name": "club",
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": 2,
                "bye": bye,
                "players": ["A", "B", "C"],
            }
        )  # fmt: skip
    )
    (game, bye_game) = t.pair_next()
    t.enter_result(game.pairing, "1-0")
    ranked = [p.name for p in t.event.ranked()]
    hist, _ = t.histories(ranked)
    assert hist[ranked.index(bye_game.white)].floats == [float_]


# Whole rounds as bbpPairings (the FIDE-endorsed Dutch program, built from its sources,
# github.com/BieremaBoyzProgramming/bbpPairings at 16a000f) paired them, board by board and
# colour by colour, each from the TRF file of the rounds before; its checker (-c) passes the
# whole tournament. The files keep bbpPairings' answers as "### bbpPairings round N" lines
# (lines bbpPairings itself skips). Each holds the rank case of C.04.3 E.4 (twice) and
# forfeits.
@pytest.mark.parametrize("name", ["bbp-order-9p.trf", "bbp-order-12p.trf"])
def test_rounds_are_bbppairings_board_by_board(name):
    text = trf_text(name)
    published = read_trf(text)
    ratings = {int(line[4:8]): int(line[48:52]) for line in text.splitlines() if line[:3] == "001"}
    rounds = [line.split(": ", 1)[1].split() for line in text.splitlines() if line[:3] == "###"]
    players = [{"name": f"P{n}", "rating": ratings[n]} for n in sorted(ratings)]
    t = Tournament(
        event_from_dict(
            {
                "name": name,
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": len(rounds),
                "players": players,
            }
        )  # fmt: skip
    )
    codes = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2",
             ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}  # fmt: skip
    for r, want in enumerate(rounds, 1):
        games = t.pair_next()
        got = [f"{g.white[1:]}-{g.black[1:] if g.black else 0}" for g in games]
        assert got == want, f"round {r}"
        for g in games:
            if g.black is not None:
                w, b = int(g.white[1:]), int(g.black[1:])
                t.enter_result(g.pairing, codes[published[w][r - 1][2], published[b][r - 1][2]])
