"""The referee answers every input with one frozen Verdict; the service shows it; the
presenter draws one frame per change (the game's view asked once, LEDs before the OLED) and
never starts the engine; the service's helpers know only a narrow host, never the daemon."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.device import dummy

from companion.core.config import Config
from companion.games.base import Refusal
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.api import NullJournal
from companion.referee.referee import Referee
from companion.referee.session import Played, Session
from companion.referee.verdict import Verdict
from companion.service.daemon import Daemon
from companion.service.web_backend import DaemonWebBackend
from companion.views.leds import RED
from tests.conftest import step
from tests.paths import REPO

SERVICE = REPO / "companion" / "service"
HELPERS = (
    "controls",
    "table_feedback",
    "engine_hint",
    "opponent",
    "background_search",
    "game_start",
    "hints",
    "host",
)


@given(st.lists(st.integers(0, 15), max_size=40))
def test_a_press_is_answered_with_one_verdict_that_says_what_it_did(cells):
    """Whatever is pressed: the verdict holds exactly the moves the session took (and then
    no refusal), or none (then the refusal names the cell pressed)."""
    session = Session("binaryon", {"size": 4}, NullJournal())
    referee = Referee(session, "switch")
    for cell in cells:
        before = len(session.played)
        verdict = referee.press(cell)
        assert isinstance(verdict, Verdict)
        assert tuple(session.played[before:]) == verdict.played
        if verdict.accepted:
            assert verdict.refusal is None and verdict.differ == () and verdict.say is not None
        elif verdict.refusal is not None:
            assert verdict.refused == cell and verdict.say is None
        with pytest.raises(dataclasses.FrozenInstanceError):
            verdict.say = "changed"  # type: ignore[misc]


def test_a_refused_press_names_its_cell_and_the_reason():
    session = Session("binaryon", {"size": 4}, NullJournal())
    referee = Referee(session, "switch")
    legal = {c for m in session.state.legal_moves() for c in m.cells}
    cell = next(c for c in range(16) if c not in legal)
    verdict = referee.press(cell)
    assert not verdict.accepted and verdict.refused == cell
    assert verdict.refusal is not None and verdict.refusal.reason
    assert session.played == []


def test_verdicts_follow_one_another_as_a_sensor_board_shows_them():
    """Two moves seen at once, then a refusal: both moves, the last words and marks."""
    first = Verdict(played=(Played("a1", "a1", "on"),), differ=(), say="OFF to move")
    then = Verdict(refusal=Refusal("no", "b2: not legal"), refused=5)
    both = first.then(then)
    assert both.names == ["a1"] and both.refusal == then.refusal and both.refused == 5
    assert both.say == "OFF to move" and both.differ == ()
    later = both.then(Verdict(played=(Played("c3", "c3", "off"),), say=""))
    assert later.names == ["a1", "c3"] and later.say == ""


def latent(clock) -> Daemon:
    """Latent Binaries: its 5x7 frame sits on files b-f of the 8x8 board."""
    cfg = Config.default().with_overrides(
        game={"name": "latent-binaries"}, board={"kind": "switch"}
    )
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def test_the_table_keeps_cells_and_the_presenter_maps_them_to_squares(clock):
    d = latent(clock)
    cell, square = 0, d.map.squares[0]  # the frame's a1 is the board's b1
    assert square != cell
    d.board.tap(square)
    step(d, clock, 0.05)
    assert d.notices.refused == cell  # the game's cell, as the referee said it
    assert d.marks().refused == square and d.leds.frame[square] == RED
    a1 = d.web_view(None)["board"]["cells"][cell]
    assert a1["name"] == "a1" and "refused" in a1["marks"]


def counting_views(monkeypatch, d) -> list:
    spec = d.session.spec
    asked: list = []
    real = spec.view

    def view(state, viewer=None):
        asked.append(viewer)
        return real(state, viewer)

    monkeypatch.setattr(spec, "view", view)
    return asked


def test_a_press_asks_the_game_for_the_table_view_once(make_daemon, clock, monkeypatch, tmp_path):
    d = make_daemon(game="binaryon", rules={"size": 4})
    DaemonWebBackend(d, tmp_path / "tokens.json")  # the table page follows every change
    asked = counting_views(monkeypatch, d)
    square = d.session.state.legal_moves()[0].cell
    d.board.tap(square)
    step(d, clock)
    assert len(d.session.played) >= 1  # the press was played
    assert asked == [None]  # LEDs, OLED and the table page: one view


def test_a_players_page_is_derived_from_the_frame_drawn(make_daemon, monkeypatch, tmp_path):
    d = make_daemon(game="binaryon", rules={"size": 4})
    backend = DaemonWebBackend(d, tmp_path / "tokens.json")
    asked = counting_views(monkeypatch, d)
    view = backend.player_view("on")
    assert view["you"] == "on"
    assert asked == ["on"]  # that player's view; the table's is the frame's, not asked again


def test_the_leds_are_sent_before_the_oled_frame(clock):
    """When the OLED's image reaches the (luma) device, the board's LEDs already show the
    press: they are a few bytes, the OLED frame is the slow part."""
    board = MockBoard(4, "switch", clock)
    lit_at_oled: list = []

    class Watched(dummy):
        def display(self, image):
            lit_at_oled.append(list(board.leds().frame))
            super().display(image)

    cfg = Config.default().with_overrides(
        game={"name": "binaryon"}, rules={"binaryon": {"size": 4}}
    )
    d = Daemon(cfg, board=board, display=Watched(width=128, height=64, mode="1"), clock=clock)
    d.board.start(d.loop.post)
    step(d, clock)
    square = d.session.state.legal_moves()[0].cell
    before = list(board.leds().frame)
    lit_at_oled.clear()
    board.tap(square)
    step(d, clock)
    assert len(d.session.played) >= 1 and board.leds().frame != before
    assert lit_at_oled and lit_at_oled[0] == board.leds().frame


def test_drawing_never_starts_the_engine(clock):
    """The companion's search is started after an event, by the service, not by a render."""
    cfg = Config.default().with_overrides(
        game={"name": "binaryon", "opponent": "engine:beginner", "engine_side": "on"},
        rules={"binaryon": {"size": 4}},
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    assert d.opponent is not None and d.opponent.to_move()
    d.render()
    d.render()
    assert d.opponent.search.thread is None and not d.opponent.search.busy
    d.call(lambda: None)  # any event: then the companion looks whether it is its turn
    assert d.opponent.search.busy


@pytest.mark.parametrize("name", HELPERS)
def test_the_service_helpers_never_know_the_daemon(name):
    """They take a narrow host (or exactly what they use): no import of the daemon, not even
    for type hints, so the service has no import circle."""
    tree = ast.parse((SERVICE / f"{name}.py").read_text())
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert "companion.service.daemon" not in imported
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "Daemon" not in names
