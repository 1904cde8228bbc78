"""Game records as plain text, in the spirit of PGN (docs/records.md): what a record holds
and how it is written::
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

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.games import get_spec
from companion.games import player_ids as game_player_ids
from companion.games.base import GameSpec, GameState, IllegalMove, Step
from companion.journal.api import ClockEvent
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    PAUSED,
    GameEntry,
    iso,
)
from companion.records.said import result_said
from companion.records.shown import shown_names, shown_options, shows_secrets

if TYPE_CHECKING:  # the clock's module is read for a game on a clock only
    from companion.timing.clock import TimeControl

MAX_RECORD_BYTES = 4 << 20  # a 5,000-move game with times is about 100 kB
MAX_FILE_BYTES = 32 << 20  # a file of many games (an event's): each game still at most 4 MiB
MAX_RECORD_MOVES = 10_000  # far past any game played at a table; replays stay quick
MAX_RECORD_TOKENS = 4 * MAX_RECORD_MOVES + 1_000  # a number, a move, a time, a mark each
PLAIN_TAG = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
PLAYER_PREFIX = "player:"  # ``[Player:Zoë "..."]``: a player whose id is not a plain tag name
TIME_LIKE = re.compile(r"[+-]\d|\+")  # a comment starting so is meant as a time
STATUS_WORDS = {
    "finished": FINISHED,
    "in progress": IN_PROGRESS,
    "abandoned": ABANDONED,
    "paused": PAUSED,  # imported as abandoned (or in progress with --resume)
}
SAID_TAG = "Said"  # a finished game's result by name: written from the game, not read back
KNOWN_TAGS = {
    "game", "date", "started", "ended", "options", "status", "result", "summary", "timecontrol",
    "said",
}  # fmt: skip


# A clock comment's pattern, compiled when a record with clock comments is read
@cache
def _clk() -> re.Pattern[str]:
    return re.compile(r"\[%clk\s+(\d{1,2}):([0-5]\d):([0-5]\d(?:\.\d{1,3})?)\]")


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


def quote_tag(value: str) -> str:
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
    if PLAIN_TAG.fullmatch(pid) and pid.lower() not in taken:
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
    return f'"{name}"' if _SPACE.search(name) else name


_SPACE = re.compile(r"\s")


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
    taken = KNOWN_TAGS | {name.lower() for name in rec.tags}
    for pid in player_ids(rec.game, rec.options):
        if rec.players.get(pid):
            tags.append((_player_tag(pid, taken), rec.players[pid]))
    for name, value in rec.tags.items():
        tags.append((name, value))
    status = next(w for w, s in STATUS_WORDS.items() if s == rec.status)
    tags.append(("Status", status))
    tags.append(("Result", rec.result or "*"))
    if rec.summary:
        tags.append(("Summary", rec.summary))
    lines = [f'[{name} "{quote_tag(value)}"]' for name, value in tags]
    lines.append("")
    row: list[str] = []
    per = per_number(rec.game, rec.options)
    tenths = rec.time_control is not None and counts_tenths(rec.time_control)
    notes, clock_notes = rec.notes, rec.clock_notes
    for i, name in enumerate(rec.moves):
        if notes and i in notes:  # most moves have none: asked only then (an import's time)
            row.extend(map(_comment, notes[i]))
        if clock_notes and i in clock_notes:
            row.extend(map(_comment, clock_notes[i]))
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
    m = _clk().fullmatch(text.strip())
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


@cache
def _note() -> re.Pattern[str]:
    return re.compile(
        r"clock (?P<kind>paused|resumed)(?: \((?P<why>[^()]*)\))?"
        r"|clock: (?P<sign>[+-])(?P<secs>\d+(?:\.\d+)?)s to (?P<to>\S+)(?: \((?P<why2>[^()]*)\))?"
        r"|clock: (?P<flag>\S+) out of time"
    )


def clock_event_of(note: str) -> tuple[str, str | None, float | None, str | None] | None:
    """(kind, player, seconds, why) of a clock note (``clock_note``'s inverse), or None."""
    m = _note().fullmatch(note)
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
    return "{" + ("- " if TIME_LIKE.match(body) else "") + body + "}"


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
    if not entry.time_control:
        return None, [], {}
    from companion.timing.clock import TimeControl

    try:
        control = TimeControl.parse(entry.time_control)
    except ValueError:
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
    revealed = shows_secrets(entry)  # a replay of the game: once for the whole record
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
    said = result_said(entry)
    if said is not None:  # the result by name, in seat order: "Ben beat Dan"
        tags[SAID_TAG] = said[0]
    control, clocks, clock_notes = clock_of_entry(entry, clock_events)
    return Record(
        time_control=control,
        clocks=clocks,
        clock_notes=clock_notes,
        game=entry.game,
        options=shown_options(entry),
        moves=shown_names(entry, revealed),
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
