"""``binaryon import FILE [FILE ...]``: check text records move by move and add them to the
journal. A FILE may be a folder (every record in it) or ``-`` (standard input), and may hold
many records one after the other (an event's games). Each record is all or nothing: one
with any problem is refused with its first one (and which game of its file it is), the
others go on.
A record already imported is refused unless ``--allow-duplicate``. On a terminal a progress
bar runs; the last line sums up (``2000 imported, 3 refused: see above``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.cli.journal_args import (
    add_journal_argument,
    fail,
    journal_path,
    open_journal,
    refuse_while_daemon_runs,
)
from companion.core.terminal_text import for_terminal
from companion.journal.api import JournalError
from companion.journal.records import (
    MAX_FILE_BYTES,
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    digest,
    format_record,
    import_record,
    parse_record,
    read_text,
    record_from_entry,
    split_records,
    validate,
)

BATCH = 200  # records per transaction


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        metavar="FILE",
        nargs="+",
        help="game records (see docs/records.md), folders of them, or - for stdin",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="an unfinished game becomes the game in progress (else it is filed as abandoned);"
        " one record only, and not while the daemon runs",
    )
    parser.add_argument(
        "--allow-duplicate",
        action="store_true",
        help="import a record even when the same game is in the journal already",
    )
    add_journal_argument(parser)


def record_files(names: list[str]) -> Iterator[str]:
    """The records named: files as given, folders' files (sorted, hidden ones skipped),
    ``-`` once."""
    for name in names:
        path = Path(name)
        if name != "-" and path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and not any(p.startswith(".") for p in child.parts[-1:]):
                    yield str(child)
        else:
            yield name


class Progress:
    """A tqdm bar on a terminal (stdout a TTY), nothing otherwise; messages go above it."""

    def __init__(self, total: int):
        self.bar = None
        if sys.stdout.isatty() and total > 1:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="record", leave=False)

    def say(self, text: str) -> None:
        text = for_terminal(text)  # a record's own text may be in the reason
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)

    def step(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(args: argparse.Namespace) -> int:
    files = list(record_files(args.files))
    if args.resume and len(files) != 1:
        return fail("--resume takes exactly one record")
    if files.count("-") > 1:
        return fail("- (standard input) may be given once")
    if not files:
        return fail("no records found in " + ", ".join(args.files))
    try:
        journal_path(args)  # a bad --journal is said before any record is read
    except JournalError as e:
        return fail(f"not imported: {e}")
    if len(files) == 1:  # a bad record is refused before the journal is opened (or made)
        try:
            items = _read_one(files[0])
        except RecordError as e:
            return fail(str(e))
        if all(error is not None for _, _, _, error in items):
            for _, _, _, error in items[:-1]:
                print(f"binaryon: {for_terminal(error)}", file=sys.stderr)
            return fail(str(items[-1][3]))
        if args.resume and len(items) > 1:
            return fail(f"{files[0]} holds {len(items)} games: --resume takes one")
    try:
        if args.resume:
            refuse_while_daemon_runs(journal_path(args), "import with --resume")
        journal = open_journal(args, create=True)
    except JournalError as e:
        return fail(f"not imported: {e}")
    imported = refused = games = 0
    last = ""
    progress = Progress(len(files))
    try:
        for start in range(0, len(files), BATCH):
            chunk = files[start : start + BATCH]
            done = 0
            try:
                with journal.batch():  # one sync per batch; each record all or nothing
                    for name in chunk:
                        try:
                            items = _READ.pop(name, None) or _read_one(name)
                        except RecordError as e:
                            refused += 1
                            games += 1
                            progress.say(f"binaryon: {e}")
                            progress.step()
                            continue
                        for item in items:
                            games += 1
                            try:
                                last = _import_one(journal, item, args)
                                done += 1
                            except RecordError as e:
                                refused += 1
                                progress.say(f"binaryon: {e}")
                            except JournalError as e:
                                refused += 1
                                progress.say(f"binaryon: {item[0]}: not imported: {e}")
                        progress.step()
            except JournalError as e:  # the batch could not be committed
                refused += done
                done = 0
                progress.say(f"binaryon: {chunk[0]} to {chunk[-1]}: not imported: {e}")
            imported += done
    finally:
        progress.close()
        journal.close()
    if games == 1:
        if imported:
            print(for_terminal(last))
        return 0 if imported else 2
    see = ": see above" if refused else ""
    print(f"{imported} imported, {refused} refused{see}" if refused else f"{imported} imported")
    return 0 if not refused else 2 if not imported else 1


Item = tuple[str, Any, Any, "str | None"]  # (source, record, final state, or why it is refused)
_READ: dict[str, list[Item]] = {}  # a file read ahead (standard input can be read only once)


def _read_one(name: str) -> list[Item]:
    """The records of one file, each checked: one record as ever (its problem raised as
    RecordError), or each game of a file of many with its own verdict."""
    if name in _READ:
        return _READ[name]
    source = "stdin" if name == "-" else name
    text = read_text(name, MAX_FILE_BYTES)
    parts = split_records(text)
    items: list[Item] = []
    if len(parts) <= 1:
        if len(text.encode()) > MAX_RECORD_BYTES:
            raise RecordError(
                f"{source}: larger than {MAX_RECORD_BYTES >> 20} MiB: not a game record"
            )
        rec = parse_record(text, source)
        items.append((source, rec, validate(rec, source), None))
    else:
        for k, (line, part) in enumerate(parts, 1):
            where = f"game {k} of {len(parts)}"
            try:
                if len(part.encode()) > MAX_RECORD_BYTES:
                    raise RecordError(f"{source}:{line}: larger than {MAX_RECORD_BYTES >> 20} MiB")
                rec = parse_record(part, source, line)
                items.append((f"{source} ({where})", rec, validate(rec, source), None))
            except RecordError as e:
                items.append((f"{source} ({where})", None, None, f"{e} ({where})"))
    _READ[name] = items
    return items


def _played_here(journal, rec: Record, key: str) -> int | None:
    """The game of this journal that ``rec`` was exported from (the same game, tags, moves and
    times: the same fingerprint as its own record), if any. Only games that started at the
    record's start are looked at."""
    if rec.started is None:
        return None
    for game_id in journal.started_at(rec.game, rec.started):
        entry = journal.load(game_id)
        if entry is None:
            continue
        try:  # its record read back as the file was: the same fingerprint if it is the same
            text = format_record(record_from_entry(entry, journal.clock_events(game_id)))
            ours = parse_record(text, f"game {game_id}")
            validate(ours, f"game {game_id}")
            same = digest(ours) == key
        except (ValueError, RecordError):  # a damaged game: not the record's
            continue
        if same:
            return game_id
    return None


def _import_one(journal, item: Item, args: argparse.Namespace) -> str:
    source, rec, state, error = item
    if error is not None:
        raise RecordError(error)
    key = digest(rec)
    if not args.allow_duplicate and (same := journal.find_digest(key)) is not None:
        raise RecordError(f"{source}: already imported as game {same} (--allow-duplicate)")
    if not args.allow_duplicate and (same := _played_here(journal, rec, key)) is not None:
        raise RecordError(f"{source}: already in the journal as game {same} (--allow-duplicate)")
    game_id = import_record(journal, rec, state, resume=args.resume, key=key)
    for warning in rec.warnings:  # read all the same (a bad clock comment): said, not fatal
        print(for_terminal(f"binaryon: warning: {warning}"), file=sys.stderr)
    result = rec.summary or ("in progress" if args.resume else "unfinished, filed as abandoned")
    moves = f"{len(rec.moves)} move" + ("" if len(rec.moves) == 1 else "s")
    return f"imported game {game_id}: {rec.game}, {moves}, {result}"
