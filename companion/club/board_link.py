"""The board's link to the club's MQTT broker (docs/club.md): it publishes the board's status
(retained, with a last will that marks it offline), its public table view after each render,
each move, and each finished game's result; it takes the hub's acknowledgements and
pairings, and lets other parts publish and subscribe (remote play).

Threads: paho's network thread only posts into the daemon's loop (``BoardHost.post_call``);
everything that reads the game or the journal runs in the loop's thread. Publishing from the
loop's thread never waits on the network: paho queues the message (QoS 1 ones are kept while
the broker is away and sent in order when it returns) and its own thread sends it.

The journal stays the truth: the journal's uid names every game (``<uid>-<game id>``); the
finished games a hub has not acknowledged are read back from it and sent again after a
restart or a reconnection, and those acknowledged are kept as delivered in its ``meta``
table, so they are never sent again. The moves of the game in play are sent from the last
one the broker confirmed (also kept in ``meta``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion import PROGRAM
from companion.club import messages, topics
from companion.club.board_pairings import BoardPairings, pairing_of
from companion.club.broker import connect_properties, stop_client
from companion.club.link_state import LinkState
from companion.core.broker_url import parse_broker_url
from companion.core.config import ClubConfig, ConfigError
from companion.core.log_throttle import LogThrottle
from companion.core.wire_json import WireRefused
from companion.journal.api import Journal, JournalError
from companion.journal.store import BACKUP_MARK
from companion.referee.session import Session

log = logging.getLogger(PROGRAM)

# what the link keeps in the journal's meta table
UID_KEY = "uid"  # the journal's own random id (game uids are <uid>-<game id>)
SINCE_KEY = "club.since"  # the first game id the club is sent (older games are not results)
MOVES_KEY = "club.moves"  # the moves of the game in play the broker has confirmed
MARK_EVERY = 1.0  # seconds: how often those are written to the journal, at most
DELIVERED = "club.delivered."  # + game uid: acknowledged by the hub, never sent again
REMOTE_GAME = "club.remote."  # + game id: the remote game's peer, seat and the peer's game id
GAME_UID = "club.uid."  # + game id: that game's uid, random, so it never repeats

# said once at the start without [club] user: fine for a try-out on one machine only
ANONYMOUS = (
    "club: no [club] user: %s must take anonymous clients, and anyone on its network can "
    "write this board's topics (binaryon club setup makes users and an ACL)"
)

Message = dict[str, Any] | bytes
Callback = Callable[[str, dict[str, Any] | None], None]


class BoardHost(Protocol):
    """What the link needs from the daemon."""

    journal: Journal
    frame: Any
    loop: Any  # its timers (call_later), in the loop's thread
    listeners: list[Callable[[], None]]
    club_status: str

    @property
    def session(self) -> Session: ...

    def web_view(self, viewer: str | None = None, frame: Any = None) -> dict[str, Any]: ...

    def call(self, fn: Callable[[], Any], timeout: float = 5.0, *, render: bool = True) -> Any: ...

    def post_call(self, fn: Callable[[], None], render: bool = True) -> None: ...

    def say(self, text: str, lasting: bool = False, kind: str = "news") -> None: ...

    def new_game(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        players: dict[str, str] | None = None,
    ) -> None: ...

    def resume_game(self, game_id: int) -> None: ...


@dataclass
class _Sent:
    """A QoS 1 message handed to paho, until the broker confirms it (paho's own flag cannot
    be asked about a message queued while disconnected)."""

    mid: int
    moves: tuple[int | None, list[str]] | None = None  # the move list the hub has after it
    done: bool = False


def digest(names: list[str]) -> str:
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


class BoardLink:
    def __init__(
        self,
        host: BoardHost,
        club: ClubConfig,
        *,
        state_file: Path | None = None,
        wall: Callable[[], float] = time.time,
    ):
        import paho.mqtt.client as mqtt

        from companion import package_version

        self.host = host
        self.board = club.board
        self.address = parse_broker_url(club.broker)
        self.version = package_version()
        self.wall = wall
        self.state = LinkState(self.address.host, state_file)
        # MQTT 5: the board tells the broker the largest packet it takes (MAX_PACKET), and
        # the broker drops anything larger instead of sending it (a 24 MB message never
        # reaches a Pi Zero's 512 MB)
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"{PROGRAM}-{self.board}-{secrets.token_hex(3)}",
            protocol=mqtt.MQTTv5,
        )
        self.client.will_set(
            topics.status(self.board), messages.encode(messages.offline(self.board)), 1, True
        )
        if club.user:
            self.client.username_pw_set(club.user, club.password or None)
        if self.address.tls:
            try:
                self.client.tls_set(ca_certs=club.ca_file or None)
            except (OSError, ValueError) as e:
                raise ConfigError(f"[club] ca_file {club.ca_file!r}: {e}") from None
        self.anonymous = not club.user
        self.client.reconnect_delay_set(1, 15)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        # the loop's thread only, from here on
        self.uid = ""
        self.since = 0
        self.connected = False
        self.seq = int(wall() * 1000)  # grows by one a publish, and across restarts
        self._table: dict[str, Any] | None = None  # the last view published
        self._game_id: int | None = None
        self._over = False
        self._sent: list[str] = []  # the public names of the moves the hub has been sent
        self._watch: deque[_Sent] = deque()  # QoS 1 messages not confirmed yet, in order
        self._by_mid: dict[int, _Sent] = {}
        self._mark: tuple[int | None, list[str]] | None = None  # confirmed move list
        self._mark_due = False  # not yet kept in the journal
        self._mark_timer: Any = None
        self._results: dict[str, _Sent | None] = {}  # game uid -> its last publish
        self._held: int | None = None  # a finished remote game with secrets not yet whole
        self._delivered: set[str] = set()
        self._uids: dict[int, str] = {}  # game id -> its uid, as kept in the journal
        self.refused_name = False  # the hub refuses this board: its name is another's
        # replaced whole on each change: paho's thread reads it when it connects
        self._subscriptions: dict[str, list[Callback]] = {}
        self.pairings = BoardPairings(host, self.board)
        self.refusals = LogThrottle()  # messages refused, by kind (one log line a minute)
        self._stopped = False

    # --- lifecycle (the daemon's thread, or before its loop runs) ---
    def start(self) -> None:
        if self.anonymous:
            log.warning(ANONYMOUS, self.address)
        self.host.call(self._begin, render=False)
        self.host.listeners.append(self._rendered)
        self.client.connect_async(
            self.address.host,
            self.address.port,
            keepalive=20,
            clean_start=True,
            properties=connect_properties(messages.MAX_PACKET),
        )
        self.client.loop_start()

    def stop(self, timeout: float = 3.0) -> None:
        """A clean exit: the board says it goes offline, then disconnects."""
        if self._stopped:
            return
        self._stopped = True
        if self._rendered in self.host.listeners:
            self.host.listeners.remove(self._rendered)
        try:
            if self.connected:
                info = self.client.publish(
                    topics.status(self.board), self._offline(self.wall()), 1, True
                )
                info.wait_for_publish(timeout)
        except (RuntimeError, ValueError) as e:
            log.info("club: offline status not sent: %s", e)
        stop_client(self.client)
        self._keep_mark()  # the daemon's loop has stopped: kept from this thread
        self.state.forget()

    # --- the public API (remote play): any thread ---
    def publish(self, topic: str, payload: Message, *, qos: int = 1, retain: bool = False) -> None:
        """Send ``payload`` (a JSON object or bytes) on ``topic`` (spell it with
        ``companion.club.topics``); never waits on the network. With QoS 1 it is kept while
        the broker is away and sent, in order, when it returns."""
        body = payload if isinstance(payload, bytes) else messages.encode(payload)
        self.host.post_call(lambda: self._publish(topic, body, qos, retain), render=False)

    def subscribe(self, topic: str, callback: Callback) -> Callable[[], None]:
        """Call ``callback(topic, message)`` in the daemon's loop thread for every message on
        ``topic`` (MQTT wildcards allowed), the message as a JSON object (None when empty);
        the table is drawn after it. Kept across reconnections. Returns the unsubscribe."""

        def add() -> None:
            first = topic not in self._subscriptions
            self._subscriptions = {
                **self._subscriptions,
                topic: [*self._subscriptions.get(topic, []), callback],
            }
            if first and self.connected:
                self.client.subscribe(topic, qos=1)

        def remove() -> None:
            callbacks = [c for c in self._subscriptions.get(topic, []) if c is not callback]
            rest = {t: c for t, c in self._subscriptions.items() if t != topic}
            self._subscriptions = {**rest, topic: callbacks} if callbacks else rest
            if not callbacks and topic not in rest:
                self.client.unsubscribe(topic)

        self.host.call(add, render=False)
        return lambda: self.host.call(remove, render=False)

    @property
    def line(self) -> str:
        """One line for the OLED, the menu and ``binaryon doctor``."""
        return self.state.line

    @property
    def queued(self) -> int:
        """QoS 1 messages not yet confirmed by the broker."""
        return sum(1 for s in self._watch if not s.done)

    # --- paho's network thread: post into the loop, nothing else ---
    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self.host.post_call(lambda: self._refused(str(reason)), render=True)
            return
        sock = client.socket()
        with contextlib.suppress(OSError, AttributeError):  # a move is small: no Nagle wait
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # subscribed at once, before anything else can be published to the board
        hub = (topics.ack(self.board), topics.pairing(self.board), topics.refused(self.board))
        for topic in (*hub, *self._subscriptions):
            client.subscribe(topic, qos=1)
        self.host.post_call(self._connected, render=True)

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        self.host.post_call(self._disconnected, render=True)

    def _on_message(self, client, userdata, message) -> None:
        if len(message.payload) > messages.MAX_PACKET:  # refused before it is copied
            why = WireRefused("size", f"{len(message.payload)} bytes")
            self.host.post_call(lambda t=message.topic: self._refuse(t, why), render=False)
            return
        topic, payload = message.topic, bytes(message.payload)
        render = topic != topics.ack(self.board)
        self.host.post_call(lambda: self._message(topic, payload), render=render)

    def _on_publish(self, client, userdata, mid, reason, properties) -> None:
        self.host.post_call(lambda: self._confirmed(mid), render=False)

    # --- the loop's thread ---
    def _begin(self) -> None:
        """What the journal says must be sent: the game in play from the last move the
        broker confirmed, and the results not acknowledged."""
        journal = self.host.journal
        session = self.host.session
        self.uid = journal.meta(UID_KEY) or ""
        since = journal.meta(SINCE_KEY)
        fresh: dict[str, str | None] = {}
        if not self.uid:
            self.uid = secrets.token_hex(6)
            fresh[UID_KEY] = self.uid
        if since is None or not since.isdigit():
            first = session.game_id or 0
            since = str(first if not session.state.is_over() else first + 1)
            fresh[SINCE_KEY] = since
        self.since = int(since)
        # the last will names this journal: the hub tells two boards of one name apart
        self.client.will_set(topics.status(self.board), self._offline(None), 1, True)
        if fresh:
            self._keep(fresh, "club: the journal cannot keep the club's ids: %s")
        self._delivered = {k[len(DELIVERED) :] for k in journal.meta_with_prefix(DELIVERED)}
        if journal.meta(BACKUP_MARK) is not None:
            self._restored(journal)
        self._game_id = session.game_id
        self._over = session.state.is_over()
        publics = [p.public for p in session.played]
        mark = _load_mark(journal.meta(MOVES_KEY))
        if mark is not None and mark[0] == session.game_id:
            ply, names_digest = mark[1], mark[2]
            if ply <= len(publics) and digest(publics[:ply]) == names_digest:
                self._sent = publics[:ply]
            else:  # taken back since: the hub is told to start the game again
                self._publish_undo(0)
                self._sent = []
        else:
            self._sent = []
        self._mark = (session.game_id, list(self._sent))
        if not self._over:
            self._sync_moves(session)
        self._check_results()
        self.state.update(False, self.queued)
        self.host.club_status = self.line

    def _restored(self, journal: Journal) -> None:
        """The journal is a backup put back (``binaryon restore``): the games in play when
        the copy was made may have ended otherwise since, under the uid they had then. They
        get new uids; the finished ones keep theirs (the same game, the same result)."""
        try:
            finished = set(journal.finished_since(0))
            stale = {k: None for k in journal.meta_with_prefix(GAME_UID)
                     if int(k[len(GAME_UID):]) not in finished}  # fmt: skip
            journal.set_meta({**stale, MOVES_KEY: None, BACKUP_MARK: None})
        except (JournalError, ValueError) as e:
            log.warning("club: the restored journal's games keep their uids: %s", e)
            return
        log.warning(
            "club: this journal was restored from a backup: %d game(s) in play get new uids",
            len(stale),
        )

    def _rendered(self) -> None:
        """After every render: what changed goes out (moves, the end of a game, the view)."""
        session = self.host.session
        if session.game_id != self._game_id:
            self._game_id = session.game_id
            self._sent = []
            self._over = False
            self._check_results()  # the game before may have ended
            self._publish_status()
        over = session.state.is_over()
        if not over or over != self._over:
            self._sync_moves(session)
        if over != self._over:
            self._over = over
            if over:
                self._check_results()
                self.pairings.game_over()
        if self._held is not None and (
            session.seat_knowledge is None or session.game_id != self._held
        ):
            self._held = None  # the remote game with secrets is whole now (or left)
            self._check_results()
        self._publish_table()

    def public_uid(self) -> str:
        """The game in play as its table and moves name it: ``<journal uid>-<game id>``. Its
        result's uid (``game_uid``) has a random part more, said only with the result: nobody
        can publish a result under it before the board does."""
        return f"{self.uid}-{self._game_id}" if self._game_id is not None else ""

    def results_changed(self) -> None:
        """A game was marked disputed or unverified (remote play): its result goes now."""
        self._held = None
        self._check_results()

    def game_uid(self, game_id: int | None = None) -> str:
        """A game's result's uid at the hub: ``<journal uid>-<game id>-<random>``, made when
        the game is first seen and kept in the journal (``club.uid.<game id>``). The random
        part means a game id used again (a journal restored from a backup goes on from its
        last id) is never the uid of a game the hub has: a result stored under one old uid
        would make the hub acknowledge the new game's away. It is not published before the
        result (``public_uid``). A game acknowledged before uids had that part keeps its old
        one."""
        gid = self._game_id if game_id is None else game_id
        if gid is None:
            return ""
        uid = self._uids.get(gid)
        if uid is None:
            uid = self.host.journal.meta(f"{GAME_UID}{gid}")
            if uid is None:
                old = f"{self.uid}-{gid}"
                uid = old if old in self._delivered else f"{old}-{secrets.token_hex(8)}"
                self._keep({f"{GAME_UID}{gid}": uid}, "club: the game's uid is not kept: %s")
            self._uids[gid] = uid
        return uid

    def _sync_moves(self, session: Session) -> None:
        publics = [p.public for p in session.played]
        undo_to, first = catch_up(self._sent, publics)
        if undo_to is not None:
            self._publish_undo(undo_to)
        for ply in range(first, len(publics)):
            sent = publics[: ply + 1]
            payload = messages.move(
                self.board, self.public_uid(), ply, session.played[ply], self.wall()
            )
            payload["journal"] = self.uid
            self._publish(topics.moves(self.board), messages.encode(payload), 1, False,
                          moves=(self._game_id, sent))  # fmt: skip
        self._sent = list(publics)

    def _publish_undo(self, to_ply: int) -> None:
        payload = messages.undo(self.board, self.public_uid(), to_ply, self.wall())
        payload["journal"] = self.uid
        kept = (self._game_id, self._sent[:to_ply])
        self._publish(topics.moves(self.board), messages.encode(payload), 1, False, moves=kept)

    def _offline(self, now: float | None) -> bytes:
        return messages.encode({**messages.offline(self.board, now), "journal": self.uid})

    def _publish_status(self) -> None:
        if not self.connected:
            return  # sent on connecting
        game = self.host.session.game
        payload = messages.status(self.board, game, self.version, self.wall())
        payload["journal"] = self.uid  # which board this is, for the hub (one name, one board)
        self._publish(topics.status(self.board), messages.encode(payload), 1, True)

    def _publish_table(self, force: bool = False) -> None:
        view = self.host.web_view(None, self.host.frame)
        if view == self._table and not force:
            return
        self._table = view
        if not self.connected:
            return  # the latest is sent on connecting
        self.seq += 1
        payload = messages.table(self.board, self.seq, self.public_uid(), view, self.wall())
        payload["journal"] = self.uid
        self._publish(topics.table(self.board), messages.encode(payload), 0, True)

    def _check_results(self) -> None:
        """Publish every finished game not acknowledged and not already on its way."""
        journal = self.host.journal
        try:
            finished = journal.finished_since(self.since)
        except JournalError as e:
            log.warning("club: finished games not read: %s", e)
            return
        for game_id in finished:
            uid = self.game_uid(game_id)
            if uid in self._delivered or uid in self._results:
                continue
            entry = journal.load(game_id)
            if entry is None:
                continue
            session = self.host.session
            held = entry.masked is not None and entry.dispute is None
            if held and game_id == session.game_id and session.seat_knowledge:
                self._held = game_id  # a remote game with secrets: sent once it is whole
                continue
            pairing = pairing_of(journal, game_id)
            payload = messages.result(self.board, uid, entry, pairing, self.wall())
            remote = self._remote_of(game_id, entry)
            if remote is not None:  # the hub makes one game of both boards' reports
                payload["remote"] = remote
            topic = topics.result(self.board, uid)
            self._results[uid] = self._publish(topic, messages.encode(payload), 1, True)

    def _remote_of(self, game_id: int, entry: Any) -> dict[str, Any] | None:
        """A remote game's identity for the hub: the peer, the seat played here, the game's
        id here and at the peer (kept in the journal, ``club.remote.<game id>``, the first
        time it is sent: a restart forgets which game of the peer it was)."""
        key = f"{REMOTE_GAME}{game_id}"
        kept = self.host.journal.meta(key)
        if kept is not None:
            with contextlib.suppress(ValueError):
                about = json.loads(kept)
                return about if isinstance(about, dict) else None
        remote = getattr(self.host, "remote", None)
        peer_game = remote.peer_games.get(game_id) if remote is not None else None
        if remote is None or not isinstance(peer_game, int):
            return None
        from companion.club.remote import local_seat
        from companion.games import player_ids

        seats = tuple(player_ids(entry.game, entry.options))
        if len(seats) != 2:
            return None
        seat = local_seat(seats, remote.side_wanted)
        about = {"peer": remote.peer, "seat": seat, "game": game_id, "peer_game": peer_game}
        self._keep({key: json.dumps(about)})
        return about

    def _keep(self, values: dict[str, str | None], failed: str = "club: %s") -> bool:
        """Values kept in the journal's meta; a journal that cannot keep them (read-only) is
        the line ``failed`` in the log, and they hold for this run only (False)."""
        try:
            self.host.journal.set_meta(values)
        except JournalError as e:
            log.warning(failed, e)
            return False
        return True

    def _publish(
        self,
        topic: str,
        body: bytes,
        qos: int,
        retain: bool,
        moves: tuple[int | None, list[str]] | None = None,
    ) -> _Sent | None:
        """Hand a message to paho (QoS 1: kept until the broker confirms it, and sent again
        after a reconnection). The confirmation comes through the loop, after this returns."""
        try:
            info = self.client.publish(topic, body, qos, retain)
        except (ValueError, RuntimeError) as e:  # a bad topic from the API: one line
            log.warning("club: not sent on %s: %s", topic, e)
            return None
        if not qos:
            return None
        sent = _Sent(info.mid, moves)
        self._watch.append(sent)
        self._by_mid[info.mid] = sent
        self._show()
        return sent

    def _confirmed(self, mid: int) -> None:
        """The broker confirmed a message: drop what is confirmed from the front, and keep
        the moves it has in the journal (at most once a MARK_EVERY seconds: a move a second
        would otherwise cost the journal a second sync)."""
        sent = self._by_mid.pop(mid, None)
        if sent is None:
            return  # QoS 0 (written, not confirmed) or already done
        sent.done = True
        mark = None
        while self._watch and self._watch[0].done:
            done = self._watch.popleft()
            if done.moves is not None:
                mark = done.moves
        if mark is not None and mark != self._mark:
            self._mark = mark
            self._mark_due = True
            if self._mark_timer is None:
                self._mark_timer = self.host.loop.call_later(MARK_EVERY, self._keep_mark)
        self._show()

    def _keep_mark(self) -> None:
        self._mark_timer = None
        if not self._mark_due or self._mark is None:
            return
        self._mark_due = False
        game_id, names = self._mark
        value = json.dumps({"game": game_id, "ply": len(names), "digest": digest(names)})
        self._keep({MOVES_KEY: value})

    def _connected(self) -> None:
        self.connected = True
        log.info("club: connected to %s as %s", self.address, self.board)
        self._publish_status()
        self._publish_table(force=True)
        # a broker that restarted forgot the retained results: those it had confirmed go
        # again (the hub stores them once); those still queued are sent by paho
        for uid, sent in list(self._results.items()):
            if sent is None or sent.done:
                del self._results[uid]
        self._check_results()
        self._show(announce=True)

    def _disconnected(self) -> None:
        if not self.connected:
            self._show()
            return
        self.connected = False
        log.warning("club: lost the broker %s; the board plays on", self.address)
        self._show(announce=True)

    def _refused(self, reason: str) -> None:
        self.connected = False
        self.state.refused = reason
        log.error("club: the broker %s refused the board: %s", self.address, reason)
        self._show(announce=True)

    def _show(self, announce: bool = False) -> None:
        changed = self.state.update(self.connected, self.queued)
        self.host.club_status = self.line
        if announce and changed:
            self.host.say(self.line)

    # --- what the hub sends ---
    def _message(self, topic: str, payload: bytes) -> None:
        hub = {  # the hub's topics for this board: (the largest message read, who reads it)
            topics.ack(self.board): (messages.MAX_ACK, self._ack),
            topics.refused(self.board): (messages.MAX_ACK, self._refused_by_hub),
            topics.pairing(self.board): (messages.MAX_PAIRING, self.pairings.told),
        }
        limit, read = hub.get(topic, (messages.MAX_PEER, None))
        try:
            message = messages.decode(payload, limit)
        except WireRefused as e:
            self._refuse(topic, e)
            return
        if read is not None:
            read(message)
        else:
            from paho.mqtt.client import topic_matches_sub

            for sub, callbacks in list(self._subscriptions.items()):
                if topic_matches_sub(sub, topic):
                    for callback in list(callbacks):
                        try:
                            callback(topic, message)
                        except Exception:  # logged once a minute, never one a message
                            more = self.refusals.note(f"subscriber {sub}")
                            if more is not None:
                                log.exception("club: a subscriber of %s failed%s", sub, more)

    def _refuse(self, topic: str, why: WireRefused) -> None:
        """A message the board does not read: one log line per kind and topic at most once a
        minute, with how many more were refused meanwhile (never one a message)."""
        kind = "ack" if topic == topics.ack(self.board) else "pairing"
        if topic not in (topics.ack(self.board), topics.pairing(self.board)):
            kind = "peer"
        more = self.refusals.note(f"{kind} {why.kind}")
        if more is not None:
            what = {"ack": "an ack", "pairing": "a pairing", "peer": "a peer's message"}[kind]
            log.warning("club: %s refused: %s%s", what, why, more)

    def _refused_by_hub(self, message: dict[str, Any] | None) -> None:
        """The hub refuses this board: another board (another journal) has its name. Said on
        the OLED; when the refusal is lifted (the other board left), the board shows itself
        again."""
        if message is None or message.get("journal") != self.uid:
            if self.refused_name:
                self.refused_name = False
                log.info("club: the hub takes %s again", self.board)
                self._publish_status()
                self._publish_table(force=True)
            return
        if not self.refused_name:
            self.refused_name = True
            line = f"club: name {self.board} in use by another board: give this one another"
            log.error("%s (--board-name)", line)
            self.host.say(line, lasting=True, kind="warning")

    def _ack(self, message: dict[str, Any] | None) -> None:
        """The hub stored these results: clear them from the broker, never send them again.
        Only results this board sent count: an ack naming a game not finished or not sent
        (a forged one, or a game uid seen in the table) changes nothing."""
        if message is None:
            return
        uids = message.get("results")
        if not isinstance(uids, list):
            return
        sent = [u for u in uids if isinstance(u, str) and u in self._results]
        new = [u for u in dict.fromkeys(sent) if u not in self._delivered]
        if not new:
            return
        now = str(int(self.wall()))
        delivered = {f"{DELIVERED}{u}": now for u in new}
        if not self._keep(delivered, "club: acknowledgement not kept: %s"):
            return  # acknowledged again by the hub's next ack
        for uid in new:
            self._delivered.add(uid)
            self._results.pop(uid, None)
            self._publish(topics.result(self.board, uid), b"", 1, True)


def catch_up(sent: list[str], now: list[str]) -> tuple[int | None, int]:
    """What a subscriber told ``sent`` needs to hold ``now``: the ply to take back to (None:
    nothing to take back), then the moves from the returned ply on."""
    if now[: len(sent)] == sent:
        return None, len(sent)
    keep = 0
    while keep < min(len(sent), len(now)) and sent[keep] == now[keep]:
        keep += 1
    return keep, keep


def _load_mark(value: str | None) -> tuple[int, int, str] | None:
    try:
        mark = json.loads(value) if value else None
        return int(mark["game"]), int(mark["ply"]), str(mark["digest"])
    except (ValueError, TypeError, KeyError):
        return None
