"""Remote play of a game with secrets (a masked remote facet, ``GameSpec.remote()``: Latent
Binaries, Binøme):
``SecretExchange``, held by the move source (``remote.py``), carries them (docs/club.md,
"Hidden information").

Each board keeps a masked state (``referee/masked_play.py``): its own seat's secrets only. What
the game reveals of them (a guess's answer, a turn's claims, the stash) goes to the peer as
this board's ``told`` facts when the game reveals it, and the peer learns them. At the end each
board sends the full names of its own moves and its order of the game (``names``); both then
rebuild the whole game in the first seat's board's order (``remote_stream.canonical``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.club.remote_checks import PeerChecks
from companion.club.remote_commit import move_link
from companion.club.remote_link import RemoteLink
from companion.club.remote_stream import canonical, plain, stream, told_by
from companion.journal.api import JournalError


class SecretExchange:
    """This board's facts and names to the peer, the peer's learned and checked (by
    ``checks``); ``offer`` hands the peer's next move on once the game here may go on."""

    def __init__(self, link: RemoteLink, checks: PeerChecks, offer: Callable[[], None]):
        self.link = link
        self.checks = checks
        self.offer = offer
        self.told: tuple[int | None, dict[str, Any]] = (None, {})  # (game id, facts) told
        self.named: int | None = None  # the game whose moves' names were sent
        self.peer_names: tuple[int | None, dict[str, Any]] | None = None  # until the end here
        self.waited: tuple[int | None, int] | None = None  # (game, ply) it said it waits at

    def send_facts(self, again: bool = False) -> None:
        """What the game has revealed of this board's secrets, when it is more than was sent
        (``again``: whatever was sent, the peer asked)."""
        s = self.link.host.session
        remote = s.spec.remote()
        if not remote.masked:
            return
        facts = plain(remote.disclosed(s.state, self.link.seats(s.state)[0]))
        if not facts or (not again and self.told == (s.game_id, facts)):
            return
        self.told = (s.game_id, facts)
        self.link.publish(
            {
                **self.checks.identity(),
                "kind": "told",
                "facts": facts,
                **self.checks.signed_facts(facts),
            }
        )

    def send_names(self, again: bool = False) -> None:
        """At the end (the game reveals its secrets): the full names of this board's own
        moves, and its order of the whole game, which the first seat's board's makes the
        game's on both boards (``remote_stream.canonical``)."""
        s = self.link.host.session
        over = s.state.is_over() or self.checks.is_disputed()
        if not s.spec.remote().masked or not over:
            return
        if self.named == s.game_id and not again:
            return
        mine, theirs = self.link.seats(s.state)
        if (
            mine == s.state.players[0]
            and s.seat_knowledge is not None
            and not self.checks.is_disputed()
        ):
            return  # the second seat's board reveals first; this one once it checked those
        names = [s.played[k].name for k in stream(s, mine)]
        self.named = s.game_id
        key = self.checks.own_keys().key(move_link(len(names)))
        self.link.publish({**self.checks.identity(), "kind": "names", "stream": names,
                           "order": s.moves, "theirs": stream(s, theirs),
                           "salts": self.checks.salts(len(names)), "key": key})  # fmt: skip

    def learn(self, facts: Any) -> None:
        """The peer's facts about its secrets: learned, and the game goes on here."""
        s = self.link.host.session
        if not isinstance(facts, dict):
            raise ValueError("facts: not an object")
        before = s.state
        theirs = self.link.seats(s.state)[1]
        try:
            learned = s.learn(theirs, facts)
        except ValueError as e:  # a lie caught: it contradicts what this board knows
            known = told_by(s, theirs)
            self.checks.dispute(f"{self.link.peer}'s answer cannot be taken: {e}",
                                {"facts": facts, "known": known, "moves": s.moves})  # fmt: skip
            return
        except JournalError as e:
            self.link.problem(f"{self.link.peer}'s answer cannot be taken: {e}")
            return
        if learned:
            self.link.said = ""
            told = s.spec.announce(before, s.state)
            if told:
                self.link.host.say(told)
        self.offer()

    def reveal(self, message: dict[str, Any]) -> None:
        """The peer's full names at the end: the whole game, every secret in it, in the
        first seat's board's order."""
        s = self.link.host.session
        if s.seat_knowledge is None:
            return  # revealed already
        if not s.state.is_over():  # the peer's last move is still to be made here
            self.peer_names = (s.game_id, message)
            return
        self.peer_names = None
        mine, theirs = self.link.seats(s.state)
        peer_names = [str(n) for n in message["stream"]]
        try:
            if mine == s.state.players[0]:
                full = canonical(s.moves, stream(s, theirs), peer_names)
            else:
                order = [str(n) for n in message["order"]]
                own = [s.played[k].name for k in stream(s, mine)]
                full = canonical(order, [int(k) for k in message["theirs"]], own)
            if not self.checks.check_reveal(theirs, peer_names, message.get("salts"), full):
                return  # a lie: disputed
            problem = s.reveal(full)
        except ValueError as e:
            problem = str(e)
        except JournalError as e:
            self.link.problem(f"{self.link.peer}'s moves at the end: not saved: {e}")
            return
        if problem:
            self.checks.dispute(
                f"{self.link.peer}'s moves at the end: {problem}", {"names": message}
            )
            return
        self.checks.revealed_late()
        self.send_names()  # the first seat's board reveals once it checked the other's

    def say_waiting(self) -> None:
        """Say once that the game here waits for the peer (a guess's answer, a drawn die)."""
        s = self.link.host.session
        at = (s.game_id, len(s.played))
        if s.spec.remote().waiting(s.state) and self.waited != at:
            self.waited = at
            self.link.host.say(f"waiting for {self.link.peer}")  # the panel says it while it lasts
