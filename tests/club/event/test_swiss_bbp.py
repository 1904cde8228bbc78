"""Swiss events paired by bbpPairings (the FIDE-endorsed Dutch-system program, built from
github.com/BieremaBoyzProgramming/bbpPairings), kept as fixed data: each file is the final TRF
of a random event (forfeits, byes worth 1, ½ or 0) with bbpPairings' answer for every round,
asked of it with the TRF of the rounds before (``benchmarks/bbp_fixture.py`` wrote them).
Replayed here with the same results, the project's Dutch engine pairs every round as
bbpPairings did: the same pairs, colours and board order, the bye to the same player.

- ``bbp-13p-s5.trf``: 13 players, 7 rounds, byes worth ½, down to the last round;
- ``bbp-31p-s3.trf``: 31 players, 7 rounds, byes worth 1: more than the engine pairs in one
  matching, so its brackets are paired over the bracket and the players just below it;
- ``bbp-44p-s8.trf``: 44 players, 6 rounds, byes worth 0;
- ``bbp-14p-r9.trf`` (``test_club_event_swiss_late.py``): 14 players, round 9 of 9."""

from __future__ import annotations

import pytest

from companion.club.event.spec import event_from_dict
from companion.club.event.tournament import Tournament
from tests.club_events.trf import read_trf, trf_text

CODES = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2",
         ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}  # fmt: skip


def _replay(name: str) -> tuple[list[list[str]], list[list[str]]]:
    """Every round paired by the project, results entered from the file: (each round's
    boards as 'white-black', 'player-0' the bye; bbpPairings' rounds, the same way)."""
    text = trf_text(name)
    lines = text.splitlines()
    published = read_trf(text)
    ratings = {int(line[4:8]): int(line[48:52]) for line in lines if line[:3] == "001"}
    want = [line.split(": ", 1)[1].split() for line in lines if line.startswith("### bbp")]
    bye = float(next(line.split(": ")[1] for line in lines if line.startswith("### bye")))
    colour = next(line[4:].strip() for line in lines if line.startswith("XXC"))
    t = Tournament(
        event_from_dict(
            {
                "name": name,
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": len(want),
                "bye": bye if bye != int(bye) else int(bye),
                "initial_colour": "black" if colour.startswith("black") else "white",
                "players": [{"name": f"P{n}", "rating": ratings[n]} for n in sorted(ratings)],
            }
        )
    )
    got = []
    for r in range(len(want)):
        games = t.pair_next()
        got.append([f"{g.white[1:]}-{g.black[1:] if g.black else 0}" for g in games])
        for g in games:
            if g.black is not None:
                w, b = int(g.white[1:]), int(g.black[1:])
                t.enter_result(g.pairing, CODES[published[w][r][2], published[b][r][2]])
    return got, want


@pytest.mark.parametrize("name", ["bbp-13p-s5.trf", "bbp-31p-s3.trf", "bbp-44p-s8.trf"])
def test_every_round_is_bbppairings_board_by_board(name):
    got, want = _replay(name)
    for r, (ours, theirs) in enumerate(zip(got, want, strict=True), 1):
        assert ours == theirs, f"round {r}"


def test_the_files_have_forfeits_and_byes_to_replay():
    """The fixed data reaches the cases that matter: forfeits (a downfloat for the winner,
    no game for colours) and byes of each value."""
    texts = [trf_text(n) for n in ("bbp-13p-s5.trf", "bbp-31p-s3.trf", "bbp-44p-s8.trf")]
    assert all(" + " in t or " - " in t for t in texts)
    assert all("0000 - U" in t for t in texts[:2])
