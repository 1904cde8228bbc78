"""Latent Binaries on the OLED, pixel for pixel, against PNGs in tests/golden/ (regenerate with
``UPDATE_GOLDEN=1 ./run-tests tests/games/latent_binaries/test_oled.py``
and look at them before committing)."""

from __future__ import annotations

from companion.games import get_spec
from companion.games.latent_binaries.spec import SPEC
from companion.views.oled import Screen
from tests.games.latent_binaries.arrange import arranged
from tests.views.test_oled_golden import check, shown

new_game = get_spec("latent-binaries").new


def test_setup_screen_has_both_players_to_act():
    state = new_game()
    state = state.play(state.parse_move("setup c2 red/blue"))
    panel = SPEC.panel(state)
    assert [r.to_move for r in panel.rows] == [True, True]
    check("latent_setup", shown(Screen(panel)))


def test_answer_screen_after_a_right_guess():
    state = arranged(
        {"c3": ("rainbow", "red", "blue"), "c5": ("xeno", "cyan", "magenta")},
        phase="challenge",
    )
    state = state.play(state.parse_move("challenge c5 magenta"))
    panel = SPEC.panel(state)
    assert panel.note == "right: c5 magenta"
    check("latent_right_guess", shown(Screen(panel, "c5: not in sight")))


def test_game_over_screen():
    state = arranged({"c4": ("rainbow", "red", "blue"), "a3": ("xeno", "cyan", "purple")},
                     markers=(3, 3))  # fmt: skip
    state = state.play(state.parse_move("c4-c5"))
    panel = SPEC.panel(state)
    check("latent_over", shown(Screen(panel, "c5 sees e7", over=True)))
