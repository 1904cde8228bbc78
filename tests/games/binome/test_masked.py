"""Binøme across two boards: each board's masked state knows only its own seat's secrets
(companion/games/binome/masked.py, docs/rules/binome.md "Remote play")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_spec
from companion.games.base import View
from companion.games.binome.input import confirm_pages
from companion.games.binome.masked import HIDDEN

SPEC = get_spec("binome")
P0, P1 = "Ann", "Bob"
OTHER = {P0: P1, P1: P0}

# Ann writes the rolls into cells 1a, 1b, 2a...; Bob into 8b, 8a, 7b...: with these rolls
# Ann's numbers are 44 12 55 09 33 71 28 66 and Bob's 66 82 17 33 90 55 21 44.
ROLLS = (4, 4, 1, 2, 5, 5, 0, 9, 3, 3, 7, 1, 2, 8, 6, 6)
CELLS = [f"{s}{h}" for s in range(1, 9) for h in "ab"]


def view(state: Any, viewer: str | None = None) -> View:
    return SPEC.view(state, viewer)


class Table:
    """The full game and the two boards' masked states, played side by side: the mover's
    board plays the full name, the other the public name; facts go both ways after each
    move until nothing changes (``heard``: what each board heard about the other seat)."""

    def __init__(self, **options: Any):
        self.options = {"players": f"{P0},{P1}", **options}
        self.full = SPEC.new(**self.options)
        self.boards = {P0: self.full.masked(P0), P1: self.full.masked(P1)}
        self.names: dict[str, list[str]] = {P0: [], P1: []}
        self.heard: dict[str, dict[str, Any]] = {P0: {}, P1: {}}

    def play(self, name: str) -> None:
        move = self.full.parse_move(name)
        actor = self.full.actor(move)
        for seat, board in self.boards.items():
            said = move.name if actor in (None, seat) else self.full.public_name(move)
            heard = board.parse_move(said)
            assert heard.name == said and board.public_name(heard) == self.full.public_name(move)
            assert board.check(heard) is None, (said, board.check(heard))
            self.boards[seat] = board.play(heard)
            self.names[seat].append(said)
        self.full = self.full.play(move)
        self.exchange()

    def exchange(self) -> None:
        while True:
            before = dict(self.boards)
            for seat in (P0, P1):
                other = OTHER[seat]
                facts = self.boards[other].disclosed(other)
                for key, value in facts.items():  # a key once given keeps its value
                    assert self.heard[seat].get(key, value) == value
                self.heard[seat].update(facts)
                self.boards[seat] = self.boards[seat].learn(other, facts)
            if self.boards == before:
                return

    def play_all(self, *names: str) -> None:
        for name in names:
            self.play(name)

    def part_one(self) -> None:
        """The sixteen rolls of ROLLS, Ann writing in sheet order, Bob backwards."""
        for k, digit in enumerate(ROLLS):
            self.play_all(f"roll {digit}", f"Ann write {CELLS[k]}", f"Bob write {CELLS[15 - k]}")


def assert_keeps_home(full: Any, board: Any, live: bool = True) -> None:
    """``board`` holds nothing of the other seat's secrets that ``full`` has not revealed (a
    restarted board, not ``live``, heard every fact first: it only keeps them unused)."""
    own = board.masked_for
    other = OTHER[own]
    i = board.index(other)
    if not full.is_over():
        assert board.sheets[i] == (None,) * 16
        assert all(board.numbers(other)[s] == "??" for s in range(8))
    resolved = len(full.history)
    for seat, key, _ in board.learned if live else ():
        assert seat == other
        assert key == "sheet" and full.is_over() or int(key.split()[1]) < resolved
    for key in board.disclosed(own):
        assert key == "sheet" and full.is_over() or int(key.split()[1]) < resolved
    for p, n in board.decided:  # this turn: the other seat's number never, a pass if public
        if p == other:
            assert n == HIDDEN or (n is None and not full.options["secrets"])
    assert view(board, other) == view(board, None)  # nothing of theirs to show


def pick(full: Any, rng: random.Random, pass_bias: float) -> str:
    chance = full.chance()
    if chance is not None:
        return rng.choice(chance.outcomes)
    player = rng.choice(sorted(full.to_act))
    moves = full.legal_moves(player)
    passes = [m for m in moves if m.is_pass or m.name.endswith(" pass")]
    if passes and rng.random() < pass_bias:
        return passes[0].name
    return rng.choice(moves).name


game_options = st.fixed_dictionaries(
    {
        "secrets": st.booleans(),
        "transparency": st.booleans(),
        "battle_royale": st.booleans(),
        "same_boat": st.booleans(),
        "chair": st.sampled_from([P0, P1]),
    }
)


@settings(max_examples=50, deadline=None)
@given(game_options, st.integers(0, 2**32), st.floats(0, 0.9))
def test_two_masked_boards_play_the_full_game(options, seed, pass_bias):
    rng = random.Random(seed)
    table = Table(**options)
    a0, b0 = table.boards[P0], table.boards[P1]
    assert (a0.masked_for, b0.masked_for, table.full.masked_for) == (P0, P1, None)
    fulls, live = [table.full], {P0: [], P1: []}
    while not table.full.is_over():
        full = table.full
        if full.chance() is not None:  # only the first seat's board draws
            assert table.boards[P0].chance() == full.chance()
            assert table.boards[P0].waiting == frozenset()
            assert table.boards[P1].chance() is None
            assert table.boards[P1].waiting == {P0}
        table.play(pick(full, rng, pass_bias))
        full = table.full
        fulls.append(full)
        for seat, board in table.boards.items():
            assert view(board) == view(full), seat
            assert view(board, seat) == view(full, seat), seat
            assert board.to_act == full.to_act and board.turn == full.turn
            assert board.is_over() == full.is_over() and board.ply == full.ply
            assert board.announced == full.announced
            assert board.disclosed(seat) == full.disclosed(seat)
            assert_keeps_home(full, board)
            live[seat].append((view(board), view(board, seat), board.to_act, board.waiting))
        waits = {P0} if full.chance() is not None else set()
        assert table.boards[P1].waiting == waits and table.boards[P0].waiting == frozenset()
    # the end: the same result, and its account once the sheets are told
    out = table.full.outcome()
    for board in table.boards.values():
        got = board.outcome()
        assert (got.winners, got.summary, got.reason) == (out.winners, out.summary, out.reason)
        assert got.detail == out.detail
    # a restart: every fact heard first, then the moves replayed, gives the live states
    for seat in (P0, P1):
        state = SPEC.new(**table.options).masked(seat).learn(OTHER[seat], table.heard[seat])
        for k, name in enumerate(table.names[seat]):
            state = state.play(state.parse_move(name))
            got = (view(state), view(state, seat), state.to_act, state.waiting)
            assert got == live[seat][k], (seat, k, name)
            assert_keeps_home(fulls[k + 1], state, live=False)


def turn_ready(secrets: bool = False) -> Table:
    """Part 1 done and the first card drawn (Ann chairs and claims first)."""
    table = Table(secrets=secrets)
    table.part_one()
    table.play("draw identical-digits")
    return table


def test_the_other_seats_public_moves_are_checked():
    table = Table()
    a = table.boards[P0]
    assert a.check(a.parse_move("Bob write")).code == "not-now"  # no roll yet
    a = a.play(a.parse_move("roll 4"))
    assert a.check(a.parse_move("Bob write 3a")).code == "remote-secret"
    assert a.check(a.parse_move("Ann write")).code == "remote-own"
    a = a.play(a.parse_move("Bob write"))
    assert a.check(a.parse_move("Bob write")).code == "already-wrote"
    assert a.legal_moves(P1) == []
    assert [m.name for m in a.legal_moves(P0)][:2] == ["Ann write 1a", "Ann write 1b"]
    assert a.actor(a.parse_move("Bob write")) == P1
    # a full state does not take public names
    with pytest.raises(ValueError, match="not a Binøme move"):
        table.full.parse_move("Bob write")
    assert table.full.check(a.parse_move("Bob write")).code == "remote-only"

    claims = turn_ready()
    a = claims.boards[P0]
    assert a.check(a.parse_move("Bob claim")).code == "not-your-turn"  # Ann chairs
    assert a.check(a.parse_move("Bob chose")).code == "remote-public"
    assert a.check(a.parse_move("Bob claim 66")).code == "remote-secret"
    assert [m.name for m in a.legal_moves(P1)] == []
    a = a.play(a.parse_move("Ann claim 44"))
    assert [m.name for m in a.legal_moves(P1)] == ["Bob claim", "Bob pass"]
    assert a.reveals(a.parse_move("Bob claim"))
    hidden = turn_ready(secrets=True).boards[P0]
    assert hidden.check(hidden.parse_move("Bob claim")).code == "remote-public"
    assert hidden.check(hidden.parse_move("Bob pass")).code == "remote-secret"
    assert hidden.check(hidden.parse_move("Bob chose")) is None
    assert [m.name for m in hidden.legal_moves(P1)] == ["Bob chose"]


def test_a_claim_waits_for_the_other_board_and_refuses_meanwhile():
    table = turn_ready()
    a, b = table.boards[P0], table.boards[P1]
    a = a.play(a.parse_move("Ann claim 44"))
    a = a.play(a.parse_move("Bob claim"))  # Bob's board has not told its number yet
    assert a.waiting == {P1}
    assert a.to_act == frozenset() and a.turn is None
    assert a.legal_moves() == [] and a.forced_move() is None and a.chance() is None
    for name in ("draw max-number", "roll 3", "Ann pass", "Bob write"):
        refusal = a.check(a.parse_move(name))
        assert (refusal.code, refusal.reason) == ("remote-waiting", "wait for Bob's choice")
    assert a.history == () and a.disclosed(P0) == {"claim 0": "44"}
    assert "waiting for Bob" in confirm_pages(a)  # what confirm steps through on the OLED
    b = b.play(b.parse_move("Ann claim")).play(b.parse_move("Bob claim 66"))
    assert b.waiting == {P0}
    told = b.disclosed(P1)
    assert told == {"claim 0": "66"}
    a = a.learn(P1, told)  # it goes on: the turn resolves as the full game's did
    b = b.learn(P0, a.disclosed(P0))
    table.play_all("Ann claim 44", "Bob claim 66")
    for board in (a, b):
        assert view(board) == view(table.full) and board.to_act == frozenset()
        assert board.history[-1].explanation == "66 wins: 44 lower"
    # the next card: only Ann's board draws; Bob's waits for it
    assert a.chance() is not None and b.chance() is None and b.waiting == {P0}
    refusal = b.check(b.parse_move("roll 3"))
    assert (refusal.code, refusal.reason) == ("remote-waiting", "wait for Ann's draw")
    assert b.check(b.parse_move("draw max-number")) is None
    assert b.play(b.parse_move("draw max-number")).to_act == {P1}  # Bob chairs now


def test_a_fact_heard_before_its_move_changes_nothing_until_then():
    table = turn_ready()
    early = table.boards[P0].learn(P1, {"claim 0": "66", "claim 3": "pass"})
    plain = table.boards[P0]
    assert view(early) == view(plain) and view(early, P0) == view(plain, P0)
    for name in ("Ann claim 44", "Bob claim"):
        if name == "Bob claim":
            assert early.decided == ((P0, 44),)
        early, plain = early.play(early.parse_move(name)), plain.play(plain.parse_move(name))
    assert plain.waiting == {P1} and plain.history == ()
    assert early.waiting == frozenset() and early.history[-1].claims == ((P0, 44), (P1, 66))
    # the heard pass of turn 3 stays unused, and a move that disagrees with it is refused
    assert early.fact(P1, "claim 3") == "pass" and len(early.history) == 1


def test_a_move_that_disagrees_with_a_fact_heard_is_refused():
    table = turn_ready()
    early = table.boards[P0].learn(P1, {"claim 0": "pass"})
    early = early.play(early.parse_move("Ann claim 44"))
    assert early.check(early.parse_move("Bob claim")).code == "remote-contradiction"
    assert early.check(early.parse_move("Bob pass")) is None


BOB_SHEET = ["66", "82", "17", "33", "90", "55", "21", "44"]


def second_turn() -> Any:
    """Ann's board after turn 0 (Ann 44, Bob 66: Bob won) and the draw of turn 1."""
    table = turn_ready()
    table.play_all("Ann claim 44", "Bob claim 66", "draw contains-1")
    return table.boards[P0]


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        ({"claim 0": "pass"}, "'pass', but it was 66"),
        ({"claim 0": "4"}, "is not a choice"),
        ({"claim 0": 66}, "is not a choice"),
        ({"claim x": "44"}, "not a Binøme fact"),
        ({"claim 16": "44"}, "there are 16 turns"),
        ({"claim 1": "44"}, "44 claimed on contains-1"),
        ({"claim 1": "21 burn"}, "21 burned on contains-1"),
        ({"sheet": ["66", "82"]}, "eight numbers"),
        ({"sheet": [*BOB_SHEET[:7], "45"]}, "not the ones rolled"),
        ({"sheet": ["46", "46", "12", "55", "09", "33", "71", "28"]}, "66 claimed, not on it"),
    ],
)
def test_a_wrong_fact_is_refused_with_one_line(facts, says):
    a = second_turn()
    with pytest.raises(ValueError) as err:
        a.learn(P1, facts)
    assert says in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("Bob: ")


def test_facts_that_fit_are_kept_and_a_changed_one_is_refused():
    a = second_turn()
    assert a.learn(P1, {"claim 0": "66"}) == a  # known already: nothing new
    kept = a.learn(P1, {"claim 1": "21", "claim 5": "pass", "sheet": BOB_SHEET[::-1]})
    assert kept.fact(P1, "claim 5") == "pass" and kept.fact(P1, "sheet") == tuple(BOB_SHEET[::-1])
    assert view(kept) == view(a)  # nothing of it is used before play reaches it
    with pytest.raises(ValueError, match="claim 5: was 'pass', now '44'"):
        kept.learn(P1, {"claim 5": "44"})
    with pytest.raises(ValueError, match="own seat"):
        a.learn(P0, {"claim 0": "44"})
    with pytest.raises(ValueError, match="not playing"):
        a.learn("Cy", {})
    # Bob chairs turn 1: what the board saw him do this turn is checked too
    passed = a.play(a.parse_move("Bob pass"))
    with pytest.raises(ValueError, match="'21', but Bob passed"):
        passed.learn(P1, {"claim 1": "21"})
    claimed = a.play(a.parse_move("Bob claim"))
    with pytest.raises(ValueError, match="'pass', but Bob claimed"):
        claimed.learn(P1, {"claim 1": "pass"})


def test_secrets_hide_a_pass_until_the_turn_resolves():
    table = turn_ready(secrets=True)
    a, b = table.boards[P0], table.boards[P1]
    b = b.play(b.parse_move("Bob pass"))
    assert b.public_name(b.parse_move("Bob pass")) == "Bob chose"
    assert b.disclosed(P1) == {}  # not before every player has chosen
    a = a.play(a.parse_move("Bob chose"))
    assert a.decided == ((P1, HIDDEN),) and a.to_act == {P0}
    for text in (view(a).explanation, view(a, P0).explanation, view(a, P0).private):
        assert not any("pass" in line for line in text)
    assert "Chosen in secret: Bob; waiting for Ann." in view(a).explanation
    a = a.play(a.parse_move("Ann claim 44"))
    b = b.play(b.parse_move("Ann chose"))
    assert a.waiting == {P1} and b.waiting == {P0}
    assert b.disclosed(P1) == {"claim 0": "pass"}
    a, b = a.learn(P1, b.disclosed(P1)), b.learn(P0, a.disclosed(P0))
    table.play_all("Bob pass", "Ann claim 44")
    for board in (a, b):
        assert board.history == table.full.history and board.scores == (4, 0)
        assert view(board) == view(table.full)


def test_transparency_announces_from_the_public_count():
    """Both claim in seven turns of cards every number meets: one number left each."""
    table = Table(transparency=True)
    table.part_one()
    cards = ("max-number", "min-number", "max-digit-sum", "min-digit-sum",
             "max-digit-difference", "min-digit-difference", "closest-to-50")  # fmt: skip
    for card in cards:
        table.play(f"draw {card}")
        for _ in range(2):
            player = next(iter(table.full.to_act))
            table.play(table.full.legal_moves(player)[0].name)
    assert table.full.announced == (P0, P1)
    for board in table.boards.values():
        assert board.announced == (P0, P1) and view(board) == view(table.full)
        assert "One number left: Ann and Bob." in view(board).explanation


def test_the_end_shows_the_sheets_once_told():
    table = Table()
    table.part_one()
    cards = ("max-number", "min-number", "max-digit-sum", "min-digit-sum",
             "max-digit-difference", "min-digit-difference", "closest-to-50",
             "contains-1")  # fmt: skip
    for card in cards:
        if table.full.is_over():
            break
        table.play(f"draw {card}")
        while table.full.card is not None:
            player = next(iter(table.full.to_act))
            table.play(table.full.legal_moves(player)[0].name)
    assert table.full.is_over()
    assert table.heard[P0]["sheet"] == BOB_SHEET and table.heard[P1]["sheet"][0] == "44"
    a = table.boards[P0]
    assert a.numbers(P1) == tuple(BOB_SHEET) and a.used == table.full.used
    assert f"Bob's sheet: {' '.join(BOB_SHEET)}." in view(a).explanation
    assert a.outcome() == table.full.outcome()


def test_remote_play_is_for_two_boards_with_their_own_pages():
    from companion.club.remote import remote_problem

    assert SPEC.remote().masked is True
    assert remote_problem(SPEC, SPEC.resolve({"players": "Ann,Bob"})) is None
    solo = SPEC.resolve({"players": "Ann", "solo": 1})
    assert remote_problem(SPEC, solo) == "binome: remote play is for two players, one at each board"
    with pytest.raises(ValueError, match="solo"):
        SPEC.new(players="Ann", solo=1, seed=3).masked("Ann")
    with pytest.raises(ValueError, match="without a phone"):
        SPEC.new(players="Ann,Bob", phoneless="Bob").masked("Ann")
    with pytest.raises(ValueError, match="not playing"):
        SPEC.new(players="Ann,Bob").masked("Cy")
    started = SPEC.new(players="Ann,Bob").play(SPEC.new().parse_move("roll 3"))
    with pytest.raises(ValueError, match="new game"):
        started.masked("Ann")
    a = SPEC.new(players="Ann,Bob").masked("Ann")
    with pytest.raises(ValueError, match="already masked"):
        a.masked("Bob")
    b = SPEC.new(players="Ann,Bob").masked("Bob").play(a.parse_move("roll 3"))
    assert SPEC.clock_rules().timed_out(b, P0) is None  # Ann's board times Ann
    assert SPEC.clock_rules().timed_out(b, P1).name == "Bob write 1a"


def test_moves_made_at_once_may_come_in_either_order():
    """Each board plays its own player's write at once and the other's when it arrives."""
    table = Table()
    table.play_all("roll 4", "Ann write 1a", "Bob write 8b")
    a = SPEC.new(players="Ann,Bob").masked(P0)
    b = SPEC.new(players="Ann,Bob").masked(P1)
    for name in ("roll 4", "Ann write 1a", "Bob write"):
        a = a.play(a.parse_move(name))
    for name in ("roll 4", "Bob write 8b", "Ann write"):
        b = b.play(b.parse_move(name))
    for seat, board in ((P0, a), (P1, b)):
        assert view(board) == view(table.full) and view(board, seat) == view(table.full, seat)
    assert a.chance() is not None and b.waiting == {P0}
