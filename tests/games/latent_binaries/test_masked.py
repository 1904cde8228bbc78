"""Latent Binaries across two boards: each board's masked state holds only its own player's
secrets and goes on with the facts the other board discloses (docs/rules/latent-binaries.md,
"Remote play")."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.base import IllegalMove, Refuse
from companion.games.latent_binaries.engine import LatentState
from companion.games.latent_binaries.geometry import parse_square
from companion.games.latent_binaries.moves import Challenge, Order
from companion.games.latent_binaries.nest import UNKNOWN
from companion.games.latent_binaries.options import PLAYERS, other
from companion.games.latent_binaries.phases import SETUP
from tests.games.latent_binaries.test_properties import OPTIONS  # the rule options a game may have

SPEC = get_spec("latent-binaries")
P0, P1 = PLAYERS


def exchange(a: LatentState, b: LatentState) -> tuple[LatentState, LatentState]:
    """Each board learns what the other discloses, until nothing changes."""
    while True:
        a2 = a.learn(P1, b.disclosed(P1))
        b2 = b.learn(P0, a2.disclosed(P0))
        if (a2, b2) == (a, b):
            return a, b
        a, b = a2, b2


def public_facts(before: LatentState, move: Any, after: LatentState) -> dict[str, dict]:
    """The facts the full game's PUBLIC record makes known at this move (its answer text and
    its public stashes): what the boards may disclose, and nothing more."""
    out: dict[str, dict] = {p: {} for p in PLAYERS}
    if before.phase == SETUP and after.phase != SETUP:
        for p in PLAYERS:
            out[p]["stash"] = list(after.stash_of(p).values())
    if isinstance(move, Challenge | Order):
        owner = other(before.mover)
        text = after.answer
        if text.startswith("correct"):
            value: Any = "right"
        elif "on top" in text:
            top = text.split()[1]
            caps = before.nest_at(move.target).caps
            value = [top, next(c for c in caps if c != top)]
        else:
            value = "wrong"
        out[owner][f"answer {before.ply}"] = value
    return out


@dataclass
class Boards:
    """The full game and the two boards' masked states, played side by side."""

    options: dict
    full: LatentState = field(init=False)
    a: LatentState = field(init=False)
    b: LatentState = field(init=False)
    names: dict[str, list[str]] = field(default_factory=lambda: {P0: [], P1: []})
    shown: dict[str, dict] = field(default_factory=lambda: {P0: {}, P1: {}})
    snapshots: dict[str, list[LatentState]] = field(default_factory=lambda: {P0: [], P1: []})

    def __post_init__(self) -> None:
        self.full = SPEC.new(**self.options)
        self.a, self.b = self.full.masked(P0), self.full.masked(P1)

    def play(self, move: Any) -> None:
        full = self.full
        seat = full.actor(move)
        public = full.public_name(move)
        for board in (P0, P1):
            state = self.a if board == P0 else self.b
            name = move.name if board == seat else public
            state = state.play(state.parse_move(name))
            self.names[board].append(name)
            if board == P0:
                self.a = state
            else:
                self.b = state
        self.full = full.play(move)
        for p, facts in public_facts(full, move, self.full).items():
            self.shown[p].update(facts)
        self.a, self.b = exchange(self.a, self.b)
        self.snapshots[P0].append(self.a)
        self.snapshots[P1].append(self.b)


def random_moves(boards: Boards, seed: int, limit: int = 120):
    """Random legal moves of the full game, by seed."""
    rng = random.Random(seed)
    while not boards.full.is_over() and boards.full.ply < limit:
        moves = boards.full.legal_moves()
        guesses = [m for m in moves if isinstance(m, Challenge | Order)]
        if guesses and rng.random() < 0.8:
            moves = guesses
        elif rng.random() < 0.9:  # mostly no winning line yet: longer games, more guesses
            moves = [m for m in moves if not boards.full.play(m).is_over()] or moves
        yield rng.choice(moves)


def view_json(state: LatentState, viewer: str | None) -> str:
    return json.dumps(SPEC.view(state, viewer), default=lambda o: o.__dict__, sort_keys=True)


def assert_same_game(boards: Boards) -> None:
    full, a, b = boards.full, boards.a, boards.b
    public = SPEC.view(full, None)
    assert SPEC.view(a, None) == public and SPEC.view(b, None) == public
    assert SPEC.view(a, P0) == SPEC.view(full, P0)
    assert SPEC.view(b, P1) == SPEC.view(full, P1)
    assert SPEC.view(a, P1) == public and SPEC.view(b, P0) == public  # no secret to show
    for s in (a, b):
        assert s.to_act == full.to_act and s.turn == full.turn and not s.waiting
        assert s.is_over() == full.is_over() and s.ply == full.ply
        assert s.legal_moves() == full.legal_moves() or s.phase == SETUP


def assert_secrets_stay_home(boards: Boards) -> None:
    full = boards.full
    for state, seat in ((boards.a, P0), (boards.b, P1)):
        away = other(seat)
        for n in full.nests_of(away):
            mine = state.nest_at(n.square)
            assert mine is not None and mine.owner == away and mine.caps == n.caps
            if n.shown:  # a wrong order guess lifted the queen: public now
                assert (mine.top, mine.bottom) == (n.top, n.bottom)
            else:
                assert (mine.top, mine.bottom) == ((UNKNOWN, UNKNOWN) if n.is_set else (None, None))
        # nothing else in the state holds the away seat's hidden pawns: the facts heard are
        # exactly what the full game has shown publicly, and what a board tells likewise
        heard = {k: v for s, k, v in state.heard if s == away}
        assert {k: json.loads(json.dumps(v)) for k, v in heard.items()} == boards.shown[away]
        assert state.disclosed(seat) == boards.shown[seat]
        assert state.disclosed(away) == {}
    for p in PLAYERS:
        assert full.disclosed(p) == boards.shown[p]
        json.dumps(full.disclosed(p))


GAMES = given(seed=st.integers(0, 2**32), options=OPTIONS)


@settings(max_examples=40, deadline=None)
@GAMES
def test_two_masked_boards_play_the_full_game(seed, options):
    boards = Boards(options)
    for move in random_moves(boards, seed):
        boards.play(move)
        assert_same_game(boards)
        assert_secrets_stay_home(boards)
    # a restart: learn every fact heard, then replay the board's own names from the start
    for seat, live in ((P0, boards.a), (P1, boards.b)):
        heard = {k: json.loads(json.dumps(v)) for s, k, v in live.heard}
        state = SPEC.new(**options).masked(seat).learn(other(seat), heard)
        for name, was in zip(boards.names[seat], boards.snapshots[seat], strict=True):
            state = state.play(state.parse_move(name))
            assert replace(state, heard=()) == replace(was, heard=())
            assert view_json(state, None) == view_json(was, None)
            assert view_json(state, seat) == view_json(was, seat)
            assert state.to_act == was.to_act and state.waiting == was.waiting
    if boards.full.is_over():
        want = boards.full.outcome()
        for s in (boards.a, boards.b):
            got = s.outcome()
            assert (got.winners, got.summary, got.reason) == (
                want.winners,
                want.summary,
                want.reason,
            )
    # at the end each board sends its own full names: together they rebuild the full game
    full_names = [a if "/" in a else b for a, b in zip(*boards.names.values(), strict=True)]
    assert SPEC.replay(full_names, **options) == boards.full


@settings(max_examples=30, deadline=None)
@GAMES
def test_the_setups_may_come_in_any_order_to_the_same_state(seed, options):
    """Both players set up at once, so each board may have the setups in another order: the
    state after them is the same (and so is every ply number after it, which the facts use)."""
    boards = Boards(options)
    for move in random_moves(boards, seed):
        if boards.full.phase != SETUP:
            break
        boards.play(move)
    rng = random.Random(seed)
    for seat, live in ((P0, boards.a), (P1, boards.b)):
        names = boards.names[seat][:]
        rng.shuffle(names)
        state = SPEC.new(**options).masked(seat)
        for name in names:
            state = state.play(state.parse_move(name))
        assert state.waiting == {other(seat)}  # for the other's stash
        state = state.learn(other(seat), {k: list(v) for _, k, v in live.heard})
        assert state == live and not state.waiting


# --------------------------------------------------------------------------- by hand

RAINBOW = ("setup b2 red/yellow", "setup c2 red/green", "setup d2 yellow/green")  # no blue
XENO = ("setup b6 cyan/magenta", "setup c6 cyan/orange", "setup d6 magenta/orange")  # no purple
# rainbow's first turn (a right guess on c6), xeno's (a wrong one on c2), rainbow's move
TURNS = ("b2-a2", "challenge c6 cyan", "marker b1-d1", "b6-a6", "challenge c2 blue")
TURNS += ("marker c7-e7", "a2-a3")


def played(names: tuple[str, ...], **options: Any) -> Boards:
    boards = Boards(options)
    for name in names:
        boards.play(boards.full.parse_move(name))
    return boards


def test_the_spec_gives_a_masked_remote_facet():
    remote = SPEC.remote()
    assert remote.masked and remote.hidden
    setup = SPEC.new(**SPEC.resolve({})).legal_moves()[0]
    assert setup.cells and not remote.on_board(setup)  # a setup is made on its page


def test_only_a_new_games_full_state_is_masked():
    state = SPEC.new()
    with pytest.raises(ValueError, match="new game"):
        state.play(state.parse_move(RAINBOW[0])).masked(P0)
    with pytest.raises(ValueError, match="not a player"):
        state.masked("nobody")
    assert state.masked_for is None and state.masked(P1).masked_for == P1


def test_the_other_seats_public_setups_are_checked_on_a_masked_state():
    a = SPEC.new().masked(P0)
    assert a.parse_move("setup c6").name == "setup c6"
    assert a.public_name(a.parse_move("setup c6")) == "setup c6"
    assert a.check(a.parse_move("setup c6")) is None
    assert a.check(a.parse_move("setup c6"), P1) is None
    assert a.actor(a.parse_move("setup c6")) == P1
    assert a.check(a.parse_move("setup c6"), P0).code == "not-yours"
    assert a.check(a.parse_move("setup c2")).code == "remote-secret"  # its own: by full name
    assert a.check(a.parse_move("setup c6 cyan/orange")).code == "remote-secret"
    assert a.check(a.parse_move("setup a6")).code == "not-a-start"
    a = a.play(a.parse_move("setup c6"))
    assert a.check(a.parse_move("setup c6")).code == "already-set"
    assert a.nest_at(parse_square("c6")).top == UNKNOWN
    assert {m.name for m in a.legal_moves(P1)} == {"setup b6", "setup d6"}
    assert a.to_act == {P0, P1}
    with pytest.raises(ValueError):  # a full state knows no public setup
        SPEC.new().parse_move("setup c6")


def test_setup_refusals_that_need_the_pawns_stay_on_the_owners_board():
    a = SPEC.new().masked(P0)
    for name in RAINBOW[:2]:
        a = a.play(a.parse_move(name))
    assert a.check(a.parse_move("setup d2 red/blue")).code == "stash-too-low"
    b = SPEC.new().masked(P1)
    for name in ("setup b2", "setup c2", "setup d2"):
        assert b.check(b.parse_move(name)) is None
        b = b.play(b.parse_move(name))
    assert b.to_act == {P1}


def test_waiting_for_the_stash_refuses_every_move():
    full, a = SPEC.new(), SPEC.new().masked(P0)
    for name in RAINBOW + XENO:
        move = full.parse_move(name)
        a = a.play(a.parse_move(name if full.actor(move) == P0 else full.public_name(move)))
        full = full.play(move)
    assert a.waiting == {P1} and a.to_act == frozenset() and a.turn is None
    assert a.legal_moves() == [] and a.forced_move() is None
    refusal = a.check(a.parse_move("b2-a2"), P0)
    assert refusal.code == "remote-waiting" and refusal.reason == "wait for xeno's stash"
    assert SPEC.view(a, None).panel.note == "waiting for xeno"
    assert "xeno stash" not in " ".join(SPEC.view(a, None).explanation)
    assert a.disclosed(P0) == {"stash": [2, 2, 2, 4]}  # rainbow's: told at once
    a = a.learn(P1, full.disclosed(P1))
    assert not a.waiting and a.to_act == {P0}
    assert SPEC.view(a, None) == SPEC.view(full, None)


def test_a_guess_waits_for_its_answer_and_learn_resumes_it():
    boards = played(RAINBOW + XENO + ("b2-a2",))
    a, b = boards.a, boards.b
    guess = a.parse_move("challenge c6 cyan")
    a = a.play(guess)  # rainbow's own guess on xeno's nest: xeno's board answers
    assert a.waiting == {P1} and a.pending == guess and a.answer == ""
    refusal = a.check(a.parse_move("end"))
    assert (refusal.code, refusal.reason) == ("remote-waiting", "wait for xeno's answer")
    assert a.legal_moves() == [] and a.turn is None and a.forced_move() is None
    pressed = SPEC.interpreter("switch").press(a, parse_square("a2"))
    assert isinstance(pressed, Refuse) and pressed.refusal.code == "remote-waiting"
    assert SPEC.interpreter("switch").button(a, "confirm") is None
    assert SPEC.hint(a, 0).text == "waiting for xeno" and SPEC.hint(a, 0).cells == ()
    b = b.play(b.parse_move("challenge c6 cyan"))
    assert not b.waiting and b.disclosed(P1)["answer 7"] == "right"
    full = boards.full.play(guess)
    a = a.learn(P1, b.disclosed(P1))
    assert not a.waiting and a.answer == "correct: cap the nest on c6 with cyan"
    assert SPEC.view(a, None) == SPEC.view(full, None) == SPEC.view(b, None)
    assert a.nest_at(parse_square("c6")).caps == ("cyan",)
    assert a.nest_at(parse_square("c6")).top == UNKNOWN  # which one is on top: still secret


def test_a_fact_heard_before_its_move_changes_nothing_until_then():
    full, a = SPEC.new(), SPEC.new().masked(P0)
    early = {"stash": [2, 2, 2, 4], "answer 7": "right"}  # xeno's, before xeno set up
    a = a.learn(P1, early)
    assert SPEC.view(a, None) == SPEC.view(full, None) and not a.waiting
    for name in RAINBOW + XENO + ("b2-a2",):
        move = full.parse_move(name)
        a = a.play(a.parse_move(name if full.actor(move) == P0 else full.public_name(move)))
        full = full.play(move)
        assert not a.waiting  # the stash was told before the setup ended
        assert SPEC.view(a, None) == SPEC.view(full, None)
        assert a.nest_at(parse_square("c6")).caps == ()
    guess = a.parse_move("challenge c6 cyan")
    a, full = a.play(guess), full.play(guess)
    assert not a.waiting and SPEC.view(a, None) == SPEC.view(full, None)


def test_a_fact_heard_early_that_cannot_answer_its_guess_refuses_the_guess():
    boards = played(RAINBOW + XENO + ("b2-a2",))
    a = boards.a.learn(P1, {"answer 7": ["cyan", "orange"]})  # an order's answer, early
    with pytest.raises(IllegalMove) as caught:
        a.play(a.parse_move("challenge c6 cyan"))
    refusal = caught.value.refusal
    assert refusal.code == "remote-fact" and len(refusal.reason) <= 42
    assert refusal.reason.startswith("answer 7: a challenge is answered right or")


def test_the_other_seats_guess_is_answered_and_told_by_the_owners_board():
    boards = played(RAINBOW + XENO + TURNS[:4])
    a = boards.a
    a = a.play(a.parse_move("challenge c2 blue"))  # xeno guesses on rainbow's nest
    assert not a.waiting and a.answer == "wrong: the challenge ends"
    assert a.disclosed(P0) == {"stash": [2, 2, 2, 4], "answer 10": "wrong"}  # 7 was on c6
    assert a.disclosed(P1) == {}  # nothing about xeno's secrets comes from rainbow's board


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"stash": [2, 2, 2]}, "stash: 4 counts expected for xeno"),
        ({"stash": [2, 2, 3, 4]}, "stash: 5 pawns hidden, 6 expected"),
        ({"stash": [1, 3, 2, 4]}, "stash: [1, 3, 2, 4] cannot follow xeno's setup"),
        ({"colours": ["cyan"]}, "'colours': not a fact of latent-binaries"),
        ({"answer 07": "right"}, "not a fact of latent-binaries"),
        ({"answer 7": "maybe"}, "answer 7: right, wrong or [top, bottom] of xeno's colours"),
        ({"answer 7": ["cyan", "red"]}, "answer 7: right, wrong or [top, bottom]"),
        ({"answer 7": "right"}, "answer 7: xeno hid no other purple"),  # purple: all in stash
        ({"answer 7": ["cyan", "orange"]}, "answer 7: a challenge is answered right or wrong"),
        ({"stash": [2, 3, 3, 2]}, "stash: xeno said [2, 2, 2, 4] before"),
    ],
)
def test_a_wrong_fact_is_refused_with_one_line(facts, message):
    boards = played(RAINBOW + XENO + ("b2-a2",))
    a = boards.a.play(boards.a.parse_move("challenge c6 purple"))
    assert a.waiting == {P1}
    with pytest.raises(ValueError) as caught:
        a.learn(P1, facts)
    assert str(caught.value) == message or message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert a.learn(P1, {"answer 7": "wrong"}).answer == "wrong: the challenge ends"


def test_a_fact_about_the_own_seat_must_agree_with_what_it_told():
    a = played(RAINBOW + XENO).a
    with pytest.raises(ValueError, match=r"stash: rainbow told \[2, 2, 2, 4\], not \[2, 3, 3, 2\]"):
        a.learn(P0, {"stash": [2, 3, 3, 2]})
    assert a.learn(P0, {"stash": [2, 2, 2, 4]}) is a


def test_a_wrong_order_guess_shows_the_order_from_the_owners_answer():
    boards = played(RAINBOW + XENO + TURNS)
    a, b = boards.a, boards.b
    for name in ("challenge c6 orange", "order c6 orange/cyan"):  # c6 hides cyan over orange
        a, b = a.play(a.parse_move(name)), b.play(b.parse_move(name))
        assert a.waiting == {P1}
        if name.startswith("order"):
            key = f"answer {a.ply - 1}"
            for wrong, message in (
                (["cyan", "magenta"], "cyan/magenta are not its caps"),
                (["orange", "cyan"], "that is the order guessed"),
                ("wrong", "the true order is shown"),
            ):
                with pytest.raises(ValueError, match=message):
                    a.learn(P1, {key: wrong})
            assert b.disclosed(P1)[key] == ["cyan", "orange"]
        a = a.learn(P1, b.disclosed(P1))
    nest = a.nest_at(parse_square("c6"))
    assert nest.shown and (nest.top, nest.bottom) == ("cyan", "orange")
    assert a.answer == "wrong: cyan is on top; the challenge ends"
    assert SPEC.view(a, None).cells[parse_square("c6")].text == "cyan/orange"
    assert SPEC.view(a, None) == SPEC.view(b, None)


def test_a_right_order_guess_removes_the_nest_and_its_pawns_go_to_the_stash():
    boards = played(RAINBOW + XENO + TURNS, order_reveal=False)
    a, b = boards.a, boards.b
    for name in ("challenge c6 orange", "order c6 cyan/orange"):
        a, b = a.play(a.parse_move(name)), b.play(b.parse_move(name))
        a = a.learn(P1, b.disclosed(P1))
    assert a.nest_at(parse_square("c6")) is None
    assert a.stash_of(P1) == b.stash_of(P1) == {"cyan": 3, "magenta": 2, "orange": 3, "purple": 4}
    assert SPEC.view(a, None) == SPEC.view(b, None)
