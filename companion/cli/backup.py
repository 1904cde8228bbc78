"""``binaryon backup FILE``: a consistent copy of the journal, safe while the daemon runs
(SQLite's online backup: a plain copy of ``journal.sqlite`` alone misses what is still in its
``-wal`` file). Restore by stopping the daemon and putting the copy in the journal's place."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.journal_args import add_journal_argument, fail, journal_path, open_journal
from companion.journal.api import JournalError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="where to write the copy (replaced)")
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    target = Path(args.file)
    try:
        source = journal_path(args)
        if target.is_dir():
            target = target / source.name
        if target.exists() and target.resolve() == source.resolve():
            return fail(f"{args.file} is the journal itself: give another file")
        with open_journal(args) as journal:
            journal.backup(target)
            count = journal.last_id() or 0
    except JournalError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {target}: {e.strerror or e}")
    print(f"journal {source} copied to {target} ({count} games)")
    return 0
