"""Reading a record's text: its tags and move tokens, one record or a file of many, each
problem one line ``FILE:LINE:COL: reason`` (the format: companion.records.format)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

from companion.core import text_input
from companion.games import get_spec
from companion.journal.rows import (
    MAX_MS,
    MIN_MS,
    from_iso,
)
from companion.records.format import (
    KNOWN_TAGS,
    MAX_RECORD_BYTES,
    MAX_RECORD_MOVES,
    MAX_RECORD_TOKENS,
    PLAYER_PREFIX,
    STATUS_WORDS,
    TIME_LIKE,
    Record,
    RecordError,
    clk_seconds,
    numberings,
    player_ids,
    quote_tag,
)

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}
# A tag line. Possessive (never backtracking): its alternatives cannot overlap, so the match
# is the same, but time and memory stay linear however long the value (a plain repeat of
# the group kept a backtracking point per character: ~170 bytes each).
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*+(?::[^\s"\[\]]++)?+)\s++"((?:[^"\\]++|\\.)*+)"\]')
_UNICODE_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
# a word after the tags: a comment to the line's end, a {comment}, a "move with spaces", a
# word (up to a space, { or ;), or a { or " never closed
_TOKEN = re.compile(
    r'\s*+(?:(?P<note>;)|(?P<brace>\{[^}]*+\})|(?P<quoted>"[^"]*+")|(?P<open>[{"])|(?P<word>[^\s{;]++))'
)
_NUMBER = re.compile(r"([0-9]+)\.$")
_TIME = re.compile(r"([+-])([0-9]+(?:\.[0-9]{1,3})?)s$")
_CLOCK_NOTE = re.compile(r"clock[ :]")  # a clock's own event: kept and written back


def _unquote_tag(value: str) -> str:
    """Backslash escapes of a value ``_TAG`` matched undone, left to right, by C-level string
    operations (time and memory linear in the value): escaped backslashes set aside first as
    NUL, which a record never holds (``replace`` pairs them from the left, as reading does),
    then ``\\n``, ``\\r``, ``\\t``, then any other backslash escapes the character after
    it (a matched value never ends with a lone one). A value with a ``\\uXXXX`` (a control
    character or line separator in a name, rare) takes one regex pass instead."""
    if "\\" not in value:
        return value
    if "\\u" in value:
        return _UNICODE_ESCAPE.sub(_one_escape, value)
    return _unescape(value.replace("\\\\", "\0")).replace("\0", "\\")


def _unescape(text: str) -> str:
    """``text`` with its escaped backslashes set aside: its other escapes undone."""
    for code, char in _ESCAPES.items():
        text = text.replace("\\" + code, char)
    return text.replace("\\", "")


def _one_escape(m: re.Match[str]) -> str:
    code = m.group(1)
    return chr(int(code[1:], 16)) if len(code) == 5 else _ESCAPES.get(code, code)


def _scan_tag(line: str) -> tuple[str, str] | None:
    """``[Name "value"]`` (nothing after it) -> (name, quoted value), else None."""
    m = _TAG.fullmatch(line)
    return (m.group(1), m.group(2)) if m else None


def _parse_options(text: str, where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for word in text.split():
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise RecordError(f"{where}: Options: {word!r} is not NAME=VALUE")
        out[name] = unquote(value)
    return out


def _time_tag(value: str, where: str, name: str) -> int:
    try:
        ms = from_iso(value)
    except (ValueError, OverflowError):
        ms = None
    if ms is None or not MIN_MS <= ms <= MAX_MS:
        raise RecordError(f"{where}: {name} {value!r} is not a date-time like 2025-03-01T14:02:11Z")
    return ms


def parse_record(text: str, source: str = "record", first_line: int = 1) -> Record:
    """Read tags and move tokens (no rules checked yet: see ``validate``); ``first_line``:
    the line the text starts on in its file (a game of a file of many)."""
    tags: dict[str, tuple[str, int]] = {}
    seen: set[str] = set()  # tag names in lower case: each line costs the same (linear)
    tokens: list[tuple[str, int, int]] = []  # (text, line, column)
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    if (nul := text.find("\0")) >= 0:
        line = text.count("\n", 0, nul) + 1
        raise RecordError(f"{source}:{line}: a NUL character: not a text record")
    for lineno, raw in enumerate(lines_of(text), first_line):
        line = raw.rstrip()
        stripped = line.lstrip()
        if not stripped:
            continue
        if stripped.startswith("["):
            if tokens:
                raise RecordError(
                    f"{source}:{lineno}: tag after the moves (a file of many records: "
                    "binaryon import reads those)"
                )
            found = _scan_tag(stripped)
            if found is None:
                raise RecordError(f'{source}:{lineno}: bad tag, expected [Name "value"]')
            name, value = found
            if name.lower() in seen:
                raise RecordError(f"{source}:{lineno}: tag {name} given twice")
            seen.add(name.lower())
            tags[name] = (_unquote_tag(value), lineno)
            continue
        for m in _TOKEN.finditer(line):
            kind = m.lastgroup
            if kind == "note":  # the rest of the line is a comment
                break
            if len(tokens) >= MAX_RECORD_TOKENS:  # said as soon as it is read: bounded work
                raise RecordError(
                    f"{source}:{lineno}:{m.start(kind) + 1}: more than {MAX_RECORD_TOKENS:,} "
                    f"words after the tags: a record holds at most {MAX_RECORD_MOVES:,} moves"
                )
            col = m.start(kind) + 1
            if kind == "open":
                if m.group(kind) == "{":
                    raise RecordError(f"{source}:{lineno}:{col}: comment not closed with }}")
                raise RecordError(f'{source}:{lineno}:{col}: move not closed with "')
            tokens.append((m.group(kind), lineno, col))
    return _assemble(tags, tokens, source)


def cut_records(lines: Iterable[str], cap: int | None = None) -> Iterator[tuple[int, str | None]]:
    """A file of one or many records (an event's games, one after the other), from its
    lines, cut into its records one at a time (only the record being cut is held), each with
    the line it starts on. A record starts with its tags: a tag after moves, or a second
    ``[Game]`` tag, begins the next one. A record of more than ``cap`` characters comes as
    ``None`` (its lines are not kept: a record that size is refused anyway)."""
    current: list[str] = []
    start, moves, game, size, blank = 1, False, False, 0, True
    for lineno, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped.startswith("["):
            tag = _scan_tag(stripped)
            is_game = tag is not None and tag[0].lower() == "game"
            if moves or (is_game and game):
                if not blank:
                    yield start, ("\n".join(current) + "\n") if size >= 0 else None
                current, start, moves, game, size, blank = [], lineno, False, False, 0, True
            game = game or is_game
        elif stripped and not stripped.startswith(";"):
            moves = True
        blank = blank and not stripped
        if size >= 0:
            size += len(raw) + 1
            if cap is not None and size > cap:
                current, size = [], -1  # too big: said without keeping it
            else:
                current.append(raw)
    if not blank:
        yield start, ("\n".join(current) + "\n") if size >= 0 else None


# line breaks of str.splitlines besides "\n": a text holding one is cut the long way
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_FIRST_MOVES_LINE = re.compile(r"^[^\S\n]*[^\s\[;]", re.M)
_TAG_LINE = re.compile(r"^\s*\[", re.M)
_GAME_TAG_LINE = re.compile(r"^\s*\[\s*game\b", re.M | re.I)


def surely_one_record(text: str) -> bool:
    """True when ``text`` is one record at most, as ``cut_records`` would find, told without
    cutting it (the usual file: its tags, then its moves); False when it may be more."""
    if any(b in text for b in _OTHER_BREAKS):
        return False
    if len(_GAME_TAG_LINE.findall(text)) > 1:
        return False
    moves = _FIRST_MOVES_LINE.search(text)
    return moves is None or _TAG_LINE.search(text, moves.start()) is None


def file_lines(stream: BinaryIO, source: str, longest: int = MAX_RECORD_BYTES) -> Iterator[str]:
    """The lines of a UTF-8 file read as it goes (as ``str.splitlines`` cuts them, a byte-order
    mark dropped); a line longer than ``longest`` bytes is cut there (what follows up to its
    end is skipped). RecordError when it is not UTF-8."""
    first = True
    while chunk := stream.readline(longest + 1):
        whole = chunk.endswith(b"\n") or len(chunk) <= longest
        if first:
            chunk, first = chunk.removeprefix(b"\xef\xbb\xbf"), False
        try:
            text = chunk.decode("utf-8", "strict" if whole else "ignore")
        except UnicodeDecodeError:
            raise RecordError(f"{source}: not a text file (not UTF-8)") from None
        yield from text.splitlines()
        while not whole and (rest := stream.readline(longest + 1)):  # the long line's end
            whole = rest.endswith(b"\n")


def add_tags(text: str, tags: dict[str, str]) -> str:
    """A record's text with ``tags`` added after its own tags (those it has already, by any
    case, are left as they are): the event, round and board of a club night's game."""
    lines = text.removeprefix("\ufeff").splitlines()
    have = {t[0].lower() for line in lines if (t := _scan_tag(line.strip()))}
    at = 0
    for i, line in enumerate(lines):
        if line.strip().startswith("["):
            at = i + 1
        elif line.strip():
            break
    new = [f'[{k} "{quote_tag(v)}"]' for k, v in tags.items() if k.lower() not in have]
    return "\n".join(lines[:at] + new + lines[at:]) + "\n"


def lines_of(text: str) -> Iterator[str]:
    """``text.splitlines()`` one line at a time (a million short lines are not all held)."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield from text[start : end + 1].splitlines()  # "\r\n", "\v\n": as splitlines does
        start = end + 1
    yield from text[start:].splitlines()


def _assemble(
    tags: dict[str, tuple[str, int]], tokens: list[tuple[str, int, int]], source: str
) -> Record:
    lower = {k.lower(): (k, v, n) for k, (v, n) in tags.items()}
    if "game" not in lower:
        raise RecordError(f'{source}:1: no [Game "..."] tag')
    _, game, game_line = lower["game"]
    try:
        spec = get_spec(game)
    except ValueError as e:
        raise RecordError(f"{source}:{game_line}: {e}") from None
    given: dict[str, Any] = {}
    if "options" in lower:
        _, text, n = lower["options"]
        given = _parse_options(text, f"{source}:{n}")
        try:
            options = spec.resolve(given)
        except ValueError as e:
            raise RecordError(f"{source}:{n}: Options: {e}") from None
    else:
        options = spec.resolve({})
    drawn = tuple(k for k in spec.secret_options if k not in given)
    rec = Record(game=game, options=options, moves=[], drawn=drawn)
    if "started" in lower:
        rec.started = _time_tag(lower["started"][1], f"{source}:{lower['started'][2]}", "Started")
    elif "date" in lower:
        value, n = lower["date"][1], lower["date"][2]
        rec.started = _time_tag(value.replace(".", "-") + "T00:00:00Z", f"{source}:{n}", "Date")
    if "ended" in lower:
        rec.ended = _time_tag(lower["ended"][1], f"{source}:{lower['ended'][2]}", "Ended")
    if "status" in lower:
        value, n = lower["status"][1], lower["status"][2]
        word = value.strip().lower().replace("_", " ")
        if word not in STATUS_WORDS:
            raise RecordError(f"{source}:{n}: Status {value!r}: use {', '.join(STATUS_WORDS)}")
        rec.status = STATUS_WORDS[word]
    ids = {p.lower(): p for p in player_ids(game, options)}
    if "result" in lower:
        value = lower["result"][1].strip().lower()
        # a winner's id as the game spells it (Binøme's players are named: Ann, not ann)
        rec.result = None if value in ("*", "") else ids.get(value, value)
    if "summary" in lower:
        rec.summary = lower["summary"][1]
    for key, (name, value, _) in lower.items():
        if key.startswith(PLAYER_PREFIX) and key.removeprefix(PLAYER_PREFIX) in ids:
            rec.players[ids[key.removeprefix(PLAYER_PREFIX)]] = value
        elif key in KNOWN_TAGS:
            continue
        elif key in ids:
            rec.players[ids[key]] = value
        else:
            rec.tags[name] = value
    if "timecontrol" in lower:
        from companion.timing.clock import TimeControl  # a game on a clock only

        name, value, n = lower["timecontrol"]
        try:
            rec.time_control = TimeControl.from_pgn(value)
        except ValueError as e:  # kept as it is, as another tag: the game is still read
            rec.tags[name] = value
            rec.warnings.append(f"{source}:{n}: {e}: the clock is left out")
    _read_moves(rec, tokens, source)
    if rec.time_control is None and any(c is not None for c in rec.clocks):
        rec.warnings.append(f"{source}: clock times without a TimeControl tag: left out")
        rec.clocks = [None] * len(rec.moves)
    return rec


def _read_moves(rec: Record, tokens: list[tuple[str, int, int]], source: str) -> None:
    pers = numberings(rec.game, rec.options)
    numbered = -1  # how many moves came before the last move number
    for text, line, col in tokens:
        if text.startswith("{"):
            body = text[1:-1].strip()
            if body.startswith("[%clk"):
                _read_clk(rec, body, f"{source}:{line}:{col}")
                continue
            if _CLOCK_NOTE.match(body):
                rec.clock_notes.setdefault(len(rec.moves), []).append(body)
                continue
            if not TIME_LIKE.match(body):
                continue  # a free comment
            m = _TIME.match(body)
            problem = None
            if not m:
                problem = f"time {text} should look like {{+12.5s}} or {{-3s}}"
            elif not rec.moves or rec.times[-1] is not None:
                problem = f"time {text} does not follow a move"
            elif rec.started is None:
                problem = "move times need a [Started] or [Date] tag"
            else:
                ms = _milliseconds(m.group(2))
                at = rec.started + (-ms if m.group(1) == "-" else ms)
                if not MIN_MS <= at <= MAX_MS:
                    problem = f"time {text} is out of range (years 1 to 9999)"
            if problem is not None:  # where it is, made only then (a record has many words)
                raise RecordError(f"{source}:{line}:{col}: {problem}")
            rec.times[-1] = at
            continue
        m = _NUMBER.match(text)
        if m:
            number = int(m.group(1))
            fits = [
                p
                for p in pers
                if _number_problem(text, number, len(rec.moves), p, numbered) is None
            ]
            if not fits:  # the first numbering's reason (made only then: a record has many words)
                problem = _number_problem(text, number, len(rec.moves), pers[0], numbered)
                raise RecordError(f"{source}:{line}:{col}: {problem}")
            pers = tuple(fits)
            numbered = len(rec.moves)
            continue
        if len(rec.moves) >= MAX_RECORD_MOVES:
            raise RecordError(
                f"{source}:{line}:{col}: more than {MAX_RECORD_MOVES:,} moves: too long a record"
            )
        if text.startswith('"'):
            text = text[1:-1]
        rec.moves.append(text)
        rec.times.append(None)
        rec.clocks.append(None)
        rec.where.append((line, col))


def _read_clk(rec: Record, body: str, where: str) -> None:
    """A ``[%clk]`` comment: the last move's time left. A bad one is a warning (the move
    is kept, without its time)."""
    seconds = clk_seconds(body)
    if seconds is None:
        rec.warnings.append(f"{where}: clock {{{body}}} should look like [%clk 0:04:57]: left out")
    elif not rec.moves or rec.clocks[-1] is not None:
        rec.warnings.append(f"{where}: clock {{{body}}} does not follow a move: left out")
    else:
        rec.clocks[-1] = seconds


def _number_problem(text: str, number: int, moves: int, per: int, numbered: int) -> str | None:
    """A move number must start its move (``per`` plies each) and be the next one: what is
    wrong with it, or None."""
    expected = moves // per + 1
    if numbered == moves:
        return f"move number {text} repeated: a move was expected"
    if moves % per:
        return f"move number {text} in the middle of move {expected}: its second half was expected"
    if number != expected:
        return f"move number {text} out of place, expected {expected}."
    return None


def _milliseconds(text: str) -> int:
    """'12.5' -> 12500, exactly (no float rounding); ASCII digits only."""
    whole, _, part = text.partition(".")
    if len(whole) > 15:  # more than 30 million years: refused by the range check
        return MAX_MS - MIN_MS + 1
    return int(whole) * 1000 + int((part + "000")[:3])


def read_text(path: str | Path, limit: int = MAX_RECORD_BYTES) -> str:
    """A record's text (``-``: standard input), UTF-8 with or without a byte-order mark; at
    most ``limit`` bytes are read (``/dev/zero`` ends)."""
    too_big = f"larger than {limit >> 20} MiB"
    return text_input.read_text(path, limit, "a game record", too_big, RecordError)
