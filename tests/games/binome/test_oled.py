"""Binøme on the OLED, pixel for pixel (tests/golden/binome_*.png), and the two-column
layout for four to seven players. Regenerate with ``UPDATE_GOLDEN=1`` and look at them."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.games import get_spec
from companion.games.base import Panel, PanelRow
from companion.games.binome.moves import Claim, Decline, Draw, Roll, Write
from companion.views.oled import CHARS, COLUMN_CHARS, Screen, column_text
from tests.games.binome.test_engine import EXAMPLE_SHEETS, FIVE, write_sheets
from tests.views.test_oled_golden import check, shown

SPEC = get_spec("binome")


def lit(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    x0, y0, x1, y1 = box
    return sum(1 for x in range(x0, x1) for y in range(y0, y1) if image.getpixel((x, y)))


def five_players_mid_roll():
    s = SPEC.new(players=FIVE, chair="Eustache").play(Roll(7))
    return s.play(Write(0, "Eustache")).play(Write(3, "Cornelia"))


def example_turn_resolved():
    s = write_sheets(SPEC.new(players=FIVE, chair="Eustache"), EXAMPLE_SHEETS)
    s = s.play(Draw("identical-digits"))
    for move in (
        Claim(22, "Eustache"),
        Claim(88, "Algernon"),
        Claim(88, "Balthazar"),
        Claim(44, "Cornelia"),
        Decline("Dorothy"),
    ):
        s = s.play(move)
    return s


def test_a_roll_in_part_one_with_five_players():
    s = five_players_mid_roll()
    screen = Screen(SPEC.view(s).panel)
    image = shown(screen)
    check("binome_roll_five", image)
    # the three who still have to write are inverted: the left column's second and third
    # rows, the right column's second row (Dorothy); Eustache (top left) wrote already
    assert lit(image, (0, 23, 63, 33)) > 350 and lit(image, (0, 13, 63, 23)) < 250
    assert lit(image, (64, 23, 127, 33)) > 350 and lit(image, (64, 13, 127, 23)) < 250


def test_a_resolution_on_the_message_lines():
    s = example_turn_resolved()
    last = s.last_resolution
    assert last is not None and last.explanation == "44 wins: 88 and 88 cancelled; 22 lower"
    s = s.play(Draw("max-number"))
    screen = Screen(SPEC.view(s).panel, last.explanation)
    check("binome_resolution", shown(screen))


def test_the_end_of_a_game():
    s = example_turn_resolved()
    while not s.is_over():
        s = s.play(Draw(s.remaining[0]))
        for p in s.claim_order():
            s = s.play(Decline(p))
    outcome = s.outcome()
    assert outcome is not None
    screen = Screen(SPEC.view(s).panel, f"{outcome.summary}: {outcome.reason}", over=True)
    check("binome_over", shown(screen))


def test_seven_players_keep_one_message_line():
    rows = tuple(PanelRow(f"P{k}", str(k * 3), k == 4) for k in range(1, 8))
    screen = Screen(Panel("BINOME", 9, rows, "ROLL 3", "roll 2/16"), "a long message " * 3)
    image = shown(screen)
    check("binome_seven", image)
    assert lit(image, (0, 53, 128, 64)) > 0  # the message's one line
    assert lit(image, (0, 43, 63, 53)) > 350  # P4 closes the left column, inverted


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_every_player_is_on_the_screen(count):
    rows = tuple(PanelRow(f"N{k}", str(k), False) for k in range(count))
    blank = shown(Screen(Panel("T", 1, ())))
    image = shown(Screen(Panel("T", 1, rows)))
    lines = (count + 1) // 2
    for k in range(count):
        column, line = divmod(k, lines)
        box = (64 * column, 13 + 10 * line, 64 * column + 63, 23 + 10 * line)
        assert lit(image, box) > lit(blank, box), k


def test_the_note_takes_the_message_lines_when_the_rows_fill_the_top():
    rows = tuple(PanelRow(f"N{k}", str(k), False) for k in range(5))
    quiet = shown(Screen(Panel("T", 1, rows, "ROLL 7")))
    told = shown(Screen(Panel("T", 1, rows, "ROLL 7"), "hello"))
    assert lit(quiet, (0, 43, 128, 53)) > 0
    assert quiet.tobytes() != told.tobytes()  # the message wins over the note


def test_column_text_keeps_the_score_whole():
    assert column_text("ALGERNON", "12") == "ALGERNO 12"
    assert column_text("ANN", "4") == "ANN      4"
    assert len(column_text("X" * 20, "123")) == COLUMN_CHARS
    assert 2 * COLUMN_CHARS <= CHARS
