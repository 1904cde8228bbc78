"""``binaryon history``: every game in the journal with its status and result."""

from __future__ import annotations

import argparse
import json

from companion.cli.journal_args import add_journal_argument, fail, open_journal
from companion.journal.api import JournalError
from companion.journal.store import GameEntry, iso


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_journal_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the games as JSON")


def as_dict(entry: GameEntry) -> dict:
    return {
        "id": entry.id,
        "game": entry.game,
        "options": entry.options,
        "players": entry.players,
        "started": iso(entry.started),
        "ended": iso(entry.ended),
        "status": entry.status,
        "result": entry.result,
        "summary": entry.summary,
        "moves": len(entry.moves),
        "takebacks": entry.takebacks,
        "note": entry.note,
        "tags": entry.tags,
    }


def line(entry: GameEntry) -> str:
    started = (iso(entry.started) or "?")[:16].replace("T", " ")
    status = entry.status.replace("_", " ")
    result = entry.summary or ("-" if entry.status != "finished" else entry.result or "")
    players = " ".join(f"{k}={v}" for k, v in entry.players.items())
    return (
        f"{entry.id:>4}  {started:<16}  {entry.game:<9} {len(entry.moves):>5}  "
        f"{status:<11}  {result:<14} {players}"
    ).rstrip()


def run(args: argparse.Namespace) -> int:
    try:
        with open_journal(args) as journal:
            games = journal.games()
    except JournalError as e:
        return fail(str(e))
    if args.json:
        print(json.dumps([as_dict(g) for g in games], indent=1))
        return 0
    if not games:
        print("no games yet")
        return 0
    print(f"{'id':>4}  {'started (UTC)':<16}  {'game':<9} {'moves':>5}  {'status':<11}  result")
    for entry in games:
        print(line(entry))
    return 0
