"""``binaryon accept-loss``: stop saying that the journal lost moves. A lost WAL (deleted,
zeroed or cut short after a crash) is said by every command, every time, until the user has
dealt with it (put the WAL back from wherever it went, or accepted that those moves are gone)
and runs this. Copies of the WAL and its index as found are kept beside the journal."""

from __future__ import annotations

import argparse

from companion.cli.journal_args import add_journal_argument, fail, open_journal
from companion.journal.api import JournalError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        with open_journal(args, write=True) as journal:
            was = journal.accept_loss()
    except JournalError as e:
        return fail(str(e))
    if was is None:
        print(f"journal {journal.path}: no loss to accept")
    else:
        print(f"journal {journal.path}: the loss is accepted and no longer said")
    return 0
