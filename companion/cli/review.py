"""``binaryon review [ID] [--json]``: the engine goes through a finished game (the last one by
default) and labels each move best, good, inaccuracy, mistake or blunder, with the better move
and why for each inaccuracy or worse, and the turning points (docs/review.md); Binøme and
Latent Binaries by their own rules (each turn told, each claim or guess held to what the
player knew), Latent Binaries once it has revealed its secrets. Progress goes to stderr;
``--json`` prints the whole review for scripts."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    loss_status,
    open_journal,
    parse_game_id,
)
from companion.core.terminal_text import for_terminal
from companion.journal.api import JournalError

LOOK_BACK = 500  # games looked through for the last finished one
BARS = "▁▂▃▄▅▆▇█"
CURVE_WIDTH = 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game_id",
        metavar="ID",
        nargs="?",
        help="a game id (see history; default the last finished)",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--nodes", type=int, default=None, metavar="N", help="positions searched a move (6000)"
    )
    add_journal_argument(parser)


def find_game(journal: Any, text: str | None) -> Any:
    """The game to review: ``text``'s id, else the last finished game (JournalError with one
    line for an unknown id, a game not over, or none finished)."""
    from companion.journal.rows import FINISHED

    if text is None:
        for entry in journal.recent(LOOK_BACK):
            if entry.status == FINISHED:
                return journal.load(entry.id)
        raise JournalError("no finished game in the journal to review (see binaryon history)")
    game_id = parse_game_id(text)
    entry = journal.load(game_id)
    if entry is None:
        raise JournalError(f"no game {game_id} in the journal (see binaryon history)")
    return entry


def reviewable_names(entry: Any) -> list[str]:
    """The game's full move names (JournalError with one line for a game not finished, or
    one that has not revealed its secrets)."""
    from companion.views.reviewable import refusal

    why = refusal(entry)
    if why:
        raise JournalError(why)
    return entry.move_names


class Progress:
    """Moves done on stderr: one line rewritten on a terminal, else a line every tenth."""

    def __init__(self, game_id: int, out: TextIO):
        self.game_id, self.out = game_id, out
        self.tty = out.isatty()
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        text = f"reviewing game {self.game_id}: {done}/{total} moves"
        if self.tty:
            end = "\n" if done == total else ""
            print(f"\r{text}", end=end, file=self.out, flush=True)
            return
        tenth = done * 10 // max(total, 1)
        if tenth != self.shown:
            self.shown = tenth
            print(text, file=self.out, flush=True)


def curve_line(curve: list[float], width: int = CURVE_WIDTH) -> str:
    """The first seat's expected result over the game as one line of bars (high: ahead)."""
    if not curve:
        return ""
    step = max(1, -(-len(curve) // width))
    points = [curve[i] for i in range(0, len(curve), step)]
    if points[-1] is not curve[-1]:
        points.append(curve[-1])
    return "".join(BARS[min(len(BARS) - 1, int(e * len(BARS)))] for e in points)


def text_lines(entry: Any, review: Any) -> list[str]:
    """The review in words, one move a line."""
    from companion.engines.review import EXPLAINED
    from companion.games import get_spec

    spec = get_spec(entry.game)

    def who(seat: str) -> str:
        name = entry.players.get(seat)
        return spec.player_label(seat) + (f" ({name})" if name else "")

    out = [f"game {entry.id}, {entry.game}: {entry.summary or entry.result or 'finished'}"]
    out.extend(review.intro)
    width = max((len(m.move) for m in review.moves), default=4)
    for m in review.moves:
        if m.ply in review.headings:
            out.append(review.headings[m.ply])
        line = f"{m.ply:>3}. {spec.player_label(m.player):<6} {m.move:<{width}}  {m.label}"
        if m.label in EXPLAINED and m.reason:
            line += f"  ({m.reason})"
        out.append(line)
        if m.note:
            out.append(f"{'':>5}{m.note}")
    turns = [m for p in review.turning_points if (m := review.move_at(p)) is not None]
    if turns:
        said = ", ".join(f"{m.ply}. {spec.player_label(m.player)} {m.move}" for m in turns)
        out.append(f"turning points: {said}")
    else:
        out.append("turning points: none (nobody handed the lead over)")
    for seat, counts in review.counts().items():
        said = ", ".join(f"{n} {label}" for label, n in counts.items())
        out.append(f"{who(seat)}: {said}")
    out.append(f"{spec.player_label(review.first)}'s expected result: {curve_line(review.curve)}")
    return [for_terminal(line) for line in out]


def run(args: argparse.Namespace) -> int:
    from companion.engines.review import NODES, NotReviewable, review_game

    nodes = NODES if args.nodes is None else args.nodes
    if nodes < 1:
        return fail("--nodes must be at least 1")
    try:
        with open_journal(args) as journal:
            entry = find_game(journal, args.game_id)
            names = reviewable_names(entry)
            status = loss_status(journal)
    except JournalError as e:
        return fail(str(e))
    try:
        progress = Progress(entry.id, sys.stderr)
        review = review_game(entry.game, entry.options, names, progress, nodes)
    except NotReviewable as e:
        return fail(f"game {entry.id}: {e}")
    if args.json:
        out = {"id": entry.id, "players": entry.players, "result": entry.result}
        print(json.dumps({**out, **review.as_dict()}))
        return status
    print("\n".join(text_lines(entry, review)))
    return status
