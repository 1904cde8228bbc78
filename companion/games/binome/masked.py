"""Binøme across two boards (remote play): a state that knows only one seat's secrets.

Each board keeps the game masked for its own seat (``state.masked(seat)``): the other seats'
sheets are unknown (None digits) and their secret moves come by their public names
(``Bob write``, ``Bob claim``, ``Bob chose``: a ``Veiled`` move), recorded in ``decided``
as ``HIDDEN``. When a turn's choosing is complete the rules reveal every claim; the masked
state then needs each other seat's choice, a *fact* that seat's board discloses, and waits
for it (``waiting``). Facts about a seat (``disclosed``/``learn``), all JSON:

- ``"claim <t>"`` (``t``: the turn, 0-based, = ``len(history)`` while it is chosen): the
  seat's choice that turn, ``"44"``, ``"12 burn"`` (not eligible) or ``"pass"``; given once
  every player has chosen in turn ``t``.
- ``"sheet"``: the seat's eight numbers, ``["44", "05", ...]``, once the game is over (the
  outcome shows every sheet), so the public view at the end is the full game's.

Facts are kept (``learned``) and used only when play reaches them, so a restart may learn all
it ever heard and then replay. The other seats' used numbers are counted (the end and
transparency need only how many each has left): a used number of theirs marks their first
unused slot until their sheet is known at the end, when it is redone from their claims.
Chance steps: only the first seat's board draws (``chance()``); the others wait for the
drawn ``roll``/``draw`` move.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, Protocol, TypeVar

from ..base import Refusal
from .moves import Claim, Decline, Veiled, Write
from .postulates import BY_ID, number_text
from .resolution import Resolution, join_names


class BinomeFields(Protocol):
    """What the masked-state and paper functions read of a state (``engine.BinomeState`` is
    one, a frozen dataclass they ``replace``): the game's fields and views, the seat it is
    masked for (``mask``) and the facts it learned."""

    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def mask(self) -> str | None: ...
    @property
    def learned(self) -> tuple[tuple[str, str, Any], ...]: ...
    @property
    def card(self) -> str | None: ...
    @property
    def decided(self) -> tuple[tuple[str, int | None], ...]: ...
    @property
    def history(self) -> tuple[Resolution, ...]: ...
    @property
    def rolls(self) -> tuple[int, ...]: ...
    @property
    def wrote(self) -> frozenset[str]: ...
    @property
    def sheets(self) -> tuple[tuple[int | None, ...], ...]: ...
    @property
    def used(self) -> tuple[tuple[bool, ...], ...]: ...
    @property
    def over(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def to_act(self) -> frozenset[str]: ...
    @property
    def turn(self) -> str | None: ...
    @property
    def phoneless(self) -> frozenset[str]: ...
    @property
    def paper(self) -> bool: ...
    @property
    def waiting(self) -> frozenset[str]: ...
    def on_paper(self, player: str) -> bool: ...
    def asked_number(self, player: str) -> bool: ...
    def sheet(self, player: str) -> tuple[int | None, ...]: ...
    def numbers(self, player: str) -> tuple[str, ...]: ...
    def resolve_turn(self) -> Any: ...


BinomeState = TypeVar("BinomeState", bound=BinomeFields)  # the state given is the one returned

HIDDEN: Final = -1  # another seat's choice this turn, not known yet (a claim's number)
SLOTS: Final = 8
CARDS: Final = len(BY_ID)
_CLAIM_KEY: Final = re.compile(r"claim (0|[1-9][0-9]?)")
_NUMBER: Final = re.compile(r"[0-9][0-9]")

Choice = tuple[int | None, bool]  # (number or None for a pass, burn)


def choice_text(card: str, number: int | None) -> str:
    """A choice as a fact: 'pass', '44', or '12 burn' for a number the card does not take."""
    if number is None:
        return "pass"
    burn = "" if BY_ID[card].eligible(number) else " burn"
    return f"{number_text(number)}{burn}"


def parse_choice(seat: str, key: str, value: Any) -> Choice:
    """A 'claim <t>' fact's value -> (number or None, burn); ValueError with one line."""
    if not isinstance(value, str):
        raise ValueError(f"{seat}: {key}: {value!r} is not a choice ('44', '12 burn', 'pass')")
    if value == "pass":
        return None, False
    text, _, burn = value.partition(" ")
    if not _NUMBER.fullmatch(text) or burn not in ("", "burn"):
        raise ValueError(f"{seat}: {key}: {value!r} is not a choice ('44', '12 burn', 'pass')")
    return int(text), burn == "burn"


# Functions over ``engine.BinomeState`` (its fields ``mask`` and ``learned`` and the game's):
# the state's remote-play hooks call them.


def masked_for_seat(state: BinomeState, seat: str) -> BinomeState:
    """This new game as the board of ``seat`` holds it. Remote play is for players who
    each have their own board and page: no solo mode, nobody without a phone."""
    if state.mask is not None:
        raise ValueError(f"already masked for {state.mask}")
    if seat not in state.names:
        raise ValueError(f"{seat!r}: not playing")
    if state.ply:
        raise ValueError("only a new game is masked")
    if int(state.options["solo"]):
        raise ValueError("remote play has no solo mode")
    if state.phoneless:
        raise ValueError("remote play has no players without a phone")
    return replace(state, mask=seat)


def veils(state: BinomeState, player: str) -> bool:
    """Are ``player``'s secrets unknown to this state (another seat's, when masked)?"""
    return (state.mask is not None and player != state.mask) or state.on_paper(player)


def fact(state: BinomeState, seat: str, key: str) -> Any | None:
    """The fact learned about ``seat`` under ``key`` (None: not heard)."""
    for s, k, value in state.learned:
        if s == seat and k == key:
            return value
    return None


def waiting(state: BinomeState) -> frozenset[str]:
    """The first seat, while a chance step is due on another seat's board; the seats whose
    choice is not known yet, once every player has chosen this turn."""
    if (state.mask is None and not state.paper) or state.over:
        return frozenset()
    if state.card is None:  # a roll, a digit to write, or a draw
        if state.mask not in (None, state.names[0]) and state.phase in ("roll", "draw"):
            return frozenset((state.names[0],))
        return frozenset()
    if len(state.decided) < len(state.names):
        return frozenset()
    key = f"claim {len(state.history)}"
    return frozenset(p for p, n in state.decided if n == HIDDEN and fact(state, p, key) is None)


def waiting_reason(state: BinomeState) -> str:
    """'wait for Ann's roll' (or draw, or claims): what a waiting state refuses with."""
    seats = [p for p in state.names if p in waiting(state)]
    if state.card is not None:
        what = "choice" if len(seats) == 1 else "choices"
    else:
        what = "draw" if state.phase == "draw" else "roll"
    return f"wait for {join_names(seats)}'s {what}"


def disclosed(state: BinomeState, seat: str) -> dict[str, Any]:
    """What the game has revealed of ``seat``'s secrets by now: its choice in every turn
    whose choosing is complete, and its sheet once the game is over."""
    if seat not in state.names:
        raise ValueError(f"{seat!r}: not playing")
    out: dict[str, Any] = {}
    for t, res in enumerate(state.history):
        out[f"claim {t}"] = choice_text(res.postulate, dict(res.claims).get(seat))
    if state.card is not None and len(state.decided) == len(state.names):
        number = dict(state.decided)[seat]
        if number != HIDDEN:
            out[f"claim {len(state.history)}"] = choice_text(state.card, number)
    if state.over and None not in state.sheet(seat):
        out["sheet"] = list(state.numbers(seat))
    return out


def learn(state: BinomeState, seat: str, facts: Mapping[str, Any]) -> BinomeState:
    """This masked state told ``facts`` (``seat``'s board's ``disclosed``): kept, checked
    against what the state knows (ValueError, one line), used when play reaches them; a
    state waiting for them goes on. A full state knows every secret: itself."""
    if state.mask is None:
        return state
    if seat not in state.names:
        raise ValueError(f"{seat!r}: not playing")
    if seat == state.mask:
        raise ValueError(f"{seat}: this board's own seat")
    if not isinstance(facts, Mapping):
        raise ValueError(f"{seat}: facts are a mapping, not {type(facts).__name__}")
    new: dict[str, Any] = {}
    for key, value in facts.items():
        norm = checked_fact(state, seat, key, value)
        old = fact(state, seat, key)
        if old is not None and old != norm:
            raise ValueError(f"{seat}: {key}: was {_show(old)}, now {_show(norm)}")
        if old is None:
            new[key] = norm
    if not new:
        return state
    learned = sorted([*state.learned, *((seat, k, v) for k, v in new.items())], key=lambda f: f[:2])
    return settle(replace(state, learned=tuple(learned)))


def settle(state: BinomeState) -> BinomeState:
    """Resolve a turn whose every choice is now known; show the sheets learned at the
    end."""
    state = state
    if (
        state.card is not None
        and len(state.decided) == len(state.names)
        and not waiting(state)
        and not state.over
    ):
        state = state.resolve_turn()
    if state.over and state.mask is not None:
        state = reveal_sheets(state)
    return state


def choices(state: BinomeState) -> dict[str, int | None]:
    """This turn's choices (every player has chosen), the hidden ones from the facts."""
    key = f"claim {len(state.history)}"
    out: dict[str, int | None] = {}
    for p, n in state.decided:
        out[p] = parse_choice(p, key, fact(state, p, key))[0] if n == HIDDEN else n
    return out


def remote_refusal(state: BinomeState, move: Any, who: str) -> Refusal | None:
    """Why a masked state refuses a player's move that the rules might take: its own
    seat's moves come by full name, the others' secret ones by their public names."""
    secrets = bool(state.options["secrets"])
    if isinstance(move, Veiled):
        if not veils(state, who):
            return Refusal("remote-own", f"{who}: by full name here")
        if move.verb == "claim" and secrets:
            return Refusal("remote-public", f"{who} chose: secrets")
        if move.verb == "chose" and not secrets:
            return Refusal("remote-public", f"{who} claims or passes")
    elif veils(state, who) and (isinstance(move, Write | Claim) or secrets):
        return Refusal("remote-secret", f"{who}'s move: by public name")
    if not veils(state, who) or state.card is None or secrets:
        return None
    told = fact(state, who, f"claim {len(state.history)}")
    if told is not None:  # heard before (a restart): the move must agree with it
        passed = told == "pass"
        if isinstance(move, Decline) and not passed:
            return Refusal("remote-contradiction", f"{who} claimed this turn")
        if isinstance(move, Veiled) and move.verb == "claim" and passed:
            return Refusal("remote-contradiction", f"{who} passed this turn")
    return None


def checked_fact(state: BinomeState, seat: str, key: Any, value: Any) -> Any:
    """The fact in the form kept (tuples), after checking it; ValueError, one line."""
    if key == "sheet":
        if not isinstance(value, list | tuple) or len(value) != SLOTS:
            raise ValueError(f"{seat}: sheet: eight numbers, not {value!r}")
        if not all(isinstance(v, str) and _NUMBER.fullmatch(v) for v in value):
            raise ValueError(f"{seat}: sheet: {value!r}: two-digit numbers")
        problem = sheet_problem(state, seat, tuple(value))
        if problem:
            raise ValueError(f"{seat}: sheet: {problem}")
        return tuple(value)
    if not isinstance(key, str) or not _CLAIM_KEY.fullmatch(key):
        raise ValueError(f"{seat}: {key!r}: not a Binøme fact")
    t = int(key.split()[1])
    if t >= CARDS:
        raise ValueError(f"{seat}: {key}: there are {CARDS} turns")
    number, burn = parse_choice(seat, key, value)
    done = len(state.history)
    card = state.history[t].postulate if t < done else state.card if t == done else None
    if card is not None and number is not None and burn == BY_ID[card].eligible(number):
        said = "burned" if burn else "claimed"
        raise ValueError(f"{seat}: {key}: {number_text(number)} {said} on {card}")
    if t < done:
        was = dict(state.history[t].claims).get(seat)
        if was != number:
            raise ValueError(f"{seat}: {key}: {value!r}, but it was {choice_text(card, was)}")  # type: ignore[arg-type]
    elif t == done and card is not None and seat in dict(state.decided):
        was = dict(state.decided)[seat]
        if was is None and number is not None:
            raise ValueError(f"{seat}: {key}: {value!r}, but {seat} passed")
        if was == HIDDEN and number is None and not state.options["secrets"]:
            raise ValueError(f"{seat}: {key}: 'pass', but {seat} claimed")
    return value


def sheet_problem(state: BinomeState, seat: str, numbers: tuple[str, ...]) -> str:
    """'' when ``numbers`` may be ``seat``'s sheet: the digits rolled, every claim on it."""
    digits = Counter(int(d) for n in numbers for d in n)
    if len(state.rolls) == 2 * SLOTS and digits != Counter(state.rolls):
        return "its digits are not the ones rolled"
    have = Counter(int(n) for n in numbers)
    claimed = Counter(n for res in state.history for p, n in res.claims if p == seat)
    missing = [number_text(n) for n, k in claimed.items() if have[n] < k]
    return f"{', '.join(missing)} claimed, not on it" if missing else ""


def reveal_sheets(state: BinomeState) -> BinomeState:
    """At the end: the other seats' sheets learned, their used slots redone from their
    claims as the full game marks them. A sheet that does not fit stays unknown (the
    session rebuilds the full game from every move's full name at the end anyway)."""
    sheets, used = list(state.sheets), list(state.used)
    for i, p in enumerate(state.names):
        told = fact(state, p, "sheet") if veils(state, p) else None
        if told is None or None not in sheets[i] or sheet_problem(state, p, told):
            continue
        sheets[i] = tuple(int(d) for n in told for d in n)
        marks = [False] * SLOTS
        for res in state.history:
            for q, n in res.claims:
                if q == p:
                    slot = next(s for s in range(SLOTS) if not marks[s] and int(told[s]) == n)
                    marks[slot] = True
        used[i] = tuple(marks)
    if sheets == list(state.sheets):
        return state
    return replace(state, sheets=tuple(sheets), used=tuple(used))


def _show(value: Any) -> str:
    return repr(list(value)) if isinstance(value, tuple) else repr(value)
