"""The ``--journal PATH`` option shared by the record and history commands.

Without it the commands use the daemon's journal: the one the config file names
($BINARYON_CONFIG, ~/.config/binaryon/config.toml, /etc/binaryon/config.toml, as ``binaryon
run`` finds it), or, when that file does not exist, the installed service's journal in
/var/lib/binaryon (the service runs with XDG_STATE_HOME=/var/lib).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from companion import PROGRAM
from companion.core.terminal_text import for_terminal
from companion.journal.api import JournalError
from companion.journal.db import before_warning
from companion.journal.files import JournalIdentity, check_journal_path, holder, real_path
from companion.journal.store import SqliteJournal

MAX_GAME_ID = 2**63 - 1

SERVICE_JOURNAL = Path("/var/lib/binaryon/journal.sqlite")
ACCESS_FIX = (
    "run it with sudo, or add yourself to the binaryon group "
    "(sudo usermod -aG binaryon $USER, then log in again)"
)


def path_exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a directory that may not be searched
        return True


def default_journal_path(service_journal: Path = SERVICE_JOURNAL) -> Path:
    """The daemon's journal (see the module docstring). JournalError for a config file that
    cannot be read or that turns the journal off."""
    from companion.core.config import ConfigError
    from companion.service.app import load_config

    try:
        path = load_config(None).journal_path()
    except ConfigError as e:
        raise JournalError(f"{e} (or give --journal PATH)") from None
    if path is None:
        raise JournalError("the config file turns the journal off ([journal] path = none)")
    if not path_exists(path) and path_exists(service_journal):
        return service_journal
    return path


def add_journal_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        default=None,
        help="journal file (default: the daemon's, from its config file, else "
        f"{SERVICE_JOURNAL} when that exists)",
    )


def check_readable(path: Path) -> None:
    """One line with the fix when the journal, its WAL or its folder may not be read."""
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            p.stat()
            readable = os.access(p, os.R_OK)
        except PermissionError:
            readable = False
        except OSError:
            continue  # missing: the caller says so (or there is no WAL)
        if not readable:
            raise JournalError(f"no permission to read the journal {p}: {ACCESS_FIX}")


def journal_path(args: argparse.Namespace) -> Path:
    """--journal checked (not empty, '.', '/' or a folder), else the daemon's journal."""
    if args.journal is None:
        return default_journal_path()
    return check_journal_path(args.journal)


def log_to_stderr() -> None:
    """Journal log lines (a read-only journal, a salvage) as ``binaryon: ...`` on stderr,
    like every other message of the command line tools."""
    import logging

    log = logging.getLogger(PROGRAM)
    if not log.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("binaryon: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.WARNING)
        log.propagate = False


def refuse_while_daemon_runs(path: Path, what: str) -> None:
    """One line when the daemon holds the journal: the game in progress is its own."""
    who = holder(path)
    if who is not None:
        raise JournalError(
            f"cannot {what} while the journal {path} is in use by {who}: stop the daemon first"
        )


def parse_game_id(text: str) -> int:
    """A game id from the command line: a positive whole number (JournalError otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise JournalError(f"{text!r} is not a game id (see binaryon history)") from None
    if not 1 <= value <= MAX_GAME_ID:
        raise JournalError(f"no game {text} in the journal (see binaryon history)")
    return value


def open_journal(
    args: argparse.Namespace, create: bool = False, write: bool = False
) -> SqliteJournal:
    """The journal named by --journal (``create``: may be new; ``write``: must take writes;
    neither: read-only, the file is never written). Never repairs a damaged file (a running
    daemon may hold it): that is left to the daemon. Raises JournalError with one line."""
    before_warning(log_to_stderr)
    path = journal_path(args)
    check_readable(path)
    if not create and not path_exists(path):
        raise JournalError(f"no journal at {path} (no games played yet?)")
    if not (create or write):
        journal = SqliteJournal.open(path, read_only=True)
    else:
        journal = SqliteJournal.open(path, recover=False)
    if journal.loss:  # said by every command, every time, until accepted
        print(f"binaryon: {journal.loss}", file=sys.stderr)
    if not (create or write):
        return journal
    why = journal.read_only
    if why and (create or write):
        journal.close()
        fix = f": {ACCESS_FIX}" if why.startswith("no write permission") else ""
        raise JournalError(f"the journal {path} is read-only ({why}){fix}")
    return journal


def loss_status(journal: SqliteJournal) -> int:
    """A command's exit status: 1 when the journal lost moves (what it shows is incomplete)."""
    return 1 if journal.loss else 0


def output_path(args: argparse.Namespace, target: str, streams: bool = False) -> Path:
    """Where to write an output file (``-o``, ``backup``): links resolved, never one of the
    journal's own files, never replacing what is not a regular file (JournalError)."""
    from companion.journal.files import journal_identity

    return check_output(target, journal_identity(journal_path(args)), streams=streams)


def fail(reason: str) -> int:
    print(f"binaryon: {for_terminal(reason)}", file=sys.stderr)
    return 2


def check_output(
    target: str | os.PathLike[str], journal: JournalIdentity, *, streams: bool = False
) -> Path:
    """Where to write an output file named ``target`` (``-o``, ``backup``): its real path
    (a symlink is followed, never replaced). JournalError (one line) when it is one of the
    journal's own files by any name, or an existing file that is not a regular file (a
    device, a FIFO, a socket; with ``streams`` a character device or FIFO is allowed: the
    caller writes into it, never replaces it)."""
    given = os.fspath(target)
    own = journal.own_file(target)
    if own == journal.path:
        return _refuse(f"{given} is the journal itself: give another file")
    if own is not None:
        what = _OWN[own.name[len(journal.path.name) :]]
        return _refuse(f"{given} is the journal's {what}: give another file")
    real = real_path(target)
    try:
        info = os.stat(target)  # follows every link, /proc's too
    except FileNotFoundError:
        return real
    except OSError as e:
        return _refuse(f"cannot write {given}: {e.strerror or e}")
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return real
    if streams and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return real
    kind = "a folder" if stat.S_ISDIR(mode) else _kind(mode)
    return _refuse(f"{given} is {kind}, not a regular file: not replaced")


_OWN = {
    "-wal": "WAL (-wal)",
    "-shm": "index (-shm)",
    "-journal": "rollback journal",
    ".lock": "lock file",
}


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _refuse(line: str) -> Path:
    raise JournalError(line)
