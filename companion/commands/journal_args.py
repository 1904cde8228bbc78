"""The ``--journal PATH`` option shared by the record and history commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..journal import SqliteJournal
from ..journal_api import JournalError


def default_journal_path() -> Path:
    from ..config import Config

    path = Config.default().journal_path()
    assert path is not None  # the default config always has a journal
    return path


def add_journal_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        type=Path,
        default=None,
        help=f"journal file (default {default_journal_path()})",
    )


def open_journal(args: argparse.Namespace, create: bool = False) -> SqliteJournal:
    """The journal named by --journal. Never repairs a damaged file (a running daemon may hold
    it): that is left to the daemon. Raises JournalError with one line."""
    path = args.journal or default_journal_path()
    if not create and not path.exists():
        raise JournalError(f"no journal at {path} (no games played yet?)")
    return SqliteJournal.open(path, recover=False)


def fail(reason: str) -> int:
    print(f"binaryon: {reason}", file=sys.stderr)
    return 2
