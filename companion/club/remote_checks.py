"""Remote play against a dishonest peer (docs/club.md, "A dishonest peer"): ``PeerChecks``,
held by the move source (``remote.py``), holds the peer to what it said, and signs what this
board says (its identity and keys).

- Each board's moves carry the keys of its hash chain and its secret moves a commitment
  (``remote_commit.py``); a move whose key does not hash down to the peer's anchor is not
  the peer's and is refused, and so is a second, different move under a number already
  heard.
- A lie, caught at any time (a told fact that contradicts the game, a move of the peer that
  cannot be played here, revealed names that break their commitments or the facts told), is
  a dispute: said here and sent to the peer (said there too), journaled with its evidence
  (``games.dispute``), the game stops and its result goes to the hub marked ``disputed``.
- A peer that never reveals its secret moves after the end is said after
  ``[club] reveal_timeout`` seconds, and the result goes to the hub ``unverified``; a fact
  it owes during the game and never tells is said after as long.
- A clock change, a flag and a takeback's question or answer carry the next key of the
  peer's second chain (``Keys.control``) and its number (``cseq``): each number is taken once
  and only above the last one taken (kept in the journal), so a third party cannot stop a
  clock, flag a player or take back a move, with a message of its own or one it heard.
- Questions (``ask``) are answered at most ``ASK_BURST`` at once and one every
  ``ASK_EVERY`` seconds after that: a flood of them costs the board almost nothing; so do
  moves numbered far ahead (``AHEAD``: refused unhashed) and more facts than moves
  (``MORE_FACTS``: not learned).
- A message of one of the peer's past games is refused in one line.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from companion import PROGRAM
from companion.club.remote_commit import (
    AGAIN,
    FAR,
    HEARD,
    NO_NUMBER,
    NOT_KEYED,
    TAKEN,
    Chain,
    ControlTaken,
    Keys,
    broken_commitments,
    facts_link,
    is_digest,
    move_link,
    new_seed,
)
from companion.club.remote_link import RemoteLink
from companion.club.remote_stream import plain, stream, told_by
from companion.journal.api import Dispute, JournalError
from companion.referee.session import carried_options

log = logging.getLogger(PROGRAM)

ASK_BURST = 4  # questions answered at once
ASK_EVERY = 2.0  # seconds: one more question answered after each
AHEAD = 64  # a move of the peer's further ahead of what is known here is refused unhashed
MORE_FACTS = 16  # facts about the peer beyond one a move played here: a flood, not learned
EVIDENCE = 32_000  # bytes of JSON of a dispute's evidence kept in the journal
DISPUTED, UNVERIFIED = "disputed", "unverified"
SEED, PEER, COMMITS, PAST = "remote.seed.", "remote.peer.", "remote.commits.", "remote.past."
SENT, TAKEN_KEY = "remote.control.sent.", "remote.control.taken."  # control messages' numbers
CONTROL_KINDS = frozenset({"clock", "flag", "undo"})


class Bucket:
    """A token bucket: ``burst`` at once, then one every ``every`` seconds."""

    def __init__(self, burst: int, every: float):
        self.burst, self.every = burst, every
        self.left, self.at = float(burst), None

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.left = min(float(self.burst), self.left + max(0.0, now - self.at) / self.every)
        self.at = now
        if self.left < 1.0 - 1e-9:  # (a rounding short of one is one)
            return False
        self.left = max(0.0, self.left - 1.0)
        return True


class PeerChecks:
    """The peer's keys, commitments, past games and questions checked; disputes and the
    timeouts of a peer that does not answer. ``on_dispute`` is called when the game here
    stops on a dispute (the source: nothing more is played, the secrets are revealed)."""

    def __init__(self, link: RemoteLink):
        self.link = link
        self.on_dispute: Callable[[], None] = lambda: None
        self.reveal_timeout = 120.0  # [club] reveal_timeout
        self._keys: tuple[int | None, Keys | None] = (None, None)  # (game id here, its keys)
        # (game here, the peer's game, its chain) and its control chain for the same game
        self._chain: tuple[int | None, Any, Chain | None] = (None, None, None)
        self._control: Chain | None = None
        self._control_taken: tuple[int | None, ControlTaken] | None = None  # (game here, ...)
        self._control_sent: tuple[int | None, int] = (None, 0)  # (game here, next to send)
        self._commits: tuple[int | None, dict[int, str]] | None = None  # by the peer's move
        self.disputed: int | None = None  # the game here disputed (it stops)
        self._asks = Bucket(ASK_BURST, ASK_EVERY)
        self._timer: int | None = None  # the game whose reveal is timed
        self._answer_timer: tuple[int | None, int] | None = None  # (game, ply) timed
        self._said_past: Any = None
        self._refusals: tuple[float, int] = (float("-inf"), 0)  # (last said, refused since)
        self._said_facts: int | None = None  # the game whose flood of facts was said
        # (game, how many) -> the facts heard, (game, -1) -> the names heard at the end
        self._facts_heard: dict[tuple[int | None, int], str] = {}
        self._latest: tuple[str, int | None] | None = None  # (key, the peer's latest game)
        self._uid: str = ""

    def identity(self) -> dict[str, Any]:
        """What every message of this board's carries: the game, its public options, the
        seat played here, its game id, whether it is over, and the ends of its chains."""
        s = self.link.session
        return {
            "board": self.link.board,
            "sent": time.time(),
            "game": s.spec.name,
            "options": plain(carried_options(s.spec, s.options)),
            "seat": self.link.seats(s.state)[0],
            "game_id": s.game_id,
            "over": s.state.is_over(),
            "anchor": self.own_keys().anchor,  # remote_commit.py: its moves' keys hash to it
            "control": self.own_keys().control.anchor,  # and its control messages' keys
            "journal": self.journal_uid(),  # its game ids grow in this journal
        }

    # --- this board's keys ---
    def own_keys(self) -> Keys:
        """This board's keys for the game in progress, from its seed in the journal."""
        s = self.link.host.session
        if self._keys[0] == s.game_id and self._keys[1] is not None:
            return self._keys[1]
        journal = s.journal
        key = f"{SEED}{s.game_id}"
        seed = journal.meta(key)
        if seed is None:
            seed = new_seed()
            # kept for this run if the journal cannot: the peer may refuse after a restart
            self._keep_meta({key: seed}, "key not kept")
        keys = Keys(seed)
        self._keys = (s.game_id, keys)
        return keys

    def signed(self, n: int, name: str, public: str) -> dict[str, Any]:
        """The fields that bind this board's ``n``-th own move: its key, and for a secret
        move the commitment to its full name."""
        keys = self.own_keys()
        out: dict[str, Any] = {"key": keys.key(move_link(n))}
        if name != public:
            out["commit"] = keys.commit(n, name)
        return out

    def salts(self, count: int) -> list[str]:
        keys = self.own_keys()
        return [keys.salt(n) for n in range(count)]

    # --- the peer's ---
    def peer_chain(self, message: dict[str, Any]) -> Chain | None:
        """The peer's chain for the game here, bound to the first anchors heard for its game
        (its moves' and its control messages', kept in the journal, so a restart keeps
        them); None (said once): a message with other anchors, which is not from the peer's
        board."""
        s = self.link.host.session
        anchor, control = message.get("anchor"), message.get("control")
        game = message.get("game_id")
        if not is_digest(anchor) or not is_digest(control):
            self.refused("it carries no key (both boards need this version)")
            return None
        here, peer_game, chain = self._chain
        if here != s.game_id or peer_game != game or chain is None:
            stored = _json(s.journal.meta(f"{PEER}{s.game_id}"))
            chain, self._control = None, None
            if stored.get("game") == game and is_digest(stored.get("anchor")):
                chain = Chain(str(stored["anchor"]))
                if is_digest(stored.get("control")):
                    self._control = Chain(str(stored["control"]))
        bound = self._control
        if chain is not None and (
            chain.anchor != anchor or (bound is not None and bound.anchor != control)
        ):
            self.refused("another key than the one its game began with")
            return None
        if chain is None or self._control is None:  # the first message of the peer's game here
            fresh = chain is None
            chain, self._control = chain or Chain(str(anchor)), Chain(str(control))
            record = json.dumps({"game": game, "anchor": anchor, "control": control})
            kept: dict[str, str | None] = {f"{PEER}{s.game_id}": record}
            if fresh:
                kept[f"{COMMITS}{s.game_id}"] = None
                self._commits = (s.game_id, {})
            self._keep_meta(kept, "the peer's key not kept")
        self._chain = (s.game_id, game, chain)
        return chain

    # --- control messages: a clock, a flag, a takeback ---
    def signed_control(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """``message`` with this board's next control number and its key (the number kept
        in the journal first, so a restart never uses one again); None: the game has used
        every key of the chain."""
        s = self.link.host.session
        game, n = self._control_sent
        if game != s.game_id:
            n = _int(s.journal.meta(f"{SENT}{s.game_id}")) or 0
        keys = self.own_keys().control
        try:
            key = keys.key(n)
        except ValueError as e:
            log.warning("remote play: %s not sent: %s", message.get("kind"), e)
            return None
        self._control_sent = (s.game_id, n + 1)
        self._keep_meta({f"{SENT}{s.game_id}": str(n + 1)}, "a message's number not kept")
        return {**message, "cseq": n, "ckey": key}

    def checked_control(self, message: dict[str, Any]) -> bool:
        """Is the peer's clock, flag or takeback message signed by its board, under a number
        above the last one taken (``ControlTaken``)? The same message again (the broker may
        deliver one twice) is dropped in silence; one heard before, as it was or changed,
        made-up keys and numbers are refused in one line. The number taken is kept in the
        journal: a restart takes none of them again."""
        kind = str(message.get("kind"))
        if self.peer_chain(message) is None or self._control is None:
            return False
        s = self.link.session
        taken = self._taken_here(self._control)
        n, last = message.get("cseq"), taken.last
        digest = hashlib.sha256(json.dumps(message, sort_keys=True).encode()).hexdigest()
        verdict = taken.take(n, message.get("ckey"), digest)
        if verdict == AGAIN:
            return False
        if verdict != TAKEN:
            numbered = f"its {kind} message {n + 1 if isinstance(n, int) else n}"
            self.refused({
                NO_NUMBER: f"its {kind} message carries no number",
                HEARD: f"{numbered} was heard before",
                FAR: f"{numbered} is far past its message {last + 1}",
                NOT_KEYED: f"its {kind} message does not carry {self.link.peer}'s key",
            }[verdict])  # fmt: skip
            return False
        kept = {f"{TAKEN_KEY}{s.game_id}": str(taken.last)}
        self._keep_meta(kept, "a message's number not kept")
        return True

    def _taken_here(self, chain: Chain) -> ControlTaken:
        """The peer's control messages taken in the game here (the last number read from the
        journal once a game)."""
        s = self.link.session
        here = self._control_taken
        if here is None or here[0] != s.game_id or here[1].chain is not chain:
            stored = _int(s.journal.meta(f"{TAKEN_KEY}{s.game_id}"))
            here = (s.game_id, ControlTaken(chain, -1 if stored is None else stored))
            self._control_taken = here
        return here[1]

    def checked_move(self, message: dict[str, Any], n: int) -> bool:
        """Is the peer's move ``n`` signed by its board? Its commitment, if any, is kept."""
        chain = self.peer_chain(message)
        if chain is None:
            return False
        s = self.link.host.session
        known = max(
            [len(stream(s, self.link.seats(s.state)[1])) - 1, *(k // 2 for k in chain.known)]
        )
        if n > known + AHEAD:  # no hashing for a number that far ahead
            self.refused(f"its move {n + 1} is far ahead of its move {known + 1}")
            return False
        if not chain.check(move_link(n), message.get("key")):
            self.refused(f"its move {n + 1} does not carry {self.link.peer}'s key")
            return False
        commit = message.get("commit")
        if is_digest(commit):
            commits = self.peer_commits()
            if n not in commits:
                commits[n] = str(commit)
                kept = {f"{COMMITS}{s.game_id}": json.dumps(commits)}
                self._keep_meta(kept, "a commitment not kept")
        return True

    def peer_commits(self) -> dict[int, str]:
        s = self.link.host.session
        if self._commits is None or self._commits[0] != s.game_id:
            stored = _json(s.journal.meta(f"{COMMITS}{s.game_id}"))
            commits = {int(k): str(v) for k, v in stored.items() if k.isdigit() and is_digest(v)}
            self._commits = (s.game_id, commits)
        return self._commits[1]

    def refused(self, why: str) -> None:
        """A message said to be the peer's that is not: one line, the game goes on. A flood
        of them is one line a second in the log (with how many more were refused)."""
        line = f"a message said to be {self.link.peer}'s was refused: {why}"
        self.link.host.say(line)
        now = time.monotonic()
        last, more = self._refusals
        if now - last < 1.0:
            self._refusals = (last, more + 1)
            return
        self._refusals = (now, 0)
        log.warning("remote play: %s%s", line, f" ({more} more refused)" if more else "")

    # --- past games ---
    def journal_uid(self) -> str:
        """This board's journal's random id (the board link's ``uid``; "" before it has
        one): the peer keeps its game ids apart from those of another journal of this board."""
        if not self._uid:
            self._uid = self.link.host.session.journal.meta("uid") or ""
        return self._uid

    def _past_key(self, message: dict[str, Any]) -> str:
        uid = message.get("journal")
        ok = isinstance(uid, str) and 0 < len(uid) <= 32 and uid.isalnum()
        return f"{PAST}{self.link.peer}.{uid if ok else ''}"

    def past_game(self, message: dict[str, Any]) -> bool:
        """Is the message's game older than a game of the same journal of the peer already
        bound here (a journal's game ids only grow)? Refused in one line, once per game."""
        peer_game = message.get("game_id")
        if not isinstance(peer_game, int):
            return False
        latest = self._latest_game(self._past_key(message))
        if latest is None or peer_game >= latest:
            return False
        if self._said_past != peer_game:
            self._said_past = peer_game
            log.warning(
                "remote play: a message of %s's past game %s refused (it plays game %s)",
                self.link.peer,
                peer_game,
                latest,
            )
        return True

    def _latest_game(self, key: str) -> int | None:
        """The peer's latest game bound here (kept in the journal; read once)."""
        if self._latest is None or self._latest[0] != key:
            self._latest = (key, _int(self.link.host.session.journal.meta(key)))
        return self._latest[1]

    def bound_to(self, message: dict[str, Any]) -> None:
        peer_game = message.get("game_id")
        if not isinstance(peer_game, int):
            return
        key = self._past_key(message)
        latest = self._latest_game(key)
        if latest is None or peer_game > latest:
            self._latest = (key, peer_game)
            self._keep_meta({key: str(peer_game)}, "the peer's game not kept")

    def facts_bounded(self, facts: dict[str, Any]) -> bool:
        """Facts about the peer number about one a move (a guess's answer, a turn's claim)
        and a few more (a stash, a sheet): more than that is a flood, not learned (each fact
        learned is a write to the journal). Said once a game."""
        s = self.link.host.session
        known = told_by(s, self.link.seats(s.state)[1])
        count = len(known) + sum(1 for k in facts if k not in known)
        if count <= len(s.played) + MORE_FACTS:
            return True
        if self._said_facts != s.game_id:
            self._said_facts = s.game_id
            self.refused(f"{count} facts for {len(s.played)} moves")
        return False

    def signed_facts(self, facts: dict[str, Any]) -> dict[str, Any]:
        return {"key": self.own_keys().key(facts_link(len(facts)))}

    def checked_facts(self, message: dict[str, Any]) -> bool:
        """Are the peer's facts signed by its board (the key of as many facts), and the same
        as any heard before with as many? (A third party that heard them cannot change them.)
        Within bounds (``facts_bounded``)?"""
        facts = message.get("facts")
        if not isinstance(facts, dict) or not facts or not self.facts_bounded(facts):
            return False
        chain = self.peer_chain(message)
        if chain is None:
            return False
        count = len(facts)
        if not chain.check(facts_link(count), message.get("key")):
            self.refused(f"its {count} facts do not carry {self.link.peer}'s key")
            return False
        s = self.link.host.session
        digest = json.dumps(plain(facts), sort_keys=True)
        heard = self._facts_heard.setdefault((s.game_id, count), digest)
        if heard != digest:
            self.refused(f"its {count} facts differ from those it told before")
            return False
        return True

    def checked_names(self, message: dict[str, Any]) -> bool:
        """Are the peer's names at the end signed by its board (the key of the move it
        would make next: it makes none now), and the same as any heard before?"""
        names = message.get("stream")
        chain = self.peer_chain(message)
        if not isinstance(names, list) or chain is None:
            return False
        if not chain.check(move_link(len(names)), message.get("key")):
            self.refused(f"its names at the end do not carry {self.link.peer}'s key")
            return False
        s = self.link.host.session
        digest = json.dumps(plain({k: message.get(k) for k in ("stream", "order", "theirs")}))
        if self._facts_heard.setdefault((s.game_id, -1), digest) != digest:
            self.refused("its names differ from those it told before")
            return False
        return True

    # --- questions ---
    def ask_allowed(self) -> bool:
        """``ASK_BURST`` questions answered at once, then one every ``ASK_EVERY`` seconds."""
        return self._asks.take(time.monotonic())

    # --- disputes ---
    def is_disputed(self) -> bool:
        return self.disputed is not None and self.disputed == self.link.host.session.game_id

    def dispute(self, why: str, evidence: dict[str, Any], tell: bool = True) -> None:
        """A lie caught: journaled with its evidence, said, told the peer (``tell``); the
        game stops here and its result is left to the arbiter."""
        s = self.link.host.session
        if s.game_id is None or self.is_disputed():
            return
        self.disputed = s.game_id
        evidence = bounded(plain({"game_id": s.game_id, "peer": self.link.peer, **evidence}))
        self._keep(s.game_id, Dispute(DISPUTED, why, evidence), "the dispute not kept")
        line = f"game disputed: {why}; the result is the arbiter's"
        log.warning("remote play: %s (evidence %s)", line, json.dumps(evidence)[:2000])
        self.link.said = line
        self.link.host.say(line, lasting=True)
        if tell:  # signed with the next key of its moves (the game has no next move now)
            n = len(stream(s, self.link.seats(s.state)[0]))
            signed = {"seq": n, "key": self.own_keys().key(move_link(n))}
            message = {**self.identity(), "kind": "dispute", "why": why, "evidence": evidence}
            self.link.publish({**message, **signed})
        self.on_dispute()  # the game stops: its secrets show who lied
        self.results_changed()

    def disputed_by_peer(self, message: dict[str, Any]) -> None:
        """The peer caught a lie here, it says: signed with its next key, so only the peer's
        board can say it."""
        seq = message.get("seq")
        chain = self.peer_chain(message)
        key = message.get("key")
        if chain is None or not isinstance(seq, int) or seq < 0:
            key = None
        if key is None or chain is None or not chain.check(move_link(int(seq)), key):
            self.refused(f"a dispute that does not carry {self.link.peer}'s key")
            return
        why = str(message.get("why", ""))[:200] or "no reason given"
        evidence = message.get("evidence")
        given = evidence if isinstance(evidence, dict) else {}
        self.dispute(
            f"{self.link.peer} says {why}", {"by": self.link.peer, "theirs": given}, tell=False
        )

    def disputed_names(self, message: dict[str, Any]) -> None:
        """The peer's secret moves, revealed after a dispute: checked against their
        commitments, and the facts it told against the game they make, as far as it goes
        here. What shows a lie is added to the evidence and said."""
        s = self.link.host.session
        if s.game_id is None or not s.spec.remote().masked:
            return
        theirs = self.link.seats(s.state)[1]
        plies = stream(s, theirs)
        names = [str(n) for n in message.get("stream", [])][: len(plies)]
        salts = message.get("salts")
        commits = self.peer_commits()
        broken = broken_commitments(commits, salts if isinstance(salts, list) else [], names)
        if broken:
            n = broken[0]
            said = names[n] if n < len(names) else None
            finding = {"move": n, "revealed": said, "commit": commits.get(n)}
            line = f"{self.link.peer}'s move {n + 1} revealed is not the one it committed to"
        else:
            full = list(s.moves)
            for n, k in enumerate(plies[: len(names)]):
                full[k] = names[n]
            state = s.spec.new(**s.options)
            try:
                for after, _move, _before in s.spec.steps_from(state, full):
                    state = after
            except ValueError:
                pass  # the lie sent the games apart there: the part before it tells
        entry = s.journal.load(s.game_id)
        if entry is None or entry.dispute is None:
            return
        if not broken:
            told = told_by(s, theirs)
            refused = entry.dispute.evidence.get("facts")  # the facts the dispute refused
            told.update(refused if isinstance(refused, dict) else {})
            lie = told_lie(self.link.peer, told, plain(s.spec.remote().disclosed(state, theirs)))
            if lie is None:
                return
            finding, line = lie
        if line in entry.dispute.why:
            return  # caught so already (at the end)
        evidence = bounded(plain({**entry.dispute.evidence, "lie": finding, "revealed": names}))
        why = f"{entry.dispute.why}; {line}"
        self._keep(s.game_id, Dispute(DISPUTED, why, evidence), "the lie not kept")
        self._say(f"game disputed: {line}; the result is the arbiter's")
        self.results_changed()

    def _keep_meta(self, values: dict[str, str | None], failed: str) -> None:
        """Values kept in the journal; a journal that cannot keep them (read-only) is one
        log line, and they hold for this run."""
        try:
            self.link.host.session.journal.set_meta(values)
        except JournalError as e:
            log.warning("remote play: %s: %s", failed, e)

    def _keep(self, game: int, dispute: Dispute, failed: str) -> None:
        """The game's dispute journaled; a journal that cannot keep it is one log line."""
        try:
            self.link.host.session.journal.dispute(game, dispute)
        except JournalError as e:
            log.warning("remote play: %s: %s", failed, e)

    def _say(self, line: str) -> None:
        """A line that stays on the table until the next game: logged, kept, said."""
        log.warning("remote play: %s", line)
        self.link.said = line
        self.link.host.say(line, lasting=True)

    def results_changed(self) -> None:
        club = getattr(self.link.host, "club", None)  # type: ignore[attr-defined]
        if club is not None and hasattr(club, "results_changed"):
            club.results_changed()

    # --- the end ---
    def check_reveal(
        self, theirs: str, stream_names: list[str], salts: Any, full: list[str]
    ) -> bool:
        """The peer's revealed names against their commitments, and the facts it told
        against the whole game they make; a lie is a dispute (False)."""
        s = self.link.host.session
        plies = stream(s, theirs)
        commits = self.peer_commits()
        salts = salts if isinstance(salts, list) else []
        broken = broken_commitments(commits, salts, stream_names)
        for n, k in enumerate(plies):  # a secret move sent without its commitment
            public = s.played[k].public  # as it came (its full name unknown here)
            if n < len(stream_names) and public != stream_names[n] and n not in commits:
                broken.append(n)
        if broken:
            n = min(broken)
            said = stream_names[n] if n < len(stream_names) else None
            self.dispute(
                f"{self.link.peer}'s move {n + 1} revealed is not the one it committed to",
                {
                    "move": n,
                    "revealed": said,
                    "commit": commits.get(n),
                    "salt": salts[n] if n < len(salts) else None,
                },  # fmt: skip
            )
            return False
        end = s.spec.new(**s.options)
        try:
            for after, _move, _before in s.spec.steps_from(end, full):
                end = after
        except ValueError as e:
            self.dispute(f"{self.link.peer}'s revealed moves do not replay ({e})", {"moves": full})
            return False
        told = told_by(s, theirs)
        lie = told_lie(self.link.peer, told, plain(s.spec.remote().disclosed(end, theirs)))
        if lie is not None:
            self.dispute(lie[1], {"lie": lie[0], "moves": full})
            return False
        return True

    def time_reveal(self) -> None:
        """Once the game here is over and still masked: the peer's names are awaited for
        ``reveal_timeout`` seconds, then the result is ``unverified``."""
        s = self.link.host.session
        if s.seat_knowledge is None or not s.state.is_over() or self._timer == s.game_id:
            return
        if s.game_id is None or self.is_disputed():
            return
        self._timer = game = s.game_id
        self._after_timeout(lambda: self._unverified(game))

    def time_answer(self) -> None:
        """While the game here waits for the peer's facts (its board answers at once, no
        person is asked): after ``reveal_timeout`` seconds of it, said in one line, so the
        players know to leave the game to the arbiter (a new game) rather than wait on."""
        s = self.link.host.session
        at = (s.game_id, len(s.played))
        waiting = s.spec.remote().waiting(s.state)
        if s.seat_knowledge is None or not waiting or self._answer_timer == at:
            return
        self._answer_timer = at
        self._after_timeout(lambda: self._not_answered(at))

    def _after_timeout(self, act: Callable[[], None]) -> None:
        """``act`` in the loop's thread once ``reveal_timeout`` seconds have passed (a host
        without a loop, a test's, times nothing)."""
        loop = getattr(self.link.host, "loop", None)
        if loop is not None:
            loop.call_later(self.reveal_timeout, lambda: self.link.host.post_call(act))

    def _not_answered(self, at: tuple[int | None, int]) -> None:
        s = self.link.host.session
        waiting = s.spec.remote().waiting(s.state)
        if (s.game_id, len(s.played)) != at or not waiting or self.is_disputed():
            return
        line = (
            f"{self.link.peer} has not answered in {self.reveal_timeout:g} s: "
            "a new game leaves this one to the arbiter"
        )
        self._say(line)

    def _unverified(self, game: int) -> None:
        s = self.link.host.session
        if s.game_id != game or s.seat_knowledge is None or self.is_disputed():
            return
        why = f"{self.link.peer} never revealed its secret moves"
        self._keep(game, Dispute(UNVERIFIED, why, {"peer": self.link.peer}), "not kept")
        self._say(f"{why}: result unverified")
        self.results_changed()

    def revealed_late(self) -> None:
        """The peer's names came after the game here was marked unverified, and they check
        out (its commitments, the facts it told): the mark stays (its result went to the hub
        as the arbiter's, and an event may have gone on from it), and says so, for the
        arbiter to take the result with ``event correct``."""
        s = self.link.host.session
        if s.game_id is None:
            return
        entry = s.journal.load(s.game_id)
        if entry is None or entry.dispute is None or entry.dispute.status != UNVERIFIED:
            return
        peer, after = self.link.peer, self.reveal_timeout
        why = f"{peer} revealed its secret moves after {after:g} s; they check out"
        evidence = {**entry.dispute.evidence, "revealed_late": True}
        self._keep(s.game_id, Dispute(UNVERIFIED, why, evidence), "not kept")
        self._say(f"{why}: the result stays unverified, the arbiter's")
        self.results_changed()


def bounded(evidence: dict[str, Any], limit: int = EVIDENCE) -> dict[str, Any]:
    """The evidence as kept: a value that makes it longer than ``limit`` bytes of JSON (the
    peer's own, or a long game's moves) is replaced by a line saying how long it was."""
    if len(json.dumps(evidence)) <= limit:
        return evidence
    out: dict[str, Any] = {}
    for key, value in evidence.items():
        size = len(json.dumps(value))
        out[str(key)[:40]] = value if size <= limit // 8 else f"({size} bytes: not kept)"
    return out if len(json.dumps(out)) <= limit else {"evidence": "(too long: not kept)"}


def _json(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        return None


def told_lie(
    peer: str, told: dict[str, Any], truth: dict[str, Any]
) -> tuple[dict[str, Any], str] | None:
    """The first fact the peer told that the game of its revealed moves says otherwise:
    (evidence, one line), or None."""
    for key, value in sorted(told.items()):
        if key in truth and truth[key] != plain(value):
            line = f"{peer} told {key} {_short(value)}, its moves say {_short(truth[key])}"
            return {"fact": key, "told": value, "true": truth[key]}, line
    return None


def _short(value: Any) -> str:
    return json.dumps(plain(value))[:40]
