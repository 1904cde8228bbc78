"""Latent Binaries engine: setup, nest moves, the win check, every challenge branch, markers."""

from __future__ import annotations

import pytest

from companion.games import get_spec
from companion.games.base import IllegalMove
from companion.games.latent_binaries.engine import LatentState
from companion.games.latent_binaries.geometry import parse_square, square_name
from companion.games.latent_binaries.moves import END, PASS, Challenge, Order, Setup, Step
from companion.games.latent_binaries.options import resolve
from companion.games.latent_binaries.phases import CHALLENGE, MARKER, MOVE, OVER, SETUP
from companion.games.latent_binaries.views import public_view
from tests.games.latent_binaries.arrange import arranged

new_game = get_spec("latent-binaries").new

SETUPS = [
    "setup b2 red/yellow",
    "setup c2 green/blue",
    "setup d2 red/green",
    "setup b6 cyan/magenta",
    "setup c6 orange/purple",
    "setup d6 cyan/orange",
]
R, X = "rainbow", "xeno"


def play(state: LatentState, *names: str, player: str | None = None) -> LatentState:
    for name in names:
        state = state.play(state.parse_move(name), player)
    return state


def refused(state: LatentState, name: str, player: str | None = None) -> str:
    """The refusal code of ``name``; play() must raise the same refusal."""
    move = state.parse_move(name)
    refusal = state.check(move, player)
    assert refusal is not None, name
    assert len(refusal.reason) <= 42, refusal.reason  # two OLED lines
    with pytest.raises(IllegalMove) as exc:
        state.play(move, player)
    assert exc.value.refusal == refusal
    return refusal.code


def names(state: LatentState, player: str | None = None) -> list[str]:
    return [m.name for m in state.legal_moves(player)]


# --------------------------------------------------------------------------- options


def test_default_options_are_playable_and_three_pawns_of_four_colours_are_not():
    opts = resolve()
    assert (opts["nests"], opts["pawns"], opts["columns"]) == (3, 4, "b,c,d")
    with pytest.raises(ValueError, match="pawns: 3 of 4 colours hide at most 4 pawns"):
        resolve({"pawns": 3})
    assert resolve({"pawns": 3, "nests": 2})["columns"] == "b,d"  # centred when not given


@pytest.mark.parametrize(
    "given, message",
    [
        ({"nests": 2, "columns": "b,c,d"}, "columns: 3 files for 2 nests"),
        ({"columns": "b,c,f"}, "not a file"),
        ({"columns": "b,b,c"}, "named twice"),
        ({"xeno_colours": "red,cyan,orange,purple"}, "also a Rainbow colour"),
        ({"rainbow_colours": "red,end"}, "cannot be a colour name"),
        ({"rainbow_colours": "red"}, "2 to 8 colours"),
        ({"first": "blue"}, "first"),
        ({"sideways": 1}, "unknown rule option"),
    ],
)
def test_bad_options_are_refused(given, message):
    with pytest.raises(ValueError, match=message):
        resolve(given)


def test_options_shape_the_start():
    s = new_game(nests=2, columns="a,e", first="xeno", xeno_base="a-b")
    assert sorted(square_name(n.square) for n in s.nests) == ["a2", "a6", "e2", "e6"]
    assert [square_name(q) for q in s.base(X)] == ["a7", "b7"]
    s = play(s, "setup a2 red/blue", "setup e2 red/blue", "setup a6 cyan/purple")
    s = play(s, "setup e6 orange/purple")
    assert (s.phase, s.mover) == (MOVE, X)


# --------------------------------------------------------------------------- setup


def test_setup_is_simultaneous_and_secret():
    s = new_game()
    assert (s.phase, s.to_act, s.turn) == (SETUP, frozenset({R, X}), None)
    assert len(s.legal_moves(R)) == 3 * 4 * 3 and len(s.legal_moves()) == 72
    move = s.parse_move("setup c2 red/blue")
    assert move == Setup(parse_square("c2"), "red", "blue")
    assert move.name == "setup c2 red/blue"
    assert s.public_name(move) == "setup c2"
    s = play(s, "setup c2 red/blue", "setup b6 cyan/magenta")  # in any order, either player
    assert s.stash_of(R) == {"red": 3, "yellow": 4, "green": 4, "blue": 3}
    assert s.to_act == frozenset({R, X})


def test_setup_ends_with_the_first_players_turn():
    s = play(new_game(), *SETUPS[:3])
    assert s.to_act == frozenset({X}) and s.turn == X
    assert refused(s, "setup c2 yellow/blue") == "already-set"
    s = play(s, *SETUPS[3:])
    assert (s.phase, s.mover, s.turns, s.to_act) == (MOVE, R, (1, 0), frozenset({R}))
    assert all(v >= 2 for p in (R, X) for v in s.stash_of(p).values())
    assert refused(s, "setup c2 yellow/blue") == "wrong-step"


@pytest.mark.parametrize(
    "name, player, code",
    [
        ("setup c2 red/red", None, "same-colour"),
        ("setup c2 red/cyan", None, "not-your-colour"),
        ("setup c2 pink/red", None, "not-your-colour"),
        ("setup c3 red/blue", None, "not-a-start"),
        ("setup c2 red/blue", "xeno", "not-yours"),
        ("c2-c3", None, "wrong-step"),
    ],
)
def test_bad_setups_are_refused(name, player, code):
    assert refused(new_game(), name, player) == code


def test_a_setup_leaving_fewer_than_two_of_a_colour_is_refused():
    s = play(new_game(), "setup b2 red/yellow", "setup c2 red/green")
    assert s.stash_of(R)["red"] == 2
    assert refused(s, "setup d2 red/blue") == "stash-too-low"
    assert refused(s, "setup d2 blue/red") == "stash-too-low"
    assert "setup d2 red/blue" not in names(s, R)
    assert "setup d2 green/blue" in names(s, R)


def test_a_setup_that_leaves_the_other_nests_unfillable_is_refused():
    # 3 colours of 4 pawns: each colour goes into exactly two of the three nests.
    s = play(new_game(rainbow_colours="red,yellow,green"), "setup b2 red/yellow")
    assert refused(s, "setup c2 red/yellow") == "setup-stuck"  # d2 would need green/green
    assert {n for n in names(s, R) if n.startswith("setup c2")} == {
        f"setup c2 {a}/{b}"
        for a, b in [("red", "green"), ("green", "red"), ("yellow", "green"), ("green", "yellow")]
    }


# --------------------------------------------------------------------------- nest moves


def started() -> LatentState:
    return play(new_game(), *SETUPS)


def test_nest_moves_from_the_start():
    s = started()
    assert names(s) == ["b2-a2", "b2-b3", "c2-c3", "d2-e2", "d2-d3"]
    assert s.parse_move("c2-c3") == Step(parse_square("c2"), parse_square("c3"))
    assert names(s, X) == [] and s.forced_move() is None


@pytest.mark.parametrize(
    "name, player, code",
    [
        ("c2-c1", None, "goal-row"),
        ("c2-d3", None, "not-adjacent"),
        ("c2-c4", None, "not-adjacent"),
        ("c2-d2", None, "occupied"),
        ("c6-c5", None, "no-nest"),
        ("a2-a3", None, "no-nest"),
        ("c2-c3", "xeno", "not-your-turn"),
        ("marker b1-d1", None, "wrong-step"),
        ("challenge c6 cyan", None, "wrong-step"),
        ("end", None, "wrong-step"),
        ("pass", None, "has-move"),
    ],
)
def test_bad_nest_moves_are_refused(name, player, code):
    assert refused(started(), name, player) == code


def test_a_boxed_in_player_passes():
    s = arranged(
        {"a2": (R, "red", "blue"), "b2": (X, "cyan", "orange"), "a3": (X, "cyan", "purple")}
    )
    assert s.legal_moves() == [PASS] and s.forced_move() == PASS
    s = s.play(PASS)
    assert s.phase == CHALLENGE  # a2 sees both neighbours
    assert set(names(s)) >= {"challenge b2 cyan", "challenge a3 purple"}


# --------------------------------------------------------------------------- the win check

ONE_BLOCKER = {"d5": (R, "red", "blue"), "d6": (X, "cyan", "orange"), "a3": (X, "cyan", "purple")}


def test_win_along_a_file():
    s = arranged(ONE_BLOCKER, markers=(3, 2))  # Xeno's base c7-d7; d6 blocks d5's file
    assert not s.play(s.parse_move("d5-d4")).is_over()
    won = s.play(s.parse_move("d5-c5"))
    assert (won.phase, won.winner, won.to_act) == (OVER, R, frozenset())
    assert won.legal_moves() == [] and refused(won, "end") == "game-over"
    out = won.outcome()
    assert out is not None and out.winner == R and out.summary == "RAINBOW wins"
    assert out.detail["line"] == ["c5", "c7"]
    assert {"owner": X, "square": "d6", "top": "cyan", "bottom": "orange", "caps": []} in (
        out.detail["nests"]
    )


def test_win_along_a_diagonal_and_blocked_diagonal():
    nests = {"c4": (R, "red", "blue"), "a3": (X, "cyan", "purple")}
    s = arranged(nests, markers=(3, 3))  # Xeno's base d7-e7
    won = s.play(s.parse_move("c4-c5"))  # c5-d6-e7
    assert won.winner == R and won.line == (parse_square("c5"), parse_square("e7"))
    s = arranged({**nests, "d6": (X, "orange", "magenta")}, markers=(3, 3))
    after = s.play(s.parse_move("c4-c5"))
    assert after.winner is None and after.phase == CHALLENGE  # d6 blocks, and is in sight


def test_a_line_to_your_own_base_does_not_win():
    nests = {"c3": (R, "red", "blue"), "b6": (X, "cyan", "orange"), "c6": (X, "cyan", "purple")}
    nests |= {"d6": (X, "magenta", "orange")}
    s = arranged(nests, markers=(1, 1))  # Rainbow's base b1-c1: c2 sees c1, its own
    after = s.play(s.parse_move("c3-c2"))
    assert after.winner is None and after.phase == CHALLENGE  # c2 sees c6, nothing more


def test_a_line_opened_by_the_opponent_wins_on_the_next_move():
    nests = {"a3": (R, "red", "blue"), "e3": (R, "green", "yellow"), "a5": (X, "cyan", "orange")}
    s = arranged(nests, mover=X, markers=(3, 0))  # Xeno's base a7-b7, Rainbow's d1-e1
    s = play(s, "a5-b5")
    assert (s.phase, s.winner) == (MARKER, None)
    s = play(s, "marker e1-c1")
    assert (s.phase, s.mover) == (MOVE, R)
    won = play(s, "e3-e2")  # any move: a3 now sees a7
    assert won.winner == R and won.line == (parse_square("a3"), parse_square("a7"))


# --------------------------------------------------------------------------- challenges

IN_SIGHT = {
    "c3": (R, "red", "blue"),
    "c5": (X, "cyan", "magenta"),  # seen along the file
    "e5": (X, "orange", "purple"),  # seen along the diagonal c3-d4-e5
    "c6": (X, "cyan", "orange"),  # hidden behind c5
    "a6": (X, "magenta", "purple"),  # not aligned with c3
}


def challenge(turns: tuple[int, int] = (2, 2), **kw) -> LatentState:
    return arranged(IN_SIGHT, phase=CHALLENGE, turns=turns, **kw)


def test_right_colour_caps_the_nest_and_later_the_guessing_goes_on():
    s = challenge()
    assert s.stash_of(X) == {"cyan": 2, "magenta": 2, "orange": 2, "purple": 2}
    s = play(s, "challenge c5 magenta")
    assert s.answer == "correct: cap the nest on c5 with magenta"
    assert s.nest_at(parse_square("c5")).caps == ("magenta",)
    assert s.stash_of(X)["magenta"] == 1
    assert (s.phase, s.target) == (CHALLENGE, parse_square("c5"))
    assert set(names(s)) == {f"challenge c5 {c}" for c in ("cyan", "orange", "purple")} | {END.name}
    assert refused(s, "challenge e5 orange") == "one-nest"
    s = play(s, "challenge c5 cyan")
    assert s.nest_at(parse_square("c5")).caps == ("magenta", "cyan")  # in the order guessed
    assert names(s) == ["order c5 magenta/cyan", "order c5 cyan/magenta", END.name]


def test_right_order_removes_the_nest_and_returns_its_pawns():
    s = play(challenge(), "challenge c5 magenta", "challenge c5 cyan")
    assert s.stash_of(X) == {"cyan": 1, "magenta": 1, "orange": 2, "purple": 2}
    s = play(s, "order c5 cyan/magenta")
    assert s.answer == "correct: remove the nest on c5, its pawns go to the stash"
    assert s.nest_at(parse_square("c5")) is None and s.phase == MARKER
    assert s.stash_of(X) == {"cyan": 3, "magenta": 3, "orange": 2, "purple": 2}


def test_wrong_order_ends_the_challenge_and_shows_the_order():
    s = challenge(caps={"c5": ("magenta", "cyan")})
    s = play(s, "order c5 magenta/cyan")
    assert s.answer == "wrong: cyan is on top; the challenge ends"
    assert s.phase == MARKER and s.nest_at(parse_square("c5")).caps == ("magenta", "cyan")
    shown = [n for n in public_view(s)["nests"] if n["square"] == "c5"][0]
    assert shown["order"] == ["cyan", "magenta"]
    quiet = play(
        challenge(caps={"c5": ("magenta", "cyan")}, order_reveal=False), "order c5 magenta/cyan"
    )
    assert quiet.answer == "wrong: the challenge ends"
    assert all("order" not in n for n in public_view(quiet)["nests"])


def test_wrong_colour_ends_the_challenge():
    s = play(challenge(), "challenge c5 orange")
    assert s.answer == "wrong: the challenge ends"
    assert s.phase == MARKER and s.nest_at(parse_square("c5")).caps == ()
    assert s.stash_of(X)["orange"] == 2


def test_a_colour_the_stash_lacks_cannot_be_named():
    s = challenge(caps={"e5": ("orange",), "c6": ("orange",)})
    assert s.stash_of(X)["orange"] == 0
    assert refused(s, "challenge c5 orange") == "not-in-stash"
    assert Challenge(parse_square("c5"), "orange") not in s.legal_moves()


@pytest.mark.parametrize(
    "name, code",
    [
        ("challenge c5 red", "not-a-colour"),
        ("challenge c5 pink", "not-a-colour"),
        ("challenge a6 magenta", "not-in-sight"),
        ("challenge c6 cyan", "not-in-sight"),
        ("challenge c4 cyan", "no-nest"),
        ("challenge c3 red", "no-nest"),
        ("challenge e5 orange", "already-capped"),
        ("challenge c5 cyan", "two-caps"),
        ("order c5 cyan/orange", "not-the-caps"),
        ("order c5 cyan/cyan", "not-the-caps"),
        ("order e5 orange/purple", "needs-two-caps"),
        ("end", "must-challenge"),
        ("c3-c4", "wrong-step"),
        ("marker b1-d1", "wrong-step"),
    ],
)
def test_impossible_guesses_are_refused(name, code):
    s = challenge(caps={"c5": ("magenta", "cyan"), "e5": ("orange",)})
    assert refused(s, name) == code


def test_first_turn_allows_exactly_one_guess():
    right = play(challenge(turns=(1, 1)), "challenge c5 cyan")
    assert right.answer == "correct: cap the nest on c5 with cyan" and right.phase == MARKER
    wrong = play(challenge(turns=(1, 0)), "challenge e5 cyan")
    assert wrong.answer == "wrong: the challenge ends" and wrong.phase == MARKER


def test_stopping_after_a_right_guess():
    s = play(challenge(), "challenge c5 cyan", "end")
    assert (s.phase, s.answer) == (MARKER, "the challenge ends")
    assert s.nest_at(parse_square("c5")).caps == ("cyan",)


def test_removing_the_last_nest_wins():
    s = arranged(
        {"c3": (R, "red", "blue"), "c5": (X, "cyan", "magenta")},
        phase=CHALLENGE,
        caps={"c5": ("cyan", "magenta")},
    )
    s = play(s, "order c5 cyan/magenta")
    assert (s.phase, s.winner, s.end_reason) == (OVER, R, "xeno has no nest left")
    assert s.outcome().winner == R


def test_the_challenge_is_skipped_when_no_nest_is_in_sight():
    s = arranged({"a2": (R, "red", "blue"), "d6": (X, "cyan", "orange")})
    s = play(s, "a2-b2")
    assert s.phase == MARKER and s.to_act == frozenset({R})


def test_a_challenge_with_nothing_left_to_guess_ends_by_itself():
    # Xeno has two colours of 3 pawns; magenta is all hidden or capped, cyan has one left.
    nests = {"c3": (R, "red", "blue"), "c5": (X, "cyan", "magenta"), "e5": (X, "magenta", "cyan")}
    opts = {"xeno_colours": "cyan,magenta", "pawns": 3, "nests": 1}
    s = arranged(nests, phase=CHALLENGE, caps={"e5": ("magenta",)}, **opts)
    assert s.stash_of(X) == {"cyan": 1, "magenta": 0}
    s = play(s, "challenge c5 cyan")
    assert s.answer == "correct: cap the nest on c5 with cyan"
    assert s.phase == MARKER  # magenta is gone from the stash: no guess is left on c5
    # And a challenge with no guess at all is skipped: Rainbow sees c5 but nothing is left.
    s = arranged(nests, caps={"e5": ("magenta",), "c5": ("cyan",)}, **opts)
    assert s.stash_of(X) == {"cyan": 0, "magenta": 0}
    after = play(s, "c3-c4")
    assert [square_name(n.square) for n in after.in_sight(R)] == ["c5"]
    assert after.phase == MARKER


# --------------------------------------------------------------------------- markers


def test_marker_jumps_and_the_turn_passes():
    s = play(started(), "b2-a2", "challenge c6 cyan")  # c2 sees c6, which hides no cyan
    assert s.phase == MARKER
    assert names(s) == ["marker b1-d1", "marker c1-a1", "marker c7-e7", "marker d7-b7"]
    after = play(s, "marker c1-a1")
    assert [square_name(q) for q in after.base(R)] == ["a1", "b1"]
    assert (after.phase, after.mover, after.turns) == (MOVE, X, (1, 1))


def test_markers_stay_adjacent_inside_the_row():
    s = arranged({"a2": (R, "red", "blue"), "e6": (X, "cyan", "orange")}, phase=MARKER,
                 markers=(0, 3))  # fmt: skip
    assert names(s) == ["marker a1-c1", "marker e7-c7"]  # a1-b1 and d7-e7 sit at the edges
    assert refused(s, "marker b1-a1") == "not-a-jump"
    assert refused(s, "marker a1-b1") == "not-a-jump"
    assert refused(s, "marker c1-e1") == "not-a-marker"
    s = play(s, "marker e7-c7")
    assert [square_name(q) for q in s.base(X)] == ["c7", "d7"]


# --------------------------------------------------------------------------- a whole turn


def test_a_first_turn_in_order_then_the_other_player():
    s = play(started(), "c2-c3")  # c3 sees c6 up the file
    assert (s.phase, s.to_act, s.turn) == (CHALLENGE, frozenset({R}), R)
    s = play(s, "challenge c6 orange")  # c6 hides orange/purple
    assert s.answer == "correct: cap the nest on c6 with orange" and s.phase == MARKER
    s = play(s, "marker b1-d1")
    assert (s.phase, s.mover, s.turns, s.ply) == (MOVE, X, (1, 1), 9)
    assert refused(s, "b2-b3", R) == "not-your-turn"


def test_replaying_move_names_rebuilds_the_state():
    s = started()
    history = [*SETUPS, "c2-c3", "challenge c6 orange", "marker b1-d1", "c6-c5", "end"]
    with pytest.raises(IllegalMove):
        get_spec("latent-binaries").replay(history)
    history = history[:-1]
    s = play(s, *history[6:])
    assert get_spec("latent-binaries").replay(history) == s


@pytest.mark.parametrize(
    "text", ["", "jump", "c2-c9", "setup c2 red", "order c5 red", "marker a7", "challenge c5"]
)
def test_unreadable_moves(text):
    with pytest.raises(ValueError):
        new_game().parse_move(text)


def test_colours_may_be_typed_by_their_initial():
    s = new_game()
    assert s.parse_move("Challenge C5 G") == Challenge(parse_square("c5"), "green")
    assert s.parse_move("order c5 c/m") == Order(parse_square("c5"), "cyan", "magenta")
    assert s.parse_move("setup b6 p/o").name == "setup b6 purple/orange"
