"""Checking a record: every tag and every move replayed through the game's engine, the
result it claims, its fingerprint, and the validated record added to the journal."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games import get_spec
from companion.games.base import GameState, IllegalMove, Outcome, Step, credited
from companion.journal.rows import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
)
from companion.records.format import (
    Record,
    RecordError,
    clock_event_of,
    clock_note,
    format_record,
    player_ids,
)
from companion.records.read import parse_record, read_text


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
        from companion.timing.on_time import ended_on_time  # a flag fall only

        state = ended_on_time(state, spec.clock_rules().on_time(state, flagged))
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
    return _sha256(format_record(rec).encode()).hexdigest()[:32]


def _sha256(data: bytes) -> Any:
    """SHA-256 of ``data``: Python's own, when it has it, since hashlib first loads OpenSSL's
    library (which costs an import of one record more than its replay); the same digest."""
    try:
        from _sha2 import sha256  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256  # Python 3.11
        except ImportError:  # a Python built without them
            from hashlib import sha256
    return sha256(data)


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
