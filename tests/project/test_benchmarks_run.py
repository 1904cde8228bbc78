"""The benchmarks still run against the code as it is (they are not timed here: each runs a
few iterations and must print its figures). A change of an interface the benchmarks use shows
up here rather than on the day someone measures."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.benchmark_modules import BENCHMARKS
from tests.mosquitto import require_mosquitto

# script, its smallest arguments, a line its figures must match
RUNS = [
    (
        "bench_press.py",
        ["--presses", "40"],
        r"press -> OLED frame \(no journal\): 40 presses, median [\d.]+ ms",
    ),
    ("bench_rules.py", ["--size", "6", "--seconds", "0.05"], r"ratio [\d.]+x"),
    (
        "bench_wythe.py",
        ["--seconds", "0.05"],
        r"random full games/s \(legal_moves \+ play\): [\d,]+",
    ),
    (
        "bench_engines.py",
        ["--games", "2", "--time", "0.01", "--game", "binary"],
        r'"game": "binary".*"games": 2',
    ),
    ("bench_gpio_scan.py", [], r"us CPU per scan"),
    (
        "bench_journal.py",
        ["--tick-only", "--quick"],
        r"clock tick at +500 events: median +[\d.]+ ms wall, +[\d.]+ ms CPU \(1 clock row\)",
    ),
    (
        "bench_history.py",
        ["--games", "200", "--spectators", "2", "--moves", "2", "--calls", "2", "--cache", "."],
        r"2 spectators, 8 pages loading the history: median +[\d.]+ ms",
    ),
    (
        "bench_binary.py",
        ["--positions", "30", "--seconds", "0.01"],
        r"BinaryState.score\(\) +[\d,]+ +[\d.]+x[\s\S]*reference differ: 0$",
    ),
    (
        "bench_club_board.py",
        ["--moves", "5"],
        r"with the club link: 5 moves(.|\n)*press -> the move at a subscriber: median",
    ),
    (
        "bench_fanout.py",
        ["--spectators", "1,3", "--moves", "3"],
        r"3 spectators: move -> last spectator median +[\d.]+ ms(.|\n)*web server adds",
    ),
    (
        "bench_voice.py",
        [
            "--lines",
            "2",
            "--presses",
            "3",
            "--commands",
            "1",
            "--noise",
            "brown",
            "--snr",
            "10",
            "--talk-minutes",
            "0.02",
            "--push-to-talk",
        ],
        r"text -> first audio sample: p50 [\d.]+ ms[\s\S]*press -> OLED frame, speech off: "
        r"p50 [\d.]+ ms[\s\S]*speech on [^:]*: p50 [\d.]+ ms[\s\S]*(commands, clean: [\d.]+ % right"
        r"[\s\S]*push-to-talk, brown noise at 10 dB SNR: [\d.]+ % right, \d+ wrong actions, \d+ of "
        r"them asked first|commands: not measured)"
        r"|voice: not measured",
    ),
    (
        "bench_club.py",
        ["--boards", "5", "--seconds", "2", "--interval", "0.5", "--per-process", "2"],
        # a move seen after 5 s counts as missed: a figure of a loaded machine, not a loss
        r"5 boards: move -> hub page p50 [\d.]+ ms, p99 [\d.]+ ms \(\d+ moves, \d+ missed\)"
        r".*RSS [\d.]+ MB; broker [\d.]+ % of a core; the boards \(3 client processes\) [\d.]+ %",
    ),
    (
        "bench_startup.py",
        ["--runs", "1", "--no-quota", "--only=--version,score FILE"],
        r"--version +\d+ ms +[\d.]+x python +CPU +\d+ ms +[\d.]+x  \(aim <= 2x\)\n"
        r" +score FILE +\d+ ms",
    ),
    (
        "compare_startup.py",  # this tree against itself
        [str(BENCHMARKS.parent), "--runs", "1", "--only=--version"],
        r"--version +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+\n",
    ),
    (
        "bench_club_pairing.py",
        ["--players", "12", "--limit", "120"],
        r"12 players: round 2 paired in +[\d.]+ s; page meanwhile +[\d.]+ /",
    ),
    (
        "bench_review.py",
        ["--nodes", "100", "--plies", "20"],
        r"review of a \d+-move binaryon game \(100 nodes a move\): [\d.]+ s wall[\s\S]*"
        r"review of a \d+-move wythe game .*longest wait between two progress steps [\d.]+ s",
    ),
    (
        "bench_club_flood.py",
        ["--big", "1", "--small", "3", "--deep", "3"],
        r"peak during the flood [\d.]+ MB: \+[\d.]+ MB",
    ),
]


# these start a Mosquitto of their own
NEEDS_MOSQUITTO = {"bench_club_board.py", "bench_club.py", "bench_club_flood.py"}


@pytest.mark.parametrize(("script", "args", "figure"), RUNS, ids=[r[0] for r in RUNS])
def test_the_benchmark_runs_and_prints_its_figures(script, args, figure, tmp_path):
    if script in NEEDS_MOSQUITTO:
        require_mosquitto()
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert re.search(figure, run.stdout), run.stdout[-2000:]
