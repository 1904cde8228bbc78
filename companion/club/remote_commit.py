"""What binds a remote game's peer to what it said (docs/club.md, "A dishonest peer").

Each board draws a random 32-byte seed for each remote game (kept in its journal's ``meta``).
From it come:

- **a hash chain**: ``key(i)`` is SHA-256 applied ``LINKS - 1 - i`` times to the seed, the
  ``anchor`` ``LINKS`` times. The board announces its anchor with every message and signs
  its ``n``-th own move with ``key(move_link(n))`` (the even links) and its facts, when it
  has told ``c`` of them, with ``key(facts_link(c))`` (the odd ones). Hashing a key gives
  the one before it, so the receiver checks each against the anchor (or the last key it
  checked), but nobody who only heard the keys sent so far can make the next one: a third
  party that copies a move's identity fields cannot add a move (or a fact) of its own to
  the peer's.
- **a second chain for the messages that are not moves** (``Keys.control``, from the seed
  by HMAC): a clock change, a flag, a takeback's question or answer. The board numbers them
  (``cseq``, 0, 1, ...) and signs its ``k``-th with that chain's ``key(k)``; the receiver takes
  each number once and only above the last it took, so a sniffed one cannot be sent again,
  changed or not, and nobody else can make the next one.
- **commitments**: a secret move (its full name differs from its public one: a Latent
  Binaries setup, a Binøme digit or choice) goes with ``commit(n, name)``, SHA-256 over a
  32-byte salt of its own and the canonical text ``"<n>\\n<full name>"``. At the end the
  board reveals the full names with their salts (``names``); the receiver checks each one
  against what it was sent when the move was made. A board cannot change a secret once
  its move is made, and the salt keeps a short secret from being guessed by hashing every
  possibility.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

LINKS = 4096  # links: 2,048 own moves and 2,048 facts a game (a 16x16 board has 256 squares)
HEX = 64  # a SHA-256 digest in hex


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def move_link(n: int) -> int:
    """The link that signs a board's ``n``-th own move (0-based)."""
    return 2 * n


def facts_link(count: int) -> int:
    """The link that signs a board's facts once it has told ``count`` (1 or more)."""
    return 2 * count - 1


def new_seed() -> str:
    return secrets.token_hex(32)


def is_digest(value: object) -> bool:
    """A SHA-256 digest in lower-case hex (what a key, an anchor or a commitment is)."""
    return (
        isinstance(value, str) and len(value) == HEX and all(c in "0123456789abcdef" for c in value)
    )


@dataclass
class Keys:
    """One board's keys for one game, from its seed (hex)."""

    seed: str
    _chain: list[bytes] = field(default_factory=list, repr=False)
    _control: Keys | None = field(default=None, repr=False)

    def _links(self) -> list[bytes]:
        """H^0(seed) .. H^LINKS(seed), made once (4,096 hashes: a few milliseconds)."""
        if not self._chain:
            value = bytes.fromhex(self.seed)
            chain = [value]
            for _ in range(LINKS):
                value = _h(value)
                chain.append(value)
            self._chain = chain
        return self._chain

    @property
    def anchor(self) -> str:
        return self._links()[LINKS].hex()

    def key(self, i: int) -> str:
        """The chain's ``i``-th key from its anchor (``move_link``, ``facts_link``)."""
        if not 0 <= i < LINKS:
            raise ValueError(f"link {i}: a game has at most {LINKS // 2} moves from one board")
        return self._links()[LINKS - 1 - i].hex()

    def salt(self, n: int) -> str:
        """The salt of the ``n``-th own move's commitment: not derivable from the keys."""
        return hmac.new(bytes.fromhex(self.seed), f"salt {n}".encode(), "sha256").hexdigest()

    def commit(self, n: int, name: str) -> str:
        return commitment(self.salt(n), n, name)

    @property
    def control(self) -> Keys:
        """The chain of this board's messages that are not moves (a clock, a flag, a
        takeback): its own seed, so its keys say nothing of the moves' keys."""
        if self._control is None:
            seed = hmac.new(bytes.fromhex(self.seed), b"control", "sha256").hexdigest()
            self._control = Keys(seed)
        return self._control


def commitment(salt: str, n: int, name: str) -> str:
    """SHA-256 over the salt's 32 bytes and the canonical text of move ``n``'s full name."""
    return _h(bytes.fromhex(salt) + f"{n}\n{name}".encode()).hex()


class Chain:
    """The keys of the peer's moves checked so far, from its anchor."""

    def __init__(self, anchor: str, known: Mapping[int, str] | None = None):
        self.anchor = anchor
        self.known: dict[int, str] = dict(known or {})

    def check(self, n: int, key: object) -> bool:
        """Is ``key`` the peer's key of its move ``n``? Hashed down to the nearest key
        known below it (or the anchor): at most ``n + 1`` hashes, whatever was sent."""
        if not isinstance(n, int) or not 0 <= n < LINKS or not is_digest(key):
            return False
        assert isinstance(key, str)
        if n in self.known:
            return hmac.compare_digest(self.known[n], key)
        below = max((k for k in self.known if k < n), default=-1)
        target = bytes.fromhex(self.known[below] if below >= 0 else self.anchor)
        value = bytes.fromhex(key)
        for _ in range(n - below):
            value = _h(value)
        if value != target:
            return False
        above = min((k for k in self.known if k > n), default=None)
        if above is not None:  # a key heard later must hash down to this one
            value = bytes.fromhex(self.known[above])
            for _ in range(above - n):
                value = _h(value)
            if value.hex() != key:
                return False
        self.known[n] = key
        return True


CONTROL_AHEAD = 512  # a control message numbered further past the last one taken: unhashed
CONTROL_KEPT = 64  # the digests of the last control messages taken, to know them again
# what ``ControlTaken.take`` says of a message
TAKEN, AGAIN, NO_NUMBER = "taken", "again", "no number"
HEARD, FAR, NOT_KEYED = "heard", "far", "not keyed"


class ControlTaken:
    """The peer's control messages (a clock, a flag, a takeback) taken so far in one game,
    checked against its control chain: each number once, and only above the last one taken
    (``last``: kept by the caller across a restart). A message is known by its ``digest``."""

    def __init__(self, chain: Chain, last: int = -1):
        self.chain = chain
        self.last = last
        self.digests: dict[int, str] = {}

    def take(self, n: object, key: object, digest: str) -> str:
        """``TAKEN``; ``AGAIN``: the same message again (the broker delivers one twice): drop
        it in silence; else why it is refused: ``NO_NUMBER``, ``HEARD`` (a number taken
        before, with other content, or one passed), ``FAR`` (too far ahead to hash) or
        ``NOT_KEYED`` (its key is not the chain's)."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            return NO_NUMBER
        if n <= self.last:
            return AGAIN if self.digests.get(n) == digest else HEARD
        if n > self.last + CONTROL_AHEAD:
            return FAR
        if not self.chain.check(n, key):
            return NOT_KEYED
        self.last = n
        kept = {k: v for k, v in self.digests.items() if k > n - CONTROL_KEPT}
        self.digests = {**kept, n: digest}
        return TAKEN


def broken_commitments(
    commits: Mapping[int, str], salts: Sequence[object], names: Sequence[str]
) -> list[int]:
    """The moves (numbers in the peer's stream) whose revealed name and salt do not give the
    commitment sent with them, or that were committed and not revealed."""
    broken = []
    for n, commit in sorted(commits.items()):
        salt = salts[n] if n < len(salts) else None
        if (
            n >= len(names)
            or not is_digest(salt)
            or not hmac.compare_digest(commitment(str(salt), n, names[n]), commit)
        ):
            broken.append(n)
    return broken
