"""``binaryon history``: the games in the journal with their status and result, streamed
(memory does not grow with the journal), optionally only the last N, one kind of game, or
those started since a date. Moves that hold a secret are never listed here."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Iterator

from companion.cli.journal_args import (
    MAX_GAME_ID,
    _exists,
    add_journal_argument,
    fail,
    journal_path,
    loss_status,
    open_journal,
)
from companion.core.terminal_text import display_width, for_terminal, pad
from companion.games import game_names
from companion.journal.api import JournalError
from companion.journal.store import GameEntry, from_iso, iso


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_journal_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the games as JSON")
    parser.add_argument("--limit", type=int, metavar="N", help="only the last N games")
    parser.add_argument(
        "--game", metavar="NAME", help=f"only games of this kind ({', '.join(game_names())})"
    )
    parser.add_argument(
        "--since", metavar="DATE", help="only games started on or after DATE (2025-03-01)"
    )


COLUMNS = ("id", "started (UTC)", "game", "moves", "status", "result", "players")
RIGHT = frozenset(("id", "moves"))  # numbers are aligned on the right
GAP = "  "
# A listing this long is read twice (widths, then rows) rather than kept in memory (~1 MB).
HELD_ROWS = 5000
# Games added while the table is printed come after its last row; a --limit window read again
# must still reach its first row (SLACK more rows, far more than start in a few seconds).
SLACK = 1000


def as_dict(entry: GameEntry) -> dict:
    return {
        "id": entry.id,
        "game": entry.game,
        "options": entry.shown_options(),  # a secret option only once the game has ended
        "players": entry.players,
        "seated": entry.seated(),  # in seat order, the first player first
        "winner_names": entry.winner_names(),
        "said": (said := entry.said()) and said[0],  # "Ann beat Bob" (None: not finished)
        "score_line": said and said[1],  # "Ann v Bob 1-0" (two players only)
        "started": iso(entry.started),
        "ended": iso(entry.ended),
        "status": entry.status,
        "result": entry.result,
        "summary": entry.summary,
        "moves": entry.move_count,
        "takebacks": entry.takebacks,
        "note": entry.note,
        "tags": entry.tags,
    }


def cells(entry: GameEntry) -> tuple[str, ...]:
    """One game's row, each cell one line of terminal-safe text (names, notes and results are
    user text: no terminal escapes)."""
    started = (iso(entry.started) or "?")[:16].replace("T", " ")
    status = entry.status.replace("_", " ")
    result = entry.result_words() or ("-" if entry.status != "finished" else entry.result or "")
    players = " ".join(f"{k}={_one_line(v)}" for k, v in entry.seated().items())
    row = (str(entry.id), started, entry.game, str(entry.move_count), status, result, players)
    return tuple(for_terminal(_one_line(c)) for c in row)


def line(row: tuple[str, ...], widths: list[int]) -> str:
    """A row with every column starting at the same display column as in the others (wide
    characters count two, accents none)."""
    parts = [
        pad(cell, width, right=name in RIGHT)
        for name, cell, width in zip(COLUMNS, row, widths, strict=True)
    ]
    return GAP.join(parts).rstrip()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _since(text: str | None) -> int | None:
    if text is None:
        return None
    value = text.strip()
    if len(value) == 10:
        value += "T00:00:00Z"
    try:
        return from_iso(value)
    except (ValueError, OverflowError):
        raise JournalError(f"--since {text!r}: expected a date like 2025-03-01") from None


def run(args: argparse.Namespace) -> int:
    try:
        if args.limit is not None and args.limit < 0:
            raise JournalError("--limit must be 0 or more")
        if args.limit is not None:
            args.limit = min(args.limit, MAX_GAME_ID)  # more than any journal holds
        since = _since(args.since)
        path = journal_path(args)
        if not _exists(path):
            return _empty(args)
        with open_journal(args) as journal:

            def games(extra: int = 0) -> Iterator[GameEntry]:
                limit = None if args.limit is None else min(args.limit + extra, MAX_GAME_ID)
                return journal.iter_games(limit=limit, game=args.game, since=since)

            return _print(args, games) or loss_status(journal)
    except JournalError as e:
        return fail(str(e))


def _empty(args: argparse.Namespace) -> int:
    print("[]" if args.json else "no games yet")
    return 0


def _print(args: argparse.Namespace, games: Callable[[int], Iterator[GameEntry]]) -> int:
    """JSON in one pass; the table in one pass too when it is short, else in two, both
    streamed: the columns' widths, then the rows (the same games: those added meanwhile are
    left out)."""
    out = sys.stdout
    listed = games(0)
    first = next(listed, None)
    if first is None:
        return _empty(args)
    if args.json:
        out.write("[\n")
        out.write(json.dumps(as_dict(first)))
        for entry in listed:
            out.write(",\n" + json.dumps(as_dict(entry)))
        out.write("\n]\n")
        return 0
    widths = [display_width(name) for name in COLUMNS]
    held: list[tuple[str, ...]] | None = []  # the rows, while there are few enough to keep
    low = high = first.id
    for entry in itertools.chain((first,), listed):
        high = entry.id
        row = cells(entry)
        widths = [max(w, display_width(c)) for w, c in zip(widths, row, strict=True)]
        if held is not None:
            held.append(row)
            if len(held) > HELD_ROWS:
                held = None
    out.write(line(COLUMNS, widths) + "\n")
    for row in _read_again(games, low, high) if held is None else held:
        out.write(line(row, widths) + "\n")
    return 0


def _read_again(
    games: Callable[[int], Iterator[GameEntry]], low: int, high: int
) -> Iterator[tuple[str, ...]]:
    """The rows of the games from ``low`` to ``high`` read again (games started meanwhile are
    left out)."""
    for entry in games(SLACK):
        if entry.id > high:
            return
        if entry.id >= low:
            yield cells(entry)
