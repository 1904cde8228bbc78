from PIL import Image

from companion.views.terminal import board_lines, oled_block_lines, oled_lines, oled_view_lines


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
