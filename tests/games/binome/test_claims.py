"""Binøme claims as the printed rules have them: the page shows which numbers are eligible, a
number that is not needs a second confirmation saying it will be burned, nobody claims
without an eligible number, and the chairperson hears why a phoneless player's move was
refused."""

from __future__ import annotations

import json

from companion.games import get_spec
from companion.games.binome.spec import SPEC
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal
from tests.games.binome.test_engine import write_sheets
from tests.live_daemon import call_api as api
from tests.live_daemon import start_daemon
from tests.live_daemon import stop_daemon as stop

new_game = get_spec("binome").new

OPTIONS = {"players": "Ann,Bob,Cy", "phoneless": "Cy"}
SHEETS = {
    "Ann": ["12", "56", "34", "78", "90", "13", "57", "24"],
    "Bob": ["21", "65", "43", "87", "09", "31", "75", "42"],
    "Cy": ["11", "22", "33", "44", "55", "77", "68", "90"],
}


def conference(card: str = "contains-5") -> tuple[dict, list[str]]:
    """The options and moves of a game whose sheets are SHEETS, at ``card``'s claims."""
    names: list[str] = []
    state = write_sheets(new_game(**OPTIONS), SHEETS, names)
    names.append(f"draw {card}")
    state = state.play(state.parse_move(f"draw {card}"))
    return dict(state.options), names


def start(tmp_path):
    """The companion serving its pages, resuming the game at the conference."""
    path = tmp_path / "j.sqlite"
    options, names = conference()
    journal = SqliteJournal.open(path)
    game_id = journal.begin("binome", options, {})
    for ply, name in enumerate(names):
        journal.commit_turn(game_id, ply, [MoveEntry(ply, name)], None)
    journal.close()
    daemon, closers = start_daemon(tmp_path, "binome", journal=path)
    assert daemon.session.moves == names
    return daemon, closers


def test_an_ineligible_claim_is_confirmed_on_the_page_and_burns_the_number(tmp_path):
    daemon, closers = start(tmp_path)
    try:
        url, tokens = daemon.web.url, daemon.web_backend.tokens()
        ann = tokens["Ann"]
        _, page = api(url, ann, "/api/me")
        lines = page["private"]["lines"]
        assert "eligible for Contains 5: 56 (number 2), 57 (number 7)" in lines
        actions = {a["move"]: a["label"] for a in page["private"]["actions"]}
        assert actions["Ann claim 56"] == "claim with 56 (number 2)"
        assert actions["Ann claim 12"] == "claim with 12 (number 1): not eligible"
        # the first try is refused and says what a confirmation does
        status, answer = api(url, ann, "/api/move", {"move": "Ann claim 12"})
        assert status == 409 and answer["code"] == "would-burn"
        assert answer["reason"] == "12: not eligible, it will be burned"
        assert answer["confirm"] == "Ann claim 12 burn"
        assert daemon.session.state.decided == ()
        assert daemon.message == "ANN: not accepted, see your page"
        _, page = api(url, ann, "/api/me")
        assert page["private"]["lines"][0] == "refused: 12: not eligible, it will be burned"
        confirm = page["private"]["actions"][0]
        assert confirm == {
            "move": "Ann claim 12 burn",
            "label": "confirm: 12: not eligible, it will be burned",
        }
        # the table learns nothing of the number
        table = json.dumps(daemon.web_view(None))
        assert "not eligible" not in table
        # the second, confirmed, is played
        status, answer = api(url, ann, "/api/move", {"move": confirm["move"]})
        assert status == 200 and answer["played"] == ["Ann claim"]
        assert daemon.session.state.decided == (("Ann", 12),)
        assert api(url, tokens["Bob"], "/api/move", {"move": "Bob pass"})[1]["ok"]
        # Cy has no phone: the chair enters Cy's claim, and hears why it was refused
        _, chair = api(url, ann, "/api/me")
        assert "for Cy: eligible for Contains 5: 55 (number 5)" in chair["private"]["lines"]
        status, answer = api(url, ann, "/api/move", {"move": "Cy claim 90"})
        assert status == 409 and answer["confirm"] == "Cy claim 90 burn"
        assert daemon.message == "CY: not accepted, see ANN's page"
        _, chair = api(url, ann, "/api/me")
        assert "for Cy: refused: 90: not eligible, it will be burned" in chair["private"]["lines"]
        moves = {a["move"]: a["label"] for a in chair["private"]["actions"]}
        assert moves["Cy claim 90 burn"] == "for Cy: confirm: 90: not eligible, it will be burned"
        _, bobs = api(url, tokens["Bob"], "/api/me")  # nobody else hears it
        assert "90" not in json.dumps(bobs["private"])
        status, answer = api(url, ann, "/api/move", {"move": "Cy claim 55"})
        assert status == 200
        last = daemon.session.state.last_resolution
        assert dict(last.eliminated) == {"Ann": "ineligible"}
        assert last.winners == ("Cy",)
        assert 12 not in daemon.session.state.unused_numbers("Ann")  # burned
        _, page = api(url, ann, "/api/me")
        assert not any("refused" in line for line in page["private"]["lines"])
    finally:
        stop(daemon, closers)


def test_the_page_says_when_no_number_is_eligible():
    options, names = conference("identical-digits")
    state = new_game(**options)
    for name in names:
        state = state.play(state.parse_move(name))
    view = SPEC.view(state, "Ann")
    assert "no eligible number for Identical digits: your only choice is to pass" in view.private
    assert [m for m, _ in view.actions] == ["Ann pass"]
    refusal = state.check(state.parse_move("Ann claim 12"))
    assert refusal is not None and refusal.code == "no-eligible"
