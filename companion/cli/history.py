"""``binaryon history``: the games in the journal with their status and result, streamed
(memory does not grow with the journal), optionally only the last N, one kind of game, or
those started since a date. Moves that hold a secret are never listed here."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator

from companion.cli.journal_args import (
    MAX_GAME_ID,
    add_journal_argument,
    fail,
    journal_path,
    loss_status,
    open_journal,
    path_exists,
)
from companion.core.terminal_text import display_width, for_terminal, pad
from companion.games import game_names
from companion.journal.api import JournalError
from companion.journal.rows import GameEntry, from_iso, iso
from companion.records.said import result_said, result_words, seated, winner_names
from companion.records.shown import shown_options


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
# The table's rows are kept in memory up to this many bytes, then in a temporary file.
SPOOL = 1 << 20
CHUNK = 256  # lines written at once


def as_dict(entry: GameEntry, disputes: dict[int, str] | None = None) -> dict:
    return {
        "id": entry.id,
        "game": entry.game,
        "options": shown_options(entry),  # a secret option only once the game has ended
        "players": entry.players,
        "seated": seated(entry),  # in seat order, the first player first
        "winner_names": winner_names(entry),
        "said": (said := result_said(entry)) and said[0],  # "Ann beat Bob" (None: not finished)
        "score_line": said and said[1],  # "Ann v Bob 1-0" (two players only)
        "started": iso(entry.started),
        "ended": iso(entry.ended),
        "status": entry.status,
        # a remote game whose result is the arbiter's: "disputed" or "unverified" (else None)
        "dispute": (disputes or {}).get(entry.id),
        "result": entry.result,
        "summary": entry.summary,
        "moves": entry.move_count,
        "takebacks": entry.takebacks,
        "note": entry.note,
        "tags": entry.tags,
    }


def cells(entry: GameEntry, disputes: dict[int, str] | None = None) -> tuple[str, ...]:
    """One game's row, each cell one line of terminal-safe text (names, notes and results are
    user text: no terminal escapes). A remote game whose result is the arbiter's says so in
    its status: ``disputed`` or ``unverified``."""
    started = (iso(entry.started) or "?")[:16].replace("T", " ")
    status = (disputes or {}).get(entry.id) or entry.status.replace("_", " ")
    result = result_words(entry) or ("-" if entry.status != "finished" else entry.result or "")
    players = " ".join(f"{k}={_one_line(v)}" for k, v in seated(entry).items())
    said = (entry.game, status, result, players)  # from the file: made one safe line each
    game, status, result, players = (for_terminal(_one_line(c)) for c in said)
    return (str(entry.id), started, game, str(entry.move_count), status, result, players)


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
        if not path_exists(path):
            return _empty(args)
        with open_journal(args) as journal:

            def games(extra: int = 0) -> Iterator[GameEntry]:
                limit = None if args.limit is None else min(args.limit + extra, MAX_GAME_ID)
                return journal.iter_games(limit=limit, game=args.game, since=since)

            return _print(args, games, journal.disputes()) or loss_status(journal)
    except JournalError as e:
        return fail(str(e))


def _empty(args: argparse.Namespace) -> int:
    print("[]" if args.json else "no games yet")
    return 0


def _print(
    args: argparse.Namespace,
    games: Callable[[int], Iterator[GameEntry]],
    disputes: dict[int, str] | None = None,
) -> int:
    """The games in one pass, memory flat in their number: JSON as they come; the table's rows
    kept aside (in a temporary file past SPOOL bytes) while the columns' widths are found,
    then printed. Output goes out in chunks of CHUNK lines (stdout may be unbuffered)."""
    listed = games(0)
    first = next(listed, None)
    if first is None:
        return _empty(args)
    if args.json:
        lines = itertools.chain(
            ("[\n" + json.dumps(as_dict(first, disputes)),),
            (",\n" + json.dumps(as_dict(entry, disputes)) for entry in listed),
            ("\n]\n",),
        )
        _write(lines)
        return 0
    widths = [display_width(name) for name in COLUMNS]
    kept: list[str] = []  # the rows, in memory up to SPOOL characters, then in a file
    size, spill = 0, None
    with contextlib.ExitStack() as files:
        for entry in itertools.chain((first,), listed):
            row = cells(entry, disputes)
            widths = [max(w, display_width(c)) for w, c in zip(widths, row, strict=True)]
            text = "\t".join(row) + "\n"  # a cell is one line with no tab (cells)
            if spill is not None:
                spill.write(text)
                continue
            kept.append(text)
            size += len(text)
            if size > SPOOL:  # many games: kept aside in a temporary file
                import tempfile

                spill = files.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
                spill.writelines(kept)
                kept = []
        if spill is not None:
            spill.seek(0)
        header = (line(COLUMNS, widths) + "\n",)
        rows = (line(tuple(t.rstrip("\n").split("\t")), widths) + "\n" for t in spill or kept)
        _write(itertools.chain(header, rows))
    return 0


def _write(lines: Iterable[str]) -> None:
    out = sys.stdout
    while chunk := "".join(itertools.islice(lines, CHUNK)):
        out.write(chunk)
