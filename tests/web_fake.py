"""An in-memory WebBackend for the web tests: a real game (through the games' protocol), two
players with secrets in their private views, a history, and change notices from another thread.

Every secret starts with ``SECRET-`` so tests can look for any of them anywhere.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from companion.games import get_spec
from companion.squares import square_name
from companion.views.web.tokens import TokenStore

SECRET_PREFIX = "SECRET-"


def _hex(rgb: tuple[int, int, int]) -> str | None:
    return None if rgb == (0, 0, 0) else "#{:02x}{:02x}{:02x}".format(*rgb)


def random_moves(game: str = "binaryon", count: int = 10, seed: int = 1) -> list[str]:
    """Names of ``count`` legal moves of a random game (fewer if it ends first)."""
    import random

    rng = random.Random(seed)
    spec = get_spec(game)
    state = spec.new(**spec.resolve({}))
    names: list[str] = []
    while len(names) < count and not state.is_over():
        moves = [m for m in state.legal_moves() if state.move_name(m) != "pass"]
        move = rng.choice(moves) if moves else state.legal_moves()[0]
        names.append(state.move_name(move))
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
        self.names = names or {"on": "Ana", "off": "Ben"}
        self.notify_in_thread = notify_in_thread
        self.token_store = TokenStore()
        self._lock = threading.RLock()
        self._listeners: list[Callable[[], None]] = []
        self._next_id = 1
        self._past: list[dict[str, Any]] = []  # finished games: id, game, moves, result
        self.calls: list[tuple[str, str, str]] = []  # (method, player, value) of every action
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
            self.secrets = {p: f"{SECRET_PREFIX}{p.upper()}-{secrets.token_hex(4)}"
                            for p in self.states[0].players}  # fmt: skip
            self.token_store.for_game(self.game_id, list(self.states[0].players))
            for name in moves or []:
                self._play(name)
        self._notify()

    def board_press(self, square: str) -> dict[str, Any]:
        """A press on the physical board, by whoever is on turn."""
        return self.press(self.states[-1].turn or "on", square)

    def _play(self, name: str) -> None:
        state = self.states[-1]
        after = state.play(state.parse_move(name))
        self.states.append(after)
        self.moves.append(name)
        while (forced := self.states[-1].forced_move()) is not None:
            st = self.states[-1]
            self.moves.append(st.move_name(forced))
            self.states.append(st.play(forced))

    def _act(self, player: str, name: str) -> dict[str, Any]:
        with self._lock:
            state = self.states[-1]
            if state.is_over():
                return self._refuse("game-over", "the game is over")
            if state.turn != player:
                return self._refuse("not-your-turn", f"not your turn: {state.turn.upper()} moves")
            try:
                move = state.parse_move(name)
            except ValueError as e:
                return self._refuse("bad-move", str(e), name)
            refusal = state.check(move)
            if refusal is not None:
                return self._refuse(refusal.code, refusal.reason, name)
            self._play(name)
            self.message, self.refused = "", None
        self._notify()
        return {"ok": True}

    def _refuse(self, code: str, reason: str, square: str | None = None) -> dict[str, Any]:
        self.message, self.refused = reason, square
        self._notify()
        return {"ok": False, "code": code, "reason": reason}

    def _notify(self) -> None:
        listeners = list(self._listeners)

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

    def _view(self, states: list, moves: list[str], game_id: int, live: bool) -> dict[str, Any]:
        spec, state = self.spec, states[-1]
        panel = spec.panel(state)
        n = spec.board_size(self.options)
        last = moves[-1] if moves else None
        board = None
        if n:
            cells, leds = state.cells(), spec.leds(state)
            board = {"files": n, "ranks": n, "cells": []}
            for i in range(n * n):
                name = square_name(i, n)
                marks = []
                if name == last:
                    marks.append("last")
                if live and name == self.refused:
                    marks.append("refused")
                piece = {"x": "x", "o": "o"}.get(cells[i], "")
                board["cells"].append(
                    {"name": name, "file": i % n, "rank": i // n, "piece": piece, "text": "",
                     "colour": _hex(leds[i]), "height": 0, "marks": marks}
                )  # fmt: skip
        explanation = self._explain(state) or [f"{row.label}: {row.value}" for row in panel.rows]
        if panel.note:
            explanation.append(panel.note)
        turn = state.turn
        legal = {state.move_name(m) for m in state.legal_moves()} if not state.is_over() else set()
        return {
            "game": spec.name, "title": panel.title, "game_id": game_id, "ply": state.ply,
            "over": state.is_over(), "turn": turn, "to_act": [turn] if turn else [],
            "players": [
                {"id": p, "label": spec.player_label(p), "name": self.names.get(p, ""),
                 "score": row.value, "to_move": row.to_move}
                for p, row in zip(state.players, panel.rows, strict=False)
            ],
            "board": board,
            "explanation": explanation,
            "moves": [
                {"ply": i + 1, "player": st.turn, "name": m}
                for i, (st, m) in enumerate(zip(states, moves, strict=False))
            ],
            "message": self.message if live else "",
            "status": (self._result(state) or "") if state.is_over() else "",
            "actions": [{"move": "pass", "label": "pass"}] if "pass" in legal else [],
        }  # fmt: skip

    def _explain(self, state) -> list[str]:
        """Binaryon's best lines, as the real daemon explains them; [] for other games."""
        if not hasattr(state, "score"):
            return []
        from companion.games.binaryon import score_detail

        detail = score_detail(state.score())
        lines = [f"{p.upper()}: {detail[p]['best']} by {'-'.join(detail[p]['line'])}"
                 for p in ("on", "off")]  # fmt: skip
        if detail.get("winner"):
            lines.append(f"{detail['winner'].upper()} leads")
        return lines

    def public_view(self) -> dict[str, Any]:
        with self._lock:
            return self._view(self.states, self.moves, self.game_id, live=True)

    def player_view(self, player: str) -> dict[str, Any]:
        with self._lock:
            view = self.public_view()
            view["you"] = player
            view["private"] = {
                "lines": [f"your secret: {self.secrets[player]}"],
                "actions": [{"move": "reveal", "label": "reveal my secret"}],
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

    def record(self, game_id: int) -> dict[str, Any] | None:
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
        frames = [
            self._view(states[: i + 1], moves[:i], game_id, live=False) for i in range(len(states))
        ]
        return {"id": game_id, "game": self.spec.name, "moves": moves, "frames": frames}

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe
