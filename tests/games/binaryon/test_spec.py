"""Hosting Binaryon: the panel's note at the end (a tie gives its tie-break, a plain win stays
short), and a colour board's refusal giving the rule as the switch board's does.
"""

from __future__ import annotations

from companion.games import get_spec
from companion.games.binaryon.engine import BinaryonState
from tests.positions import binaryon_tie, mv, sq


def test_a_tied_binaryon_result_gives_its_tie_break_in_the_note():
    st = binaryon_tie()
    assert st.is_over() and st.score().tied
    note = get_spec("binaryon").panel(st).note
    assert note == "ON wins: tie at 11111111: equal numbers cancel; ON's next is higher"


def test_a_plain_binaryon_win_keeps_its_short_note():
    spec = get_spec("binaryon")
    start = spec.new()
    st = BinaryonState((1 << 64) - 1, start.rules, "on", None, 2, 1)  # every disc white
    assert not st.score().tied
    assert spec.panel(st).note in ("ON wins", "OFF wins")


def test_a_colour_board_refusal_gives_the_rule_as_the_switch_board_does():
    from companion.views.oled import wrap

    spec = get_spec("binaryon")
    s = spec.new()
    wrong = list(s.cells())
    wrong[sq("e4")] = "x"  # ON turned a white disc black; ON turns black discs white
    hint = spec.interpreter("polarity").board(s, wrong).hint
    assert "turns black to white" in hint and hint.startswith("e4:")
    assert s.check(mv("e4")).reason == "e4: already white"  # the switch board's reason
    assert len(wrap(hint)) == 2 and not wrap(hint)[-1].endswith("..")
    binary = get_spec("binary")
    b = binary.new().play(mv("c3"))
    turned = list(b.cells)
    turned[sq("c3")] = "o"
    hint = binary.interpreter("polarity").board(b, turned).hint
    assert hint == "c3: was black; turn it back" and not wrap(hint)[-1].endswith("..")
