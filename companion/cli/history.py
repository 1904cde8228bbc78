"""``binaryon history``: the games in the journal with their status and result, streamed
(memory does not grow with the journal), optionally only the last N, one kind of game, or
those started since a date. Moves that hold a secret are never listed here."""

from __future__ import annotations

import argparse
import json
import sys

from companion.cli.journal_args import (
    MAX_GAME_ID,
    _exists,
    add_journal_argument,
    fail,
    journal_path,
    loss_status,
    open_journal,
)
from companion.core.terminal_text import for_terminal
from companion.journal.api import JournalError
from companion.journal.store import GameEntry, from_iso, iso


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_journal_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the games as JSON")
    parser.add_argument("--limit", type=int, metavar="N", help="only the last N games")
    parser.add_argument("--game", metavar="NAME", help="only games of this kind (binaryon...)")
    parser.add_argument(
        "--since", metavar="DATE", help="only games started on or after DATE (2025-03-01)"
    )


HEADER = f"{'id':>4}  {'started (UTC)':<16}  {'game':<9} {'moves':>5}  {'status':<11}  result"


def as_dict(entry: GameEntry) -> dict:
    return {
        "id": entry.id,
        "game": entry.game,
        "options": entry.shown_options(),  # a secret option only once the game has ended
        "players": entry.players,
        "seated": entry.seated(),
        "winner_names": entry.winner_names(),
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


def line(entry: GameEntry) -> str:
    started = (iso(entry.started) or "?")[:16].replace("T", " ")
    status = entry.status.replace("_", " ")
    result = entry.summary or ("-" if entry.status != "finished" else entry.result or "")
    players = " ".join(f"{k}={_one_line(v)}" for k, v in entry.seated().items())
    return for_terminal(  # names, notes and results are user text: no terminal escapes
        f"{entry.id:>4}  {started:<16}  {_one_line(entry.game):<9} {entry.move_count:>5}  "
        f"{status:<11}  {_one_line(result):<14} {players}"
    ).rstrip()


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
            games = journal.iter_games(limit=args.limit, game=args.game, since=since)
            return _print(args, games) or loss_status(journal)
    except JournalError as e:
        return fail(str(e))


def _empty(args: argparse.Namespace) -> int:
    print("[]" if args.json else "no games yet")
    return 0


def _print(args: argparse.Namespace, games) -> int:
    out = sys.stdout
    first = next(games, None)
    if first is None:
        return _empty(args)
    if args.json:
        out.write("[\n")
        out.write(json.dumps(as_dict(first)))
        for entry in games:
            out.write(",\n" + json.dumps(as_dict(entry)))
        out.write("\n]\n")
        return 0
    out.write(
        f"{'id':>4}  {'started (UTC)':<16}  {'game':<9} {'moves':>5}  {'status':<11}  result\n"
    )
    out.write(line(first) + "\n")
    for entry in games:
        out.write(line(entry) + "\n")
    return 0
