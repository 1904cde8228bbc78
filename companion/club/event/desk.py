"""The arbiter's desk on the hub: one event, kept in its SQLite file, run over the broker.

It publishes each round's pairings to the boards (``<root>/<board>/pairing``, retained;
an empty payload clears a board with nothing to play), takes each board's finished game
that names one of its pairings as that game's result, pairs the next round once every game
of the round has its result, and takes the arbiter's corrections. It needs only a way to
publish (``publish(topic, payload, retain)``): the hub gives its broker link's.

The event's file is read again whenever it changed (``PRAGMA data_version``), so
``binaryon event EVENT.toml correct ...`` works while the hub runs: that is the arbiter's
tool on the hub's machine, as is the API with the token the hub prints."""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.club import topics
from companion.club.event.records import board_result, export_event
from companion.club.event.spec import Event, load_event
from companion.club.event.standings import standings
from companion.club.event.store import EventStore, store_path
from companion.club.event.swiss import PairingError
from companion.club.event.tournament import EventStateError, Game, now_iso

log = logging.getLogger(__name__)

Publish = Callable[[str, Any, bool], None]  # (topic, payload dict or b"", retain)


class EventDesk:
    def __init__(self, event_file: str | Path, publish: Publish, store: str | Path | None = None):
        load_event(event_file)  # its own problems first (EventError, one line)
        text = Path(event_file).read_text(encoding="utf-8")
        self.store = EventStore(store or store_path(event_file))
        self.tournament = self.store.open_event(text, str(event_file))
        self.id = hashlib.sha256(text.encode()).hexdigest()[:8]
        self.publish = publish
        self.token = secrets.token_urlsafe(18)
        self.note = ""  # the last thing the desk could not do by itself, for the page
        self._version = self._data_version()
        self._published: dict[str, dict[str, Any] | None] = {}
        if self.tournament.round == 0 or self._round_done():
            self._pair()

    @property
    def event(self) -> Event:
        return self.tournament.event

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ the boards

    def wire_id(self, g: Game) -> str:
        """A pairing as the boards know it: the event's id and the game's (``3fa2b1c0-r2-t3``),
        so a result left on the broker by another event is never taken for this one's."""
        return f"{self.id}-{g.pairing}"

    def pairing_message(self, g: Game) -> dict[str, Any]:
        white, black = self.event.seats
        return {
            "board": g.board,
            "event": self.event.name,
            "round": g.round,
            "pairing": self.wire_id(g),
            "game": self.event.game,
            "options": dict(self.event.given_rules),
            "players": {white: g.white, black: g.black},
            "clock": self.event.clock,
            "sent": time.time(),
        }

    def publish_pairings(self, force: bool = False) -> None:
        """Each board's pairing: its game of the round still to play, else cleared. Only what
        changed is sent, unless ``force`` (the broker connection came back)."""
        wanted: dict[str, dict[str, Any] | None] = {b: None for b in self.event.boards}
        for g in self.tournament.waiting():  # a replayed game of an earlier round first
            if g.board and wanted.get(g.board) is None:
                wanted[g.board] = self.pairing_message(g)
        for board, message in wanted.items():
            before = self._published.get(board, "unset")
            same = isinstance(before, dict) and message and before["pairing"] == message["pairing"]
            if force or not (same or (before is None and message is None)):
                self.publish(topics.pairing(board), message if message else b"", True)
                self._published[board] = message

    def on_result(self, board: str, message: dict[str, Any]) -> bool:
        """A board's finished game (newly stored by the hub). True when it was this event's;
        one that names a pairing of another event, or none, is left alone."""
        self.refresh()
        wire = message.get("pairing")
        if not isinstance(wire, str) or not wire.startswith(self.id + "-"):
            return False
        pairing = wire[len(self.id) + 1 :]
        g = self.tournament.find(pairing)
        if g is None or message.get("game") != self.event.game:
            self.note = f"{board}: result for {pairing} refused: not this event's game"
            log.warning("event: %s", self.note)
            return False
        status = message.get("status")  # remote play: a lie caught, or a peer never revealed
        if status:
            shown = status if status in ("disputed", "unverified") else "marked"
            self.note = f"{board}: {pairing} is {shown}: the arbiter's to decide"
            log.warning("event: %s", self.note)
            return False
        try:
            code = board_result(self.tournament, g, message)
            self.tournament.enter_result(
                pairing, code, str(message.get("game_uid") or ""), message.get("record")
            )
        except EventStateError as e:
            self.note = f"{board}: {e}"
            log.warning("event: %s", self.note)
            return False
        log.info("event: %s %s", pairing, code)
        self._save()
        if self._round_done():
            self._pair()
        self.publish_pairings()
        return True

    def catch_up(self, results: list[dict[str, Any]]) -> int:
        """Results the hub stored while the desk was not there to take them (the hub stopped
        between the two): each of this event's that has no result yet is taken now."""
        taken = 0
        for message in sorted(results, key=lambda m: m.get("finished") or 0):
            wire = message.get("pairing")
            if not isinstance(wire, str) or not wire.startswith(self.id + "-"):
                continue
            g = self.tournament.find(wire[len(self.id) + 1 :])
            if g is not None and g.result is None and not g.void:
                taken += self.on_result(str(message.get("board") or ""), message)
        return taken

    # ------------------------------------------------------------------ the arbiter

    def allowed(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(str(token), self.token)

    def correct(self, pairing: str, result: str, who: str, why: str) -> str:
        self.refresh()
        fix = self.tournament.correct(pairing, result, who, why, now_iso())
        self._save()
        self.publish_pairings()  # a replayed game goes back to its board
        return f"{fix.pairing}: {fix.old or '*'} -> {fix.new} by {fix.who}: {fix.why}"

    def pair_next(self) -> list[Game]:
        """The arbiter pairs the next round (the desk does it by itself once a round is done;
        this is for a round the arbiter completed by hand, or after a refusal)."""
        self.refresh()
        games = self.tournament.pair_next()
        self._save()
        self.publish_pairings()
        return games

    # ------------------------------------------------------------------ reading

    def standings_json(self) -> dict[str, Any]:
        self.refresh()
        t = self.tournament
        return {
            "event": self.event.name,
            "game": self.event.game,
            "pairing": self.event.pairing,
            "round": t.round,
            "rounds": self.event.rounds,
            "finished": t.finished(),
            "tiebreaks": list(self.event.tiebreaks),
            "standings": [s.as_json() for s in standings(t)],
        }

    def rounds_json(self) -> dict[str, Any]:
        self.refresh()
        return {"event": self.event.name, "note": self.note, **self.tournament.to_dict()}

    def export(self) -> str:
        self.refresh()
        return export_event(self.tournament)

    # ------------------------------------------------------------------ the file

    def refresh(self) -> bool:
        """Read the event's file again when another process (``binaryon event``) wrote it."""
        version = self._data_version()
        if version == self._version:
            return False
        self._version = version
        self.tournament = self.store.load(self.event)
        if self._round_done():
            self._pair()
        self.publish_pairings()
        return True

    def _data_version(self) -> int:
        return self.store.db.execute("PRAGMA data_version").fetchone()[0]

    def _round_done(self) -> bool:
        t = self.tournament
        return t.round < self.event.rounds and t.round_complete()

    def _pair(self) -> None:
        try:
            games = self.tournament.pair_next()
        except (PairingError, EventStateError) as e:
            self.note = str(e)
            log.warning("event: %s", e)
            return
        self.note = ""
        log.info("event: round %d paired: %d games", games[0].round, len(games))
        self._save()

    def _save(self) -> None:
        self.store.save(self.tournament)
        self._version = self._data_version()
