"""Events checked from outside: random Swiss events (and round robins for the tie-breaks)
paired and ranked by the project, each round compared with independent programs reading the
event's TRF file (``binaryon event FILE export --trf``):

- bbpPairings (the FIDE-endorsed Dutch-system program; build it from its sources): the
  next round from the TRF of the rounds so far; the rounds whose pairs, colours (same pairs)
  or board order (same pairs and colours) differ are counted;
- TieBreakServer (FIDE's tie-break program; a checkout of TEC-FIDE/TieBreakServer): the
  final standings' points, Buchholz, Buchholz cut-1, Sonneborn-Berger and wins, value for
  value, and the ranks with the event's tie-breaks (direct encounter included).

    .venv/bin/python benchmarks/event_crosscheck.py --bbp PATH/bbpPairings.exe
        [--tiebreakserver DIR] [--events 200] [--seed 0] [--forfeits 0.06] [--players 4-16]

Either program may be left out (its comparison is skipped). Prints one line per figure;
with ``-v``, each differing round."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.club.event.spec import event_from_dict  # noqa: E402
from companion.club.event.standings import lines_of, standings, tiebreak  # noqa: E402
from companion.club.event.swiss import PairingError  # noqa: E402
from companion.club.event.tournament import Tournament  # noqa: E402
from companion.club.event.trf import export_trf  # noqa: E402

TBS = {"buchholz": "BH", "buchholz-cut-1": "BH/C1", "sonneborn-berger": "SB", "wins": "WIN"}
ORDERS = (
    ["buchholz-cut-1", "buchholz", "direct-encounter", "wins"],
    ["direct-encounter", "sonneborn-berger", "wins"],
)


def bbp_round(bbp: str, trf: Path) -> list[tuple[int, int]] | None:
    """bbpPairings' next round for the TRF: (white, black) numbers, black 0 the bye."""
    out = trf.with_suffix(".pairs")
    done = subprocess.run([bbp, "--dutch", str(trf), "-p", str(out)], capture_output=True)
    if done.returncode:
        return None
    lines = out.read_text().split("\n")
    return [tuple(map(int, line.split())) for line in lines[1 : 1 + int(lines[0])]]  # type: ignore[misc]


def tiebreakserver(folder: str, trf: Path, swiss: bool, names: list[str]) -> dict[int, list]:
    """Number -> [rank, points, each named tie-break's value] by TieBreakServer, ranking by
    points and then those tie-breaks."""
    done = subprocess.run(
        [sys.executable, str(Path(folder) / "tiebreakchecker.py"), "-i", str(trf), "-f", "TRF",
         "-c", "-s" if swiss else "-p", "-d", "T", "-r", "-t", "PTS", *names],
        capture_output=True, text=True,
    )  # fmt: skip
    out: dict[int, list] = {}
    for line in done.stdout.splitlines()[1:]:
        cells = line.split("\t")
        out[int(cells[1])] = [int(cells[0]), float(cells[2]), *cells[3:]]
    return out


def one_event(rnd: random.Random, args, folder: Path, seen: Counter, verbose: bool) -> None:
    low, high = args.players
    n = rnd.randint(low, high)
    swiss = rnd.random() < 0.85
    order = list(rnd.choice(ORDERS))
    ratings = sorted(rnd.sample(range(1400, 2600), n), reverse=True)
    raw = {
        "name": "Crosscheck",
        "game": "binaryon",
        "pairing": "swiss" if swiss else "round-robin",
        "tiebreaks": order,
        "players": [{"name": f"P{i}", "rating": r} for i, r in enumerate(ratings, 1)],
    }
    if swiss:
        raw["rounds"] = rnd.randint(2, min(9, n - 1))
        raw["initial_colour"] = rnd.choice(["white", "black"])
        raw["bye"] = rnd.choice([1, 1, 0.5, 0])
    t = Tournament(event_from_dict(raw))
    trf = folder / "event.trf"
    seen["events"] += 1
    while t.round < t.event.rounds:
        want = None
        if swiss and args.bbp:
            trf.write_text(export_trf(t), encoding="utf-8")
            want = bbp_round(args.bbp, trf)
        try:
            games = t.pair_next()
        except PairingError:
            seen["rounds refused (absolute criteria)"] += 1
            if swiss and args.bbp and want is not None:
                seen["rounds refused that bbpPairings paired"] += 1
            return
        number = {p.name: i for i, p in enumerate(t.event.ranked(), 1)}
        got = [(number[g.white], number[g.black] if g.black else 0) for g in games]
        if swiss and args.bbp:
            seen["rounds compared with bbpPairings"] += 1
            if want is None:
                seen["rounds bbpPairings could not pair"] += 1
            elif {frozenset(p) for p in got} != {frozenset(p) for p in want}:
                seen["rounds with other pairs"] += 1
            elif set(got) != set(want):
                seen["rounds with other colours"] += 1
            elif got != want:
                seen["rounds with another board order"] += 1
            if verbose and want is not None and got != want:
                print(f"  round {t.round}: ours {got}, bbpPairings {want}")
        for g in games:
            if g.black is not None:
                forfeit = rnd.random() < args.forfeits
                choices = ["+-", "-+", "--"] if forfeit else ["1-0", "0-1", "1/2-1/2", "1-0"]
                t.enter_result(g.pairing, rnd.choice(choices))
    if not args.tiebreakserver:
        return
    trf.write_text(export_trf(t), encoding="utf-8")
    values = tiebreakserver(args.tiebreakserver, trf, swiss, list(TBS.values()))
    ranks = tiebreakserver(
        args.tiebreakserver,
        trf,
        swiss,
        ["DE" if tb == "direct-encounter" else TBS[tb] for tb in order],
    )
    seen["events compared with TieBreakServer"] += 1
    plain = lines_of(t)
    table = {s.name: s for s in standings(t)}
    if any(ranks[int(name[1:])][0] != s.rank for name, s in table.items()):
        seen["events ranked otherwise"] += 1
    for name, s in table.items():
        _, points, *theirs = values[int(name[1:])]
        ours = [tiebreak(tb, plain[name], plain, set(), not swiss) for tb in TBS]
        if points != s.points or any(
            abs(a - float(b)) > 1e-9 for a, b in zip(ours, theirs, strict=True)
        ):
            seen["events with other tie-break values"] += 1
            break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", help="bbpPairings' executable")
    parser.add_argument("--tiebreakserver", metavar="DIR", help="a TieBreakServer checkout")
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--forfeits", type=float, default=0.06, help="share of games forfeited")
    parser.add_argument("--players", default="4-16", help="LOW-HIGH players an event")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.players = tuple(int(x) for x in args.players.split("-"))
    rnd = random.Random(args.seed)
    seen: Counter = Counter()
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.events):
            one_event(rnd, args, Path(folder), seen, args.verbose)
    figures = ["events", "rounds compared with bbpPairings", "rounds with other pairs",
               "rounds with other colours", "rounds with another board order",
               "rounds bbpPairings could not pair", "rounds refused (absolute criteria)",
               "rounds refused that bbpPairings paired",
               "events compared with TieBreakServer", "events with other tie-break values",
               "events ranked otherwise"]  # fmt: skip
    for key in figures + [k for k in seen if k not in figures]:
        print(f"{key}: {seen[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
