"""A Swiss event paired by bbpPairings (the FIDE-endorsed Dutch program), kept as fixed
data for the tests: random ratings and results (forfeits among them), each round paired by
bbpPairings from the TRF of the rounds before, the project's pairing checked against it
board by board. Writes the final TRF with one ``### bbpPairings round N: W-B ...`` line a
round (``W-0``: the bye) and a ``### bye: POINTS`` line.

    .venv/bin/python benchmarks/bbp_fixture.py --bbp PATH/bbpPairings.exe --players 31
        --rounds 7 [--seed 0] [--forfeits 0.08] [--bye 1] > tests/club_events/NAME.trf
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.event_crosscheck import bbp_round  # noqa: E402
from companion.club.event.spec import event_from_dict  # noqa: E402
from companion.club.event.tournament import Tournament  # noqa: E402
from companion.club.event.trf import export_trf  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", required=True, help="bbpPairings' executable")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--forfeits", type=float, default=0.08)
    parser.add_argument("--bye", type=float, default=1.0)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    ratings = sorted(rnd.sample(range(1400, 2600), args.players), reverse=True)
    initial = rnd.choice(["white", "black"])
    t = Tournament(
        event_from_dict(
            {
                "name": f"Fixture {args.players}p s{args.seed}",
                "game": "binaryon",
                "pairing": "swiss",
                "rounds": args.rounds,
                "initial_colour": initial,
                "bye": args.bye,
                "players": [{"name": f"P{i}", "rating": r} for i, r in enumerate(ratings, 1)],
            }
        )
    )
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        trf = Path(folder) / "event.trf"
        while t.round < args.rounds:
            trf.write_text(export_trf(t), encoding="utf-8")
            want = bbp_round(args.bbp, trf)
            games = t.pair_next()
            number = {p.name: i for i, p in enumerate(t.event.ranked(), 1)}
            got = [(number[g.white], number[g.black] if g.black else 0) for g in games]
            if got != want:
                print(f"round {t.round}: ours {got}, bbpPairings {want}", file=sys.stderr)
                return 1
            lines.append(
                f"### bbpPairings round {t.round}: " + " ".join(f"{w}-{b}" for w, b in want)
            )
            for g in games:
                if g.black is not None:
                    forfeit = rnd.random() < args.forfeits
                    choices = ["+-", "-+", "--"] if forfeit else ["1-0", "0-1", "1/2-1/2", "1-0"]
                    t.enter_result(g.pairing, rnd.choice(choices))
    sys.stdout.write(export_trf(t) + "\n".join(lines) + f"\n### bye: {args.bye:g}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
