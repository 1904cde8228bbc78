"""The game clock: time controls and the players' times, pure (the caller passes the time).

A ``TimeControl`` is what was agreed (``5:00+3``); a ``Clock`` is one game's times. Nothing
here reads a clock or sleeps: every method that depends on time takes ``now``, a monotonic
reading in seconds, so tests, the journal and a restart after a power cut all see the same
arithmetic.

The four controls, as club clocks implement them:

- sudden death (``5:00`` or ``5:00+0``): the time runs down, nothing is added;
- Fischer (``5:00+3``): after each completed turn, the increment is added to the mover;
- Bronstein delay (``5:00d2``): in each turn the first ``delay`` seconds are free; the time
  runs down only after them (what the mover used, up to the delay, is given back);
- hourglass (``1:00h``, two players only): what the mover uses is added to the opponent.

A turn's time is kept as what was left when it began plus what the turn has used so far
(across pauses), so a snapshot taken at any moment (``snapshot``) restores exactly
(``Clock.restore``): the journal writes one with every move and about once a second while a
clock runs, and after a crash the player on move is charged what they used up to the last
one, never the time the companion was off.

When the first move is timed (``first_move_timed``: FIDE's rules, an event's games) the
first player's time runs from the start and a Fischer increment counts from move 1: each
turn's increment is the player's as the turn begins, so both players start with the base
and one increment (``5:00+3`` shows ``5:03``), as FIDE's clocks in Fischer mode do. The
friendly casual rule (the first move free: nothing runs until it is made, and it earns no
increment) is the other choice; the session says which (README, "Game clock").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SUDDEN_DEATH = "sudden-death"
FISCHER = "fischer"
BRONSTEIN = "bronstein"
HOURGLASS = "hourglass"
KINDS = (SUDDEN_DEATH, FISCHER, BRONSTEIN, HOURGLASS)

MAX_BASE = 10 * 3600.0  # seconds: longer than any game these boards host
MAX_EXTRA = 600.0  # an increment or a delay

_TEXT = re.compile(
    r"(?:(?P<h>\d{1,2}):(?P<hm>\d{2}):(?P<hs>\d{2})"  # H:MM:SS
    r"|(?P<m>\d{1,3}):(?P<s>\d{2})"  # M:SS
    r"|(?P<mins>\d{1,3}))"  # M (minutes)
    r"(?:(?P<kind>[+d])(?P<extra>\d{1,3})|(?P<glass>h))?"
)
EXAMPLES = "e.g. 5:00+3 (increment), 0:30+0 (sudden death), 5:00d2 (delay), 1:00h (hourglass)"


@dataclass(frozen=True)
class TimeControl:
    kind: str
    base: float  # seconds each player starts with
    extra: float = 0.0  # Fischer's increment or Bronstein's delay, in seconds

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``M:SS+INC``, ``M:SSdDELAY``, ``M:SSh``, ``M`` or ``H:MM:SS`` with the same
        suffixes; a ValueError with a one-line reason otherwise."""
        raw = text.strip()
        found = _TEXT.fullmatch(raw)
        if found is None:
            raise ValueError(f"clock {text!r}: not a time control ({EXAMPLES})")
        g = found.groupdict()
        if g["h"] is not None:
            minutes, seconds = int(g["h"]) * 60 + int(g["hm"]), int(g["hs"])
            if int(g["hm"]) > 59:
                raise ValueError(f"clock {text!r}: minutes go from 00 to 59 after the hours")
        elif g["m"] is not None:
            minutes, seconds = int(g["m"]), int(g["s"])
        else:
            minutes, seconds = int(g["mins"]), 0
        if seconds > 59:
            raise ValueError(f"clock {text!r}: seconds go from 00 to 59 ({EXAMPLES})")
        base = float(minutes * 60 + seconds)
        if base <= 0:
            raise ValueError(f"clock {text!r}: each player needs some time ({EXAMPLES})")
        if base > MAX_BASE:
            raise ValueError(f"clock {text!r}: at most {int(MAX_BASE // 3600)} hours a player")
        extra = float(g["extra"]) if g["extra"] is not None else 0.0
        if extra > MAX_EXTRA:
            raise ValueError(f"clock {text!r}: an increment or delay of at most 10 minutes")
        if g["glass"]:
            kind = HOURGLASS
        elif g["kind"] == "d":
            kind = BRONSTEIN if extra > 0 else SUDDEN_DEATH
        else:
            kind = FISCHER if extra > 0 else SUDDEN_DEATH
        return cls(kind, base, extra if kind in (FISCHER, BRONSTEIN) else 0.0)

    def text(self) -> str:
        """The control as it is typed (``parse(tc.text()) == tc``)."""
        base = clock_text(self.base, tenths=False)
        return f"{base}h" if self.kind == HOURGLASS else base + (self._extra_text() or "+0")

    def _extra_text(self) -> str:
        """The increment (``+3``) or the delay (``d2``) as typed; "" for none."""
        return {FISCHER: f"+{self.extra:g}", BRONSTEIN: f"d{self.extra:g}"}.get(self.kind, "")

    def describe(self) -> str:
        """In words, for pages and ``--help``: "5 min + 3 s a move"."""
        base = _words(self.base)
        if self.kind == FISCHER:
            return f"{base} + {self.extra:g} s a move"
        if self.kind == BRONSTEIN:
            return f"{base}, {self.extra:g} s delay a move"
        if self.kind == HOURGLASS:
            return f"{base} hourglass"
        return f"{base} sudden death"

    def pgn(self) -> str:
        """PGN's TimeControl tag: ``300+3``, ``300`` and ``*60`` (sandclock) are the
        standard's; a delay, which it has no form for, is written ``300d2``."""
        base = f"{self.base:g}"
        return f"*{base}" if self.kind == HOURGLASS else base + self._extra_text()

    @classmethod
    def from_pgn(cls, tag: str) -> TimeControl:
        """The inverse of ``pgn()``; a ValueError for anything else."""
        found = re.fullmatch(r"(\*)?(\d{1,5})(?:([+d])(\d{1,3}))?", tag.strip())
        if found is None or (found[1] and found[3]):
            raise ValueError(f"TimeControl {tag!r}: not a time control this companion keeps")
        base = float(found[2])
        extra = float(found[4]) if found[4] else 0.0
        if base <= 0 or base > MAX_BASE or extra > MAX_EXTRA:
            raise ValueError(f"TimeControl {tag!r}: out of range")
        if found[1]:
            return cls(HOURGLASS, base)
        if found[3] == "d" and extra > 0:
            return cls(BRONSTEIN, base, extra)
        if extra > 0:
            return cls(FISCHER, base, extra)
        return cls(SUDDEN_DEATH, base)


def _words(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    if minutes and rest:
        return f"{minutes} min {rest} s"
    return f"{minutes} min" if minutes else f"{rest} s"


def clock_text(seconds: float, tenths: bool = True) -> str:
    """A time left as a clock shows it: ``1:02:03``, ``4:59``, and tenths under 10 s
    (``9.4``) when ``tenths``. Never negative: a fallen flag shows ``0:00``. Seconds are
    rounded up, as clocks do, so 0:00 means the time is gone."""
    if seconds <= 0:
        return "0.0" if tenths else "0:00"
    if tenths and seconds < 10:
        return f"{math.ceil(seconds * 10) / 10:.1f}"
    whole = math.ceil(seconds - 1e-9)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class ClockFace:
    """What a clock shows at one moment (``Clock.face``): what the OLED, the LEDs and the
    pages draw, each at its own pace, without asking the clock again. ``left`` is at
    ``at`` (the monotonic reading it was taken at); ``free`` is what is left of the running
    turn's Bronstein delay."""

    control: TimeControl
    left: tuple[tuple[str, float], ...]
    running: str | None
    paused: bool
    free: float
    at: float

    def time_of(self, player: str, now: float) -> float:
        """``player``'s time at ``now`` (later than ``at``), as the clock would say."""
        left = dict(self.left)[player]
        if self.running is None or self.paused:
            return left
        elapsed = max(0.0, now - self.at)
        if player == self.running:
            return left - max(0.0, elapsed - self.free)
        if self.control.kind == HOURGLASS:
            return left + elapsed
        return left

    def flagged(self, now: float) -> str | None:
        if self.running is not None and self.time_of(self.running, now) <= 0:
            return self.running
        return None

    def api(self, wall_now: float) -> dict[str, Any]:
        """``/api/state``'s ``clock``: each player's seconds left, ``running`` (a player or
        None), and what a page needs to tick by itself from the server's time: ``as_of``
        (the server's unix time, in seconds, when these times were true), ``paused``,
        ``free`` (the delay left) and the ``control``."""
        return {
            **{p: round(v, 2) for p, v in self.left},
            "running": self.running,
            "paused": self.paused,
            "free": round(self.free, 2),
            "control": self.control.text(),
            "as_of": round(wall_now, 3),
        }


class Clock:
    """One game's times. ``run(player, now)`` starts a turn; ``switch(to, now)`` ends the
    running player's turn (applying the control) and starts ``to``'s; ``pause``/``resume``
    freeze and thaw it; ``add`` gives time (a penalty or a correction, by the arbiter)."""

    def __init__(
        self, control: TimeControl, players: Iterable[str], first_move_timed: bool = False
    ):
        self.control = control
        self.players = tuple(players)
        self.first_move_timed = first_move_timed
        # a remote game: the clock holds the switch of a move made at the other board and
        # not here yet (the session switches nothing when it is made here)
        self.ahead = False
        if not self.players:
            raise ValueError("a clock needs at least one player")
        if control.kind == HOURGLASS and len(self.players) != 2:
            raise ValueError(f"an hourglass needs two players, not {len(self.players)}")
        start = control.base
        if first_move_timed and control.kind == FISCHER:
            start += control.extra  # move 1's increment, as the first turn begins
        self._left = dict.fromkeys(self.players, start)  # at the start of the turn
        self.running: str | None = None
        self.paused = False
        self._used = 0.0  # the running turn's time, before ``_since``
        self._since: float | None = None  # when the running turn last (re)started, unpaused

    # --- reading ---
    def used(self, now: float) -> float:
        """What the running turn has used so far (0 when nothing runs)."""
        if self.running is None:
            return 0.0
        return self._used + (now - self._since if self._since is not None else 0.0)

    def charged(self, now: float) -> float:
        """What the running turn has cost its player so far: a delay's free seconds are
        not charged."""
        used = self.used(now)
        if self.control.kind == BRONSTEIN:
            return max(0.0, used - self.control.extra)
        return used

    def left(self, player: str, now: float) -> float:
        """``player``'s time at ``now`` (negative once the flag has fallen)."""
        left = self._left[player]
        if self.running is None:
            return left
        if player == self.running:
            return left - self.charged(now)
        if self.control.kind == HOURGLASS:
            return left + self.used(now)
        return left

    def times(self, now: float) -> dict[str, float]:
        return {p: self.left(p, now) for p in self.players}

    def face(self, now: float) -> ClockFace:
        free = 0.0
        if self.running is not None and self.control.kind == BRONSTEIN:
            free = max(0.0, self.control.extra - self.used(now))
        return ClockFace(
            self.control,
            tuple((p, self.left(p, now)) for p in self.players),
            self.running,
            self.paused,
            free,
            now,
        )

    def flagged(self, now: float) -> str | None:
        """The running player, once their time is gone (a paused clock's flag can still
        have fallen before the pause)."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def due(self, now: float) -> float | None:
        """Seconds until the running player's flag falls (None when nothing runs or the
        clock is paused): when a timer should look again."""
        if self.running is None or self.paused:
            return None
        return max(0.0, self.left(self.running, now))

    # --- acting ---
    def run(self, player: str | None, now: float) -> None:
        """``player``'s turn begins now (None: nobody's time runs), without ending another
        turn's (a start, or a restart after a takeback)."""
        if player is not None and player not in self._left:
            raise ValueError(f"{player!r} has no time on this clock")
        self.running = player
        self._used = 0.0
        self._since = None if (self.paused or player is None) else now

    def switch(self, to: str | None, now: float) -> None:
        """The running player's turn is over (their move is complete): the control applies
        to it, and ``to``'s turn begins (None: the game is over, nothing runs)."""
        mover = self.running
        if mover is not None:
            used = self.used(now)
            left = self._left[mover] - self.charged(now)
            kind = self.control.kind
            if left > 0 and kind == FISCHER:
                left += self.control.extra
            if kind == HOURGLASS:
                other = next(p for p in self.players if p != mover)
                self._left[other] += used
            self._left[mover] = left
        self.run(to, now)

    def pause(self, now: float) -> None:
        if not self.paused:
            self._used = self.used(now)
            self._since = None
            self.paused = True

    def resume(self, now: float) -> None:
        if self.paused:
            self.paused = False
            self._since = now if self.running is not None else None

    def add(self, player: str, seconds: float) -> None:
        """Give ``player`` ``seconds`` more (negative: take them; a penalty)."""
        if player not in self._left:
            raise ValueError(f"{player!r} has no time on this clock")
        self._left[player] += seconds

    # --- saving ---
    def snapshot(self, now: float) -> dict[str, Any]:
        """What the journal keeps: enough to restore the clock as it is at ``now``."""
        snap: dict[str, Any] = {
            "control": self.control.text(),
            "left": {p: round(v, 3) for p, v in self._left.items()},
            "running": self.running,
            "used": round(self.used(now), 3),
            "paused": self.paused,
        }
        if self.first_move_timed:  # absent: the casual rule (snapshots before it had one)
            snap["first_move"] = "timed"
        if self.ahead:
            snap["ahead"] = True
        return snap

    @classmethod
    def restore(cls, snapshot: dict[str, Any], now: float, paused: bool | None = None) -> Clock:
        """The clock a snapshot saved, running from ``now`` (``paused``: as saved, or as
        given: after a crash the clock waits paused). A ValueError for a damaged one."""
        try:
            control = TimeControl.parse(str(snapshot["control"]))
            left = {str(p): float(v) for p, v in dict(snapshot["left"]).items()}
            running = snapshot.get("running")
            used = float(snapshot.get("used", 0.0))
            was_paused = bool(snapshot.get("paused", False))
            timed = snapshot.get("first_move", "free") == "timed"
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"a damaged clock snapshot ({e})") from None
        if running is not None and running not in left:
            raise ValueError(f"a damaged clock snapshot (running {running!r} has no time)")
        if not all(math.isfinite(v) for v in [*left.values(), used]) or used < 0:
            raise ValueError("a damaged clock snapshot (times out of range)")
        clock = cls(control, left, first_move_timed=timed)
        clock.ahead = snapshot.get("ahead") is True
        clock._left = left
        clock.running = running
        clock.paused = was_paused if paused is None else paused
        clock._used = used if running is not None else 0.0
        clock._since = None if (clock.paused or running is None) else now
        return clock
