"""``binaryon export GAME_ID [-o FILE]``: a game from the journal as a text record (only that
game is read). While a game goes on, a move holding a secret shows its public name only."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    loss_status,
    open_journal,
    output_path,
    parse_game_id,
)
from companion.journal.api import JournalError
from companion.records.format import format_record, record_from_entry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="a game id (see history), or 'last'")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    add_journal_argument(parser)


def write_atomically(path: Path, text: str, mode: int | None = None) -> None:
    """Never leaves a half-written record: write beside it, then rename over. The file keeps
    ``mode`` (a new one gets the usual 666 less the umask, not mkstemp's 600)."""
    import tempfile  # only with -o

    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_output(target: str, text: str) -> None:
    """Write the record to ``target``: a device or FIFO is written directly (never replaced
    by a file); a symlink is followed and its target written; a regular file is replaced
    atomically and keeps its permissions."""
    path = Path(target)
    try:
        info = os.stat(path)  # follows symlinks
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    real = Path(os.path.realpath(path))
    write_atomically(real, text, stat.S_IMODE(info.st_mode) if info else None)


def run(args: argparse.Namespace) -> int:
    to_file = bool(args.output) and args.output != "-"
    try:
        if to_file:  # never the journal's own files, by any name
            output_path(args, args.output, streams=True)
        with open_journal(args) as journal:
            if args.game_id == "last":
                game_id = journal.last_id()
                if game_id is None:
                    return fail("no games in the journal")
            else:
                game_id = parse_game_id(args.game_id)
            entry = journal.load(game_id)
            if entry is None:
                return fail(f"no game {game_id} in the journal (see binaryon history)")
            status = loss_status(journal)
            clock_events = journal.clock_events(game_id) if entry.time_control else []
    except JournalError as e:
        return fail(str(e))
    try:
        text = format_record(record_from_entry(entry, clock_events))
    except ValueError as e:  # a damaged row (an unknown game): said, never a traceback
        return fail(f"game {entry.id} cannot be written as a record: {e}")
    if not to_file:
        sys.stdout.write(text)
        return status
    try:
        write_output(args.output, text)
    except OSError as e:
        return fail(f"cannot write {args.output}: {e.strerror or e}")
    print(f"game {entry.id} written to {args.output}", file=sys.stderr)
    return status
