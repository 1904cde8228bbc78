"""What was revealed stays revealed: the undo button never takes back a move whose answer told
something hidden (a guess answered, claims resolved, a die rolled, a hidden game's end). Only
every player, agreeing on their own pages, can take it back, and the journal keeps it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.events import ButtonEvent
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from tests.live_daemon import call_api, start_daemon
from tests.live_daemon import stop_daemon as stop
from tests.service.test_simulator import run_cli, status_lines

SETUPS = [
    ("setup b2 red/yellow", "rainbow"), ("setup b6 cyan/magenta", "xeno"),
    ("setup c2 green/blue", "rainbow"), ("setup c6 orange/purple", "xeno"),
    ("setup d2 red/green", "rainbow"), ("setup d6 cyan/orange", "xeno"),
]  # fmt: skip
WRONG = "challenge c6 cyan"  # c6 hides orange over purple


def start(tmp_path, game: str, rules: dict | None = None):
    return start_daemon(tmp_path, game, rules=rules or {})


def post(daemon, player: str, path: str, body: dict) -> tuple[int, dict]:
    return call_api(daemon.web.url, daemon.web_backend.tokens()[player], path, body)


def play(daemon, name: str, player: str | None) -> None:
    result = daemon.call(lambda: daemon.submit(name, player))
    assert result.accepted, (name, result.refusal)


def undo_button(daemon) -> None:
    daemon.post(ButtonEvent("undo"))
    daemon.wait_idle(5)
    daemon.call(lambda: None)


def latent_to_the_wrong_guess(daemon) -> None:
    for name, player in SETUPS:
        play(daemon, name, player)
    play(daemon, "c2-c3", "rainbow")
    play(daemon, WRONG, "rainbow")
    assert daemon.session.state.answer.startswith("wrong")


# --- the undo button, in the simulator --------------------------------------------------


def test_the_sims_undo_does_not_take_back_an_answered_guess(tmp_path):
    lines = [f"move {name} as {player}" for name, player in SETUPS]
    lines += ["move c2-c3", f"move {WRONG}", "undo", "undo long", "quit"]
    r = run_cli(["sim", "--game", "latent-binaries", "--journal", "none"], lines, tmp_path)
    assert r.returncode == 0, r.stderr
    last = status_lines(r.stdout)[-2:]
    assert last[0].startswith("moves:") and last[0].endswith(WRONG), last
    assert f"undo stops at {WRONG}" in last[1], last


def test_a_finished_hidden_game_stays_finished_a_board_game_may_be_reopened(tmp_path):
    s = Session("latent-binaries", {})
    for name, player in SETUPS:
        assert s.submit_name(name, player).accepted
    for name in ("c2-c3", "challenge c6 purple", "marker b1-d1", "b6-a6", "challenge c3 green",
                 "marker c7-e7", "c3-c4", "challenge c6 orange", "order c6 orange/purple",
                 "marker e7-c7", "a6-a5", "challenge d2 red", "end", "marker c1-e1",
                 "c4-c5"):  # fmt: skip
        assert s.submit_name(name).accepted, name
    assert s.state.is_over()
    assert s.undo() == [] and s.undo_round() == [] and s.take_back_to(len(s.moves) - 1) == []
    assert s.blocked is not None and s.blocked.name == "c4-c5"
    board = Session("binaryon", {"size": 4})
    while not board.state.is_over():
        board.submit(board.state.legal_moves()[0])
    assert board.undo() and not board.state.is_over()  # no secret: the end reveals nothing


def test_a_die_is_never_rolled_again_by_undo_and_redo(tmp_path):
    path = tmp_path / "j.sqlite"
    s = Session("binome", {"players": "Ann,Bob"}, SqliteJournal.open(path), rng=random.Random(1))
    assert s.submit_name("Ann write 1a", "Ann").accepted
    assert s.submit_name("Bob write 1a", "Bob").accepted
    rolled = s.moves[-1]
    assert rolled.startswith("roll") and s.undo() == []  # the roll stops the undo button
    target = s.agreed_target()
    assert target is not None and s.take_back_to(target, agreed=True) == ["Bob write", rolled]
    s.rng = random.Random(999)  # whatever the generator would say now
    assert s.submit_name("Bob write 2b", "Bob").accepted
    assert s.moves[-1] == rolled
    # after a restart too: the journal remembers what the die said
    s.take_back_to(s.agreed_target(), agreed=True)
    s.journal.close()
    j = SqliteJournal.open(path)
    again = Session.resume(j.current(), j, rng=random.Random(12345))
    assert again.submit_name("Bob write 3b", "Bob").accepted
    assert again.moves[-1] == rolled


@pytest.mark.parametrize("game, options", [
    ("latent-binaries", {}), ("binome", {"players": "Ann,Bob"}), ("binaryon", {"size": 4}),
])  # fmt: skip
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ops=st.lists(st.sampled_from(["move"] * 4 + ["undo", "long", "back", "agree"]), max_size=80),
)
def test_no_undo_takes_back_a_reveal_and_no_die_is_drawn_twice(game, options, seed, ops):
    rng = random.Random(seed)
    s = Session(game, options, rng=random.Random(seed))
    drawn: dict[int, str] = {}  # every chance outcome ever played, by ply
    for op in ops:
        floor, kept = s.undo_floor(), list(s.moves)
        if op == "move" and not s.state.is_over():
            acting = sorted(s.state.to_act)
            player = rng.choice(acting) if len(acting) > 1 else None
            assert s.submit(rng.choice(list(s.state.legal_moves(player))), player).accepted
        elif op == "undo":
            s.undo()
        elif op == "long":
            s.undo_round()
        elif op == "back":
            s.take_back_to(rng.randrange(len(s.moves) + 1))
        elif op == "agree" and (target := s.agreed_target()) is not None:
            s.take_back_to(target, agreed=True)
            floor = min(floor, target)
        assert s.moves[:floor] == kept[:floor], op  # only an agreement goes below the floor
        if game == "binaryon":
            assert s.undo_floor() == 0  # nothing hidden: every move may be taken back
        for ply, p in enumerate(s.played):
            if p.forced and p.reveals:
                assert drawn.setdefault(ply, p.name) == p.name  # the same die, every time


# --- agreeing on the pages (web API) -----------------------------------------------------


def test_undo_past_a_guess_needs_both_players_on_their_pages(tmp_path):
    daemon, closers = start(tmp_path, "latent-binaries")
    try:
        latent_to_the_wrong_guess(daemon)
        undo_button(daemon)
        assert daemon.session.moves[-1] == WRONG  # the button cannot
        assert post(daemon, "rainbow", "/api/undo", {"undo": "accept"})[0] == 409  # none asked
        status, answer = post(daemon, "rainbow", "/api/undo", {"undo": "ask"})
        assert status == 200 and answer["undo"]["moves"] == [WRONG]
        assert answer["undo"]["waiting"] == ["xeno"]
        assert daemon.web_view("xeno")["undo"]["by"] == "rainbow"  # shown on xeno's page
        assert post(daemon, "rainbow", "/api/undo", {"undo": "accept"})[0] == 200
        assert daemon.session.moves[-1] == WRONG  # asking and agreeing alone is not enough
        assert post(daemon, "xeno", "/api/undo", {"undo": "decline"})[0] == 200
        assert daemon.session.moves[-1] == WRONG and daemon.web_view(None)["undo"] is None
        assert post(daemon, "rainbow", "/api/undo", {"undo": "ask"})[0] == 200
        assert post(daemon, "xeno", "/api/undo", {"undo": "accept"})[0] == 200
        assert daemon.session.moves[-1] == "c2-c3"
        assert daemon.session.state.phase == "challenge"
        gid = daemon.session.game_id
    finally:
        stop(daemon, closers)
    events = SqliteJournal.open(tmp_path / "j.sqlite").events(gid)
    kinds = [(k, m) for k, _, m, _ in events]
    assert kinds[-2:] == [("move", WRONG), ("takeback", None)]  # the guess stays on record


def test_a_request_is_dropped_by_the_next_move(tmp_path):
    daemon, closers = start(tmp_path, "latent-binaries")
    try:
        latent_to_the_wrong_guess(daemon)
        assert post(daemon, "rainbow", "/api/undo", {"undo": "ask"})[0] == 200
        play(daemon, "marker b1-d1", "rainbow")
        status, answer = post(daemon, "xeno", "/api/undo", {"undo": "accept"})
        assert status == 409 and answer["code"] == "no-undo-asked"
        assert daemon.session.moves[-1] == "marker b1-d1"
    finally:
        stop(daemon, closers)


def test_a_resolved_binome_turn_is_taken_back_only_by_everyone(tmp_path):
    daemon, closers = start(tmp_path, "binome", {"players": "Ann,Bob,Cy"})
    try:
        session = daemon.session
        while session.state.phase != "claim":
            state = session.state
            for p in sorted(state.to_act):
                play(daemon, state.legal_moves(p)[0].name, p)
                break
        turns = len(session.state.history)
        while len(session.state.history) == turns:
            p = sorted(session.state.to_act)[0]
            play(daemon, f"{p} pass", p)
        resolved = session.moves.index(next(m for m in reversed(session.moves) if "pass" in m))
        undo_button(daemon)
        assert len(session.moves) > resolved and len(session.state.history) == turns + 1
        assert post(daemon, "Ann", "/api/undo", {"undo": "ask"})[0] == 200
        assert post(daemon, "Bob", "/api/undo", {"undo": "accept"})[0] == 200
        assert len(session.state.history) == turns + 1  # Cy has not agreed yet
        assert post(daemon, "Cy", "/api/undo", {"undo": "accept"})[0] == 200
        assert len(session.state.history) == turns
    finally:
        stop(daemon, closers)


# --- in a real browser --------------------------------------------------------------------


@pytest.mark.usefixtures("browser")
def test_the_pages_ask_and_agree_in_chromium(browser, tmp_path):
    daemon, closers = start(tmp_path, "latent-binaries")
    try:
        latent_to_the_wrong_guess(daemon)
        url, tokens = daemon.web.url, daemon.web_backend.tokens()
        rainbow = browser.new_tab(f"{url}/p/{tokens['rainbow']}")
        browser.wait(lambda: browser.body_data("conn") == "live", what="rainbow's page")
        browser.js("document.getElementById('undo-ask').click()")
        browser.wait(lambda: "waiting for XENO" in browser.text("undo-text"), what="asked")
        xeno = browser.new_tab(f"{url}/p/{tokens['xeno']}")
        browser.wait(lambda: browser.body_data("conn") == "live", what="xeno's page")
        browser.wait(lambda: "RAINBOW asks to take back" in browser.text("undo-text"))
        assert WRONG in browser.text("undo-text")
        browser.js("document.getElementById('undo-accept').click()")
        browser.wait(lambda: daemon.session.moves[-1] == "c2-c3", what="the takeback")
        browser.to(rainbow)
        browser.wait(lambda: browser.text("undo-text") == "", what="the request gone")
        del xeno
    finally:
        stop(daemon, closers)
        browser.close_extra_tabs()


def test_the_chair_agrees_for_a_player_without_a_phone(make_daemon):
    d = make_daemon(game="binome", rules={"players": "Ann,Bob,Cy", "phoneless": "Cy"})
    for name, page in (("Ann write 1a", "Ann"), ("Bob write 1a", "Bob"), ("Cy write 1a", "Ann")):
        assert d.submit(name, page).accepted, name
    rolled = d.session.moves[-1]
    assert rolled.startswith("roll ") and d.session.undo() == []
    assert d.ask_undo("Bob").refusal is None
    assert d.web_view("Ann")["undo"]["waiting"] == ["Ann", "Cy"]
    assert d.answer_undo("Ann", True).refusal is None  # Ann, the chair, speaks for Cy
    assert d.session.moves[-1] == "Bob write 1a" and d.web_view(None)["undo"] is None
