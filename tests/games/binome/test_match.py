"""A Binøme match: three games, points added."""

from __future__ import annotations

import pytest

from companion.games.binome.match import GAMES_PER_MATCH, match_standing


def test_three_games_add_up():
    games = [{"Ann": 8, "Bob": 5}, {"Ann": 2, "Bob": 9}, {"Ann": 6, "Bob": 3}]
    standing = match_standing(games)
    assert dict(standing.totals) == {"Ann": 16, "Bob": 17}
    assert standing.leaders == ("Bob",)
    assert standing.complete and standing.games == GAMES_PER_MATCH == 3


def test_a_match_in_progress_and_ties():
    standing = match_standing([{"Ann": 4, "Bob": 4}])
    assert not standing.complete
    assert standing.leaders == ("Ann", "Bob")
    assert match_standing([]).leaders == ()


def test_a_player_missing_from_a_game_scores_zero_there():
    standing = match_standing([{"Ann": 3}, {"Ann": 1, "Cy": 7}])
    assert dict(standing.totals) == {"Ann": 4, "Cy": 7}


def test_bad_matches():
    with pytest.raises(ValueError, match="3 games"):
        match_standing([{"Ann": 1}] * 4)
    with pytest.raises(ValueError, match="negative"):
        match_standing([{"Ann": -1}])
