"""The terminal's drawing (companion/views/terminal.py): the OLED in half blocks or Braille,
the board with or without colour (pieces, light and dark squares, marks told apart), and
text from outside printed with its control characters escaped and its printable text kept."""

from PIL import Image

from companion.core.terminal_text import for_terminal
from companion.games import get_spec
from companion.views.terminal import board_lines, oled_block_lines, oled_lines, oled_view_lines
from tests.positions import mv


def image_with(*pixels, size=(4, 4)):
    img = Image.new("1", size)
    for p in pixels:
        img.putpixel(p, 1)
    return img


def test_half_blocks_are_one_pixel_wide_two_high():
    lines = oled_block_lines(image_with((0, 0), (1, 1), (2, 0), (2, 1)))
    assert lines == ["▀▄█ ", "    "]


def test_braille_packs_two_by_four():
    lines = oled_lines(image_with((0, 0), (1, 3)))
    assert lines == [chr(0x2800 + 0x01 + 0x80) + chr(0x2800)]


def test_wide_terminals_get_the_real_pixels():
    img = Image.new("1", (128, 64))
    assert len(oled_view_lines(img, 140)) == 32 + 2  # half blocks, framed
    assert len(oled_view_lines(img, 80)) == 16 + 2  # Braille, framed


def test_board_without_colour_marks_lit_refused_and_highlighted_squares():
    leds = [(0, 0, 0)] * 16
    leds[0] = (160, 140, 100)  # lit
    leds[1] = (200, 0, 0)  # refused / differs
    leds[2] = (0, 180, 0)  # winning line
    lines = board_lines(leds, 4, colour=False)
    assert lines[3] == " 1  O  !  *  . "
    assert lines[-1] == "    a  b  c  d "


def test_terminal_text_keeps_printable_text_as_it_is():
    for text in ("Zoë", "李", "👩\u200d👩\u200d👧", "a b"):
        assert for_terminal(text) == text
    assert for_terminal("a\nb\tc\x7f\x9b") == "a\\x0ab\\x09c\\x7f\\x9b"


def test_a_terminal_that_drops_the_colours_still_shows_binarys_empty_squares():
    """A terminal that takes the escapes but shows no colour: the squares are still there."""
    import re

    spec = get_spec("binary")
    state = spec.new(**spec.resolve({}))
    coloured = board_lines(spec.leds(state), 8, colour=True, pieces=[""] * 64)
    seen = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured[:8]]
    assert all(line[3:].replace(" ", "") in ("-.-.-.-.", ".-.-.-.-") for line in seen), seen


def test_no_colour_tells_black_from_white_and_light_from_dark():
    spec = get_spec("binary")
    st = spec.new()
    st = st.play(mv("c3")).play(mv("c1"))
    leds = spec.leds(st)
    pieces = [c.piece for c in spec.view(st).cells]
    plain = "\n".join(board_lines(leds, 8, colour=False, pieces=pieces))
    assert " x " in plain and " o " in plain  # Black and White differ
    assert " - " in plain and " . " in plain  # light and dark squares differ
    coloured = "\n".join(board_lines(leds, 8, colour=True, pieces=pieces))
    assert "48;2;12;12;12m" not in coloured  # the old, invisible light square
    assert "48;2;70;70;70m" in coloured
