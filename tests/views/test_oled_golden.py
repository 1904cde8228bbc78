"""What the OLED shows, pixel for pixel, against PNGs committed in tests/golden/.

Regenerate after an intended change with
``UPDATE_GOLDEN=1 ./run-tests tests/views/test_oled_golden.py``
and look at the new pictures before committing them.
"""

import os

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.games import get_spec
from companion.games.base import Panel, PanelRow
from companion.views.oled import OledView, Screen
from tests.paths import REPO

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
    from companion.views.oled import CHARS, wrap

    lines = wrap(text)
    assert len(lines) == 2 and all(len(s) <= CHARS for s in lines)
    assert lines[-1].endswith("..")


def test_new_game_menu(make_daemon):
    from companion.core.events import ButtonEvent

    d = make_daemon()
    d.post(ButtonEvent("menu", long=True))
    d.post(ButtonEvent("menu"))
    d.loop.run_pending()
    check("menu_binary_chosen", d.display.image)
