"""What the pages are told, and how: a message says what kind it is (news, a refusal, a
warning, a hint), so a result reads as news and a refusal as one; a refusal goes once a
good press follows it."""

from __future__ import annotations

import pytest

from companion.core.squares import parse_square
from tests.conftest import step


def tap(d, clock, name: str) -> dict:
    d.board.tap(parse_square(name, d.board.size))
    step(d, clock, 0.05)
    return d.web_view(None)


def refused_cells(view: dict) -> list[str]:
    return [c["name"] for c in view["board"]["cells"] if "refused" in c["marks"]]


def test_a_wythe_refusal_goes_when_a_good_press_follows(make_daemon, clock):
    d = make_daemon(game="wythe")
    tap(d, clock, "d4")  # the black half
    view = tap(d, clock, "h8")  # not next to it
    assert (view["message"], view["message_kind"]) == ("h8: not next to d4", "refused")
    assert refused_cells(view) == ["h8"]
    tap(d, clock, "d4")  # d4 again: unselected, a good press
    view = tap(d, clock, "c3")  # another black half
    assert (view["message"], view["message_kind"]) == ("", "")
    assert refused_cells(view) == []
    assert [c["name"] for c in view["board"]["cells"] if "selected" in c["marks"]] == ["c3"]
    assert d.screen().message == "c3 black: now press the white half"  # the OLED, too


def test_messages_say_their_kind(make_daemon, clock):
    d = make_daemon(game="binaryon")
    view = tap(d, clock, "a1")
    assert view["message_kind"] == "refused" and view["message"].startswith("a1")
    d.button("menu")
    step(d, clock, 0.05)
    assert d.web_view(None)["message_kind"] == "hint"
    d.say("board matches")
    assert d.web_view(None)["message_kind"] == "news"
    d.say("")
    assert d.web_view(None)["message_kind"] == ""


@pytest.mark.parametrize(
    "game, title",
    [("latent-binaries", "Latent Binaries"), ("binome", "Binøme"), ("wythe", "Wythe")],
)
def test_the_pages_name_the_game_as_people_write_it(make_daemon, game, title):
    d = make_daemon(game=game)
    assert d.web_view()["title"] == title
