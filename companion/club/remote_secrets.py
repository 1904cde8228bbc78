"""Remote play of a game with secrets (``GameSpec.remote_secrets``: Latent Binaries, Binøme),
the part of ``RemoteSource`` that carries them (a mixin; docs/club.md, "Hidden information").

Each board keeps a masked state (``referee/masked_play.py``): its own seat's secrets only. What
the game reveals of them (a guess's answer, a turn's claims, the stash) goes to the peer as
this board's ``told`` facts when the game reveals it, and the peer learns them. At the end each
board sends the full names of its own moves and its order of the game (``names``); both then
rebuild the whole game in the first seat's board's order (``remote_stream.canonical``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.club.remote_commit import move_link
from companion.club.remote_stream import canonical, plain, stream
from companion.journal.api import JournalError

if TYPE_CHECKING:
    from companion.club.remote import RemoteSource


class RemoteSecrets:
    told: tuple[int | None, dict[str, Any]] = (None, {})  # (game id, facts) told the peer
    named: int | None = None  # the game whose moves' names were sent
    peer_names: tuple[int | None, dict[str, Any]] | None = None  # kept until the end here
    waited: tuple[int | None, int] | None = None  # (game, ply) it said it waits at

    def send_facts(self: RemoteSource, again: bool = False) -> None:
        """What the game has revealed of this board's secrets, when it is more than was sent
        (``again``: whatever was sent, the peer asked)."""
        s = self.host.session
        if not s.spec.remote_secrets:
            return
        facts = plain(s.state.disclosed(self.seats(s.state)[0]))
        if not facts or (not again and self.told == (s.game_id, facts)):
            return
        self.told = (s.game_id, facts)
        self._send({**self.identity(), "kind": "told", "facts": facts, **self.signed_facts(facts)})

    def send_names(self: RemoteSource, again: bool = False) -> None:
        """At the end (the game reveals its secrets): the full names of this board's own
        moves, and its order of the whole game, which the first seat's board's makes the
        game's on both boards (``remote_stream.canonical``)."""
        s = self.host.session
        if not s.spec.remote_secrets or not (s.state.is_over() or self.is_disputed()):
            return
        if self.named == s.game_id and not again:
            return
        mine, theirs = self.seats(s.state)
        if mine == s.state.players[0] and s.masked is not None and not self.is_disputed():
            return  # the second seat's board reveals first; this one once it checked those
        names = [s.played[k].name for k in stream(s, mine)]
        self.named = s.game_id
        self._send({**self.identity(), "kind": "names", "stream": names,
                    "order": s.moves, "theirs": stream(s, theirs),
                    "salts": self.salts(len(names)),
                    "key": self.own_keys().key(move_link(len(names)))})  # fmt: skip

    def _learn(self: RemoteSource, facts: Any) -> None:
        """The peer's facts about its secrets: learned, and the game goes on here."""
        s = self.host.session
        if not isinstance(facts, dict):
            raise ValueError("facts: not an object")
        before = s.state
        theirs = self.seats(s.state)[1]
        try:
            learned = s.learn(theirs, facts)
        except ValueError as e:  # a lie caught: it contradicts what this board knows
            known = s.masked.told.get(theirs, {}) if s.masked is not None else {}
            self.dispute(f"{self.peer}'s answer cannot be taken: {e}",
                         {"facts": facts, "known": known, "moves": s.moves})  # fmt: skip
            return
        except JournalError as e:
            self._problem(f"{self.peer}'s answer cannot be taken: {e}")
            return
        if learned:
            self.said = ""
            told = s.spec.announce(before, s.state)
            if told:
                self.host.say(told)
        self._offer()

    def _reveal(self: RemoteSource, message: dict[str, Any]) -> None:
        """The peer's full names at the end: the whole game, every secret in it, in the
        first seat's board's order."""
        s = self.host.session
        if s.masked is None:
            return  # revealed already
        if not s.state.is_over():  # the peer's last move is still to be made here
            self.peer_names = (s.game_id, message)
            return
        self.peer_names = None
        mine, theirs = self.seats(s.state)
        peer_names = [str(n) for n in message["stream"]]
        try:
            if mine == s.state.players[0]:
                full = canonical(s.moves, stream(s, theirs), peer_names)
            else:
                order = [str(n) for n in message["order"]]
                own = [s.played[k].name for k in stream(s, mine)]
                full = canonical(order, [int(k) for k in message["theirs"]], own)
            if not self.check_reveal(theirs, peer_names, message.get("salts"), full):
                return  # a lie: disputed
            problem = s.reveal(full)
        except ValueError as e:
            problem = str(e)
        except JournalError as e:
            self._problem(f"{self.peer}'s moves at the end: not saved: {e}")
            return
        if problem:
            self.dispute(f"{self.peer}'s moves at the end: {problem}", {"names": message})
            return
        self.revealed_late()
        self.send_names()  # the first seat's board reveals once it checked the other's

    def _say_waiting(self: RemoteSource) -> None:
        """Say once that the game here waits for the peer (a guess's answer, a drawn die)."""
        s = self.host.session
        at = (s.game_id, len(s.played))
        if s.state.waiting and self.waited != at:
            self.waited = at
            self.host.say(f"waiting for {self.peer}")  # the panel says it while it lasts
