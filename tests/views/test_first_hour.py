"""What a new user saw in the first hour, on the OLED and in the simulator (issue 17)."""

from __future__ import annotations

import io

from luma.core.device import dummy
from PIL import Image, ImageDraw

from companion.core.config import Config
from companion.games import get_spec
from companion.games.base import Panel, PanelRow
from companion.games.binary.engine import BinaryState
from companion.games.binaryon.engine import BinaryonState
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.service.simulator import Simulator
from companion.views.oled import CHARS, OledView, Screen, font, screen_text
from companion.views.terminal import board_lines
from tests.conftest import step
from tests.positions import BINARY_FIG3, mv, sq
from tests.views.test_oled_golden import check


def shown(screen: Screen) -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    OledView(device).show(screen)
    return device.image


def text_of(screen: Screen) -> str:
    return "\n".join(screen_text(screen))


# ----------------------------------------------------------------------------- a tie


def binaryon_tie() -> BinaryonState:
    """The start position with h8 turned white, both players passed: the best numbers tie at
    11111111 and ON wins on the numbers left after cancelling (see test_binaryon_engine)."""
    spec = get_spec("binaryon")
    start = spec.new()
    white = start.white | 1 << sq("h8")
    return BinaryonState(white, start.rules, "on", None, 2, 40)


def test_a_tied_binaryon_result_gives_its_tie_break_in_the_note():
    st = binaryon_tie()
    assert st.is_over() and st.score().tied
    note = get_spec("binaryon").panel(st).note
    assert note == "ON wins: tie at 11111111: equal numbers cancel; ON's next is higher"


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


def test_a_plain_binaryon_win_keeps_its_short_note():
    spec = get_spec("binaryon")
    start = spec.new()
    st = BinaryonState((1 << 64) - 1, start.rules, "on", None, 2, 1)  # every disc white
    assert not st.score().tied
    assert spec.panel(st).note in ("ON wins", "OFF wins")


# ----------------------------------------------------------------------------- Binary


def binary_end() -> BinaryState:
    from companion.core.position_text import parse_position

    n, cells = parse_position(BINARY_FIG3)
    return BinaryState.from_position(cells, n, hands=(0, 0))


def test_binary_end_on_the_oled():
    spec = get_spec("binary")
    panel = spec.panel(binary_end())
    assert panel.note == "B 22,3,2 W 15,5,4,3"
    check("binary_over", shown(Screen(panel, "BLACK wins 49-42", over=True)))


def test_binary_note_spells_out_the_pieces_in_hand():
    panel = get_spec("binary").panel(get_spec("binary").new())
    assert panel.note == "in hand B16 W16"
    assert "move" in text_of(Screen(panel)).splitlines()[0]


def test_binary_refusals_say_the_rule_not_its_opposite():
    st = get_spec("binary").new()
    refusal = st.check(mv("e4"))
    assert refusal is not None and refusal.reason == "e4: first piece may not go in the centre"
    from companion.views.oled import wrap

    assert len(wrap(refusal.reason)) == 2 and not wrap(refusal.reason)[-1].endswith("..")


# ----------------------------------------------------------------------------- the font


def test_ones_read_as_separate_digits():
    """Eight ones in a row are eight strokes with dark columns between them."""
    image = Image.new("1", (6 * 8, 10))
    ImageDraw.Draw(image).text((0, 0), "11111111", font=font(), fill=1)
    columns = [any(image.getpixel((x, y)) for y in range(10)) for x in range(image.width)]
    strokes = sum(1 for x in range(len(columns)) if columns[x] and (x == 0 or not columns[x - 1]))
    assert strokes == 8
    assert font() is not None and font().getbbox("W" * CHARS)[2] == 6 * CHARS


def test_the_move_number_is_labelled():
    panel = Panel("BINARYON", 12, (PanelRow("ON", "1", True), PanelRow("OFF", "0")))
    assert text_of(Screen(panel)).splitlines()[0].endswith("move 12")


# ----------------------------------------------------------------------------- the terminal


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


def sim_output(make_daemon, clock, game, typed, rows=None, colour=False):
    d = make_daemon(game=game)
    out = io.StringIO()
    sim = Simulator(d, d.board, out=out, colour=colour)
    sim.settle = lambda timeout=10.0: step(d, clock, 1.0)  # type: ignore[method-assign]
    if rows is not None:
        sim.rows = lambda: rows  # type: ignore[method-assign]
    step(d, clock)
    for line in typed:
        sim.handle_line(line)
    return d, out.getvalue()


def test_the_simulator_prints_a_legend_and_the_score(make_daemon, clock):
    _, out = sim_output(make_daemon, clock, "binary", ["c3", "c1", "show"])
    assert "x black  o white  . dark  - light square  ! refused  ? differs  * hint" in out
    assert "score: BLACK 0  WHITE 8" in out
    assert " x " in out and " o " in out


def test_a_refused_square_is_flagged_on_the_board(make_daemon, clock):
    _, out = sim_output(make_daemon, clock, "binary", ["e4"])
    assert "first piece may not go in the centre" in out
    rank4 = next(line for line in out.splitlines() if line.startswith(" 4 "))
    assert rank4[3 + 3 * 4 : 3 + 3 * 5] == " ! "  # e4


def test_a_small_terminal_gets_the_oled_as_text(make_daemon, clock):
    _, small = sim_output(make_daemon, clock, "binaryon", ["show"], rows=24)
    drawn = small.splitlines()
    assert len(drawn) <= 23  # the whole draw and the prompt fit an 80x24 terminal
    assert any("BINARYON" in line and "move 1" in line for line in drawn)
    assert not any("\u2800" <= ch <= "\u28ff" for line in drawn for ch in line)  # no bitmap
    assert drawn[-2].startswith("score: ON 11111111  OFF 11111111")
    _, tall = sim_output(make_daemon, clock, "binaryon", ["show"], rows=60)
    assert any("\u2800" <= ch <= "\u28ff" for line in tall.splitlines() for ch in line)


# ----------------------------------------------------------------------------- names


def named_daemon(clock, game="binaryon", players=None):
    cfg = Config.default().with_overrides(
        game={"name": game, "players": players or {}}, board={"kind": "switch"}
    )
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    step(d, clock)
    return d


def test_player_names_from_the_config_are_on_the_oled_and_the_table_page(clock):
    d = named_daemon(clock, players={"on": "Ana", "off": "Ben"})
    try:
        screen = d.screen()
        assert [r.label for r in screen.panel.rows] == ["Ana ON", "Ben OFF"]
        assert screen_text(screen)[1].startswith(">Ana ON  11111111")
        players = d.web_view()["players"]
        assert [(p["label"], p["name"]) for p in players] == [("ON", "Ana"), ("OFF", "Ben")]
    finally:
        d.board.stop()


def test_a_long_name_replaces_the_label_and_no_names_keep_it(clock):
    d = named_daemon(clock, players={"on": "Maximiliana"})
    try:
        assert [r.label for r in d.screen().panel.rows] == ["Maximiliana", "OFF"]
    finally:
        d.board.stop()
    d = named_daemon(clock)
    try:
        assert [r.label for r in d.screen().panel.rows] == ["ON", "OFF"]
    finally:
        d.board.stop()


# ----------------------------------------------------------------------------- colour boards


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


# ----------------------------------------------------------------------------- replay


def test_replay_without_colour_tells_the_pieces_apart_and_names_the_players(tmp_path):
    from companion.cli.replay import replay

    path = tmp_path / "g.txt"
    path.write_text('[Game "binary"]\n[Options "size=8"]\n\n1. c3 c1\n')
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    board = [line for line in out.getvalue().splitlines() if line[:2] in (" 3", " 1")][-2:]
    assert " x " in board[0] and " o " in board[1]
    assert "x black  o white" in out.getvalue()
    path.write_text('[Game "binaryon"]\n[Options "size=8"]\n[On "Ana"]\n\n1. e5 d4\n')
    out = io.StringIO()
    assert replay(str(path), 0, False, out, io.StringIO(), False) == 0
    assert "score: Ana ON " in out.getvalue()


def test_accented_names_keep_their_letters_in_the_ascii_pixel_font():
    from companion.views.oled import plain

    assert plain("Zoë Müller") == "Zoe Muller" and plain("Ana") == "Ana"
    rows = (PanelRow("Zoë ON", "1", True), PanelRow("OFF", "0"))
    accented = shown(Screen(Panel("BINARYON", 1, rows)))
    rows = (PanelRow("Zoe ON", "1", True), PanelRow("OFF", "0"))
    assert accented.tobytes() == shown(Screen(Panel("BINARYON", 1, rows))).tobytes()
