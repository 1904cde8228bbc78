"""What the OLED shows, pixel for pixel, against PNGs committed in tests/golden/.

Regenerate after an intended change with
``UPDATE_GOLDEN=1 ./run-tests tests/views/test_oled_golden.py``
and look at the new pictures before committing them.
"""

import os

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.core.events import ButtonEvent
from companion.games import get_spec
from companion.games.base import Panel, PanelRow
from companion.games.binary.engine import BinaryState
from companion.views.oled import CHARS, OledView, Screen, screen_text
from tests.paths import REPO
from tests.positions import BINARY_FIG3, binaryon_tie

GOLDEN = REPO / "tests" / "golden"


def shown(screen: Screen) -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    OledView(device).show(screen)
    return device.image


def check(name: str, image: Image.Image) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        image.save(path)
    assert path.exists(), f"no golden image {path.name}: run with UPDATE_GOLDEN=1"
    golden = Image.open(path).convert(image.mode)
    assert golden.size == image.size
    assert ImageChops.difference(golden, image).getbbox() is None, f"{name} differs from golden"


def binaryon_after(*moves):
    spec = get_spec("binaryon")
    st = spec.new()
    for m in moves:
        st = st.play(st.parse_move(m))
    return spec, st


def test_start_position():
    spec, st = binaryon_after()
    check("binaryon_start", shown(Screen(spec.panel(st))))


def test_refusal_is_shown_on_two_lines():
    spec, st = binaryon_after("e5", "d4")
    check("binaryon_refusal", shown(Screen(spec.panel(st), "e4: needs 5 black nbrs, has 4")))


def test_turn_is_shown_inverted():
    spec, st = binaryon_after("e5")
    image = shown(Screen(spec.panel(st)))
    check("binaryon_off_to_move", image)
    # the OFF row (second) is the inverted one: mostly lit pixels
    lit = sum(1 for x in range(128) if image.getpixel((x, 24)))
    assert lit > 100


def test_disconnected_status_wins_over_message():
    spec, st = binaryon_after("e5")
    check(
        "binaryon_disconnected",
        shown(Screen(spec.panel(st), "e4: not in line", status="board disconnected")),
    )


def test_game_over_screen():
    panel = Panel(
        "BINARYON", 41, (PanelRow("ON", "11111001", False), PanelRow("OFF", "11110000", True))
    )
    check("binaryon_over", shown(Screen(panel, "ON wins", over=True)))


def test_identical_screens_are_not_sent_twice():
    spec, st = binaryon_after()
    device = dummy(width=128, height=64, mode="1")
    view = OledView(device)
    assert view.show(Screen(spec.panel(st)))
    assert not view.show(Screen(spec.panel(st)))
    assert view.show(Screen(spec.panel(st), "hello"))
    assert view.frames == 2


@pytest.mark.parametrize("text", ["x" * 60, "word " * 20])
def test_long_messages_are_cut_to_two_lines(text):
    from companion.views.oled import wrap

    lines = wrap(text)
    assert len(lines) == 2 and all(len(s) <= CHARS for s in lines)
    assert lines[-1].endswith("..")


def test_new_game_menu(make_daemon):

    d = make_daemon()
    d.post(ButtonEvent("menu", long=True))
    d.post(ButtonEvent("menu"))
    d.loop.run_pending()
    check("menu_binary_chosen", d.display.image)


def test_the_oled_says_a_result_once_not_twice():
    """The end screen's note and the result message were the same ('OFF wins' / 'OFF wins',
    'XENO wins' / 'XENO wins: e4 sees b1'): shown once, whole, under the rows."""
    rows = (PanelRow("ON", "11111001", False), PanelRow("OFF", "11110000", True))
    for name, note, message in [
        ("plain", "OFF wins", "OFF wins"),
        ("why", "XENO wins", "XENO wins: e4 sees b1"),
        ("on_time", "ON wins on time: OFF's time ran out", "ON wins on time: OFF's time ran out"),
    ]:
        screen = Screen(Panel("BINARYON", 41, rows, note), message, over=True)
        text = screen_text(screen)
        assert " ".join(text[3:]) == message, text
        check(f"result_once_{name}", shown(screen))


def text_of(screen: Screen) -> str:
    return "\n".join(screen_text(screen))


def test_a_tied_binaryon_result_shows_why_on_the_oled():
    panel = get_spec("binaryon").panel(binaryon_tie())
    message = panel.note  # what the table hears at the end: the same result line
    image = shown(Screen(panel, message, over=True))
    check("binaryon_tie", image)
    # the winner sits in the title's corner, the reason fills the three lines under the rows
    lines = [s for s in text_of(Screen(panel, message, over=True)).splitlines()]
    assert "ON wins" in lines[0]
    # the whole reason is drawn: its last words are on the panel, not cut with '..'
    from companion.views.oled import result_parts, wrap

    head, rest = result_parts(Screen(panel, message, over=True))
    assert head == "ON wins" and rest.endswith("ON's next is higher")
    assert len(wrap(rest, 3)) == 3 and not wrap(rest, 3)[-1].endswith("..")


def binary_end() -> BinaryState:
    from companion.core.position_text import parse_position

    n, cells = parse_position(BINARY_FIG3)
    return BinaryState.from_position(cells, n, hands=(0, 0))


def test_binary_end_on_the_oled():
    spec = get_spec("binary")
    panel = spec.panel(binary_end())
    assert panel.note == "B 22,3,2 W 15,5,4,3"
    check("binary_over", shown(Screen(panel, "BLACK wins 49-42", over=True)))
