"""A late Swiss round against bbpPairings: 14 players, round 9 of 9, found by
``benchmarks/event_crosscheck.py --players 14-14 --seed 11`` (event 112). The file keeps
the eight rounds played and bbpPairings' answer for each round (the FIDE-endorsed Dutch
program, built from github.com/BieremaBoyzProgramming/bbpPairings, run on the TRF of the
rounds before, as ``### bbpPairings round N`` lines).

Round 9 by hand (C.04.3): 9 (6 points) met 1 and 3 (5.5), who met each other; 4 (5) met
9, 1 and 3; 7 (4.5) takes 3; 1 takes 2 (4); 9, 4 and 10 (4 points; he met 9, 1, 4 and 2) come down
to the 3.5 group {5, 12}. There two pairs can be made, 4-12 and 10-5, with 9 floating on
(to 2.5: 9-8, 6-14, 13-11; 9-5 with 4-12 leaves 10 and the 3-point group unpairable below),
so C.5 (the most pairs in the bracket) asks for them, as bbpPairings pairs (the
caissify-pairings library the project used before made one pair there, 9-5, and floated 4,
10 and 12 on)."""

from __future__ import annotations

from companion.club.event.spec import event_from_dict
from companion.club.event.tournament import Tournament
from tests.club_events.trf import read_trf, trf_text

NAME = "bbp-14p-r9.trf"
CODES = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2",
         ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}  # fmt: skip


def _replay(upto: int) -> tuple[list[str], list[list[str]]]:
    """Rounds 1..``upto`` paired by the project, the played ones' results entered from the
    file: (each round's boards as 'white-black', bbpPairings' rounds)."""
    text = trf_text(NAME)
    published = read_trf(text)
    ratings = {int(line[4:8]): int(line[48:52]) for line in text.splitlines() if line[:3] == "001"}
    want = [line.split(": ", 1)[1].split() for line in text.splitlines() if line[:3] == "###"]
    t = Tournament(
        event_from_dict(
            {
                "name": NAME,
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": len(want),
                "initial_colour": "black",
                "players": [{"name": f"P{n}", "rating": ratings[n]} for n in sorted(ratings)],
            }
        )
    )
    got = []
    for r in range(1, upto + 1):
        games = t.pair_next()
        got.append([f"{g.white[1:]}-{g.black[1:] if g.black else 0}" for g in games])
        if r < len(want):
            for g in games:
                w, b = int(g.white[1:]), int(g.black[1:])
                t.enter_result(g.pairing, CODES[published[w][r - 1][2], published[b][r - 1][2]])
    return got, want


def test_the_eight_rounds_before_are_bbppairings_board_by_board():
    got, want = _replay(8)
    assert got == want[:8]


def test_the_final_round_makes_the_most_pairs_in_each_bracket():
    got, want = _replay(9)
    assert got[8] == want[8]
