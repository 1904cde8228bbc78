"""The arbiter's desk on the hub: one event, kept in its SQLite file, run over the broker.

It publishes each round's pairings to the boards (``<root>/hub/<board>/pairing``, retained;
an empty payload clears a board with nothing to play), takes each board's finished game
that names one of its pairings as that game's result, pairs the next round once every game
of the round has its result, and takes the arbiter's corrections. It needs only a way to
publish (``publish(topic, payload, retain)``): the hub gives its broker link's.

The event's file is read again whenever it changed (``PRAGMA data_version``), so
``binaryon event EVENT.toml correct ...`` works while the hub runs: that is the arbiter's
tool on the hub's machine, as is the API with the token the hub prints."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.club import topics
from companion.club.event.records import board_result, export_event
from companion.club.event.spec import Event, load_event
from companion.club.event.standings import standings
from companion.club.event.store import EventStore, store_path
from companion.club.event.swiss import PairingError
from companion.club.event.tournament import EventStateError, Game, PairingJob, now_iso

log = logging.getLogger(__name__)

Publish = Callable[[str, Any, bool], None]  # (topic, payload dict or b"", retain)
# runs a pairing job away from the caller's thread: a future of its pairs, done in the
# caller's loop (the hub's: a process of its own, so pages and results flow meanwhile)
Background = Callable[[PairingJob], "asyncio.Future[list[tuple[int, int | None]]]"]


class EventDesk:
    def __init__(
        self,
        event_file: str | Path,
        publish: Publish,
        store: str | Path | None = None,
        background: Background | None = None,
    ):
        load_event(event_file)  # its own problems first (EventError, one line)
        text = Path(event_file).read_text(encoding="utf-8")
        self.store = EventStore(store or store_path(event_file))
        self.tournament = self.store.open_event(text, str(event_file))
        self.id = hashlib.sha256(text.encode()).hexdigest()[:8]
        self._secret = self.store.secret().encode()
        self.publish = publish
        self.token = secrets.token_urlsafe(18)
        self.note = ""  # the last thing the desk could not do by itself, for the page
        self._version = self._data_version()
        self._published: dict[str, dict[str, Any] | None] = {}
        self.background = background
        self.pairing: asyncio.Future | None = None  # a round being paired in the background
        self._generation = 0  # grows with every change a pairing under way must not miss
        if self.tournament.round == 0 or self._round_done():
            self._pair()

    @property
    def event(self) -> Event:
        return self.tournament.event

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ the boards

    def wire_id(self, g: Game) -> str:
        """A pairing as the boards know it: the event's id, the game's and a tag only the hub
        can make (``3fa2b1c0-r2-t3-9c1e...``, an HMAC of the game by the event's own secret):
        a result left on the broker by another event is never taken for this one's, and
        nobody can publish a pairing of a round not paired yet (its id is unguessable)."""
        tag = hmac.new(self._secret, f"{self.id}-{g.pairing}".encode(), "sha256").hexdigest()
        return f"{self.id}-{g.pairing}-{tag[:20]}"

    def game_of(self, wire: Any) -> Game | None:
        """The event's game a pairing id names, when the hub made that id (else None)."""
        if not isinstance(wire, str) or not wire.startswith(self.id + "-"):
            return None
        pairing = wire[len(self.id) + 1 :].rpartition("-")[0]
        g = self.tournament.find(pairing) if pairing else None
        if g is None or not hmac.compare_digest(wire, self.wire_id(g)):
            return None
        return g

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
        g = self.game_of(wire)
        if g is None or message.get("game") != self.event.game:
            return self._noted(f"{board}: result for {wire[:60]} refused: not this event's game")
        pairing = g.pairing
        if board != g.board:  # only the board the game was paired on reports it
            return self._noted(f"{board}: result for {pairing} refused: it is played on {g.board}")
        status = message.get("status")  # remote play: a lie caught, or a peer never revealed
        if status:
            shown = status if status in ("disputed", "unverified") else "marked"
            return self._noted(f"{board}: {pairing} is {shown}: the arbiter's to decide")
        try:
            code = board_result(self.tournament, g, message)
            self.tournament.enter_result(
                pairing, code, str(message.get("game_uid") or ""), message.get("record")
            )
            self._generation += 1
        except EventStateError as e:
            return self._noted(f"{board}: {e}")
        log.info("event: %s %s", pairing, code)
        self._save()
        if self._round_done():
            self._pair()
        self.publish_pairings()
        return True

    def catch_up(self, results: Iterable[dict[str, Any]]) -> int:
        """Results the hub stored while the desk was not there to take them (the hub stopped
        between the two): each of this event's that has no result yet is taken now. Only this
        event's are kept while ``results`` is read (the hub's file may hold thousands)."""
        taken = 0
        prefix = self.id + "-"
        mine = [m for m in results if str(m.get("pairing") or "").startswith(prefix)]
        for message in sorted(mine, key=lambda m: m.get("finished") or 0):
            g = self.game_of(message.get("pairing"))
            if g is not None and g.result is None and not g.void:
                taken += self.on_result(str(message.get("board") or ""), message)
        return taken

    # ------------------------------------------------------------------ the arbiter

    def allowed(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(str(token), self.token)

    def correct(self, pairing: str, result: str, who: str, why: str) -> str:
        self.refresh()
        fix = self.tournament.correct(pairing, result, who, why, now_iso())
        self._generation += 1
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

    async def pair_next_off_loop(self) -> list[Game]:
        """``pair_next`` with the pairing computed in the background (when the desk has
        one): the loop serves pages and takes results meanwhile."""
        if self.background is None:
            return self.pair_next()
        self.refresh()
        if self.pairing is not None:
            raise EventStateError("a round is being paired already")
        job = self.tournament.pairing_job()
        if job.quick:  # a table look-up: at once
            return self._place(job, job.run())
        generation = self._generation
        self.pairing = self.background(job)
        try:
            pairs = await self.pairing
        finally:
            self.pairing = None
        if generation != self._generation:
            raise EventStateError("results changed while pairing: pair again")
        return self._place(job, pairs)

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
        self._generation += 1
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
        """Pair the next round: at once, or in the background (then placed when done)."""
        if self.pairing is not None:
            return  # under way: placed when it is done
        try:
            job = self.tournament.pairing_job()
            if self.background is None or job.quick:
                self._place(job, job.run(), publish=False)
                return
        except (PairingError, EventStateError) as e:
            self._cannot_pair(e)
            return
        generation = self._generation
        self.note = f"pairing round {job.number}…"
        self.pairing = future = self.background(job)
        future.add_done_callback(lambda f: self._paired(job, generation, f))

    def _paired(self, job: PairingJob, generation: int, future: asyncio.Future) -> None:
        """A background pairing is done (in the loop's thread): its games are placed and
        published, unless what it was computed from changed meanwhile (then paired again)."""
        self.pairing = None
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            self._cannot_pair(error)
            return
        if generation != self._generation:
            self.note = ""
            if self._round_done():
                self._pair()
            return
        try:
            self._place(job, future.result())
        except EventStateError as e:
            self._cannot_pair(e)

    def _place(self, job: PairingJob, pairs: list, publish: bool = True) -> list[Game]:
        games = self.tournament.place(job, pairs)
        self.note = ""
        log.info("event: round %d paired: %d games", job.number, len(games))
        self._save()
        if publish:
            self.publish_pairings()
        return games

    def _cannot_pair(self, e: BaseException) -> None:
        line = str(e) if isinstance(e, PairingError | EventStateError) else repr(e)
        self._noted(" ".join(line.split())[:300])

    def _noted(self, note: str) -> bool:
        """What the desk could not do by itself: on the page and in the log (False: a
        result not taken)."""
        self.note = note
        log.warning("event: %s", note)
        return False

    def _save(self) -> None:
        self.store.save(self.tournament)
        self._version = self._data_version()
