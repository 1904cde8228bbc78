"""The daemon seen from the web server (``companion.views.web.backend.WebBackend``).

The web server calls from its own threads. Views are snapshots the daemon's thread makes once
per change (a flood of page requests never reaches the referee); a move or a click is handed
to the daemon's thread and answered when the referee has decided, exactly as a press on the
board would be.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.squares import FILES
from companion.games import get_spec
from companion.games.base import GameState
from companion.referee.session import Played
from companion.timing.clock import Clock, ClockFace, TimeControl
from companion.timing.on_time import ended_on_time
from companion.views.presenter import MOVES_SHOWN, Frame, Notices, Table, web_view
from companion.views.reviewable import refusal
from companion.views.web.backend import Listeners
from companion.views.web.reviews import Reviews

if TYPE_CHECKING:
    from companion.journal.rows import GameEntry
    from companion.service.daemon import Daemon

Answer = dict[str, Any]
FRAMES_PER_PAGE = 50  # views in one answer of /api/game (the page asks for more as needed)
MAX_FRAMES_PER_PAGE = 100


class DaemonWebBackend:
    def __init__(self, daemon: Daemon, tokens_path: str | Path | None = None):
        from companion.views.web.tokens import TokenStore

        self.daemon = daemon
        self.store = TokenStore(tokens_path)
        self._lock = threading.Lock()
        self._listeners = Listeners()
        self._generation = 0
        self._cache: dict[str | None, tuple[int, dict[str, Any]]] = {}
        self._frame: Frame | None = None  # the last one drawn: the pages' views derive from it
        self._players: list[str] = []
        self._game_id: int | None = None
        self._replays = ReplayCheckpoints()
        self.reviews = Reviews()  # the engine's reviews of finished games, off this process
        # the last history answer, by (generation, the journal's data_version, limit): the
        # daemon renders after each of its own writes, and another program's shows in the
        # data_version, so a page never gets a list older than the journal
        self._history: tuple[tuple[int, int, int], list[dict[str, Any]]] | None = None
        daemon.listeners.append(self._changed)
        daemon.call(self._snapshot)

    # --- the daemon's side (its own thread) ---
    def _snapshot(self) -> None:
        """Called after every render: the public view and the players, kept for the pages."""
        session = self.daemon.session
        players = list(session.state.players)
        frame = self.daemon.frame or self.daemon.present()
        public = self.daemon.web_view(None, frame)
        with self._lock:
            self._frame = frame
            self._generation += 1
            self._cache = {None: (self._generation, public)}
            self._players = players
            self._game_id = session.game_id
        self.store.for_game(session.game_id, players)

    def _changed(self) -> None:
        self._snapshot()
        self._listeners.notify()

    # --- WebBackend ---
    def public_view(self) -> dict[str, Any]:
        with self._lock:
            return self._cache[None][1]

    def player_view(self, player: str) -> dict[str, Any]:
        with self._lock:
            generation, frame = self._generation, self._frame
            cached = self._cache.get(player)
        if cached is not None and cached[0] == generation:
            return cached[1]
        # a question, not an event: no render (it would tell the pages of a change, and they
        # would ask for this view again, and again)
        view = self.daemon.call(lambda: self.daemon.web_view(player, frame), render=False)
        with self._lock:
            if self._generation == generation:
                self._cache[player] = (generation, view)
        return view

    def players(self) -> list[str]:
        with self._lock:
            return list(self._players)

    def token_player(self, token: str) -> str | None:
        return self.store.player_of(token)

    def tokens(self) -> dict[str, str]:
        with self._lock:
            game_id, players = self._game_id, list(self._players)
        return self.store.for_game(game_id, players)

    def submit(self, player: str, move: str) -> Answer:
        """A move from the page of ``player``'s seat, played as the player it holds now."""

        def act() -> Answer:
            if self.daemon.status:
                return _no("board-problem", self.daemon.status)
            playing = self.daemon.session.state.player_of(player)
            verdict = self.daemon.submit(move, playing)
            if verdict.accepted:
                return {"ok": True, "played": verdict.names}
            refusal = verdict.refusal
            answer = _no(refusal.code if refusal else "refused", refusal.reason if refusal else "")
            if refusal is not None and refusal.confirm:
                answer["confirm"] = refusal.confirm  # the move that does it once confirmed
            return answer

        return self.daemon.call(act)

    def press(self, player: str, square: str) -> Answer:
        def act() -> Answer:
            daemon = self.daemon
            session = daemon.session
            layout = daemon.map.layout if daemon.map.squares else None
            if layout is None:
                return _no("no-board", "this game has no board")
            cell = _cell_of(square, layout.files, layout.ranks)
            if cell is None:
                return _no("not-a-square", f"{square}: not a square of this game")
            state = session.state
            if state.is_over():
                return _no("game-over", "game over: start a new game")
            playing = state.player_of(player)  # the seat's player now (a swap changes it)
            if playing not in state.to_act:
                return _no("not-your-turn", f"{playing}: not your turn")
            if daemon.status:
                return _no("board-problem", daemon.status)
            verdict = daemon.press_cell(cell)
            if verdict.accepted:
                return {"ok": True, "played": verdict.names}
            if verdict.refusal is not None:
                return _no(verdict.refusal.code, verdict.refusal.reason)
            pending = verdict.pending.text if verdict.pending is not None else ""
            return {"ok": True, "pending": pending or verdict.say or daemon.message}

        return self.daemon.call(act)

    def undo(self, player: str, what: str) -> Answer:
        """``ask`` to take back the last move, or ``accept`` / ``decline`` another player's
        request: every player must agree on their own page."""

        def act() -> Answer:
            daemon = self.daemon
            if what == "ask":
                refusal = daemon.ask_undo(player).refusal
            elif what in ("accept", "decline"):
                refusal = daemon.answer_undo(player, what == "accept").refusal
            else:
                return _no("bad-request", f"{what}: ask, accept or decline")
            if refusal is not None:
                return _no(refusal.code, refusal.reason)
            return {"ok": True, "undo": daemon.referee.undo_view()}

        return self.daemon.call(act)

    def clock(self, player: str, what: str) -> Answer:
        """``pause`` or ``resume`` the game clock, as the confirm button does."""

        def act() -> Answer:
            session = self.daemon.session
            if session.clock is None:
                return _no("no-clock", "this game has no clock")
            if what not in ("pause", "resume"):
                return _no("bad-request", f"{what}: pause or resume")
            if (what == "pause") == session.clock.paused:
                return _no(
                    "clock-" + what,
                    f"the clock is {'paused' if what == 'pause' else 'running'} already",
                )
            if not self.daemon.game_clock.toggle():
                return _no("clock-" + what, "the clock has not started (nothing runs yet)")
            return {"ok": True, "paused": session.clock.paused}

        return self.daemon.call(act)

    def tutor(self, player: str, what: str) -> Answer:
        """``on`` or ``off``: the tutor for this page's seat alone (docs/review.md)."""

        def act() -> Answer:
            if what not in ("on", "off"):
                return _no("bad-request", f"{what}: on or off")
            why = self.daemon.tutor_switch(player, what == "on")
            if why:
                return _no("no-tutor", why)
            return {"ok": True, "tutor": what == "on"}

        return self.daemon.call(act)

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` games, newest first, from one bounded query on the journal's
        games rows (``recent``): its cost follows ``limit``, never the journal's size. It
        lists no move and no option, so nothing secret: a result and the seats at the end
        exist only once the game is over."""
        journal = self.daemon.journal
        with self._lock:  # read before the journal: what is read is at least as new
            generation, kept = self._generation, self._history
        key = (generation, journal.data_version(), limit)
        if kept is not None and kept[0] == key:
            return kept[1]  # nothing changed since: the pages share one answer
        games = [history_row(entry) for entry in journal.recent(limit)]
        with self._lock:
            self._history = (key, games)
        return games

    def record(self, game_id: int, first: int = 0, count: int = FRAMES_PER_PAGE) -> dict | None:
        from companion.journal.rows import FINISHED

        entry = self.daemon.journal.load(game_id)
        if entry is None:
            return None
        names = list(entry.move_names)
        clocks = [m.clock for m in entry.moves] if entry.time_control else None
        detail = entry.detail if isinstance(entry.detail, dict) else {}
        flagged = detail.get("on_time") if entry.status == FINISHED else None
        return replay_frames(
            entry.id, entry.game, dict(entry.options), names, first, count, self._replays,
            clocks=clocks, time_control=entry.time_control,
            flagged=flagged if isinstance(flagged, str) else None,
        )  # fmt: skip

    def review(self, game_id: int, start: bool = False) -> dict | None:
        entry = self.daemon.journal.load(game_id)
        if entry is None:
            return None
        refused = refusal(entry)
        if refused:
            return {"id": game_id, "state": "refused", "reason": refused}
        extra = {"players": dict(entry.players), "result": entry.summary}
        return self.reviews.ask(
            game_id, entry.game, dict(entry.options), entry.move_names, start, extra
        )

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._listeners.subscribe(callback)


class ReplayCheckpoints:
    """The positions of the game replayed last, every CHECKPOINT plies (with the moves a view
    lists), so the next page of it replays at most CHECKPOINT plies before its own: paging
    through a long game costs each page about the same."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[Any, ...] | None = None
        self._points: dict[int, tuple[GameState, tuple[Played, ...]]] = {}

    def start(self, key: tuple[Any, ...], first: int) -> tuple[int, Any, tuple[Played, ...]]:
        """(ply, state, recent moves) of the nearest checkpoint at or before ``first`` of the
        game ``key`` names ((0, None, ()) when there is none)."""
        with self._lock:
            if key != self._key:
                self._key, self._points = key, {}
                return 0, None, ()
            ply = max((k for k in self._points if k <= first), default=0)
            state, recent = self._points.get(ply, (None, ()))
            return (ply, state, recent) if state is not None else (0, None, ())

    def keep(self, key: tuple[Any, ...], ply: int, state: GameState, recent: list[Played]):
        with self._lock:
            if key == self._key:
                self._points[ply] = (state, tuple(recent[-MOVES_SHOWN:]))


CHECKPOINT = 100  # plies between two kept positions of a replay


def replay_frames(
    game_id: int,
    game: str,
    options: dict[str, Any],
    names: list[str],
    first: int = 0,
    count: int = FRAMES_PER_PAGE,
    checkpoints: ReplayCheckpoints | None = None,
    *,
    clocks: Sequence[dict[str, Any] | None] | None = None,
    time_control: str | None = None,
    flagged: str | None = None,
) -> dict:
    """One page of a game's public views, for the replay viewer: the views after plies
    ``first`` .. ``first + count - 1`` (at most MAX_FRAMES_PER_PAGE), each listing the recent
    moves only, so an answer's size does not grow with the game. Secrets stay hidden unless
    the game reached the point where it reveals them. With ``checkpoints`` the replay starts
    from the nearest position kept by an earlier page of the same game. A timed game
    (``time_control``, and each move's clock snapshot in ``clocks``) shows its clock as it
    stood after each move, not ticking (``as_of`` null); one that ended on time
    (``flagged``: the player whose flag fell after the last move) ends with the flag: its
    last frame over, on time, that player's time 0."""
    spec = get_spec(game)
    options = spec.resolve(options)
    layout = spec.layout(options)
    board = layout.natural_board if layout else 8
    total = len(names)
    first = max(0, min(first, total))
    last = min(total, first + max(1, min(count, MAX_FRAMES_PER_PAGE)) - 1)
    key = (game_id, game, json.dumps(options, sort_keys=True, default=str), hash(tuple(names)))
    ply, state, recent = checkpoints.start(key, first) if checkpoints else (0, None, ())
    if state is None:
        state = spec.new(**options)
    played: list[Played] = list(recent)
    frames = []
    for k in range(ply, last + 1):
        if checkpoints is not None and k % CHECKPOINT == 0:
            checkpoints.keep(key, k, state, played)
        if k >= first:
            shown = tuple(played[-MOVES_SHOWN:])
            fell = flagged if k == total and flagged in state.players else None
            at = ended_on_time(state, spec.clock_rules().on_time(state, fell)) if fell else state
            table = Table(spec, at, options, layout, board, shown, game_id, {}, k - len(shown))
            if time_control:
                face = replay_clock(time_control, state.players, clocks, k)
                if face is not None and fell:
                    face = _fallen(face, fell)
                table = replace(table, clock=face)
            frames.append(web_view(table, Notices(), None))
        if k == last:
            break
        move = state.parse_move(names[k])
        referee = state.forced_move() is not None or state.chance() is not None
        who = None if referee else state.actor(move)
        played.append(Played(names[k], state.public_name(move), who, referee))
        state = state.play(move)
        if len(played) > 2 * MOVES_SHOWN:
            del played[:-MOVES_SHOWN]
    moves = frames[-1]["moves"][-(last - first) :] if last > first else []
    return {
        "id": game_id,
        "game": game,
        "plies": total,
        "from": first,
        "moves": moves,
        "frames": frames,
    }


def _fallen(face: ClockFace, flagged: str) -> ClockFace:
    """``face`` once ``flagged``'s flag fell: their time gone, nothing running."""
    left = tuple((p, 0.0 if p == flagged else t) for p, t in face.left)
    return replace(face, left=left, running=None, free=0.0)


def replay_clock(
    time_control: str, players: Sequence[str], clocks: Sequence[dict[str, Any] | None] | None,
    ply: int,
) -> ClockFace | None:  # fmt: skip
    """The clock as it stood after ``ply`` moves (its last snapshot then; a fresh one at the
    start), or None when it cannot be read."""
    try:
        snap = None
        for k in range(min(ply, len(clocks or ())) - 1, -1, -1):
            if clocks and clocks[k] is not None:
                snap = clocks[k]
                break
        if snap is None:
            return Clock(TimeControl.parse(time_control), players).face(0.0)
        return Clock.restore(snap, 0.0).face(0.0)
    except ValueError:  # a damaged snapshot: the replay goes on without its clock
        return None


def history_row(entry: GameEntry) -> dict[str, Any]:
    """One game of /api/history, from a journal entry (its moves not needed): who played each
    player as the game ended (a swap moves people between players)."""
    from companion.records.said import result_said, result_words, seated

    return {
        "id": entry.id,
        "game": entry.game,
        "started": _iso(entry.started),
        "status": entry.status,
        "result": entry.summary or entry.status,
        "said": result_words(entry) if result_said(entry) else None,  # "Dan beat Ben (OFF wins)"
        "players": seated(entry),  # in seat order, the first player first
        "moves": entry.move_count,
    }


def _cell_of(name: str, files: int, ranks: int) -> int | None:
    name = name.strip().lower()
    if len(name) < 2 or name[0] not in FILES[:files] or not name[1:].isascii():
        return None
    if not name[1:].isdigit():
        return None
    rank = int(name[1:]) - 1
    if not 0 <= rank < ranks:
        return None
    return rank * files + FILES.index(name[0])


def _no(code: str, reason: str) -> Answer:
    return {"ok": False, "code": code, "reason": reason}


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    from companion.journal.rows import iso

    return iso(ms)
