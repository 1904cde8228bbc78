"""``binaryon import FILE [FILE ...]``: check text records move by move and add them to the
journal. A FILE may be a folder (every record in it) or ``-`` (standard input), and may hold
many records one after the other (an event's games). Each record is all or nothing: one
with any problem is refused with its first one (and which game of its file it is), the
others go on.
A record already imported is refused unless ``--allow-duplicate``. On a terminal a progress
bar runs; the last line sums up (``2000 imported, 3 refused: see above``)."""

from __future__ import annotations

import argparse
import itertools
import os
import stat
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
from companion.journal.rows import iso
from companion.records.check import digest, import_record, validate
from companion.records.format import (
    MAX_FILE_BYTES,
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    format_record,
    record_from_entry,
)
from companion.records.read import (
    cut_records,
    file_lines,
    lines_of,
    parse_record,
    read_text,
    surely_one_record,
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
    first: list[Iterator[Item]] = []
    if len(files) == 1:  # a bad record is refused before the journal is opened (or made)
        try:
            count, items = read_records(files[0])
            if args.resume and count > 1:
                return fail(f"{files[0]} holds {count} games: --resume takes one")
            ahead = _up_to_a_good_one(items)
        except RecordError as e:
            return fail(str(e))
        if all(error is not None for _, _, _, error in ahead):
            for _, _, _, error in ahead[:-1]:
                print(f"binaryon: {for_terminal(error or '')}", file=sys.stderr)
            return fail(str(ahead[-1][3]))
        first.append(itertools.chain(ahead, items))
    try:
        if args.resume:
            refuse_while_daemon_runs(journal_path(args), "import with --resume")
        journal = open_journal(args, create=True)
    except JournalError as e:
        return fail(f"not imported: {e}")
    progress = Progress(len(files))
    tally = _Tally()
    stream = first[0] if first else _files_items(files, progress)
    try:
        while _import_batch(journal, itertools.islice(stream, BATCH), args, progress, tally):
            pass
        if first:
            progress.step()
    finally:
        progress.close()
        journal.close()
    if tally.games == 1:
        if tally.imported:
            print(for_terminal(tally.last))
        return 0 if tally.imported else 2
    imported, refused = tally.imported, tally.refused
    see = ": see above" if refused else ""
    print(f"{imported} imported, {refused} refused{see}" if refused else f"{imported} imported")
    return 0 if not refused else 2 if not imported else 1


# (source, record, final state, or why it is refused); a record is read and checked when its
# turn comes, so that a file of any number of records takes the memory of one
Item = tuple[str, Any, Any, "str | None"]


class _Tally:
    imported = refused = games = 0
    last = ""
    played: set[tuple[str, str]] | None = None  # the starts of the games played here


def _up_to_a_good_one(items: Iterator[Item]) -> list[Item]:
    """The file's first records up to its first good one (the refused ones: a line each)."""
    ahead: list[Item] = []
    for item in items:
        ahead.append(item)
        if item[3] is None:
            break
    return ahead


def _files_items(files: list[str], progress: Progress) -> Iterator[Item]:
    """Every file's records as ``Item``s; a file that cannot be read at all: one refused."""
    for name in files:
        try:
            _, items = read_records(name)
            yield from items
        except RecordError as e:
            yield (name, None, None, str(e))
        progress.step()


def _import_batch(journal, batch: Iterator[Item], args, progress: Progress, tally: _Tally) -> bool:
    """The next records in one transaction (one sync), each still all or nothing, read as
    they are imported (none is held); False when there were none."""
    done = seen = 0
    first = last = ""
    try:
        with journal.batch():
            for item in batch:
                seen += 1
                first, last = first or item[0], item[0]
                tally.games += 1
                try:
                    tally.last = _import_one(journal, item, args, tally)
                    done += 1
                except RecordError as e:
                    tally.refused += 1
                    progress.say(f"binaryon: {e}")
                except JournalError as e:
                    tally.refused += 1
                    progress.say(f"binaryon: {item[0]}: not imported: {e}")
    except JournalError as e:  # the batch could not be committed
        tally.refused += done
        done = 0
        progress.say(f"binaryon: {first} to {last}: not imported: {e}")
    tally.imported += done
    return seen > 0


def read_records(name: str) -> tuple[int, Iterator[Item]]:
    """How many records the file holds, and its records one at a time, each checked when it
    is reached: one record as ever (its problem raised as RecordError), or each game of a file
    of many with its own verdict. A regular file larger than one record may be is read from
    disk as it goes (twice: counted, then read), anything else (standard input, a pipe) whole,
    up to MAX_FILE_BYTES; RecordError when the file cannot be read."""
    source = "stdin" if name == "-" else name
    size = _regular_size(name)
    if size is None or size <= MAX_RECORD_BYTES:
        text = read_text(name, MAX_FILE_BYTES)
        if surely_one_record(text):  # the usual file: not cut into records first
            return 1, _one(text, source)
        count = sum(1 for _ in cut_records(_text_lines(text)))
        if count <= 1:
            return count, _one(text, source)
        return count, _many(lambda: cut_records(_text_lines(text)), source, count)
    try:
        with open(name, "rb") as fh:
            count = sum(1 for _ in cut_records(file_lines(fh, source), MAX_RECORD_BYTES))
    except OSError as exc:
        raise RecordError(f"cannot read {source}: {exc.strerror or exc}") from None
    if count <= 1:
        raise RecordError(f"{source}: larger than {MAX_RECORD_BYTES >> 20} MiB: not a game record")

    def parts() -> Iterator[tuple[int, str | None]]:
        try:
            with open(name, "rb") as fh:
                yield from cut_records(file_lines(fh, source), MAX_RECORD_BYTES)
        except OSError as exc:  # gone or changed since it was counted
            raise RecordError(f"cannot read {source}: {exc.strerror or exc}") from None

    return count, _many(parts, source, count)


def _regular_size(name: str) -> int | None:
    """A regular file's size; None for standard input, a pipe, a device or what cannot be
    read (read_text then says why)."""
    if name == "-":
        return None
    try:
        info = os.stat(name)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _text_lines(text: str) -> Iterator[str]:
    return lines_of(text.removeprefix("\ufeff"))


def _one(text: str, source: str) -> Iterator[Item]:
    if len(text.encode()) > MAX_RECORD_BYTES:
        raise RecordError(f"{source}: larger than {MAX_RECORD_BYTES >> 20} MiB: not a game record")
    rec = parse_record(text, source)
    item = (source, rec, validate(rec, source), None)
    return iter([item])


def _many(parts, source: str, count: int) -> Iterator[Item]:
    cut = enumerate(parts(), 1)
    while True:
        try:
            k, (line, part) = next(cut)
        except StopIteration:
            return
        except RecordError as e:  # the file changed since it was counted: the rest refused
            yield (source, None, None, str(e))
            return
        where = f"game {k} of {count}"
        try:
            if part is None or len(part.encode()) > MAX_RECORD_BYTES:
                raise RecordError(f"{source}:{line}: larger than {MAX_RECORD_BYTES >> 20} MiB")
            rec = parse_record(part, source, line)
            yield (f"{source} ({where})", rec, validate(rec, source), None)
        except RecordError as e:
            yield (f"{source} ({where})", None, None, f"{e} ({where})")


def _played_here(journal, rec: Record, key: str, tally: _Tally) -> int | None:
    """The game of this journal that ``rec`` was exported from (the same game, tags, moves and
    times: the same fingerprint as its own record), if any. Only games that started at the
    record's start are looked at."""
    if rec.started is None:
        return None
    if tally.played is None:  # read once for the whole import
        tally.played = journal.played_starts()
    try:
        if (rec.game, iso(rec.started)) not in tally.played:
            return None
    except ValueError:  # a start out of range: no game of this journal has it
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


def _import_one(journal, item: Item, args: argparse.Namespace, tally: _Tally) -> str:
    source, rec, state, error = item
    if error is not None:
        raise RecordError(error)
    key = digest(rec)
    if not args.allow_duplicate and (same := journal.find_digest(key)) is not None:
        raise RecordError(f"{source}: already imported as game {same} (--allow-duplicate)")
    if not args.allow_duplicate and (same := _played_here(journal, rec, key, tally)) is not None:
        raise RecordError(f"{source}: already in the journal as game {same} (--allow-duplicate)")
    game_id = import_record(journal, rec, state, resume=args.resume, key=key)
    for warning in rec.warnings:  # read all the same (a bad clock comment): said, not fatal
        print(for_terminal(f"binaryon: warning: {warning}"), file=sys.stderr)
    result = rec.summary or ("in progress" if args.resume else "unfinished, filed as abandoned")
    moves = f"{len(rec.moves)} move" + ("" if len(rec.moves) == 1 else "s")
    return f"imported game {game_id}: {rec.game}, {moves}, {result}"
