"""The presenter: what the table shows, from the game and the daemon's notices. Pure.

One pass per change: ``Frame`` takes one ``Table`` snapshot, asks the game for its public
view once and maps the notices' cells to the board's squares once; the LED frame, the OLED
screen and the table page's view are all drawn from that, and a player's page from the same
snapshot with that player's view, so they always agree. Secrets stay out: the table (OLED,
LEDs, table page) gets the game's public view; a player's page gets that player's view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol

from companion.core.squares import FILES
from companion.games.base import (
    RGB,
    Cell,
    GameSpec,
    GameState,
    Hint,
    Layout,
    Panel,
    PanelRow,
)
from companion.games.base import View as GameView
from companion.timing.clock import ClockFace, clock_text
from companion.timing.on_time import view_of, win_cells
from companion.views.leds import GREEN, OFF, clock_warning, led_frame, warning_lit
from companion.views.oled import Screen, ScreenClock

PENDING_RGB: RGB = (0, 90, 200)  # cells of a move being entered
MOVES_SHOWN = 200  # a view lists the last so many moves (with the count of all of them)


class Played(Protocol):
    """A move as the views list it (the referee's ``Played``)."""

    @property
    def name(self) -> str: ...

    @property
    def public(self) -> str: ...

    @property
    def player(self) -> str | None: ...


@dataclass(frozen=True)
class ReviewStep:
    """One move of a reviewed game, as the board shows it while stepping through it: the
    position it was played in (the table's state then), its cells lit in ``MOVE_RGB`` and, at
    an inaccuracy or worse, the better move's in ``BETTER_RGB``; the OLED says the move, its
    label and the reason."""

    ply: int  # the step: 1 for the first move reviewed
    total: int
    move: str  # "12. ON c7"
    label: str  # best, good, inaccuracy, mistake, blunder
    reason: str = ""  # "better h8: keeps the lead on c5-a7-b8-f4" ("" when none is said)
    played: tuple[int, ...] = ()  # the move's cells
    better: tuple[int, ...] = ()  # the better move's cells
    buttons: str = ""  # how to step on, shown when there is no reason

    @property
    def said(self) -> str:
        """The step in one line, as the voice says it."""
        line = f"{self.move}: {self.label}"
        return f"{line}; {self.reason}" if self.reason else line


REVIEW_MOVE_RGB: RGB = (0, 80, 220)  # blue: the move played, stepping through a review
REVIEW_BETTER_RGB: RGB = (0, 180, 0)  # green: the better move


@dataclass
class Notices:
    """What the daemon adds on top of the game: messages, problems, highlights. Cells are
    the game's own (the presenter maps them to the board's squares)."""

    message: str = ""
    message_kind: str = ""  # news, refused, warning or hint ("" with no message)
    status: str = ""  # a lasting condition that stops play, e.g. "board disconnected"
    differ: tuple[int, ...] = ()  # cells where the board does not match the game (blink)
    strays: tuple[int, ...] = ()  # squares outside the game's area that hold something (blink)
    refused: int | None = None  # the cell of the last refused move
    hint: Hint | None = None  # a hint on show (its cells lit)
    pending: tuple[int, ...] = ()  # cells of a move being entered
    pending_text: str = ""
    expected: bool = False  # the LEDs show the game's position alone (recovery: hold confirm)
    blink_on: bool = True
    menu: tuple[tuple[str, ...], int] | None = None  # the new-game menu: games, chosen index
    qr: tuple[str, str] | None = None  # a page's QR code on the OLED: (label, URL)
    review: ReviewStep | None = None  # a reviewed game stepped through on the board
    # a refused secret move, for one page only: page's player -> (ply, line, actions), the
    # actions (move, label) offering what the refusal asks to confirm; shown while ply holds
    page_notes: dict[str, tuple[int, str, tuple[tuple[str, str], ...]]] = field(
        default_factory=dict
    )


@dataclass(frozen=True)
class Table:
    """One snapshot of the game in progress, as the views need it."""

    spec: GameSpec
    state: GameState
    options: dict[str, Any]
    layout: Layout | None
    board_size: int
    played: tuple[Played, ...]  # the moves from ply ``first_ply + 1`` on (the recent ones)
    game_id: int | None
    people: dict[str, str] = field(default_factory=dict)
    first_ply: int = 0  # moves played before those in ``played`` (left out: the views
    # list recent moves only, so their size does not grow with the game)
    clock: ClockFace | None = None  # the game clock as it stood at this snapshot, if any

    @property
    def moves_total(self) -> int:
        return self.first_ply + len(self.played)

    def squares(self) -> list[int]:
        """The physical square of every cell (empty for a game with no board)."""
        return self.layout.to_board(self.board_size) if self.layout else []

    def view(self, viewer: str | None = None) -> GameView:
        return view_of(self.spec, self.state, viewer)


@dataclass(frozen=True)
class Marks:
    """The notices' cells as board squares."""

    differ: tuple[int, ...]  # with the strays outside the game's area
    refused: int | None
    hint: tuple[int, ...]
    pending: tuple[int, ...]


def marks(notices: Notices, squares: list[int]) -> Marks:
    """Map the notices' cells to the board's ``squares`` (one per cell)."""

    def on_board(cells: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(squares[c] for c in cells if 0 <= c < len(squares))

    refused = notices.refused
    return Marks(
        differ=on_board(notices.differ) + notices.strays,
        refused=squares[refused] if refused is not None and 0 <= refused < len(squares) else None,
        hint=on_board(notices.hint.cells) if notices.hint else (),
        pending=on_board(notices.pending),
    )


class Frame:
    """One change, drawn: the game's public view and the marks are computed once, the LED
    frame, the OLED screen and the table page's view from them (each when first asked). The
    game's view is a function of its (immutable) state: a frame of the same state as the
    ``previous`` one (a blink, a message running out) takes its view over."""

    def __init__(
        self,
        table: Table,
        notices: Notices,
        titles: dict[str, str] | None = None,
        previous: Frame | None = None,
    ):
        self.table = table
        self.notices = notices
        self.titles = titles
        same = (
            previous is not None
            and previous.table.state is table.state
            and previous.table.spec is table.spec
        )
        self.view = previous.view if previous is not None and same else table.view()
        self.squares = table.squares()
        self.marks = marks(notices, self.squares)

    @cached_property
    def leds(self) -> list[RGB]:
        return _leds(self)

    @cached_property
    def screen(self) -> Screen:
        return _oled_screen(self)

    @cached_property
    def web(self) -> dict[str, Any]:
        """The table page's view."""
        return _web_view(self, None)

    def web_for(self, seat: str | None) -> dict[str, Any]:
        """The page of ``seat``'s view (None: the table page's)."""
        return self.web if seat is None else _web_view(self, seat)


def web_view(table: Table, notices: Notices, viewer: str | None = None) -> dict[str, Any]:
    """The view model the web pages draw (see docs/web.md); ``viewer`` None is the table,
    else a seat (a page belongs to a person): the view is of the player that seat plays now,
    which a swap may have changed."""
    return Frame(table, notices).web_for(viewer)


def _oled_screen(frame: Frame) -> Screen:
    """The OLED: the game's public panel, the new-game menu, or a page's QR code."""
    table, notices = frame.table, frame.notices
    if notices.qr is not None:
        return Screen(Panel("PAGES", 0, ()), qr=notices.qr)
    if notices.review is not None:
        return review_screen(notices.review)
    if notices.menu is not None:
        games, index = notices.menu
        first = max(0, min(index - 1, len(games) - 3))
        names = frame.titles or {}
        rows = tuple(
            PanelRow(names.get(g, g.upper()), "", i == index) for i, g in enumerate(games)
        )[first : first + 3]
        return Screen(Panel("NEW GAME", 0, rows, corner="menu"), notices.message)
    panel = frame.view.panel
    clock = screen_clock(panel, table)
    panel = named_panel(panel, table)
    over = table.state.is_over()
    message = notices.message or notices.pending_text
    return Screen(panel=panel, message=message, status=notices.status, over=over, clock=clock)


def review_screen(step: ReviewStep) -> Screen:
    """The OLED stepping through a review: the move and its label on the row, the reason (or
    the buttons' words) on the lines under it."""
    row = PanelRow(step.move, step.label)
    panel = Panel("REVIEW", step.ply, (row,), corner=f"{step.ply}/{step.total}")
    return Screen(panel=panel, message=step.reason or step.buttons)


def times_now(table: Table) -> dict[str, float]:
    """Each player's time left at the snapshot's moment (``clock.at``)."""
    face = table.clock
    if face is None:
        return {}
    return {p: face.time_of(p, face.at) for p, _ in face.left}


def follows(kept: ClockFace, face: ClockFace) -> bool:
    """Is ``face`` what ``kept`` said the clock would show at ``face.at`` (the same turn
    running, nothing paused, resumed or added since)? Then the pages need no new clock."""
    if (kept.running, kept.paused, kept.control) != (face.running, face.paused, face.control):
        return False
    if [p for p, _ in kept.left] != [p for p, _ in face.left]:
        return False
    return all(abs(kept.time_of(p, face.at) - left) < 1e-6 for p, left in face.left)


def web_clock(table: Table) -> dict[str, Any] | None:
    """The view's ``clock`` as the snapshot shows it, standing (``as_of`` None: a replay's
    frames; the daemon gives the live pages theirs, with the server's time, docs/web.md)."""
    face = table.clock
    if face is None:
        return None
    return {**face.api(0.0), "as_of": None}


def on_move(table: Table) -> str | None:
    """The player whose time matters now: the one whose clock runs, else the player to
    move (a clock not started yet, or paused before a turn began)."""
    face = table.clock
    if face is None:
        return None
    players = dict(face.left)
    if face.running in players:
        return face.running
    return table.state.turn if table.state.turn in players else None


def clock_lit(table: Table) -> bool | None:
    """The LEDs' time warning for the player on move (``leds.warning_lit``)."""
    face, mover = table.clock, on_move(table)
    if face is None or mover is None:
        return None
    running = face.running == mover and not face.paused
    return warning_lit(times_now(table)[mover], running)


def screen_clock(panel: Panel, table: Table) -> ScreenClock | None:
    """The clock on the OLED: each of two players' times on their rows (found by their
    labels, as the game writes them), or the time of the player on move alone."""
    face = table.clock
    if face is None:
        return None
    left = times_now(table)
    if len(left) > 2:
        mover = on_move(table)
        text = clock_text(left[mover]) if mover is not None else ""
        return ScreenClock(mover=text, paused=face.paused)
    label_of = {table.spec.player_label(p): p for p in left}
    rows = tuple(label_of.get(r.label) for r in panel.rows)
    times = tuple(clock_text(left[p]) if p is not None else "" for p in rows)
    running = rows.index(face.running) if face.running in rows else None
    return ScreenClock(rows=times, running=running, paused=face.paused)


NAMED_LABEL_CHARS = 11  # a row's label with a name, leaving room for an 8-digit value


def named_panel(panel: Panel, table: Table) -> Panel:
    """The panel with the people's names on their rows: 'Ana ON' where it fits, else 'Ana'.
    Only rows labelled as the game labels a player are renamed, whatever the game."""
    if not table.people:
        return panel
    label_of = {table.spec.player_label(p): p for p in table.state.players}
    rows = []
    for row in panel.rows:
        name = table.people.get(label_of.get(row.label, ""), "").strip()
        if name:
            both = f"{name} {row.label}"
            label = both if len(both) <= NAMED_LABEL_CHARS else name[:NAMED_LABEL_CHARS]
            row = replace(row, label=label)
        rows.append(row)
    return replace(panel, rows=tuple(rows))


def _leds(frame: Frame) -> list[RGB]:
    """The colour of every square of the physical board."""
    table, notices, view, squares, marked = (
        frame.table,
        frame.notices,
        frame.view,
        frame.squares,
        frame.marks,
    )
    n = table.board_size
    base: list[RGB] = [OFF] * (n * n)
    if squares:
        for cell, rgb in zip(range(len(squares)), view.leds, strict=False):
            base[squares[cell]] = rgb
    elif len(view.leds) == n * n:  # a game with no board may still light the squares
        base = list(view.leds)
    if notices.expected:  # where every piece should be, nothing on top
        return base
    for sq in marked.pending:
        base[sq] = PENDING_RGB
    over = table.state.is_over()
    lit = None if over else clock_lit(table)
    if lit is not None:
        base = clock_warning(base, n, lit)
    highlight = marked.hint or (
        tuple(squares[c] for c in win_cells(table.spec, table.state)) if over and squares else ()
    )
    colour = (notices.hint.colour if notices.hint else None) or GREEN
    if notices.review is not None:  # the move played, and the better one in another colour
        lit = list(base)
        step = notices.review
        for cells, rgb in ((step.played, REVIEW_MOVE_RGB), (step.better, REVIEW_BETTER_RGB)):
            for cell in cells:
                if cell < len(squares):
                    lit[squares[cell]] = rgb
        return lit
    return led_frame(
        base,
        differ=marked.differ,
        refused=marked.refused,
        highlight=highlight,
        highlight_colour=colour if marked.hint else GREEN,
        blink_on=notices.blink_on,
    )


def _hex(rgb: RGB | None) -> str | None:
    return None if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def _cell_name(cell: int, files: int) -> str:
    return f"{FILES[cell % files]}{cell // files + 1}"


def _web_view(frame: Frame, seat: str | None) -> dict[str, Any]:
    """A page's view model: the table's (``seat`` None), or the view of the player that
    ``seat`` plays now."""
    table, notices = frame.table, frame.notices
    spec, state = table.spec, table.state
    viewer = None if seat is None else state.player_of(seat)
    view = frame.view if viewer is None else table.view(viewer)
    to_act = sorted(state.to_act)
    outcome = state.outcome() if state.is_over() else None
    players = []
    for k, p in enumerate(state.players):
        row = view.panel.rows[k] if k < len(view.panel.rows) else None
        players.append(
            {
                "id": p,
                "label": spec.player_label(p),
                "name": table.people.get(p, ""),
                "score": row.value if row else "",
                "to_move": p in to_act,
            }
        )
    board = None
    if table.layout is not None and view.cells:
        files = table.layout.files
        marks: dict[int, list[str]] = {}

        def mark(cells: Iterable[int], name: str) -> None:
            for c in cells:
                marks.setdefault(c, []).append(name)

        mark(notices.differ, "differ")
        mark(notices.hint.cells if notices.hint else (), "hint")
        mark(notices.pending, "selected")
        if notices.refused is not None:
            mark((notices.refused,), "refused")
        if state.is_over():
            mark(win_cells(spec, state), "win")
        mark(_last_cells(table), "last")
        board = {
            "files": files,
            "ranks": table.layout.ranks,
            "cells": [
                _cell_json(c, files, cell, view.leds[c] if c < len(view.leds) else None, marks)
                for c, cell in enumerate(view.cells)
            ],
        }
    shown = table.played[-MOVES_SHOWN:]
    first = table.moves_total - len(shown)
    revealed = state.revealed()
    move_list = [
        {
            "ply": first + k + 1,
            "player": p.player,
            "name": p.name if revealed or (viewer is not None and p.player == viewer) else p.public,
        }
        for k, p in enumerate(shown)
    ]
    out: dict[str, Any] = {
        "game": spec.name,
        "title": spec.heading(),
        "game_id": table.game_id,
        "ply": state.ply,
        "over": state.is_over(),
        "turn": state.turn,
        "to_act": to_act,
        "players": players,
        "board": board,
        "explanation": list(view.explanation),
        "result": None
        if outcome is None
        else {
            "winners": list(outcome.winners),
            "summary": outcome.summary,
            "reason": outcome.reason,
        },
        "moves": move_list,
        "moves_total": table.moves_total,
        "clock": web_clock(table),
        "message": notices.message,
        "message_kind": notices.message_kind,
        "status": notices.status,
        "actions": [{"move": m, "label": label} for m, label in view.actions]
        if viewer is None
        else [],
    }
    if viewer is not None:
        out["you"] = viewer
        out["seat"] = seat
        lines, actions = list(view.private), list(view.actions)
        note = notices.page_notes.get(viewer)
        if note is not None and note[0] == state.ply:
            lines.insert(0, note[1])
            actions[:0] = note[2]
        out["private"] = {
            "lines": lines,
            "actions": [{"move": m, "label": label} for m, label in actions],
        }
    return out


def _last_cells(table: Table) -> tuple[int, ...]:
    """The cells the last move names, in its public notation ('e5', 'd4-d5', 'c2-c3')."""
    if not table.played or table.layout is None:
        return ()
    words = re.split(r"[^a-z0-9]+", table.played[-1].public.lower())
    files = table.layout.files
    names = {_cell_name(c, files): c for c in range(table.layout.cells)}
    return tuple(names[w] for w in words if w in names)


def _cell_json(
    c: int, files: int, cell: Cell, rgb: RGB | None, marks: dict[int, list[str]]
) -> dict[str, Any]:
    return {
        "name": _cell_name(c, files),
        "file": c % files,
        "rank": c // files,
        "piece": cell.piece,
        "text": cell.text,
        "colour": _hex(cell.colour or rgb),
        "height": cell.height,
        "marks": marks.get(c, []),
    }
