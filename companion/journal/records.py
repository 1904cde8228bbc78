"""Game records as plain text, in the spirit of PGN (see docs/records.md)::

    [Game "binaryon"]
    [Date "2025-03-01"]
    [Started "2025-03-01T14:02:11.120Z"]
    [Options "first=on opening=free reach=line scoring=all size=8 through="]
    [On "Ana"]
    [Result "on"]

    1. e5 {+3.2s} d4 {+9.875s}
    2. pass {+9.875s} f6 {+15s}

Tags first, one per line; then the moves, one token each, in play order (passes included),
each optionally followed by ``{+S s}``: seconds since the game started (``{-S s}`` when the
clock said the move came before the start, e.g. a Pi without a real-time clock that set its
time after a power cut). A game played on a clock has a ``[TimeControl "300+3"]`` tag, each
move the mover's time left after it as PGN writes it (``{[%clk 0:04:57]}``: ``H:MM:SS``,
tenths only for a control that counts in them), and the clock's own events as comments
where they happened (``{clock paused}``, ``{clock resumed}``, ``{clock: +30s to on
(penalty)}``). ``N.`` move numbers (every two plies) and ``; comments`` are optional.
Reading a record checks every tag and replays every move through the game engine; the
first problem is reported as one line ``FILE:LINE:COL: reason``.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, unquote

from companion.core import text_input
from companion.games import get_spec
from companion.games import player_ids as game_player_ids
from companion.games.base import GameSpec, GameState, IllegalMove, Outcome, Step, credited
from companion.journal.api import ClockEvent
from companion.journal.rows import MAX_MS, MIN_MS
from companion.journal.store import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    PAUSED,
    GameEntry,
    from_iso,
    iso,
)
from companion.referee.clock import TimeControl
from companion.referee.on_time import ended_on_time

MAX_RECORD_BYTES = 4 << 20  # a 5,000-move game with times is about 100 kB
MAX_FILE_BYTES = 32 << 20  # a file of many games (an event's): each game still at most 4 MiB
MAX_RECORD_MOVES = 10_000  # far past any game played at a table; replays stay quick
MAX_RECORD_TOKENS = 4 * MAX_RECORD_MOVES + 1_000  # a number, a move, a time, a mark each
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}
# A tag line. Possessive (never backtracking): its alternatives cannot overlap, so the match
# is the same, but time and memory stay linear however long the value (a plain repeat of
# the group kept a backtracking point per character: ~170 bytes each).
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*+(?::[^\s"\[\]]++)?+)\s++"((?:[^"\\]++|\\.)*+)"\]')
_PLAIN_TAG = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_PLAYER_PREFIX = "player:"  # ``[Player:Zoë "..."]``: a player whose id is not a plain tag name
_UNICODE_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
# a word after the tags: a comment to the line's end, a {comment}, a "move with spaces", a
# word (up to a space, { or ;), or a { or " never closed
_TOKEN = re.compile(
    r'\s*+(?:(?P<note>;)|(?P<brace>\{[^}]*+\})|(?P<quoted>"[^"]*+")|(?P<open>[{"])|(?P<word>[^\s{;]++))'
)
_NUMBER = re.compile(r"([0-9]+)\.$")
_TIME = re.compile(r"([+-])([0-9]+(?:\.[0-9]{1,3})?)s$")
_TIME_LIKE = re.compile(r"[+-]\d|\+")  # a comment starting so is meant as a time
_STATUS_WORDS = {
    "finished": FINISHED,
    "in progress": IN_PROGRESS,
    "abandoned": ABANDONED,
    "paused": PAUSED,  # imported as abandoned (or in progress with --resume)
}
SAID_TAG = "Said"  # a finished game's result by name: written from the game, not read back
_KNOWN_TAGS = {
    "game", "date", "started", "ended", "options", "status", "result", "summary", "timecontrol",
    "said",
}  # fmt: skip
_CLK = re.compile(r"\[%clk\s+(\d{1,2}):([0-5]\d):([0-5]\d(?:\.\d{1,3})?)\]")
_CLOCK_NOTE = re.compile(r"clock[ :]")  # a clock's own event: kept and written back


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line."""


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    moves: list[str]
    times: list[int | None] = field(default_factory=list)  # ms since the epoch, per move
    players: dict[str, str] = field(default_factory=dict)
    started: int | None = None
    ended: int | None = None
    status: str = IN_PROGRESS
    result: str | None = None  # winner id or 'draw' once finished
    summary: str | None = None
    tags: dict[str, str] = field(default_factory=dict)  # other tags, kept as read
    where: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    # per move index: "revealed" (a secret shown now the game has ended) or "hidden" (only
    # the public name is written while the game goes on); written as a {comment}
    marks: dict[int, str] = field(default_factory=dict, compare=False)
    # free comments written before move i (after the last move when i is their number): the
    # moves taken back at that point (see ``taken_back_notes``); reading skips them
    notes: dict[int, list[str]] = field(default_factory=dict, compare=False)
    # per move, filled in by ``validate``: who played it (None: the referee) and the name the
    # other players see until the game reveals it (None: no secret)
    actors: list[str | None] = field(default_factory=list, compare=False)
    publics: list[str | None] = field(default_factory=list, compare=False)
    turns: list[str | None] = field(default_factory=list, compare=False)  # whose time runs
    # secret options the record left out (a game exported while in progress), drawn afresh
    # when it was read: not part of its fingerprint
    drawn: tuple[str, ...] = field(default=(), compare=False)
    # the game clock: its control (the TimeControl tag), per move the mover's time left
    # after it in seconds (None: not known), and its events before move i (pauses, time
    # added, a flag), written as comments
    time_control: TimeControl | None = None
    clocks: list[float | None] = field(default_factory=list)
    clock_notes: dict[int, list[str]] = field(default_factory=dict)
    # what reading left out of a record it could still read (a bad clock comment): one line
    # each, ``FILE:LINE:COL: reason``
    warnings: list[str] = field(default_factory=list, compare=False)


# --------------------------------------------------------------------------- writing


def _quote_tag(value: str) -> str:
    """Backslash, quote and line breaks escaped, so a tag always stays on its line (any
    other control character or line separator as ``\\uXXXX``)."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    out = out.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


# what str.splitlines() breaks on, and the other control characters
_UNSAFE = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def _player_tag(pid: str, taken: set[str]) -> str:
    """The tag that names the person playing ``pid``: ``Ann`` when the id is a plain tag name
    that no other tag uses, else ``Player:id`` (a Binøme player named Zoë, Jean-Luc or
    Result)."""
    if _PLAIN_TAG.fullmatch(pid) and pid.lower() not in taken:
        return pid.capitalize() if pid.islower() else pid
    return f"Player:{pid}"


def _options_text(options: dict[str, Any]) -> str:
    def word(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return quote(str(v), safe="")

    return " ".join(f"{k}={word(v)}" for k, v in options.items())


def _seconds(ms: int) -> str:
    """Milliseconds after the start as ``{+9.875s}``; before it (a clock set late) ``{-2s}``."""
    sign = "-" if ms < 0 else "+"
    whole, part = divmod(abs(ms), 1000)
    text = f"{whole}.{part:03d}".rstrip("0").rstrip(".")
    return f"{{{sign}{text}s}}"


def player_ids(game: str, options: dict[str, Any]) -> tuple[str, ...]:
    """``companion.games.player_ids``, asked once per game and options (a file of many records
    asks it a few times a record)."""
    try:
        return _player_ids(game, tuple(options.items()))
    except TypeError:  # an option's value that cannot be a key (a list)
        return game_player_ids(game, options)


@lru_cache(maxsize=64)
def _player_ids(game: str, options: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    return game_player_ids(game, dict(options))


def per_number(game: str, options: dict[str, Any]) -> int:
    """Moves under one move number: a pair for two-player games whose players alternate
    (as in chess, ``GameSpec.paired_moves``), else one."""
    if len(player_ids(game, options)) != 2:
        return 1
    return 2 if get_spec(game).paired_moves else 1


def numberings(game: str, options: dict[str, Any]) -> tuple[int, ...]:
    """The moves under one number a record may have: the game's own, and for a two-player
    game numbered move by move also the pairs older records have."""
    per = per_number(game, options)
    return (per, 2) if per == 1 and len(player_ids(game, options)) == 2 else (per,)


def _move_token(name: str) -> str:
    """A move name as written: quoted when it holds spaces ("setup d2 red/yellow")."""
    return f'"{name}"' if any(c.isspace() for c in name) else name


def format_record(rec: Record) -> str:
    tags: list[tuple[str, str]] = [("Game", rec.game)]
    if rec.started is not None:
        tags.append(("Date", (iso(rec.started) or "")[:10]))
        tags.append(("Started", iso(rec.started) or ""))
    if rec.ended is not None:
        tags.append(("Ended", iso(rec.ended) or ""))
    tags.append(("Options", _options_text(rec.options)))
    if rec.time_control is not None:
        tags.append(("TimeControl", rec.time_control.pgn()))
    taken = _KNOWN_TAGS | {name.lower() for name in rec.tags}
    for pid in player_ids(rec.game, rec.options):
        if rec.players.get(pid):
            tags.append((_player_tag(pid, taken), rec.players[pid]))
    for name, value in rec.tags.items():
        tags.append((name, value))
    status = next(w for w, s in _STATUS_WORDS.items() if s == rec.status)
    tags.append(("Status", status))
    tags.append(("Result", rec.result or "*"))
    if rec.summary:
        tags.append(("Summary", rec.summary))
    lines = [f'[{name} "{_quote_tag(value)}"]' for name, value in tags]
    lines.append("")
    row: list[str] = []
    per = per_number(rec.game, rec.options)
    tenths = rec.time_control is not None and counts_tenths(rec.time_control)
    for i, name in enumerate(rec.moves):
        row.extend(_comment(note) for note in rec.notes.get(i, ()))
        row.extend(_comment(note) for note in rec.clock_notes.get(i, ()))
        if i % per == 0:
            if row:
                lines.append(" ".join(row))
            row = [f"{i // per + 1}."]
        row.append(_move_token(name))
        at = rec.times[i] if i < len(rec.times) else None
        if at is not None and rec.started is not None:
            row.append(_seconds(at - rec.started))
        left = rec.clocks[i] if i < len(rec.clocks) else None
        if left is not None:
            row.append(f"{{[%clk {clk_text(left, tenths)}]}}")
        if i in rec.marks:
            row.append(f"{{{rec.marks[i]}}}")
    row.extend(_comment(note) for note in rec.notes.get(len(rec.moves), ()))
    row.extend(_comment(note) for note in rec.clock_notes.get(len(rec.moves), ()))
    if row:
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def counts_tenths(control: TimeControl) -> bool:
    """Whether a control counts in tenths of a second (a base or an increment with a
    fraction of one): only then does ``[%clk]`` write them. No control typed as ``--clock``
    or a PGN ``TimeControl`` tag does."""
    return not (float(control.base).is_integer() and float(control.extra).is_integer())


def clk_text(seconds: float, tenths: bool = False) -> str:
    """A time left as PGN's ``[%clk]`` writes it: ``H:MM:SS`` (``0:04:57``, ``0:00:09``:
    seconds rounded up, as the clock showed them; never negative); with ``tenths`` (a
    control that counts in them), tenths under 10 s (``0:00:09.4``)."""
    in_tenths = math.ceil(round(seconds * 10, 6))
    if in_tenths <= 0:
        return "0:00:00"
    if tenths and seconds < 10 and in_tenths < 100:
        return f"0:00:0{in_tenths // 10}.{in_tenths % 10}"
    whole = math.ceil(round(seconds, 6))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def clk_seconds(text: str) -> float | None:
    """The seconds of a ``[%clk H:MM:SS(.s)]`` comment's body, or None if it is not one."""
    m = _CLK.fullmatch(text.strip())
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def clock_note(kind: str, player: str | None, seconds: float | None, why: str | None) -> str:
    """A clock event as the record's comment says it."""
    because = f" ({why})" if why else ""
    if kind == "pause":
        return f"clock paused{because}"
    if kind == "resume":
        return f"clock resumed{because}"
    if kind == "add":
        sign = "-" if (seconds or 0) < 0 else "+"
        return f"clock: {sign}{abs(seconds or 0):g}s to {player}{because}"
    if kind == "flag":
        return f"clock: {player} out of time"
    return f"clock: {kind}{because}"


_NOTE = re.compile(
    r"clock (?P<kind>paused|resumed)(?: \((?P<why>[^()]*)\))?"
    r"|clock: (?P<sign>[+-])(?P<secs>\d+(?:\.\d+)?)s to (?P<to>\S+)(?: \((?P<why2>[^()]*)\))?"
    r"|clock: (?P<flag>\S+) out of time"
)


def clock_event_of(note: str) -> tuple[str, str | None, float | None, str | None] | None:
    """(kind, player, seconds, why) of a clock note (``clock_note``'s inverse), or None."""
    m = _NOTE.fullmatch(note)
    if m is None:
        return None
    if m["kind"]:
        return ("pause" if m["kind"] == "paused" else "resume"), None, None, m["why"]
    if m["to"]:
        seconds = float(m["secs"]) * (-1 if m["sign"] == "-" else 1)
        return "add", m["to"], seconds, m["why2"]
    return "flag", m["flag"], None, None


def _comment(text: str) -> str:
    """A free comment on one line that reading skips: no braces or line breaks inside, and
    never read as a time."""
    body = " ".join(text.replace("{", "(").replace("}", ")").split())
    return "{" + ("- " if _TIME_LIKE.match(body) else "") + body + "}"


def taken_back_notes(entry: GameEntry, revealed: bool) -> dict[int, list[str]]:
    """The moves taken back, as comments where each was played: its name as anyone may see
    it now (the public one while the game goes on; ``revealed``: the game shows its secrets,
    ``GameEntry.shows_secrets``) and, when the moves before it are still the game's, what the
    referee answered (a guess's answer, a resolved turn): what was revealed stays in the
    record."""
    notes: dict[int, list[str]] = {}
    if not entry.taken_back:
        return notes
    try:
        spec = get_spec(entry.game)
        options = spec.resolve(dict(entry.options))
        live: list[GameState] = [spec.new(**options)]
        steps = spec.steps((m.name for m in entry.moves), **options)
    except ValueError:
        live, steps = [], iter(())  # a game this version does not know: the names only
    state: GameState | None = None  # the position after the last move taken back written
    for move, on_live, first in entry.taken_back:
        if first:
            state = _live_state(live, steps, move.ply) if on_live else None
        answer = ""
        if state is not None:
            try:
                after = state.play(state.parse_move(move.name))
                answer, state = get_spec(entry.game).announce(state, after), after
            except (ValueError, IllegalMove):
                state = None  # the rest of this takeback too: its position is unknown
        text = f"taken back: {move.shown(revealed)}"
        notes.setdefault(min(move.ply, len(entry.moves)), []).append(
            text + (f" ({answer})" if answer else "")
        )
    return notes


def _live_state(live: list[GameState], steps: Iterator[Step], ply: int) -> GameState | None:
    """The position after the game's first ``ply`` journalled moves; ``live`` holds those
    replayed so far from ``steps`` (each replayed once, however many takebacks ask). None:
    there are not that many, or they no longer replay."""
    if not live:
        return None
    try:
        while len(live) <= ply:
            live.append(next(steps).after)
    except (ValueError, StopIteration):
        return None
    return live[ply]


def clock_of_entry(
    entry: GameEntry, events: Sequence[ClockEvent] = ()
) -> tuple[TimeControl | None, list[float | None], dict[int, list[str]]]:
    """A journalled game's clock as its record writes it: the control, each move's mover's
    time left after it (its snapshot's), and the clock's ``events`` as notes before the
    move that followed them. (None, [], {}): no clock, or a control this version cannot
    read."""
    try:
        control = TimeControl.parse(entry.time_control) if entry.time_control else None
    except ValueError:
        control = None
    if control is None:
        return None, [], {}
    clocks: list[float | None] = []
    for m in entry.moves:
        left = m.clock.get("left") if isinstance(m.clock, dict) else None
        value = left.get(m.player) if isinstance(left, dict) and m.player else None
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        clocks.append(float(value) if ok and math.isfinite(value) else None)
    notes: dict[int, list[str]] = {}
    live = _live_flag(entry, events)
    for k, e in enumerate(events):
        if 0 <= e.ply <= len(entry.moves):
            note = clock_note(e.kind, e.player, e.seconds, e.why)
            if e.kind == "flag" and k != live:  # the arbiter's undo after it: a comment
                note = f"taken back: {e.player} out of time"
            notes.setdefault(e.ply, []).append(note)
    return control, clocks, notes


def _live_flag(entry: GameEntry, events: Sequence[ClockEvent]) -> int | None:
    """The index in ``events`` of the flag that ended the game (the last flag, after the
    last move, of a game finished on time by that player), or None: every other flag fell
    in a position an undo took back."""
    flags = [k for k, e in enumerate(events) if e.kind == "flag"]
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    if not flags or entry.status != FINISHED:
        return None
    last = events[flags[-1]]
    if last.ply != len(entry.moves) or detail.get("on_time") != last.player:
        return None
    return flags[-1]


def _adds_tags(game: str) -> bool:
    """Does the game add tags of its own to a record? (Only then is the game replayed for
    them: a replay costs more than the rest of an export.)"""
    try:
        return type(get_spec(game)).record_tags is not GameSpec.record_tags
    except ValueError:
        return False


def record_from_entry(entry: GameEntry, clock_events: Sequence[ClockEvent] = ()) -> Record:
    """The record of a journalled game as anyone may see it: a move holding a secret shows its
    public name only (marked hidden) until the game reveals it (``GameEntry.revealed``), then
    its full name (marked revealed). A game with a clock: its control, each move's time left
    and the clock's events (``Journal.clock_events``)."""
    ended = entry.ended_for_all
    revealed = entry.shows_secrets()  # a replay of the game: once for the whole record
    marks = {
        i: ("revealed" if revealed else "hidden")
        for i, m in enumerate(entry.moves)
        if m.public is not None and m.public != m.name
    }
    tags = dict(entry.tags)
    tags.pop(SAID_TAG, None)  # said afresh, last, from the game as it ended
    if ended and _adds_tags(entry.game):  # tags from its moves (e.g. Wythe's swap of seats)
        try:
            spec = get_spec(entry.game)
            options = spec.resolve(dict(entry.options))
            state = spec.replay((m.name for m in entry.moves), **options)
            tags.update(spec.record_tags(state, dict(entry.players)))
        except ValueError:
            pass  # a salvaged game that no longer replays: its moves say what is known
    said = entry.said()
    if said is not None:  # the result by name, in seat order: "Ben beat Dan"
        tags[SAID_TAG] = said[0]
    control, clocks, clock_notes = clock_of_entry(entry, clock_events)
    return Record(
        time_control=control,
        clocks=clocks,
        clock_notes=clock_notes,
        game=entry.game,
        options=entry.shown_options(),
        moves=entry.shown_names(revealed),
        marks=marks,
        notes=taken_back_notes(entry, revealed),
        times=[m.at for m in entry.moves],
        players=dict(entry.players),
        started=entry.started,
        ended=entry.ended,
        status=entry.status,
        result=entry.result,
        summary=entry.summary,
        tags=tags,
    )


# --------------------------------------------------------------------------- reading


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
            if kind == "open":
                col = m.start(kind) + 1
                if m.group(kind) == "{":
                    raise RecordError(f"{source}:{lineno}:{col}: comment not closed with }}")
                raise RecordError(f'{source}:{lineno}:{col}: move not closed with "')
            tokens.append((m.group(kind), lineno, m.start(kind) + 1))
    return _assemble(tags, tokens, source)


def split_records(text: str) -> list[tuple[int, str]]:
    """A file of one or many records (an event's games, one after the other) cut into its
    records, each with the line it starts on. A record starts with its tags: a tag after
    moves, or a second ``[Game]`` tag, begins the next one."""
    return [(n, part or "") for n, part in cut_records(lines_of(text.removeprefix("\ufeff")))]


def cut_records(lines: Iterable[str], cap: int | None = None) -> Iterator[tuple[int, str | None]]:
    """``split_records`` one record at a time, from the file's lines (only the record being
    cut is held). A record of more than ``cap`` characters comes as ``None`` (its lines are
    not kept: a record that size is refused anyway)."""
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
    """True when ``text`` is one record at most, as ``split_records`` would find, told without
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
    new = [f'[{k} "{_quote_tag(v)}"]' for k, v in tags.items() if k.lower() not in have]
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
        if word not in _STATUS_WORDS:
            raise RecordError(f"{source}:{n}: Status {value!r}: use {', '.join(_STATUS_WORDS)}")
        rec.status = _STATUS_WORDS[word]
    ids = {p.lower(): p for p in player_ids(game, options)}
    if "result" in lower:
        value = lower["result"][1].strip().lower()
        # a winner's id as the game spells it (Binøme's players are named: Ann, not ann)
        rec.result = None if value in ("*", "") else ids.get(value, value)
    if "summary" in lower:
        rec.summary = lower["summary"][1]
    for key, (name, value, _) in lower.items():
        if key.startswith(_PLAYER_PREFIX) and key.removeprefix(_PLAYER_PREFIX) in ids:
            rec.players[ids[key.removeprefix(_PLAYER_PREFIX)]] = value
        elif key in _KNOWN_TAGS:
            continue
        elif key in ids:
            rec.players[ids[key]] = value
        else:
            rec.tags[name] = value
    if "timecontrol" in lower:
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
            if not _TIME_LIKE.match(body):
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


def validate(rec: Record, source: str = "record") -> GameState:
    """Replay every move from the start; returns the final state. Move names are made
    canonical; status, result and summary must agree with the moves (filled in when absent)."""
    spec = get_spec(rec.game)
    try:
        state = spec.new(**rec.options)
    except ValueError as e:
        raise RecordError(f"{source}: options: {e}") from None
    rec.actors, rec.publics, rec.turns = [], [], []
    try:
        for k, step in enumerate(_steps(spec, state, rec, source)):
            state, move, before = step
            public = before.public_name(move)
            referee = before.forced_move() is not None or before.chance() is not None
            rec.actors.append(None if referee else before.actor(move))
            rec.turns.append(None if state.is_over() else state.turn)
            rec.publics.append(public if public != move.name else None)
            rec.moves[k] = move.name
    except ValueError as e:
        k = len(rec.actors)
        line, col = rec.where[k] if k < len(rec.where) else (0, 0)
        text = rec.moves[k]
        if isinstance(e, IllegalMove):
            rule = spec.rule_of(e.refusal.code)
            breaks = f" breaks the {rule}" if rule else ""
            raise RecordError(
                f"{source}:{line}:{col}: move {k + 1} {text}{breaks}: {e.refusal}"
            ) from None
        raise RecordError(f"{source}:{line}:{col}: move {k + 1} {text}: {e}") from None
    last = f"{source}:{rec.where[-1][0]}" if rec.where else source
    flagged = _flag_fall(rec, state, source, last)
    if flagged is not None:  # as the session ends it: the position as it stood, over
        state = ended_on_time(state, spec.on_time(state, flagged))
    outcome = state.outcome() if state.is_over() else None
    if outcome is not None:
        got = outcome.winner or "draw"
        if rec.result is not None and rec.result.lower() != got.lower():  # any case
            by = "the flag fall gives" if flagged else "the moves give"
            raise RecordError(f"{last}: Result {rec.result} but {by} {outcome.summary}")
        if rec.status != FINISHED and rec.status != IN_PROGRESS:
            raise RecordError(f"{last}: Status {rec.status} but the game is over")
        rec.status, rec.result, rec.summary = FINISHED, got, outcome.summary
    else:
        if rec.result is not None:
            raise RecordError(f"{last}: Result {rec.result} but the game is not over")
        if rec.status == FINISHED:
            raise RecordError(f"{last}: Status finished but the game is not over")
    return state


def _steps(spec: Any, state: GameState, rec: Record, source: str) -> Iterator[Step]:
    """``spec.steps_from`` over the record's moves, where a move the companion refuses but
    the game's rules settle (``GameSpec.recorded_move``) is played as they say, with a
    warning."""
    for k, name in enumerate(list(rec.moves)):
        move = state.parse_move(name)
        try:
            after = state.play(move)
        except IllegalMove as e:
            mended = spec.recorded_move(state, move, e.refusal)
            if mended is None:
                raise
            move, why = mended
            after = state.play(move)
            line, col = rec.where[k] if k < len(rec.where) else (0, 0)
            rec.warnings.append(
                f"{source}:{line}:{col}: move {k + 1} {name}: {e.refusal}: read as "
                f"{move.name} ({why})"
            )
        yield Step(after, move, state)
        state = after


def _flag_fall(rec: Record, state: GameState, source: str, last: str) -> str | None:
    """The player whose flag fell, from the record's ``{clock: PLAYER out of time}`` (made
    canonical), or None. A flag ends the game: it comes after the last move and after every
    other clock note, on a clock (a TimeControl), for the player whose time ran, in a game
    its moves had not ended; anything else is a RecordError."""
    flags = [
        (ply, i, found[1])
        for ply, notes in sorted(rec.clock_notes.items())
        for i, note in enumerate(notes)
        if (found := clock_event_of(note)) is not None and found[0] == "flag"
    ]
    if not flags:
        return None
    ply, i, who = flags[0]
    note = rec.clock_notes[ply][i]
    if ply < len(rec.moves):
        line, col = rec.where[ply] if ply < len(rec.where) else (0, 0)
        raise RecordError(
            f"{source}:{line}:{col}: move {ply + 1} {rec.moves[ply]} after {{{note}}}: "
            "a flag fall ends the game"
        )
    if i + 1 < len(rec.clock_notes[ply]):
        after = rec.clock_notes[ply][i + 1]
        raise RecordError(f"{last}: {{{after}}} after {{{note}}}: a flag fall ends the game")
    if rec.time_control is None:
        raise RecordError(f"{last}: {{{note}}} but no TimeControl: a flag falls on a clock")
    ids = {p.lower(): p for p in player_ids(rec.game, rec.options)}
    player = ids.get((who or "").lower())
    if player is None:
        raise RecordError(f"{last}: {{{note}}}: {who} does not play ({', '.join(ids.values())})")
    if state.is_over():
        outcome = state.outcome()
        given = f" ({outcome.summary})" if outcome is not None else ""
        raise RecordError(f"{last}: {{{note}}} but the moves had ended the game{given}")
    if state.turn is not None and state.turn != player:
        raise RecordError(f"{last}: {{{note}}} but {state.turn}'s time was running")
    rec.clock_notes[ply][i] = clock_note("flag", player, None, None)
    return player


def read_text(path: str | Path, limit: int = MAX_RECORD_BYTES) -> str:
    """A record's text (``-``: standard input), UTF-8 with or without a byte-order mark; at
    most ``limit`` bytes are read (``/dev/zero`` ends)."""
    too_big = f"larger than {limit >> 20} MiB"
    return text_input.read_text(path, limit, "a game record", too_big, RecordError)


def read_record(path: str | Path) -> tuple[Record, GameState]:
    """Parse and fully check a record file; RecordError with one line on any problem."""
    rec = parse_record(read_text(path), str(path))
    return rec, validate(rec, str(path))


def outcome_of(rec: Record, state: GameState) -> Outcome | None:
    """The result to journal, crediting the people as they ended the game (a swap)."""
    outcome = state.outcome() if state.is_over() else None
    return None if outcome is None else credited(state, outcome, dict(rec.players))


def digest(rec: Record) -> str:
    """A validated record's fingerprint: the same game (tags, moves, times) gives the same,
    however the file was laid out."""
    if rec.drawn:  # left out of the file, drawn when read: the same file, the same print
        rec = replace(rec, options={k: v for k, v in rec.options.items() if k not in rec.drawn})
    return hashlib.sha256(format_record(rec).encode()).hexdigest()[:32]


def import_record(
    journal: Any, rec: Record, state: GameState, resume: bool = False, *, key: str | None = None
) -> int:
    """Add a validated record to the journal in one transaction. An unfinished game is stored
    as abandoned unless ``resume`` (then the daemon carries on with it at its next start).
    ``key``: its fingerprint (see ``digest``), kept to spot a second import."""
    status = rec.status
    if status != FINISHED:
        status = IN_PROGRESS if resume else ABANDONED
    snaps = clock_snapshots(rec)
    moves = list(zip(rec.moves, rec.times, rec.actors, rec.publics, strict=True))
    clock: dict[str, Any] = {}
    if rec.time_control is not None:
        clock["time_control"] = rec.time_control.text()
        moves = [(*m, snap) for m, snap in zip(moves, snaps, strict=True)]
        clock["clock_events"] = [
            (ply, *found)
            for ply, notes in sorted(rec.clock_notes.items())
            for note in notes
            if (found := clock_event_of(note)) is not None
        ]
    return journal.import_game(
        rec.game,
        rec.options,
        rec.players,
        moves,
        started=rec.started,
        ended=rec.ended,
        status=status,
        outcome=outcome_of(rec, state),
        tags=dict(rec.tags),
        digest=key,
        **clock,
    )


def clock_snapshots(rec: Record) -> list[dict[str, Any] | None]:
    """Each move's clock snapshot (``Clock.snapshot``) as a validated record tells it: every
    player's time left (each mover's from its ``[%clk]``, the others' as their last move left
    them), the next player's turn begun. Empty without a time control."""
    control = rec.time_control
    if control is None:
        return []
    left = dict.fromkeys(player_ids(rec.game, rec.options), control.base)
    out: list[dict[str, Any] | None] = []
    for k in range(len(rec.moves)):
        actor = rec.actors[k] if k < len(rec.actors) else None
        seconds = rec.clocks[k] if k < len(rec.clocks) else None
        if seconds is not None and actor in left:
            left[actor] = seconds
        running = rec.turns[k] if k < len(rec.turns) else None
        out.append(
            {
                "control": control.text(),
                "left": dict(left),
                "running": running if running in left else None,
                "used": 0.0,
                "paused": False,
            }
        )
    return out


def final_position_text(
    record_path: str | Path, read: tuple[Record, GameState] | None = None
) -> tuple[str, dict[str, Any], str]:
    """(game, options, position text) of a record's last position, for ``score --record``
    (``read``: the record already read, e.g. from stdin)."""
    from companion.core.position_text import format_position

    rec, state = read or read_record(record_path)
    cells = getattr(state, "cells", None)
    n = getattr(state, "n", None)
    if cells is None or n is None:
        raise RecordError(f"{record_path}: {rec.game} has no board position to score")
    cells = list(cells() if callable(cells) else cells)
    return rec.game, dict(rec.options), format_position(cells, n)
