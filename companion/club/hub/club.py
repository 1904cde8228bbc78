"""The hub: the boards' state, the results store, the broker link and the pages' feed, in one
asyncio loop (the aiohttp app's). Messages from the broker arrive here one at a time
(``handle``); a bad one is refused in one log line and counted, and the hub carries on.

Others build on it through its public parts: ``state.boards`` (name -> Board, read-only for
them), ``store`` (the results), ``publish`` (to the broker, e.g. a board's pairing), and
``listeners``: callables ``(kind, board, payload)`` told after each accepted message (kind is
``status``, ``table``, ``move`` or ``result``; a table only when newer than the one shown, a
result only when newly stored).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from companion.club import topics
from companion.core.log_throttle import LogThrottle

from .feed import Feed, board_topic
from .link import BrokerLink
from .state import (
    MAX_RESULT,
    MAX_SMALL,
    MAX_TABLE,
    HubState,
    Refused,
    check_board,
    decode,
    text,
)
from .store import ResultStore, parse_result

log = logging.getLogger(__name__)

Listener = Callable[[str, str, dict[str, Any]], None]
LIMITS = {"status": MAX_SMALL, "table": MAX_TABLE, "moves": MAX_SMALL, "results": MAX_RESULT}


FORGET_AFTER = 3600.0  # seconds: an offline board not heard from for so long is forgotten


class ClubHub:
    def __init__(self, store: ResultStore, forget_after: float = FORGET_AFTER):
        self.state = HubState()
        self.forget_after = forget_after
        self.keep: set[str] = set()  # boards never forgotten (an event's)
        self.store = store
        self.feed = Feed()
        self.link: BrokerLink | None = None
        self.listeners: list[Listener] = []
        self.broker_connected = False
        self.broker_note = "connecting to the broker…"
        self.refused = 0  # messages refused since the start
        self.refusals = LogThrottle()  # one log line per kind of message a minute
        self.holders: dict[str, str] = {}  # board name -> the journal uid that holds it
        self.names_refused: dict[str, str] = {}  # board name -> the journal uid refused it
        self._down_note = ""  # what was said of the broker being down (said once)
        self.started = time.time()

    # --- the broker ---
    def attach(self, link: BrokerLink) -> None:
        self.link = link

    def publish(self, topic: str, payload: dict[str, Any] | bytes, retain: bool = False) -> None:
        if self.link is None:
            raise RuntimeError("the hub has no broker link")
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.link.publish(topic, data, retain=retain)

    def on_connection(self, connected: bool, note: str) -> None:
        if connected != self.broker_connected or (not connected and note != self._down_note):
            (log.info if connected else log.warning)("club: %s", note)
        self._down_note = "" if connected else note
        self.broker_connected = connected
        self.broker_note = note if connected else f"{note}; reconnecting…"
        self.feed.publish_everywhere("hub", {"type": "hub", **self.hub_summary()})

    def hub_summary(self) -> dict[str, Any]:
        return {
            "broker": "connected" if self.broker_connected else "down",
            "note": self.broker_note,
            "boards": len(self.state.boards),
            "results": self.store.count(),
            "refused": self.refused,
            "names_in_use": sorted(self.names_refused),  # a second board came with these names
        }

    def handle(self, topic: str, payload: bytes, retained: bool = False) -> None:
        """One message from the broker (in the loop's thread)."""
        parts = topic.split("/")
        if len(parts) < 3 or parts[0] != topics.ROOT or parts[1] == topics.HUB:
            return
        name, kind = parts[1], parts[2]
        try:
            if kind == "results" and len(parts) == 4:
                if payload:  # empty: the board cleared its acknowledged result
                    self._result(name, parts[3], decode(payload, LIMITS["results"]))
                return
            if len(parts) != 3 or kind not in LIMITS or not payload:
                return
            message = decode(payload, LIMITS[kind])
            if not self._one_board(name, kind, message):
                return
            changed = {
                "status": self.state.apply_status,
                "table": self.state.apply_table,
                "moves": self.state.apply_move,
            }[kind](name, message)
        except Refused as e:
            self._refuse(topic, kind, e)
            return
        if changed:
            self._show(name, kind)
        if changed or kind != "table":  # an older table is no news
            self._tell("move" if kind == "moves" else kind, name, message)

    def _one_board(self, name: str, kind: str, message: dict[str, Any]) -> bool:
        """One name, one board: the first board heard under a name (its journal's uid, in its
        status and tables) holds it while it is online; another board that says it is online
        under that name meanwhile is refused (told on ``<root>/hub/<name>/refused``, which
        its OLED says) and its messages are dropped: its last will does not mark the holder
        offline. Once the holder is offline, the next board online takes the name (the old
        one's table is no longer shown). A message without a journal (an older board) is
        taken as before."""
        journal = message.get("journal")
        if not isinstance(journal, str) or not journal:
            return True
        check_board(name, message)  # a message naming another board binds nothing
        holder = self.holders.get(name)
        board = self.state.boards.get(name)
        held = holder is not None and board is not None and board.online
        coming = kind == "status" and message.get("online") is True
        if holder is None or holder == journal or (coming and not held):
            if holder != journal:
                self.holders[name] = journal
                if holder is not None and board is not None:  # the name changed hands
                    board.view, board.seq, board.game_uid = None, -1, ""
                # a refusal of this board left retained (by this run, or one before it)
                self.names_refused.pop(name, None)
                self._tell_refused(name, b"")
            elif kind == "status" and message.get("online") is False and name in self.names_refused:
                self.names_refused.pop(name)  # the name is free: the refused board may come in
                self._tell_refused(name, b"")
            return True
        if coming and self.names_refused.get(name) != journal:
            self.names_refused[name] = journal
            log.warning("club: refused a second board named %s: the name is in use", name)
            self.feed.publish_everywhere("hub", {"type": "hub", **self.hub_summary()})
            self._tell_refused(
                name, {"board": name, "journal": journal, "why": "name in use", "sent": time.time()}
            )
        self.refused += 1
        return False

    def _tell_refused(self, name: str, payload: dict[str, Any] | bytes) -> None:
        """The retained refusal on the hub's tree (empty: lifted)."""
        if self.link is not None:
            self.publish(topics.refused(name), payload, retain=True)

    def _refuse(self, topic: str, kind: str, why: Refused) -> None:
        """One log line for the first refusal of each kind of message, then at most one a
        minute with the count (a flood is counted, not logged)."""
        self.refused += 1
        more = self.refusals.note(kind if kind in LIMITS else "other")
        if more is not None:
            log.warning("club: refused %s: %s%s", text(topic, 120), why, more)

    def _result(self, name: str, uid: str, message: dict[str, Any]) -> None:
        if not topics.valid_board_name(name):
            raise Refused(f"board name {text(name, 40)!r} is not one topic level")
        result = parse_result(name, uid, message)
        try:
            new = self.store.add(result)  # committed before the ack
        except sqlite3.Error as e:  # not acknowledged: the board keeps it and sends it again
            log.error("club: result %s from %s not stored: %s", text(uid, 80), name, e)
            return
        if new:
            log.info("club: stored %s from %s: %s", text(uid, 80), name, result["result"])
        self.publish(topics.ack(name), {"results": self.store.acked(name, uid)}, retain=True)
        if new:
            self.feed.publish("*", "hub", {"type": "hub", **self.hub_summary()})
            self.feed.publish("*", "result", {"type": "result", "board": name, "game_uid": uid})
            self._tell("result", name, message)

    def _tell(self, kind: str, name: str, message: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, name, message)
            except Exception:  # a listener's bug is not the hub's end (one traceback a minute)
                more = self.refusals.note(f"listener {kind}")
                if more is not None:
                    log.exception("club: a listener failed on %s from %s%s", kind, name, more)

    def forget_idle(self) -> list[str]:
        """Forget the boards offline and silent for ``forget_after`` (not an event's); the
        pages are told, so they drop them too."""
        gone = self.state.forget(self.forget_after, self.keep)
        for name in gone:
            self.feed.publish("*", name, {"type": "gone", "board": name})
        if gone:
            log.info("club: %d idle board(s) forgotten: %s", len(gone), text(", ".join(gone)))
            self.feed.publish_everywhere("hub", {"type": "hub", **self.hub_summary()})
        return gone

    # --- the pages ---
    def board_message(self, name: str) -> dict[str, Any]:
        """A board for the all-boards pages: its summary and its board's cells (small board)."""
        board = self.state.boards[name]
        view = board.view or {}
        small = view.get("board") if isinstance(view.get("board"), dict) else None
        return {"type": "board", "board": board.summary(), "cells": small}

    def view_message(self, name: str) -> dict[str, Any] | None:
        """A board's page: its public view exactly as published (None before any table)."""
        board = self.state.boards.get(name)
        if board is None or board.view is None:
            return None
        # "now": the board's time when it sent the view, from which the page's clock ticks
        # (the view's clock is at the board's time; docs/web.md)
        return {"type": "state", "view": board.view, "now": board.sent}

    def summary_message(self, name: str) -> dict[str, Any] | None:
        board = self.state.boards.get(name)
        return {"type": "board", "board": board.summary()} if board else None

    def _show(self, name: str, kind: str) -> None:
        self.feed.publish("*", name, self.board_message(name))
        page = board_topic(name)
        if kind == "table":
            self.feed.publish(page, "view", self.view_message(name))
        self.feed.publish(page, "board", self.summary_message(name))

    async def close(self) -> None:
        await self.feed.close()
