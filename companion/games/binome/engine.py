"""Binøme game state: part 1 (sixteen rolls written into secret sheets), part 2 (postulates
drawn, claimed and resolved), the end. Pure and immutable, no I/O.

Moves (notation in brackets, what the journal stores):

- ``Roll(d)`` [``roll 7``] and ``Draw(card)`` [``draw contains-5``]: chance steps the referee
  plays (``chance()`` lists the outcomes, the referee picks one with its RNG).
- ``Write(cell, player)`` [``Cornelia write 3a``]: the current digit goes into number 3's
  first digit (``a``; ``b`` = second digit). Everybody writes each roll, all at once.
- ``Claim(number, player)`` [``Cornelia claim 44``] and ``Decline(player)``
  [``Dorothy pass``]: from the chairperson clockwise (seat order = the order of the players
  option), or all at once with option ``secrets``. A number that does not meet the postulate
  is claimed only when confirmed, ``Claim(number, player, burn=True)`` [``Ann claim 12
  burn``]: it is eliminated and used up. A player with no eligible number cannot claim.

``public_name`` hides what others may not see yet: where a digit went, the number claimed,
and with ``secrets`` whether a player claimed at all. Claims are revealed by the turn's
resolution (``last_resolution``), the sheets by ``outcome()`` at the end.

Remote play (masked.py): a state masked for one seat knows only that seat's sheet and
choices; the other seats' moves come by their public names (``Veiled``: ``Bob write``,
``Bob claim``, ``Bob chose``) and their choices as facts once a turn's choosing is complete.

Solo mode (option ``solo`` = 1..6): the one human plays against virtual players ``bot1``..
whose moves ``forced_move()`` returns (see solo.py), so the referee plays them and the
journal keeps them like any other move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from ..base import Chance, GameState, IllegalMove, Outcome, Refusal
from . import masked as masking
from . import paper as papers
from . import solo
from .deck import Deck, parse_deck_text
from .masked import HIDDEN
from .moves import (
    VEILED,
    BinomeMove,
    Claim,
    Decline,
    Draw,
    Roll,
    Veiled,
    Write,
    cell_name,
    parse_cell,
)
from .options import RESERVED, resolve_game_options, seat_order
from .postulates import BY_ID, IDS, number_text, parse_number
from .resolution import Resolution, join_names, resolve

GAME: Final = "binome"
SLOTS: Final = 8
CELLS: Final = 2 * SLOTS
ROLLS: Final = CELLS  # one roll per cell: 16

ROLL, WRITE, DRAW, CLAIM, OVER = "roll", "write", "draw", "claim", "over"


# ---------------------------------------------------------------------------------- state


def _rotate(names: Sequence[str], first: str) -> tuple[str, ...]:
    i = names.index(first)
    return tuple(names[i:]) + tuple(names[:i])


@dataclass(frozen=True, eq=True)
class BinomeState(GameState):
    """One moment of a Binøme game. Build one with ``SPEC.new(**options)`` or ``SPEC.replay``."""

    game: ClassVar[str] = GAME

    option_items: tuple[tuple[str, Any], ...]
    names: tuple[str, ...]
    deck: Deck
    sheets: tuple[tuple[int | None, ...], ...]  # per player, CELLS digits (None = blank)
    used: tuple[tuple[bool, ...], ...]  # per player, per number
    rolls: tuple[int, ...] = ()
    wrote: frozenset[str] = frozenset()  # players who wrote the latest roll
    remaining: tuple[str, ...] = IDS  # cards still in the deck
    card: str | None = None  # the postulate being claimed
    chair: str = ""
    decided: tuple[tuple[str, int | None], ...] = ()  # this turn: (player, number or None)
    scores: tuple[int, ...] = ()
    won: tuple[tuple[str, ...], ...] = ()  # cards taken, per player
    history: tuple[Resolution, ...] = ()  # one per resolved turn, discarded cards included
    announced: tuple[str, ...] = ()  # transparency: one number left after the last turn
    over: bool = False
    _ply: int = 0
    # remote play (masked.py): the seat whose secrets this state knows (None: all), and the
    # facts heard about the other seats' secrets, (seat, key, value) sorted by seat and key
    mask: str | None = None
    learned: tuple[tuple[str, str, Any], ...] = ()

    # ------------------------------------------------------------------ remote play
    # (masked.py: functions over this state)
    def masked(self, seat: str) -> BinomeState:
        return masking.masked_for_seat(self, seat)

    @property
    def masked_for(self) -> str | None:
        return self.mask

    @property
    def waiting(self) -> frozenset[str]:
        return masking.waiting(self)

    def disclosed(self, seat: str) -> dict[str, Any]:
        return masking.disclosed(self, seat)

    def learn(self, seat: str, facts: Mapping[str, Any]) -> BinomeState:
        return masking.learn(self, seat, facts)

    def veils(self, player: str) -> bool:
        """Are ``player``'s secrets unknown to this state (another seat's, when masked)?"""
        return masking.veils(self, player)

    def fact(self, seat: str, key: str) -> Any | None:
        """The fact learned about ``seat`` under ``key`` (None: not heard)."""
        return masking.fact(self, seat, key)

    # ------------------------------------------------------------------ basic views
    @property
    def options(self) -> dict[str, Any]:
        return dict(self.option_items)

    @property
    def players(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.names

    @property
    def phoneless(self) -> frozenset[str]:
        """Players without a phone: the chairperson enters their moves."""
        text = str(self.options.get("phoneless", ""))
        return frozenset(n for n in text.split(",") if n)

    def enters_for(self, entrant: str, player: str) -> bool:
        """May ``entrant``'s page enter ``player``'s move? Their own, or, for the
        chairperson, a player without a phone."""
        return entrant == player or (entrant == self.chair and player in self.phoneless)

    def page_of(self, player: str) -> str:
        """A player without a phone is entered for, and told refusals, by the chairperson."""
        return self.chair if player in self.phoneless else player

    @property
    def paper(self) -> bool:
        """Do the people keep their sheets on paper (option ``paper``: paper.py)?"""
        return bool(self.options.get("paper", False))

    def on_paper(self, player: str) -> bool:
        """Is ``player``'s sheet on paper (a person in a paper game; never a virtual one)?"""
        return self.paper and player not in self.virtual

    def asked_number(self, player: str) -> bool:
        """Is ``player`` asked for the number they claimed with (everybody has chosen)?"""
        return self.paper and player in self.waiting

    @property
    def virtual(self) -> frozenset[str]:
        n = int(self.options["solo"])
        return frozenset(self.names[len(self.names) - n :]) if n else frozenset()

    @property
    def ply(self) -> int:
        return self._ply

    def index(self, player: str) -> int:
        return self.names.index(player)

    @property
    def phase(self) -> str:
        if self.over:
            return OVER
        everyone = len(self.wrote) == len(self.names)
        if len(self.rolls) < ROLLS or not everyone:
            return WRITE if self.rolls and not everyone else ROLL
        return DRAW if self.card is None else CLAIM

    @property
    def digit(self) -> int | None:
        """The digit being written (part 1), else None."""
        return self.rolls[-1] if self.phase == WRITE else None

    def claim_order(self) -> tuple[str, ...]:
        """Seat order starting from the chairperson."""
        return _rotate(self.names, self.chair)

    @property
    def to_act(self) -> frozenset[str]:
        if self.mask is not None and self.waiting:
            return frozenset()
        if self.paper and (asked := self.waiting):  # paper: each claimant's number in turn
            return frozenset({next(p for p in self.claim_order() if p in asked)})
        phase = self.phase
        if phase == WRITE:
            return frozenset(n for n in self.names if n not in self.wrote)
        if phase == CLAIM:
            if self.options["secrets"]:
                done = {p for p, _ in self.decided}
                return frozenset(n for n in self.names if n not in done)
            return frozenset({self.claim_order()[len(self.decided)]})
        return frozenset()

    @property
    def turn(self) -> str | None:
        acting = self.to_act
        return next(iter(acting)) if len(acting) == 1 else None

    def sheet(self, player: str) -> tuple[int | None, ...]:
        return self.sheets[self.index(player)]

    def numbers(self, player: str) -> tuple[str, ...]:
        """The player's eight numbers as written so far, '?' for a blank digit: '4?'."""
        sheet = self.sheet(player)
        return tuple(
            "".join("?" if d is None else str(d) for d in sheet[2 * s : 2 * s + 2])
            for s in range(SLOTS)
        )

    def unused_numbers(self, player: str) -> tuple[int, ...]:
        """The player's complete numbers not yet used in a claim, in sheet order."""
        i = self.index(player)
        sheet, used = self.sheets[i], self.used[i]
        out = []
        for s in range(SLOTS):
            a, b = sheet[2 * s], sheet[2 * s + 1]
            if not used[s] and a is not None and b is not None:
                out.append(a * 10 + b)
        return tuple(out)

    def score_of(self, player: str) -> int:
        return self.scores[self.index(player)]

    @property
    def last_resolution(self) -> Resolution | None:
        return self.history[-1] if self.history else None

    # ------------------------------------------------------------------ moves
    def chance(self) -> Chance | None:
        """The die (part 1) or the deck (part 2): the referee draws one outcome's name."""
        moves = self.chance_moves()
        if not moves:
            return None
        kind = "d10" if isinstance(moves[0], Roll) else "draw"
        return Chance(kind, tuple(m.name for m in moves))

    def chance_moves(self) -> tuple[Roll | Draw, ...]:
        """The equally likely outcomes of the chance step now, as moves (() when none, and on
        a board masked for another seat than the first: only the first seat's board draws)."""
        if self.mask is not None and self.mask != self.names[0]:
            return ()
        phase = self.phase
        if phase == ROLL:
            return tuple(Roll(d) for d in range(10))
        if phase == DRAW:
            return tuple(Draw(c) for c in self.remaining)
        return ()

    def actor(self, move: Any) -> str | None:
        """Who plays ``move``: the player it names (None for a roll or a draw)."""
        return getattr(move, "player", None)

    def _player_moves(self, player: str) -> list[BinomeMove]:
        if self.on_paper(player):
            return papers.paper_moves(self, player)
        if player not in self.to_act:
            return []
        if self.veils(player):  # another seat's moves, as this board hears them
            if self.phase == WRITE:
                return [Veiled("write", player)]
            if self.options["secrets"]:
                return [Veiled("chose", player)]
            return [Veiled("claim", player), Decline(player)]
        if self.phase == WRITE:
            sheet = self.sheet(player)
            return [Write(c, player) for c in range(CELLS) if sheet[c] is None]
        numbers = sorted(set(self.unused_numbers(player)))
        eligible = self.eligible_numbers(player)
        if not eligible:
            return [Decline(player)]
        return [*(Claim(n, player, burn=n not in eligible) for n in numbers), Decline(player)]

    def eligible_numbers(self, player: str) -> tuple[int, ...]:
        """The player's unused numbers that meet the postulate now, in sheet order (() when
        there is no postulate to claim)."""
        if self.card is None:
            return ()
        meets = BY_ID[self.card].eligible
        return tuple(n for n in self.unused_numbers(player) if meets(n))

    def legal_moves(self, player: str | None = None) -> list[BinomeMove]:  # type: ignore[override]
        if self.over:
            return []
        if player is None:
            chance = self.chance_moves()
            if chance:
                return list(chance)
            return [m for p in self.names for m in self._player_moves(p)]
        if player not in self.names:
            return []
        return self._player_moves(player)

    def check(self, move: Any, player: str | None = None) -> Refusal | None:  # type: ignore[override]
        if self.over:
            return Refusal("game-over", "game over")
        phase = self.phase
        if self.mask is not None and self.waiting:  # only the drawn chance step may come
            drawn = isinstance(move, Roll) if phase == ROLL else isinstance(move, Draw)
            if self.card is not None or not drawn:
                return Refusal("remote-waiting", masking.waiting_reason(self))
        if isinstance(move, Roll):
            if player is not None:
                return Refusal("referee-only", "the referee rolls")
            if phase != ROLL:
                return Refusal("not-now", "no roll now")
            if isinstance(move.digit, bool) or move.digit not in range(10):
                return Refusal("bad-digit", f"{move.digit!r}: a die shows 0-9")
            return None
        if isinstance(move, Draw):
            if player is not None:
                return Refusal("referee-only", "the chair draws")
            if phase != DRAW:
                return Refusal("not-now", "no draw now")
            if move.card not in self.remaining:
                if move.card in BY_ID:
                    return Refusal("card-gone", f"{move.card}: not in the deck")
                return Refusal("unknown-card", f"{move.card!r}: no such card")
            return None
        if not isinstance(move, Write | Claim | Decline | Veiled):
            return Refusal("not-a-move", f"{move!r}: not a move")
        if isinstance(move, Veiled) and self.mask is None and not self.paper:
            return Refusal("remote-only", f"{move.name}: a public name, not a move")
        who = move.player or player
        if who is None:
            return Refusal("no-player", "whose move is it?")
        if (
            player is not None
            and move.player is not None
            and not self.enters_for(player, move.player)
        ):
            return Refusal("wrong-player", f"not {move.player}'s page")
        if who not in self.names:
            return Refusal("unknown-player", f"{who}: not playing")
        if self.mask is not None and (refusal := masking.remote_refusal(self, move, who)):
            return refusal
        if self.on_paper(who):
            return papers.paper_check(self, move, who)
        if isinstance(move, Veiled) and self.mask is None:
            return Refusal("remote-only", f"{move.name}: a public name, not a move")
        writes = isinstance(move, Write) or (isinstance(move, Veiled) and move.verb == "write")
        if writes:
            if phase != WRITE:
                return Refusal("not-now", "no digit to write")
            if who in self.wrote:
                return Refusal("already-wrote", f"{who}: already wrote {self.rolls[-1]}")
            if isinstance(move, Veiled):
                return None
            if isinstance(move.cell, bool) or move.cell not in range(CELLS):
                return Refusal("bad-cell", f"{move.cell!r}: not a cell")
            if self.sheet(who)[move.cell] is not None:
                return Refusal("cell-taken", f"{cell_name(move.cell)}: already written")
            return None
        if phase != CLAIM:
            return Refusal("not-now", "no postulate to claim")
        if who not in self.to_act:
            if any(p == who for p, _ in self.decided):
                return Refusal("already-decided", f"{who}: already chose")
            return Refusal("not-your-turn", f"{self.turn}'s turn to claim")
        if isinstance(move, Claim):
            n = move.number
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
                return Refusal("bad-number", f"{n!r}: not a 2-digit number")
            if n not in self.unused_numbers(who):
                if n in self._complete_numbers(who):
                    return Refusal("number-used", f"{number_text(n)}: already used")
                return Refusal("not-your-number", f"{number_text(n)}: not on your sheet")
            return self._eligibility(who, n, move.burn)
        return None

    def _eligibility(self, who: str, n: int, burn: bool) -> Refusal | None:
        """The printed rules: a player must choose an eligible number and cannot claim without
        one; a number chosen by mistake is eliminated (and used up). So a claim with a number
        that does not meet the postulate needs a confirmation (``burn``), and none is taken
        from a player who has no eligible number."""
        assert self.card is not None
        if BY_ID[self.card].eligible(n):
            if burn:
                return Refusal("eligible", f"{number_text(n)}: eligible, nothing to burn")
            return None
        if not self.eligible_numbers(who) and not burn:  # burned: a mistake, as in a record
            return Refusal("no-eligible", "no eligible number: pass")
        if not burn:
            confirm = Claim(n, who, burn=True).name
            reason = f"{number_text(n)}: not eligible, it will be burned"
            return Refusal("would-burn", reason, confirm)
        return None

    def _complete_numbers(self, player: str) -> set[int]:
        sheet = self.sheet(player)
        return {
            sheet[2 * s] * 10 + sheet[2 * s + 1]  # type: ignore[operator]
            for s in range(SLOTS)
            if sheet[2 * s] is not None and sheet[2 * s + 1] is not None
        }

    def play(self, move: Any, player: str | None = None) -> BinomeState:  # type: ignore[override]
        refusal = self.check(move, player)
        if refusal is not None:
            raise IllegalMove(refusal)
        ply = self._ply + 1
        if isinstance(move, Roll):
            return replace(self, rolls=(*self.rolls, move.digit), wrote=frozenset(), _ply=ply)
        if isinstance(move, Draw):
            left = tuple(c for c in self.remaining if c != move.card)
            return replace(self, remaining=left, card=move.card, _ply=ply)
        who: str = move.player or player  # type: ignore[assignment]
        i = self.index(who)
        if (told := papers.paper_play(self, move, who, ply)) is not None:
            return told
        if isinstance(move, Veiled):
            if move.verb == "write":
                return replace(self, wrote=self.wrote | {who}, _ply=ply)
            return masking.settle(replace(self, decided=(*self.decided, (who, HIDDEN)), _ply=ply))
        if isinstance(move, Write):
            sheet = list(self.sheets[i])
            sheet[move.cell] = self.rolls[-1]
            sheets = (*self.sheets[:i], tuple(sheet), *self.sheets[i + 1 :])
            return replace(self, sheets=sheets, wrote=self.wrote | {who}, _ply=ply)
        number = move.number if isinstance(move, Claim) else None
        return masking.settle(replace(self, decided=(*self.decided, (who, number)), _ply=ply))

    def reveals(self, move: Any) -> bool:
        """The last choice of a turn: it resolves the turn, so every claim is shown."""
        chooses = isinstance(move, Claim | Decline) or (
            isinstance(move, Veiled) and move.verb != "write"
        )
        if self.paper and isinstance(move, Claim) and self.waiting == {move.player}:
            return True  # the last number told on paper: the turn resolves
        return chooses and len(self.decided) + 1 == len(self.names)

    def resolve_turn(self) -> BinomeState:
        """Everybody has chosen: resolve, score, pass the chair, mark numbers used."""
        assert self.card is not None
        opts = self.options
        chosen = masking.choices(self)
        claims = [(p, n) for p in self.claim_order() if (n := chosen[p]) is not None]
        res = resolve(
            self.card,
            claims,
            self.deck[self.card],
            battle_royale=opts["battle_royale"],
            same_boat=opts["same_boat"],
        )
        used = [list(u) for u in self.used]
        for p, n in claims:
            i = self.index(p)
            sheet = self.sheets[i]
            if self.veils(p):  # only how many are used counts here (masked.py)
                used[i][used[i].index(False)] = True
                continue
            slot = next(
                s
                for s in range(SLOTS)
                if not used[i][s] and sheet[2 * s] * 10 + sheet[2 * s + 1] == n  # type: ignore[operator]
            )
            used[i][slot] = True
        scores = list(self.scores)
        for p, gain in res.points:
            scores[self.index(p)] += gain
        won = list(self.won)
        chair = self.chair
        if res.taker is not None:
            t = self.index(res.taker)
            won[t] = (*won[t], self.card)
            chair = res.taker
        left = [SLOTS - sum(u) for u in used]
        over = not self.remaining or min(left) == 0
        announced = (
            tuple(p for p, k in zip(self.names, left, strict=True) if k == 1)
            if opts["transparency"]
            else ()
        )
        return replace(
            self,
            used=tuple(tuple(u) for u in used),
            scores=tuple(scores),
            won=tuple(won),
            chair=chair,
            card=None,
            decided=(),
            history=(*self.history, res),
            announced=announced,
            over=over,
        )

    def forced_move(self) -> BinomeMove | None:
        """The next virtual player's move (solo mode), which the referee plays itself."""
        bots = self.virtual & self.to_act
        if not bots:
            return None
        bot = next(p for p in self.names if p in bots)
        return self.bot_move(bot)

    def bot_move(self, bot: str) -> BinomeMove:
        """What the virtual player ``bot`` plays now (solo.py's strategy, seeded)."""
        seed = self.options["seed"]
        rng = random.Random(f"binome/{seed}/{bot}/{self._ply}")
        me = solo.personality(seed, bot)
        players = len(self.names)
        if self.phase == WRITE:
            cell = solo.choose_cell(self.sheet(bot), self.rolls[-1], self.deck, players, rng, me)
            return Write(cell, bot)
        assert self.card is not None
        number = solo.choose_claim(
            self.unused_numbers(bot), self.card, self.deck, self.remaining, players, rng, me
        )
        return Decline(bot) if number is None else Claim(number, bot)

    # ------------------------------------------------------------------ the end
    def is_over(self) -> bool:
        return self.over

    def __repr__(self) -> str:
        return (
            f"BinomeState(players={','.join(self.names)}, phase={self.phase}, "
            f"rolls={len(self.rolls)}, cards_left={len(self.remaining)}, ply={self._ply})"
        )

    # ----- notation: the public names others may see, and names read back into moves
    def public_name(self, move: Any) -> str:
        """The notation others may see now: no cell, no number; with ``secrets`` not even
        whether the player claimed. Another seat's move heard by a remote board is its public
        name already (``Veiled``)."""
        if isinstance(move, Roll | Draw | Veiled):
            return move.name
        who = move.player
        if isinstance(move, Claim) and who is not None and self.asked_number(who):
            return move.name  # a number told aloud on paper (paper.py)
        if isinstance(move, Write):
            return f"{who} write"
        if self.options["secrets"]:
            return f"{who} chose"
        return f"{who} claim" if isinstance(move, Claim) else f"{who} pass"

    def parse_move(self, text: str) -> BinomeMove:
        words = text.split()
        if not words:
            raise ValueError("empty move")
        verb = words[0].lower()
        if verb == "roll" and len(words) == 2:
            if len(words[1]) != 1 or not words[1].isdigit():
                raise ValueError(f"{words[1]!r}: a die shows 0-9")
            return Roll(int(words[1]))
        if verb == "draw" and len(words) == 2:
            if words[1] not in BY_ID:
                raise ValueError(f"{words[1]!r}: no such postulate")
            return Draw(words[1])
        if len(words) == 1 and (cell := _cell_or_none(words[0])) is not None:
            return Write(cell, None)  # "1a": write the digit there (the page says whose)
        player = None
        if verb not in RESERVED:
            player = self._player_named(words[0])
            words = words[1:]
            if not words:
                raise ValueError(f"{text.strip()!r}: write, claim or pass?")
            verb = words[0].lower()
        if len(words) == 1 and (cell := _cell_or_none(words[0])) is not None:
            return Write(cell, player)  # "Ann 1a"
        if verb == "write" and len(words) == 2:
            return Write(parse_cell(words[1]), player)
        if verb == "claim" and len(words) == 2:
            return Claim(parse_number(words[1]), player)
        if verb == "claim" and len(words) == 3 and words[2].lower() == "burn":
            return Claim(parse_number(words[1]), player, burn=True)
        if verb == "pass" and len(words) == 1:
            return Decline(player)
        if (
            verb in VEILED
            and len(words) == 1
            and player
            and (self.mask is not None or self.veils(player))
        ):
            # another seat's move as a remote board hears it; a paper sheet's (paper.py)
            return Veiled(verb, player)
        raise ValueError(f"{text.strip()!r}: not a Binøme move")

    def _player_named(self, text: str) -> str:
        for name in self.names:
            if name.lower() == text.lower():
                return name
        raise ValueError(f"{text!r}: not a player")

    # ----- the end: the winners, why the game ended, the full account
    def winners(self) -> tuple[str, ...]:
        top = max(self.scores)
        return tuple(p for p, s in zip(self.names, self.scores, strict=True) if s == top)

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        winners = self.winners()
        top = max(self.scores)
        if len(winners) == 1:
            summary = f"{winners[0]} wins with {top}"
            others = sorted(
                ((s, p) for p, s in zip(self.names, self.scores, strict=True) if p != winners[0]),
                key=lambda item: -item[0],
            )
            reason = f"{others[0][1]} next with {others[0][0]}" if others else "alone at the table"
        else:
            summary = f"{join_names(winners)} tie on {top}"
            reason = "equal top scores share the win"
        return Outcome(winners=winners, summary=summary, reason=reason, detail=self.detail())

    def end_reason(self) -> str:
        """Why the game ended: the deck ran out or a player used their last number."""
        if not self.over:
            return ""
        done = [p for p, u in zip(self.names, self.used, strict=True) if all(u)]
        if done:
            return f"{join_names(done)} used the last number"
        return "the last card was resolved"

    def detail(self) -> dict[str, Any]:
        """JSON-able account of the game: scores, cards, sheets (revealed), every turn."""
        return {
            "winners": list(self.winners()) if self.over else [],
            "scores": dict(zip(self.names, self.scores, strict=True)),
            "cards": {p: list(w) for p, w in zip(self.names, self.won, strict=True)},
            "sheets": {p: list(self.numbers(p)) for p in self.names},
            "turns": [
                {**r.to_json(), "claims": {p: number_text(n) for p, n in r.claims},
                 "explanation": r.explanation}
                for r in self.history
            ],
            "cards_left": len(self.remaining),
            "ended": self.end_reason(),
        }  # fmt: skip


def new_game(**options: Any) -> BinomeState:
    """A game at its first roll. Options: see OPTIONS (``players`` names or a count...)."""
    opts = resolve_game_options(options)
    names = seat_order(opts)
    n = len(names)
    return BinomeState(
        option_items=tuple(sorted(opts.items())),
        names=names,
        deck=parse_deck_text(opts["points"], "points"),
        sheets=((None,) * CELLS,) * n,
        used=((False,) * SLOTS,) * n,
        chair=opts["chair"] or names[0],
        scores=(0,) * n,
        won=((),) * n,
    )


def _cell_or_none(text: str) -> int | None:
    """The cell a word names ('1a'..'8b'), or None."""
    try:
        return parse_cell(text)
    except ValueError:
        return None
