"""Latent Binaries hosted by the daemon: setups on the players' pages, nest moves pressed on the
8x8 board (the frame on files b-f), guesses on the pages, and no hidden pawn on the table,
the OLED or the other player's page before the end."""

from __future__ import annotations

import json

import pytest

from companion.core.squares import parse_square
from companion.games import game_names, register, unregister
from tests.conftest import step

SETUPS = {
    "rainbow": ["setup b2 red/yellow", "setup c2 green/blue", "setup d2 red/green"],
    "xeno": ["setup b6 cyan/magenta", "setup c6 orange/purple", "setup d6 cyan/orange"],
}


def secrets(player: str) -> list[str]:
    """What only ``player`` may know: their setups and the lines of their own page."""
    out = list(SETUPS[player])
    for name in SETUPS[player]:
        _, square, pair = name.split()
        top, bottom = pair.split("/")
        out.append(f"{square} hides {top} over {bottom}")
    return out


@pytest.fixture(autouse=True)
def registered():
    known = "latent-binaries" in game_names()
    register("latent-binaries", "companion.games.latent_binaries.spec")
    yield
    if not known:
        unregister("latent-binaries")


def tap(d, clock, name: str) -> None:
    d.board.tap(parse_square(name, d.board.size))
    step(d, clock, 0.05)


def seen(d, viewer: str | None) -> str:
    return json.dumps(d.web_view(viewer)) + str(d.screen())


def test_a_game_at_the_table_keeps_its_secrets_until_the_end(make_daemon, clock):
    d = make_daemon(game="latent-binaries")
    assert d.board.size == 8 and d.map.squares[0] == parse_square("b1")  # a1 of the frame
    for k in range(3):
        for player in ("rainbow", "xeno"):
            result = d.submit(SETUPS[player][k], player)
            assert result.accepted, result.refusal
            table = seen(d, None)
            for owner, other in (("rainbow", "xeno"), ("xeno", "rainbow")):
                page = seen(d, other)
                for secret in secrets(owner):
                    assert secret not in table and secret not in page, (secret, other)
    assert "b2 hides red over yellow" in d.web_view("rainbow")["private"]["lines"]
    assert "setup b2" in [m["name"] for m in d.web_view("xeno")["moves"]]
    assert d.session.state.phase == "move"
    tap(d, clock, "d2")  # the frame's c2: Rainbow's nest, selected
    tap(d, clock, "d3")  # to c3
    assert d.session.moves[-1] == "c2-c3"
    for name in ("challenge c6 purple", "marker b1-d1", "b6-a6", "challenge c3 green",
                 "marker c7-e7", "c3-c4", "challenge c6 orange", "order c6 orange/purple",
                 "marker e7-c7", "a6-a5", "challenge d2 red", "end", "marker c1-e1"):  # fmt: skip
        result = d.submit(name, d.session.state.turn)
        assert result.accepted, (name, result.refusal)
        for secret in secrets("rainbow") + secrets("xeno"):
            assert secret not in seen(d, None)
    tap(d, clock, "d4")  # the frame's c4
    tap(d, clock, "d5")  # c4-c5: c5 sees c7, a marker of Xeno's base
    assert d.session.state.is_over()
    table = d.web_view(None)
    assert table["result"]["winners"] == ["rainbow"] and table["result"]["reason"] == "c5 sees c7"
    assert "setup b2 red/yellow" in [m["name"] for m in table["moves"]]  # revealed at the end
