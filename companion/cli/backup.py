"""``binaryon backup FILE``: a consistent copy of the journal, safe while the daemon runs
(SQLite's online backup: a plain copy of ``journal.sqlite`` alone misses what is still in its
``-wal`` file). Restore by stopping the daemon and copying the backup over the journal: the
copy is in rollback mode, so a ``-wal`` left beside the journal by a crash is seen not to
belong to it and is set aside (kept), never applied over it."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    journal_path,
    loss_status,
    open_journal,
    output_path,
)
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
        real = output_path(args, str(target))  # a regular file, not the journal's own
        with open_journal(args) as journal:
            journal.backup(real)
            count = journal.last_id() or 0
            status = loss_status(journal)
    except JournalError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {target}: {e.strerror or e}")
    print(f"journal {source} copied to {target} ({count} games)")
    print(
        f"to restore it: stop the companion, then copy it over the journal with binaryon "
        f"restore {target} (a WAL left beside the journal is set aside, never applied to it)"
    )
    return status
