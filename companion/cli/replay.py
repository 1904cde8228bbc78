"""``binaryon replay FILE``: step through a game record on the simulated board and OLED.

Each move goes through the daemon as a board reading would (interpreter result -> session ->
OLED and LEDs), and the terminal shows the emulated OLED and the board after every move, and
with a timed record each player's time left after it (from its ``[%clk]`` comments).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from companion.cli.journal_args import fail
from companion.core.terminal_text import for_terminal
from companion.games import player_ids
from companion.games.base import Outcome
from companion.records.check import read_record
from companion.records.format import Record, RecordError
from companion.timing.clock import clock_text
from companion.timing.on_time import on_time

MAX_DELAY = 3600.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="a game record (see docs/records.md), or - for stdin"
    )
    parser.add_argument(
        "--delay", type=float, default=0.7, metavar="S", help="seconds between moves (0.7)"
    )
    parser.add_argument("--step", action="store_true", help="wait for Enter before each move")
    parser.add_argument("--no-colour", action="store_true", help="plain characters only")


def build_daemon(game: str, options: dict, players: dict):
    from companion.core.config import Config
    from companion.games import get_spec
    from companion.hardware.boards import make_board
    from companion.journal.api import NullJournal
    from companion.service.daemon import Daemon

    spec = get_spec(game)
    layout = spec.layout(spec.resolve(options))
    size = layout.natural_board if layout else 8
    kind = spec.sensor_kinds[0] if spec.sensor_kinds else "switch"
    config = Config.default().with_overrides(
        game={"name": game, "players": players},
        board={"driver": "mock", "kind": kind, "size": size},
        rules={game: options},
    )
    return Daemon(config, board=make_board(config.board), journal=NullJournal())


def clock_times(rec: Record) -> list[dict[str, float]]:
    """Each player's time left after each move of a timed record (empty: no clock): the
    mover's from its ``[%clk]``, the others' as their last move left them."""
    if rec.time_control is None:
        return []
    left = dict.fromkeys(player_ids(rec.game, rec.options), rec.time_control.base)
    out = []
    for k, seconds in enumerate(rec.clocks):
        actor = rec.actors[k] if k < len(rec.actors) else None
        if seconds is not None and actor in left:
            left[actor] = seconds
        out.append(dict(left))
    return out


def clock_line(times: dict[str, float], spec) -> str:
    """'ON 4:40 · OFF 5:00': each player's time as the clock shows it."""
    return " · ".join(f"{spec.player_label(p)} {clock_text(t)}" for p, t in times.items())


def replay(path: str, delay: float, step: bool, out: TextIO, inp: TextIO, colour) -> int:
    from companion.service.simulator import Simulator

    try:
        rec, final = read_record(path)
    except RecordError as e:
        return fail(str(e))
    for warning in rec.warnings:
        print(f"warning: {for_terminal(warning)}", file=out)
    daemon = build_daemon(rec.game, rec.options, rec.players)
    view = Simulator(daemon, daemon.board, out=out, colour=colour)
    session = daemon.session
    session.replay_draws(rec.moves)  # the dice and cards as the record has them
    total = len(rec.moves)
    times = clock_times(rec)
    daemon.render()
    print(f"{'stdin' if path == '-' else path}: {rec.game}, {total} moves", file=out)
    view.draw()
    for k, name in enumerate(rec.moves):
        if len(session.moves) > k:  # a pass the referee played by itself
            if session.moves[k] != name:
                return fail(f"move {k + 1}: record has {name}, referee played {session.moves[k]}")
            continue
        if step:
            print("Enter: next move, q: stop> ", end="", file=out, flush=True)
            answer = inp.readline()
            if not answer or answer.strip().lower() == "q":
                return 0
        elif delay > 0:
            time.sleep(delay)
        if not daemon.referee.submit_name(name, None).accepted:
            return fail(f"move {k + 1} {name}: {daemon.message}")
        daemon.render()
        played = " ".join(session.moves[k:])
        print(f"\nmove {k + 1}/{total}: {for_terminal(played)}", file=out)
        view.draw()
        if times:
            print(f"clock: {clock_line(times[k], daemon.session.spec)}", file=out)
    state = session.state if session.state.is_over() else final  # a flag's end: the record's
    flagged = (on_time(state) or Outcome()).detail.get("on_time")
    if times and flagged in times[-1]:  # the time the flag fell on: gone
        print(f"clock: {clock_line({**times[-1], flagged: 0.0}, session.spec)}", file=out)
    end = state.outcome().summary if state.is_over() and state.outcome() else "not finished"
    print(f"end of record: {end}", file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.delay <= MAX_DELAY:  # also refuses inf and nan
        return fail(f"--delay {args.delay:g}: give seconds between 0 and {MAX_DELAY:g}")
    if args.step and args.file == "-":
        return fail("--step reads Enter from stdin: give the record as a FILE, not -")
    colour = False if args.no_colour else None
    return replay(args.file, args.delay, args.step, sys.stdout, sys.stdin, colour)
