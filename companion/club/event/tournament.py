"""An event's rounds, results and corrections, pure (the SQLite file is ``store``).

A game is one pairing of a round: white and black by name (black None: the bye), the board
it goes to, its id (``r2-t3``; ``r2-t3-2`` once replayed) and its result. Results:

- ``1-0``, ``0-1``, ``1/2-1/2``: played; ``+-``, ``-+``: won by forfeit (white, black);
  ``--``: both forfeited; a bye has ``bye``.

The arbiter corrects a result (or sets a forfeit, or has a game replayed) at any time:
every correction is kept (who, when, old -> new, why), nothing is deleted: a replayed game
stays, void, beside the new one. Standings are always computed from the games as they are."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.club.event import berger
from companion.club.event.spec import ROUND_ROBIN, Event
from companion.club.event.swiss import BLACK, WHITE, History, pair_swiss
from companion.core.names import name_problem

PLAYED = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
FORFEITS = {"+-": (1.0, 0.0), "-+": (0.0, 1.0), "--": (0.0, 0.0)}
RESULTS = {**PLAYED, **FORFEITS}
BYE = "bye"
REPLAY = "replay"
MAX_WHY = 200  # characters of a correction's reason
_SPELLINGS = {"draw": "1/2-1/2", "½-½": "1/2-1/2", "0.5-0.5": "1/2-1/2", "=": "1/2-1/2"}


class EventStateError(ValueError):
    """A step the event's state does not allow; the message is one line."""


@dataclass(frozen=True)
class PairingJob:
    """A round's pairing as a pure computation: ``fn(*args)`` gives (white, black) indexes
    into ``ranked`` (black None: the bye). Its parts pickle, so it runs in another process."""

    number: int
    ranked: tuple[str, ...]
    fn: Callable[..., list[tuple[int, int | None]]]
    args: tuple[Any, ...]
    quick: bool = False  # a table look-up (round robin): computed where it is asked for

    def run(self) -> list[tuple[int, int | None]]:
        return self.fn(*self.args)


def berger_pairs(n: int, cycles: int, number: int) -> list[tuple[int, int | None]]:
    """Round ``number`` of the Berger tables for ``n`` players, as indexes (the bye last)."""
    games: list[tuple[int, int | None]] = []
    bye: list[tuple[int, int | None]] = []
    for a, b in berger.schedule(n, cycles)[number - 1]:
        if max(a, b) > n:  # the dummy's opponent has the bye
            bye = [(min(a, b) - 1, None)]
        else:
            games.append((a - 1, b - 1))
    return games + bye


def now_iso() -> str:
    """Now, as corrections are stamped: ISO 8601 UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def result_code(text: str) -> str:
    """A result as typed (``1-0``, ``draw``, ``½-½``, ``+-``, ``replay``) in its one spelling."""
    word = text.strip().lower()
    word = _SPELLINGS.get(word, word)
    if word not in RESULTS and word != REPLAY:
        raise EventStateError(
            f"result {text!r}: 1-0, 0-1, 1/2-1/2 (or draw), +- or -+ (won by forfeit), "
            "-- (both forfeited) or replay"
        )
    return word


@dataclass
class Game:
    round: int
    table: int
    white: str
    black: str | None  # None: the bye
    board: str | None = None
    attempt: int = 1
    result: str | None = None
    game_uid: str | None = None  # the board's game it came from
    record: str | None = None  # the game's record text, as the board exported it
    void: bool = False  # replayed: kept, counted no more

    @property
    def pairing(self) -> str:
        """``r2-t3``: round 2, table 3 (its board); the round's bye, which has no table or
        board, ``r2-bye``."""
        if self.black is None:
            return f"r{self.round}-bye"
        base = f"r{self.round}-t{self.table}"
        return base if self.attempt == 1 else f"{base}-{self.attempt}"

    def points(self) -> tuple[float, float]:
        """(white's, black's); nothing yet: (0, 0)."""
        return RESULTS.get(self.result or "", (0.0, 0.0))


@dataclass(frozen=True)
class Correction:
    pairing: str
    old: str | None
    new: str
    who: str
    why: str
    at: str  # ISO 8601 UTC


@dataclass
class Tournament:
    event: Event
    games: list[Game] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)

    # ------------------------------------------------------------------ reading

    @property
    def round(self) -> int:
        """The last round paired (0: none yet)."""
        return max((g.round for g in self.games), default=0)

    def live(self, round_number: int | None = None) -> list[Game]:
        """The games that count (replayed ones left out), of one round or all."""
        return [
            g
            for g in self.games
            if not g.void and (round_number is None or g.round == round_number)
        ]

    def find(self, pairing: str) -> Game | None:
        return next((g for g in self.games if g.pairing == pairing), None)

    def round_complete(self, round_number: int | None = None) -> bool:
        """Every game of the round (by default: of every round so far, a replayed game of
        an earlier round included) has its result."""
        if round_number is None:
            return not self.waiting()
        return all(g.result is not None for g in self.live(round_number))

    def finished(self) -> bool:
        return self.round == self.event.rounds and self.round_complete()

    def waiting(self) -> list[Game]:
        """The games still without a result, oldest round first, table by table."""
        return sorted(
            (g for g in self.live() if g.result is None), key=lambda g: (g.round, g.table)
        )

    # ------------------------------------------------------------------ pairing

    def pair_next(self) -> list[Game]:
        """Pair the next round (refused while the current one has games without results)."""
        job = self.pairing_job()
        return self.place(job, job.run())

    def pairing_job(self) -> PairingJob:
        """What pairing the next round computes, as a pure job that can run in another
        process (a Swiss round of hundreds of players takes seconds); EventStateError when
        the round cannot be paired now."""
        if self.round and not self.round_complete():
            left = ", ".join(g.pairing for g in self.waiting())
            raise EventStateError(f"round {self.round + 1} cannot be paired yet: {left} to play")
        if self.round >= self.event.rounds:
            raise EventStateError(f"all {self.event.rounds} rounds are paired")
        number = self.round + 1
        ranked = tuple(p.name for p in self.event.ranked())
        if self.event.pairing == ROUND_ROBIN:
            return PairingJob(
                number, ranked, berger_pairs, (len(ranked), self.event.cycles, number), True
            )
        histories, met = self.histories(list(ranked))
        args = (histories, met, number, self.event.rounds, self.event.initial_colour)
        return PairingJob(number, ranked, pair_swiss, args)

    def place(self, job: PairingJob, pairs: list[tuple[int, int | None]]) -> list[Game]:
        """The job's pairs (indexes into its ranked players) as the round's games."""
        if job.number != self.round + 1:
            raise EventStateError(f"round {job.number} was paired meanwhile")
        boards = list(self.event.boards)
        new: list[Game] = []
        for table, (w, b) in enumerate(pairs, 1):
            white, black = job.ranked[w], None if b is None else job.ranked[b]
            board = boards[table - 1] if black is not None and table <= len(boards) else None
            game = Game(job.number, table, white, black, board=board)
            if black is None:
                game.result = BYE
            new.append(game)
        self.games.extend(new)
        return new

    def histories(self, ranked: list[str]) -> tuple[list[History], set[tuple[int, int]]]:
        """Each player's history for the Dutch engine, and who met whom (by rank)."""
        index = {name: i for i, name in enumerate(ranked)}
        ratings = {p.name: p.rating for p in self.event.players}
        hist = [History(rating=ratings[name]) for name in ranked]
        met: set[tuple[int, int]] = set()
        for r in range(1, self.round + 1):
            before = [h.score for h in hist]
            for g in self.live(r):
                w = hist[index[g.white]]
                if g.black is None:
                    w.score += self.event.bye
                    w.byes += 1
                    # a downfloat when it scored (C.04.3 A.4), as bbpPairings counts it
                    w.floats.append("down" if self.event.bye > 0 else "none")
                    continue
                b = hist[index[g.black]]
                pw, pb = g.points()
                w.score += pw
                b.score += pb
                i, j = index[g.white], index[g.black]
                if g.result in PLAYED:
                    met.add((min(i, j), max(i, j)))
                    w.colours.append(WHITE)
                    b.colours.append(BLACK)
                    fw = (
                        "none"
                        if before[i] == before[j]
                        else "down"
                        if before[i] > before[j]
                        else "up"
                    )
                    fb = {"down": "up", "up": "down"}.get(fw, "none")
                    w.floats.append(fw)
                    b.floats.append(fb)
                else:
                    # a forfeit: no game, no colour; the winner floated down (C.04.3 A.4:
                    # a round won without playing counts as a downfloat, as the bye does)
                    # and cannot have the bye
                    w.floats.append("down" if g.result == "+-" else "none")
                    b.floats.append("down" if g.result == "-+" else "none")
                    if g.result == "+-":
                        w.forfeit_wins += 1
                    elif g.result == "-+":
                        b.forfeit_wins += 1
        return hist, met

    # ------------------------------------------------------------------ results

    def enter_result(
        self, pairing: str, result: str, game_uid: str | None = None, record: str | None = None
    ) -> Game:
        """A result from a board (``game_uid``, ``record``) or typed by the arbiter for a game
        that has none yet. The same board game sent again changes nothing; a second, other
        result for the game is refused (that is a correction)."""
        game = self.find(pairing)
        if game is None:
            raise EventStateError(f"no pairing {pairing!r} in {self.event.name}")
        code = result_code(result)
        if code == REPLAY:
            raise EventStateError("replay is a correction: binaryon event correct ... replay")
        if game.void:
            raise EventStateError(f"{pairing} was replayed: its new game is {self._next(game)}")
        if game.result is not None:
            if game_uid is not None and game.game_uid == game_uid:
                return game  # the same result again
            raise EventStateError(
                f"{pairing} has its result ({game.result}) already: an arbiter's correction "
                "changes it"
            )
        game.result, game.game_uid, game.record = code, game_uid, record
        return game

    def _next(self, game: Game) -> str:
        later = [
            g for g in self.games if (g.round, g.table) == (game.round, game.table) and not g.void
        ]
        return later[0].pairing if later else "none"

    def correct(self, pairing: str, new: str, who: str, why: str, at: str) -> Correction:
        """The arbiter's correction: a result, a forfeit or ``replay`` (the game is played
        again: it stays, void, and a new attempt takes its table). Kept in the corrections."""
        game = self.find(pairing)
        if game is None:
            raise EventStateError(f"no pairing {pairing!r} in {self.event.name}")
        if game.void:
            raise EventStateError(f"{pairing} was replayed: correct {self._next(game)} instead")
        if game.black is None:
            raise EventStateError(f"{pairing} is a bye: it has no result to correct")
        if not who.strip() or not why.strip():
            raise EventStateError("a correction names who makes it and why")
        if problem := name_problem(who.strip()):
            raise EventStateError(f"who corrects: {problem}")
        if problem := name_problem(why.strip(), MAX_WHY):
            raise EventStateError(f"why: {problem.replace('a name', 'a reason')}")
        code = result_code(new)
        if code == game.result:
            raise EventStateError(f"{pairing} has {code} already")
        fix = Correction(pairing, game.result, code, who.strip(), why.strip(), at)
        if code == REPLAY:
            game.void = True
            again = Game(
                game.round, game.table, game.white, game.black, game.board, game.attempt + 1
            )
            self.games.append(again)
        else:
            game.result = code
        self.corrections.append(fix)
        return fix

    # ------------------------------------------------------------------ state

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": [asdict(g) for g in self.games],
            "corrections": [asdict(c) for c in self.corrections],
        }

    @classmethod
    def from_dict(cls, event: Event, data: dict[str, Any]) -> Tournament:
        return cls(
            event,
            [Game(**g) for g in data.get("games", [])],
            [Correction(**c) for c in data.get("corrections", [])],
        )
