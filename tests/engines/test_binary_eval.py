"""The Binary engine's evaluation and the search's use of an unfinished depth."""

from __future__ import annotations

import random

from companion.engines.players import greedy_player
from companion.engines.search import WIN, Limits, Searcher
from companion.games import get_spec
from companion.games.binary.adapter import BinaryAdapter
from companion.games.binary.bitboard import Position
from companion.games.binary.engine import END, BinaryState
from tests.positions import mv

new_game = get_spec("binary").new

EMPTY_8 = "." * 64


def _pos(cells: str = EMPTY_8, mover: str = "black", hands: tuple[int, int] = (4, 4)) -> Position:
    return Position.of(BinaryState.from_position(list(cells), 8, mover, hands))


def test_pieces_placed_with_no_reply_count_for_their_owner():
    a = BinaryAdapter(tempo=16)
    # Level hands, Black to start: White places the last piece, one unanswered piece for White.
    assert a.evaluate(_pos(hands=(4, 4)), "black") == -16
    # One more piece for Black: Black places the last one.
    assert a.evaluate(_pos(hands=(5, 4)), "black") == 16
    # White to start with one piece more: White places two unanswered.
    assert a.evaluate(_pos(mover="white", hands=(3, 5)), "white") == 32
    assert a.evaluate(_pos(mover="white", hands=(3, 5)), "black") == -32


def test_the_evaluation_is_the_score_difference_when_hands_are_even_for_the_mover():
    a = BinaryAdapter(tempo=0)
    cells = list(EMPTY_8)
    cells[1] = "x"  # b1, a light square: a Black piece there joins a1 and c1 (dark, empty)
    pos = _pos("".join(cells), "white", (4, 4))
    assert pos.territory_sizes() == ([4], [])  # b1, a1, c1 and b2 (dark)
    assert a.evaluate(pos, "black") == 4 * 8 and a.evaluate(pos, "white") == -4 * 8


def test_a_spent_extra_piece_is_seen_as_lost_tempo():
    """A second own-colour piece that gains nothing costs a tempo: the engine ENDs instead."""
    a = BinaryAdapter()
    state = new_game(size=8).play(mv("c3"))  # Black opens on c3
    state = state.play(mv("a1"))  # White's... a1 is dark: not White's colour, a single piece
    assert state.mover == "black"
    state = state.play(mv("d4"))  # d4 is the centre (dark, Black's own): alone, turn over
    assert state.mover == "white"
    state = state.play(mv("b1"))  # b1: White's own colour, a second may follow
    assert state.mover == "white" and state.placed
    pos = a.prepare(state)
    values = {m: a.evaluate(a.play(pos, m), "white") for m in (END, mv("d1"))}
    assert values[END] > values[mv("d1")]


def test_finished_games_are_won_lost_or_drawn_outright():
    a = BinaryAdapter()
    rng = random.Random(5)
    greedy = greedy_player(a, rng)
    pos = a.prepare(new_game(size=4))
    while not pos.is_over():
        pos = a.play(pos, greedy(pos))
    winner = a.winner(pos)
    expected = 0 if winner is None else WIN
    assert a.evaluate(pos, winner or "black") == expected


class _Tree:
    """A two-level toy game: at depth 1 move 'a' looks best, at depth 2 'b' is."""

    def moves(self, s):
        return ["a", "b", "c"] if s == "root" else ["x"]

    def play(self, s, m):
        return f"{s}/{m}"

    def is_over(self, s):
        return s.count("/") == 2

    def mover(self, s):
        return "one" if s.count("/") % 2 == 0 else "two"

    def evaluate(self, s, player):
        table = {"root/a": 5, "root/b": 1, "root/c": 0, "root/a/x": -3, "root/b/x": 4,
                 "root/c/x": 2}  # fmt: skip
        v = table[s]
        return v if player == "one" else -v

    def key(self, s):
        return s

    def prepare(self, s):
        return s

    def score_difference(self, s, player):
        return self.evaluate(s, player)


def test_an_unfinished_depth_keeps_a_move_it_proved_better():
    tree = _Tree()
    full = Searcher(tree, Limits(seconds=None, depth=2)).search("root")
    assert full.move == "b"
    # Depth 1 costs 3 nodes (one a root move); depth 2 costs 2 a root move, searching 'a'
    # first (the depth-1 best), then 'b', then 'c'. Stopped at node 8, in 'c', it has
    # proved 'b' better than 'a'.
    stopped = Searcher(tree, Limits(seconds=None, nodes=8, depth=2)).search("root")
    assert (stopped.depth, stopped.move, stopped.value) == (1, "b", 4)
    early = Searcher(tree, Limits(seconds=None, nodes=6, depth=2)).search("root")
    assert (early.depth, early.move) == (1, "a")  # 'b' unfinished: depth 1's choice stands
