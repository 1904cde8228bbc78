"""``binaryon restore FILE``: put a copy made by ``binaryon backup`` back as the journal, with
the daemon stopped. The copy carries its backup mark, so the companion that starts on it
knows the journal went back in time: a game that was in play when the copy was made may have
ended otherwise since, so its club uid is made anew (docs/club.md, "Game uids")."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    journal_path,
    log_to_stderr,
    refuse_while_daemon_runs,
)
from companion.journal.api import JournalError
from companion.journal.store import SqliteJournal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a copy made by binaryon backup")
    add_journal_argument(parser)


def run(args: argparse.Namespace) -> int:
    log_to_stderr()
    source = Path(args.file)
    try:
        target = journal_path(args)
        if not source.is_file():
            return fail(f"no backup at {source}")
        if source.resolve() == target.resolve():
            return fail(f"{source} is the journal itself")
        refuse_while_daemon_runs(target, "restore the journal")
        copy = SqliteJournal.open(source, read_only=True)
        try:
            copy.backup(target)  # a consistent copy, marked as a backup, renamed over it
            count = copy.last_id() or 0
        finally:
            copy.close()
    except JournalError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {target}: {e.strerror or e}")
    print(f"journal {target} restored from {source} ({count} games)")
    return 0
