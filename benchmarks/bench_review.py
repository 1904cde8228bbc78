"""The review's time (``binaryon review``, companion/engines/review.py): a long Binaryon game
(8x8) and a whole Wythe game (8x8), then a Binøme and a Latent Binaries game (their own
rules' reviews, no search), here and, with ``--quota``, under the CPU quota of one
Pi Zero 2 W core (benchmarks/cpu_quota.py). Aims: under 10 s here, under 60 s on the quota,
with progress shown throughout (the longest wait between two progress steps is printed).

    .venv/bin/python benchmarks/bench_review.py [--nodes N] [--presses N] [--quota]

``--presses N`` also times N presses on the board (bench_press.py: the mock board's event to
the OLED frame, no journal) alone and while the table page's review runs in its thread
(``views/web/reviews.py``) in the same process: what a review costs the referee.

Binaryon 8x8 games end in 35 to 57 moves (every move lowers the same-coloured neighbouring
pairs): the game reviewed is the first seeded game of at least ``--plies`` moves (50) that a
player stretching the game (the move leaving the most replies, nine times in ten) makes, and
the time for 60 moves is given at its rate too. The Wythe game is greedy against greedy,
seeded, to its end.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cpu_quota import SHARE_OF_A_CORE, CpuQuota, calibration_line  # noqa: E402


def long_binaryon(plies: int) -> list[str]:
    """The first seeded Binaryon 8x8 game of at least ``plies`` moves (the longest of 200
    seeds when none is): each player picks the move that leaves the most replies, 9 times in
    10, else any move."""
    from companion.games import get_spec

    spec = get_spec("binaryon")
    longest: list[str] = []
    for seed in range(200):
        rng = random.Random(seed)
        state, names = spec.new(), []
        while not state.is_over():
            moves = state.legal_moves()
            if rng.random() < 0.9:
                move = max(moves, key=lambda m: len(state.play(m).legal_moves()) + rng.random())
            else:
                move = rng.choice(moves)
            names.append(move.name)
            state = state.play(move)
        if len(names) > len(longest):
            longest = names
        if len(names) >= plies:
            break
    return longest


def whole_wythe(seed: int = 0) -> list[str]:
    """A whole Wythe 8x8 game, greedy against greedy, seeded."""
    from companion.engines.adapters import adapter_for, new_state
    from companion.engines.players import make_player

    adapter = adapter_for("wythe")
    players = [make_player("greedy", adapter, seed + i) for i in range(2)]
    state, names = new_state("wythe", {}), []
    while not state.is_over():
        move = players[len(names) % 2](state)
        names.append(move.name)
        state = state.play(move)
    return names


def seeded_game(game: str, seed: int = 1) -> list[str]:
    """A whole game of random legal moves (Binøme, Latent Binaries: reviewed by their own
    rules, no engine), seeded; the first seed from ``seed`` whose game ends."""
    from companion.games import get_spec

    spec = get_spec(game)
    for tried in range(seed, seed + 50):
        rng = random.Random(tried)
        state, names = spec.new(**spec.resolve({})), []
        while not state.is_over() and len(names) < 2000:
            player = sorted(state.to_act)[0] if state.to_act else None
            move = rng.choice(state.legal_moves(player))
            names.append(move.name)
            state = state.play(move)
        if state.is_over():
            return names
    raise RuntimeError(f"no seeded {game} game ended")


def timed(game: str, names: list[str], nodes: int) -> tuple[float, float, float]:
    """(wall, CPU, the longest wait between two progress steps) seconds of one review."""
    from companion.engines.review import review_game

    steps = [time.perf_counter()]
    wall0, cpu0 = steps[0], time.process_time()
    review_game(game, {}, names, lambda done, total: steps.append(time.perf_counter()), nodes)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    gap = max(b - a for a, b in zip(steps, steps[1:], strict=False))
    return wall, cpu, gap


def presses_during_review(presses: int, nodes: int, names: list[str], label: str) -> None:
    """Press -> OLED frame alone, then while reviews of ``names`` run one after another: in
    a process of their own (as the table page's Review button runs them,
    ``views/web/review_process.py``), and, for comparison, in a thread of this process."""
    import threading

    from bench_press import measure as press_times
    from bench_press import report

    from companion.engines.review import review_game
    from companion.views.web.review_process import review_in_process

    report(f"{label}press -> OLED frame, alone", press_times(presses))
    for where, run in (
        ("in its own process", lambda: review_in_process("binaryon", {}, names, _none, nodes)),
        (
            "in a thread of the same process",
            lambda: review_game("binaryon", {}, names, None, nodes),
        ),
    ):
        stop = threading.Event()

        def again(run=run, stop=stop) -> None:
            while not stop.is_set():  # as long as the presses last
                run()

        thread = threading.Thread(target=again, daemon=True)
        thread.start()
        time.sleep(0.5)  # the review under way (a process has started)
        try:
            times = press_times(presses)
        finally:
            stop.set()
            thread.join()
        report(f"{label}press -> OLED frame, a review running {where}", times)


def _none(done: int, total: int) -> None:
    pass


def measure(nodes: int, plies: int, label: str, presses: int = 0) -> None:
    binaryon = long_binaryon(plies)
    wythe = whole_wythe()
    if presses:
        presses_during_review(presses, nodes, binaryon, label)
    for game, names in (("binaryon", binaryon), ("wythe", wythe)):
        wall, cpu, gap = timed(game, names, nodes)
        rate = (
            f"; 60 moves at its rate {wall / len(names) * 60:.1f} s" if game == "binaryon" else ""
        )
        print(
            f"{label}review of a {len(names)}-move {game} game ({nodes} nodes a move): "
            f"{wall:.1f} s wall, {cpu:.1f} s CPU{rate}; longest wait between two progress "
            f"steps {gap:.2f} s",
            flush=True,
        )
    for game in ("binome", "latent-binaries"):  # by their own rules: no search
        names = seeded_game(game)
        wall, cpu, gap = timed(game, names, nodes)
        print(
            f"{label}review of a {len(names)}-move {game} game (its own rules): "
            f"{wall:.2f} s wall, {cpu:.2f} s CPU; longest wait between two progress steps "
            f"{gap:.3f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=None, help="nodes a move (the review's)")
    parser.add_argument("--plies", type=int, default=50, help="the Binaryon game's length")
    parser.add_argument("--presses", type=int, default=0, help="also time presses (N)")
    parser.add_argument("--quota", action="store_true", help="also under the Pi Zero quota")
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from companion.engines.review import NODES

    nodes = args.nodes or NODES
    measure(nodes, args.plies, args.label, args.presses)
    if not args.quota:
        return
    why = CpuQuota.unavailable()
    if why:
        print(f"no CPU quota here: {why}")
        return
    print(calibration_line(SHARE_OF_A_CORE), flush=True)
    argv = [__file__, "--nodes", str(nodes), "--plies", str(args.plies)]
    argv += ["--presses", str(args.presses)]
    argv += ["--label", "under the Pi Zero quota: "]
    launcher = "import os, sys; sys.stdin.readline(); os.execv(sys.executable, sys.argv[1:])"
    with CpuQuota(SHARE_OF_A_CORE) as quota:
        proc = subprocess.Popen(
            [sys.executable, "-c", launcher, sys.executable, *argv],
            stdin=subprocess.PIPE,
            text=True,
        )
        quota.add(proc.pid)
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
