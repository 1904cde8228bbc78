"""Wythe's OLED screens, pixel for pixel, against PNGs in tests/golden/ (regenerate with
``UPDATE_GOLDEN=1 ./run-tests tests/games/wythe/test_oled.py``
and look at them before committing)."""

from __future__ import annotations

from companion.games import get_spec
from companion.views.oled import CHARS, Screen, screen_text
from tests.games.wythe.test_engine import BLOCKED, play, start
from tests.views.test_oled_golden import check, shown

SPEC = get_spec("wythe")


def test_start():
    check("wythe_start", shown(Screen(SPEC.panel(start()))))


def test_swap_offer_on_whites_first_turn():
    panel = SPEC.panel(play(start(), "d4-d5"))
    assert panel.note == "White: place or swap"
    check("wythe_swap_offer", shown(Screen(panel)))


def test_scores_and_lead_mid_game():
    s = play(start(), "d4-d5 a1-a2 h8-h7 c4-b4 e5-e4")
    panel = SPEC.panel(s)
    assert all(len(f"{r.label} {r.value}") <= CHARS - 1 for r in panel.rows)
    check("wythe_mid_game", shown(Screen(panel)))


def test_refusal():
    s = play(start(), "d4-d5")
    reason = s.check(s.parse_move("d5-d4")).reason
    check("wythe_refusal", shown(Screen(SPEC.panel(s), reason)))


def test_result_with_its_reason():
    over = play(start(size=4), BLOCKED + " pass pass")
    outcome = over.outcome()
    message = f"{outcome.summary}: {outcome.reason}"
    assert len(message) <= 2 * CHARS
    screen = Screen(SPEC.panel(over), message, over=True)
    said = " ".join(screen_text(screen)).lower()
    assert said.count("wins") == 1 and message.lower() in said  # the result said once
    check("wythe_over", shown(screen))
