"""What the web server needs from the daemon: a small interface, implemented by the daemon.

Every method is called from the web server's own threads, never from the daemon's. The view
methods must be cheap (return a snapshot the daemon keeps up to date); ``submit`` and ``press``
may wait for the daemon to handle the action, and the server calls them off its event loop.

The view model (``public_view``), JSON-able::

    {"game": "binaryon", "title": "Binaryon", "game_id": 3, "ply": 12, "over": false,
     "turn": "on" or null, "to_act": ["on"],
     "players": [{"id": "on", "label": "ON", "name": "Ana", "score": "11111001",
                  "to_move": true}, ...],
     "board": null or {"files": 8, "ranks": 8, "cells": [{"name": "a1", "file": 0, "rank": 0,
              "piece": "x" | "o" | "", "text": "", "colour": "#rrggbb" or null, "height": 0,
              "marks": ["last" | "hint" | "refused" | "differ" | "selected" | "win"]}, ...]},
     "explanation": ["ON: 11111001 by c5-d6-...", ...],
     "moves": [{"ply": 1, "player": "on", "name": "e5"}, ...],  (the last 200 at most)
     "moves_total": 1,
     "message": "e4: not in line with d5", "status": "",
     "actions": [{"move": "pass", "label": "pass"}, ...],
     "undo": null or {"by": "xeno", "by_label": "XENO", "moves": ["challenge c6 cyan"],
              "agreed": ["xeno"], "waiting": ["rainbow"]}}

``player_view`` returns the same plus ``"you": player``,
``"private": {"lines": [...], "actions": [...]}``: the only place a player's secrets appear,
and ``"tutor": {"on": bool}`` (null for a game no engine judges): the seat's tutor switch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

ViewModel = dict[str, Any]
Answer = dict[str, Any]  # {"ok": True} or {"ok": False, "code": "...", "reason": "..."}


@runtime_checkable
class WebBackend(Protocol):
    def public_view(self) -> ViewModel:
        """The table's view model: no player's secret in it."""
        ...

    def player_view(self, player: str) -> ViewModel:
        """The public view plus ``you`` and that player's ``private`` part."""
        ...

    def players(self) -> list[str]:
        """Player ids of the game in progress."""
        ...

    def token_player(self, token: str) -> str | None:
        """The player a bearer token belongs to in the game in progress, or None."""
        ...

    def tokens(self) -> dict[str, str]:
        """Player -> token of the game in progress (for invites and QR codes only)."""
        ...

    def submit(self, player: str, move: str) -> Answer:
        """Play ``move`` (the game's notation) for ``player``, as the board would."""
        ...

    def press(self, player: str, square: str) -> Answer:
        """A click on ``square``: the same as a press of that square on the board."""
        ...

    def undo(self, player: str, what: str) -> Answer:
        """A takeback on the pages: ``ask`` for one, ``accept`` or ``decline`` one asked by
        another player; done when every player agreed."""
        ...

    def clock(self, player: str, what: str) -> Answer:
        """The game clock from a page: ``pause`` it (to call the arbiter) or ``resume`` it
        (after a pause, or a restart, which leaves it paused)."""
        ...

    def tutor(self, player: str, what: str) -> Answer:
        """The tutor from a page: ``on`` or ``off`` for that player's seat alone (refused in
        one line with a remote opponent, in a club event's game, for a game no engine
        judges)."""
        ...

    def history(self, limit: int = 50) -> list[dict[str, Any]]:
        """Past games, newest first: {"id", "game", "started", "result", "players"}."""
        ...

    def record(self, game_id: int, first: int = 0, count: int = 50) -> dict[str, Any] | None:
        """One page of a game for replay: {"id", "game", "plies": its length, "from": first,
        "moves": [the moves of plies first + 1 ..], "frames": [the public views after plies
        first .. first + count - 1, each listing its recent moves]}."""
        ...

    def review(self, game_id: int, start: bool = False) -> dict[str, Any] | None:
        """Where the engine's review of a finished game stands (``reviews.Reviews.ask``:
        idle, running with its progress, done with the review, refused with one line);
        ``start``: begin it. None for an unknown game. The review runs in a process of its own."""
        ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` (from any thread) after every change; returns unsubscribe."""
        ...


class Listeners:
    """The callbacks a backend calls after every change: what ``subscribe`` hands out."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[], None]] = []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unsubscribe

    def current(self) -> list[Callable[[], None]]:
        """The callbacks subscribed now (a copy: one may unsubscribe while they run)."""
        return list(self._callbacks)

    def notify(self) -> None:
        for callback in self.current():
            callback()
