"""``binaryon import FILE``: check a text record move by move and add it to the journal.
A record with any problem is refused with its first one; nothing is half-imported."""

from __future__ import annotations

import argparse

from companion.cli.journal_args import add_journal_argument, fail, open_journal
from companion.journal.api import JournalError
from companion.journal.records import RecordError, import_record, read_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game record (see docs/records.md)")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="an unfinished game becomes the game in progress (else it is filed as abandoned)",
    )
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        rec, state = read_record(args.file)
    except RecordError as e:
        return fail(str(e))
    try:
        with open_journal(args, create=True) as journal:
            game_id = import_record(journal, rec, state, resume=args.resume)
    except JournalError as e:
        return fail(f"not imported: {e}")
    result = rec.summary or ("in progress" if args.resume else "unfinished, filed as abandoned")
    print(f"imported game {game_id}: {rec.game}, {len(rec.moves)} moves, {result}")
    return 0
