"""An in-memory WebBackend for the web tests: a real game (through the games' protocol: state,
``spec.view``, ``spec.layout``), players with secrets in their private views, a history, and
change notices from another thread.

Every secret starts with ``SECRET-`` so tests can look for any of them anywhere.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from companion.games import get_spec
from companion.views.web.backend import Listeners
from companion.views.web.reviews import Reviews
from companion.views.web.tokens import TokenStore

SECRET_PREFIX = "SECRET-"


def _hex(rgb: tuple[int, int, int] | None) -> str | None:
    return None if rgb is None or rgb == (0, 0, 0) else "#{:02x}{:02x}{:02x}".format(*rgb)


def random_moves(game: str = "binaryon", count: int = 10, seed: int = 1) -> list[str]:
    """Names of ``count`` legal moves of a random game (fewer if it ends first)."""
    import random

    rng = random.Random(seed)
    spec = get_spec(game)
    state = spec.new(**spec.resolve({}))
    names: list[str] = []
    while len(names) < count and not state.is_over():
        moves = [m for m in state.legal_moves() if m.name != "pass"]
        move = rng.choice(moves) if moves else state.legal_moves()[0]
        names.append(move.name)
        state = state.play(move)
        while (forced := state.forced_move()) is not None:
            state = state.play(forced)
    return names


class FakeBackend:
    def __init__(
        self,
        game: str = "binaryon",
        names: dict[str, str] | None = None,
        notify_in_thread: bool = True,
    ):
        self.spec = get_spec(game)
        self.options = self.spec.resolve({})
        self.layout = self.spec.layout(self.options)
        self.names = names or {"on": "Ana", "off": "Ben"}
        self.notify_in_thread = notify_in_thread
        self.token_store = TokenStore()
        self._lock = threading.RLock()
        self.listeners = Listeners()  # who subscribed (the tests check servers unsubscribe)
        self._next_id = 1
        self._past: list[dict[str, Any]] = []  # earlier games: id, game, moves, result
        self.reviews = Reviews()
        self.calls: list[tuple[str, str, str]] = []  # (method, player, value) of every action
        self.clock: dict[str, Any] | None = None  # the live views' game clock (docs/web.md)
        self.replay_clocks: list[dict[str, Any]] = []  # the replay's clock after each ply
        self.new_game()

    # --- the game in progress ---
    def new_game(self, moves: list[str] | None = None) -> None:
        with self._lock:
            if getattr(self, "moves", None):
                self._past.append(
                    {"id": self.game_id, "game": self.spec.name, "moves": list(self.moves),
                     "result": self._result(self.states[-1]) or "abandoned",
                     "started": "2026-11-23T10:00:00Z"}
                )  # fmt: skip
            self.game_id = self._next_id
            self._next_id += 1
            self.states = [self.spec.new(**self.options)]
            self.moves: list[str] = []
            self.message = ""
            self.refused: str | None = None
            players = list(self.states[0].players)
            self.secrets = {
                p: f"{SECRET_PREFIX}{p.upper()}-{secrets.token_hex(4)}" for p in players
            }
            self.token_store.for_game(self.game_id, players)
            for name in moves or []:
                self._play(name, None)
        self._notify()

    def set_clock(self, clock: dict[str, Any] | None) -> None:
        """Show ``clock`` (the view's ``clock``) from now on: a change, as the daemon's."""
        with self._lock:
            self.clock = clock
        self._notify()

    def board_press(self, square: str) -> dict[str, Any]:
        """A press on the physical board, by whoever is on turn."""
        return self.press(self.states[-1].turn or self.players()[0], square)

    def _play(self, name: str, player: str | None) -> None:
        state = self.states[-1]
        self.states.append(state.play(state.parse_move(name), player))
        self.moves.append(name)
        while (forced := self.states[-1].forced_move()) is not None:
            st = self.states[-1]
            self.moves.append(forced.name)
            self.states.append(st.play(forced))

    def _act(self, player: str, name: str) -> dict[str, Any]:
        with self._lock:
            state = self.states[-1]
            if (refusal := state.own_turn(player)) is not None:
                return self._refuse(refusal.code, refusal.reason)
            try:
                move = state.parse_move(name)
            except ValueError as e:
                return self._refuse("bad-move", str(e), name)
            refusal = state.check(move, player)
            if refusal is not None:
                return self._refuse(refusal.code, refusal.reason, name)
            self._play(name, player)
            self.message, self.refused = "", None
        self._notify()
        return {"ok": True}

    def _refuse(self, code: str, reason: str, square: str | None = None) -> dict[str, Any]:
        self.message, self.refused = reason, square
        self._notify()
        return {"ok": False, "code": code, "reason": reason}

    def _notify(self) -> None:
        listeners = self.listeners.current()

        def run() -> None:
            for callback in listeners:
                callback()

        if self.notify_in_thread:
            threading.Thread(target=run, daemon=True).start()
        else:
            run()

    # --- view models ---
    def _result(self, state) -> str | None:
        outcome = state.outcome() if state.is_over() else None
        return outcome.summary if outcome else None

    def _view(
        self, states: list, moves: list[str], game_id: int, live: bool, viewer: str | None = None
    ) -> dict[str, Any]:
        spec, state = self.spec, states[-1]
        view = spec.view(state, viewer)
        public_moves = []
        for st, name in zip(states, moves, strict=False):
            move = st.parse_move(name)
            shown = name if state.revealed() or st.actor(move) == viewer else st.public_name(move)
            public_moves.append((st.actor(move), shown))
        last = public_moves[-1][1] if public_moves else None
        board = None
        if self.layout is not None and view.cells:
            files = self.layout.files
            board = {"files": files, "ranks": self.layout.ranks, "cells": []}
            for i, cell in enumerate(view.cells):
                name = spec.cell_name(i, self.options)
                marks = []
                if name == last:
                    marks.append("last")
                if live and name == self.refused:
                    marks.append("refused")
                led = view.leds[i] if i < len(view.leds) else None
                board["cells"].append(
                    {"name": name, "file": i % files, "rank": i // files, "piece": cell.piece,
                     "text": cell.text, "colour": _hex(cell.colour or led), "height": cell.height,
                     "marks": marks}
                )  # fmt: skip
        rows = view.panel.rows
        to_act = sorted(state.to_act)
        return {
            "game": spec.name, "title": view.panel.title, "game_id": game_id, "ply": state.ply,
            "over": state.is_over(), "turn": state.turn, "to_act": to_act,
            "players": [
                {"id": p, "label": spec.player_label(p), "name": self.names.get(p, ""),
                 "score": rows[k].value if k < len(rows) else "", "to_move": p in to_act}
                for k, p in enumerate(state.players)
            ],
            "board": board,
            "explanation": list(view.explanation),
            "moves": [
                {"ply": k + 1, "player": actor, "name": shown}
                for k, (actor, shown) in enumerate(public_moves)
            ],
            "message": self.message if live else "",
            "clock": self.clock if live else None,
            "status": (self._result(state) or "") if state.is_over() else "",
            "actions": [{"move": m, "label": label} for m, label in view.actions]
            if viewer is None
            else [],
        }  # fmt: skip

    def public_view(self) -> dict[str, Any]:
        with self._lock:
            return self._view(self.states, self.moves, self.game_id, live=True)

    def player_view(self, player: str) -> dict[str, Any]:
        with self._lock:
            view = self._view(self.states, self.moves, self.game_id, live=True, viewer=player)
            own = self.spec.view(self.states[-1], player)
            view["you"] = player
            view["private"] = {
                "lines": [*own.private, f"your secret: {self.secrets[player]}"],
                "actions": [{"move": m, "label": label} for m, label in own.actions]
                + [{"move": "reveal", "label": "reveal my secret"}],
            }
            return view

    def players(self) -> list[str]:
        return list(self.states[0].players)

    def token_player(self, token: str) -> str | None:
        return self.token_store.player_of(token)

    def tokens(self) -> dict[str, str]:
        return self.token_store.tokens()

    def submit(self, player: str, move: str) -> dict[str, Any]:
        self.calls.append(("submit", player, move))
        if move == "reveal":
            return self._refuse("not-yet", "reveal: only at the end")
        return self._act(player, move)

    def press(self, player: str, square: str) -> dict[str, Any]:
        self.calls.append(("press", player, square))
        return self._act(player, square)

    def undo(self, player: str, what: str) -> dict[str, Any]:
        self.calls.append(("undo", player, what))
        return {"ok": False, "code": "no-undo", "reason": "no takeback here"}

    def clock(self, player: str, what: str) -> dict[str, Any]:
        self.calls.append(("clock", player, what))
        return {"ok": False, "code": "no-clock", "reason": "this game has no clock"}

    def tutor(self, player: str, what: str) -> dict[str, Any]:
        self.calls.append(("tutor", player, what))
        return {"ok": False, "code": "no-tutor", "reason": "no tutor here"}

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            games = [
                {"id": g["id"], "game": g["game"], "started": g["started"], "result": g["result"],
                 "players": dict(self.names)}
                for g in self._past
            ] + [
                {"id": self.game_id, "game": self.spec.name, "started": "2026-11-23T11:00:00Z",
                 "result": self._result(self.states[-1]) or "in progress",
                 "players": dict(self.names)}
            ]  # fmt: skip
        return list(reversed(games))[:limit]

    def record(self, game_id: int, first: int = 0, count: int = 50) -> dict[str, Any] | None:
        with self._lock:
            if game_id == self.game_id:
                moves = list(self.moves)
            else:
                found = [g for g in self._past if g["id"] == game_id]
                if not found:
                    return None
                moves = found[0]["moves"]
        states = [self.spec.new(**self.options)]
        for name in moves:
            states.append(states[-1].play(states[-1].parse_move(name)))
        window = range(min(first, len(moves)), min(len(states), first + count))
        frames = [self._view(states[: i + 1], moves[:i], game_id, live=False) for i in window]
        for i, frame in zip(window, frames, strict=True):
            if i < len(self.replay_clocks):
                frame["clock"] = self.replay_clocks[i]
        return {"id": game_id, "game": self.spec.name, "plies": len(moves), "from": window.start,
                "moves": moves[window.start : window.stop - 1], "frames": frames}  # fmt: skip

    def review(self, game_id: int, start: bool = False) -> dict[str, Any] | None:
        """A past game's review, through the same ``Reviews`` the daemon's backend uses."""
        with self._lock:
            found = [g for g in self._past if g["id"] == game_id]
        if not found and game_id != self.game_id:
            return None
        if not found:
            return {"id": game_id, "state": "refused", "reason": "the game is in progress"}
        return self.reviews.ask(game_id, self.spec.name, self.options, found[0]["moves"], start)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.listeners.subscribe(callback)
