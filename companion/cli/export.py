"""``binaryon export GAME_ID [-o FILE]``: a game from the journal as a text record."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from companion.cli.journal_args import add_journal_argument, fail, open_journal
from companion.journal.api import JournalError
from companion.journal.records import format_record, record_from_entry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="a game id (see history), or 'last'")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    add_journal_argument(parser)


def write_atomically(path: Path, text: str) -> None:
    """Never leaves a half-written record: write beside it, then rename over."""
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    try:
        with open_journal(args) as journal:
            if args.game_id == "last":
                games = journal.games()
                if not games:
                    return fail("no games in the journal")
                entry = games[-1]
            else:
                try:
                    game_id = int(args.game_id)
                except ValueError:
                    return fail(f"{args.game_id!r} is not a game id (a number, or 'last')")
                entry = journal.load(game_id)
                if entry is None:
                    return fail(f"no game {game_id} in the journal (see binaryon history)")
    except JournalError as e:
        return fail(str(e))
    text = format_record(record_from_entry(entry))
    if not args.output or args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        write_atomically(Path(args.output), text)
    except OSError as e:
        return fail(f"cannot write {args.output}: {e.strerror or e}")
    print(f"game {entry.id} written to {args.output}", file=sys.stderr)
    return 0
