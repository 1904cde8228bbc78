"""Solo mode: virtual opponents play by the documented strategy, replayable from the seed."""

from __future__ import annotations

import random

from companion.games import get_spec
from companion.games.binome.deck import builtin_deck
from companion.games.binome.engine import CLAIM
from companion.games.binome.moves import Claim, Decline, Write
from companion.games.binome.options import resolve_game_options
from companion.games.binome.solo import choose_cell, choose_claim, personality, quality
from companion.journal.api import NullJournal
from tests.positions import solo_session


def referee_move(state, rng: random.Random):
    """What the referee plays by itself now: a chance outcome drawn with ``rng`` (roll,
    draw) or a virtual player's move; None while it waits for the players."""
    chance = state.chance_moves()
    if chance:
        return rng.choice(chance)
    return state.forced_move()


new_game = get_spec("binome").new


def play_solo(seed: int, table_seed: int = 1, human_seed: int = 2, bots: int = 3):
    """A whole solo game: the table RNG rolls and draws, the human plays at random."""
    state = new_game(players="Ann", solo=bots, seed=seed)
    table, human = random.Random(table_seed), random.Random(human_seed)
    names: list[str] = []
    while not state.is_over():
        move = referee_move(state, table)
        if move is None:
            assert state.to_act == {"Ann"}
            move = human.choice(state.legal_moves("Ann"))
        names.append(move.name)
        state = state.play(move)
    return state, names


def test_a_solo_game_plays_to_the_end_and_replays():
    state, names = play_solo(seed=7)
    assert state.is_over()
    assert state.players == ("Ann", "bot1", "bot2", "bot3")
    assert any(n.startswith("bot2 claim") for n in names)  # the opponents do claim
    assert get_spec("binome").replay(names, **state.options) == state
    for bot in state.virtual:
        assert "?" not in "".join(state.numbers(bot))


def test_the_same_seed_gives_the_same_opponents():
    assert play_solo(seed=3)[1] == play_solo(seed=3)[1]


def test_the_seed_changes_the_opponents_choices():
    games = {tuple(play_solo(seed=s)[1]) for s in range(4)}
    assert len(games) > 1


def test_the_virtual_players_act_at_once_with_the_human():
    s = new_game(players="Ann", solo=2, seed=0).play(referee_move(new_game(), random.Random(0)))
    assert s.to_act == {"Ann", "bot1", "bot2"}
    forced = s.forced_move()
    assert isinstance(forced, Write) and forced.player == "bot1"
    s = s.play(forced)
    assert isinstance(s.forced_move(), Write) and s.forced_move().player == "bot2"
    s = s.play(s.forced_move())
    assert s.forced_move() is None and s.to_act == {"Ann"}


def test_without_solo_nothing_is_forced():
    s = new_game(players=3)
    s = s.play(referee_move(s, random.Random(5)))
    assert s.forced_move() is None


def test_claims_wait_for_the_human_in_seat_order():
    state, _ = play_solo(seed=11)
    # somewhere in the game the human was asked to claim while bots waited
    s = new_game(players="Ann", solo=2, seed=11)
    table = random.Random(1)
    while s.phase != CLAIM:
        move = referee_move(s, table) or s.legal_moves("Ann")[0]
        s = s.play(move)
    assert s.turn == "Ann" and s.forced_move() is None  # Ann holds the chair: she goes first
    s = s.play(Decline("Ann"))
    assert s.turn == "bot1" and isinstance(s.forced_move(), Claim | Decline)


class NoNudge(random.Random):
    """The strategy without its random nudges."""

    def uniform(self, a: float, b: float) -> float:
        return (a + b) / 2 if a < 0 else a


def test_writing_completes_a_double_nine():
    sheet = [9] + [None] * 15
    # 99 is the sheet's best number (identical digits, max number, contains 9...)
    assert choose_cell(sheet, 9, builtin_deck(), 4, NoNudge()) == 1


def test_writing_never_picks_a_full_cell():
    sheet = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, None, None]
    for k in range(20):
        assert choose_cell(sheet, 5, builtin_deck(), 3, random.Random(k)) in (14, 15)


def test_claiming():
    deck, rng = builtin_deck(), random.Random(0)
    # nothing eligible: decline
    assert choose_claim([12, 34], "contains-9", deck, ["max-number"], 3, rng) is None
    # a top number for the card, numbers to spare: claim it
    assert choose_claim([99, 12, 34], "max-number", deck, ["min-number"], 3, rng) == 99
    # a poor number early in the game: keep it
    early = ["contains-0"] * 14
    assert choose_claim([40, 41, 42, 43, 44, 45, 46, 47], "max-number", deck, early, 3, rng) is None


def test_quality_edges():
    assert quality("max-number", 99) == 1.0 and quality("max-number", 0) == 0.0
    assert quality("identical-digits", 23) == 0.0
    assert quality("identical-digits", 99) > quality("identical-digits", 11) > 0.5
    assert quality("closest-to-50", 50) == 1.0


def test_personalities_differ_by_name_and_seed_and_stay_fixed():
    a, b = personality(1, "bot1"), personality(1, "bot2")
    assert a == personality(1, "bot1")
    assert a != b and personality(2, "bot1") != a
    assert len(a.favourites) == 5
    assert -0.1 <= a.boldness <= 0.1 and 0 <= a.cunning <= 0.4


def test_the_opponents_do_not_all_build_the_same_numbers():
    state, _ = play_solo(seed=5, bots=4)
    sheets = {tuple(sorted(state.numbers(b))) for b in state.virtual}
    assert len(sheets) > 1


def test_a_solo_seed_is_drawn_at_random_for_each_game():
    seeds = {resolve_game_options({"players": "Ann", "solo": 2})["seed"] for _ in range(4)}
    assert len(seeds) == 4 and 0 not in seeds
    # a seed the players give is theirs to keep (a replay of a known game)
    assert resolve_game_options({"players": "Ann", "solo": 2, "seed": 0})["seed"] == 0


def test_a_new_solo_game_draws_a_new_seed(tmp_path):
    s = solo_session(NullJournal())
    first = s.options["seed"]
    s.new_game()
    assert s.options["seed"] != first and s.options["solo"] == 2
