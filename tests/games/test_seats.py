"""Seats, not colours, own names: after Wythe's swap the people exchange colours, and their
names, pages, tokens, the engine's role and the history's credit follow them. The players'
names from the config on the OLED and the table page (a long name in place of the label)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.core.squares import parse_square
from companion.engines.match import play_game
from companion.engines.search import WIN, Limits, Result, Searcher, choose
from companion.games import get_spec
from companion.games.wythe.adapter import WytheAdapter
from companion.games.wythe.engine import WytheState
from companion.games.wythe.moves import SWAP
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from companion.service.daemon import Daemon
from companion.views.oled import screen_text
from tests.conftest import step, wait_until
from tests.live_daemon import call_api as _api
from tests.live_daemon import start_daemon
from tests.live_daemon import stop_daemon as _stop

PEOPLE = {"black": "Ana", "white": "Ben"}


# ------------------------------------------------------------------ the simulator


def test_the_simulator_names_the_people_in_their_new_colours_after_a_swap(tmp_path):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), NO_COLOR="1")
    r = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "sim", "--game", "wythe"]
        + ["--player", "black=Ana", "--player", "white=Ben", "--journal", "none"],
        input="d4\nd5\nmove swap\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    scores = [s for s in r.stdout.splitlines() if s.startswith("score:")]
    assert scores[-1].startswith("score: Ben BLACK") and "Ana WHITE" in scores[-1], scores[-1]
    assert "moves: d4-d5 swap" in r.stdout
    turns = [s for s in r.stdout.splitlines() if s.startswith("turn:")]
    assert turns[-1].startswith("turn: Ana WHITE"), turns[-1]


# ------------------------------------------------------------------ OLED, pages, API


def _start(tmp_path, **game):
    return start_daemon(tmp_path, "wythe", **{"players": dict(PEOPLE), **game})


def _public(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/state", timeout=10) as answer:
        return json.loads(answer.read())


def _names(view: dict) -> dict[str, str]:
    return {p["id"]: p["name"] for p in view["players"]}


def test_pages_tokens_and_the_oled_follow_the_people_through_a_swap(tmp_path):
    daemon, closers = _start(tmp_path)
    try:
        url = daemon.web.url
        tokens = daemon.web_backend.tokens()  # one per seat: Ana's is "black", Ben's "white"
        ana, ben = tokens["black"], tokens["white"]
        assert _api(url, ana, "/api/move", {"move": "d4-d5"}) == (
            200,
            {"ok": True, "played": ["d4-d5"]},
        )
        assert _api(url, ben, "/api/move", {"move": "swap"})[1]["ok"]
        # Ben now plays Black and is not on move; Ana plays White and moves next
        _, bens = _api(url, ben, "/api/me")
        _, anas = _api(url, ana, "/api/me")
        assert (bens["you"], bens["seat"]) == ("black", "white")
        assert (anas["you"], anas["seat"]) == ("white", "black")
        assert bens["to_act"] == ["white"] and anas["to_act"] == ["white"]
        assert _names(bens) == _names(anas) == {"black": "Ben", "white": "Ana"}
        table = _public(url)
        assert _names(table) == {"black": "Ben", "white": "Ana"}
        assert [p["id"] for p in table["players"] if p["to_move"]] == ["white"]
        rows = daemon.call(lambda: daemon.screen().panel.rows)
        assert [(r.label, r.to_move) for r in rows] == [("Ben BLACK", False), ("Ana WHITE", True)]
        # Ben's token cannot move for Ana; Ana's moves as White, by a move or a press
        status, refused = _api(url, ben, "/api/move", {"move": "e4-e5"})
        assert not refused["ok"] and "not your turn" in refused["reason"]
        assert _api(url, ana, "/api/press", {"square": "e4"})[1]["ok"]
        assert _api(url, ana, "/api/press", {"square": "e5"})[1]["ok"]
        assert daemon.session.moves == ["d4-d5", "swap", "e4-e5"]
        assert _api(url, ben, "/api/move", {"move": "c4-c5"})[1]["ok"]  # Ben's turn, as Black
        # the OLED's QR codes label each page with the colour its person plays now
        links = daemon.web_backend.tokens()
        assert links == tokens  # the pages and tokens stay with their people
    finally:
        _stop(daemon, closers)


# ------------------------------------------------------------------ the history


def _finish_with_swap(session: Session) -> None:
    session.submit_name("a1-a2")
    session.submit_name("swap")
    while not session.state.is_over():
        state = session.state
        assert session.submit(state.legal_moves()[0]).accepted


def test_the_history_credits_the_people_who_played_the_winning_colour(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal.open(path)
    session = Session("wythe", {"size": 4}, journal, dict(PEOPLE))
    _finish_with_swap(session)
    winner = session.state.outcome().winner
    assert winner is not None
    person = {"black": "Ben", "white": "Ana"}[winner]  # after the swap
    journal.close()
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))
    cmd = [sys.executable, "-m", "companion.cli.main", "history", "--journal", str(path)]
    text = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert text.returncode == 0, text.stderr
    assert "black=Ben white=Ana" in text.stdout, text.stdout
    out = subprocess.run([*cmd, "--json"], capture_output=True, text=True, timeout=60, env=env)
    (entry,) = json.loads(out.stdout)
    assert entry["winner_names"] == [person]
    assert entry["players"] == PEOPLE  # the seats as taken at the start, as records keep them
    assert entry["seated"] == {"black": "Ben", "white": "Ana"}


def test_an_imported_record_with_a_swap_credits_the_same_people(tmp_path):
    first = tmp_path / "first.sqlite"
    journal = SqliteJournal.open(first)
    _finish_with_swap(Session("wythe", {"size": 4}, journal, dict(PEOPLE)))
    journal.close()
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))

    def cli(*args: str) -> str:
        cmd = [sys.executable, "-m", "companion.cli.main", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    record = tmp_path / "game.txt"
    cli("export", "1", "-o", str(record), "--journal", str(first))
    text = record.read_text()
    assert '[Black "Ana"]' in text and '[White "Ben"]' in text  # the seats at the start
    assert '[Swap "Ben swapped at move 2: Ben plays Black, Ana plays White"]' in text
    second = tmp_path / "second.sqlite"
    cli("import", str(record), "--journal", str(second))
    (entry,) = json.loads(cli("history", "--json", "--journal", str(second)))
    (was,) = json.loads(cli("history", "--json", "--journal", str(first)))
    assert entry["seated"] == was["seated"] == {"black": "Ben", "white": "Ana"}
    assert entry["winner_names"] == was["winner_names"] != []


# ------------------------------------------------------------------ the engine opponent


def _engine_daemon(clock, side: str = "") -> Daemon:
    cfg = Config.default().with_overrides(
        game={"name": "wythe", "opponent": "engine:beginner", "engine_side": side},
        rules={"wythe": {"size": 4}},
    )
    d = Daemon(cfg, board=MockBoard(4, "switch", clock), clock=clock)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def _press(d: Daemon, clock, name: str) -> None:
    d.board.tap(parse_square(name, 4))
    step(d, clock, 0.05)


def _engine_move(d: Daemon):
    wait_until(
        lambda: d.loop.run_pending() >= 0 and d.opponent.wanted is not None,
        timeout=30,
        what="the engine's move",
    )
    return d.opponent.wanted


def _takes_the_pie(adapter, state, level, seconds, nodes=None):
    """The engine's choice, except that it swaps whenever it may."""
    if SWAP in state.legal_moves():
        return Result(SWAP, 0, [SWAP], 1, 1)
    return choose(adapter, state, level, seconds, nodes=nodes)


def test_an_engine_that_swaps_leaves_the_next_white_turn_to_the_person(clock):
    d = _engine_daemon(clock)  # the engine holds White's seat
    d.opponent.search.search = _takes_the_pie
    try:
        _press(d, clock, "a1")
        _press(d, clock, "a2")
        assert _engine_move(d) == SWAP
        assert d.message == "my move: swap: press confirm"
        d.post(ButtonEvent("confirm"))  # on White's first turn, confirm takes the pie
        step(d, clock)
        assert d.session.moves == ["a1-a2", "swap"]
        assert d.session.state.turn == "white"
        assert d.opponent.playing() == "black"
        assert not d.opponent.to_move() and d.opponent.wanted is None
        _press(d, clock, "c1")  # the person, now White, places freely
        _press(d, clock, "c2")
        assert d.session.moves == ["a1-a2", "swap", "c1-c2"]
        assert d.opponent.to_move()  # and the engine answers as Black
    finally:
        d.board.stop()


def test_after_the_person_swaps_the_engine_plays_white(clock):
    d = _engine_daemon(clock, side="black")
    try:
        first = _engine_move(d).name
        for square in first.split("-"):
            _press(d, clock, square)
        assert d.session.moves == [first]
        d.post_call(lambda: d.controls.command("move swap"))  # as typed in the simulator
        step(d, clock)
        assert d.session.moves == [first, "swap"]
        assert d.opponent.playing() == "white"
        reply = _engine_move(d).name
        assert reply != "swap" and "-" in reply
        assert d.message == f"my move: {reply}: press it"
    finally:
        d.board.stop()


# ------------------------------------------------------------------ the search and matches


def _colour_value(state: WytheState, colour: str) -> int:
    sc = state.score()
    sign = 1 if colour == "black" else -1
    lead = 0 if sc.leader is None else (1 if sc.leader == "black" else -1)
    if state.is_over():
        return sign * lead * WIN
    return sign * (4 * (sc.black - sc.white) + lead)


def _reference(state: WytheState, depth: int) -> int:
    """Plain negamax for the *person* on move. Every Wythe move hands the turn to the other
    person, the swap too: the colour on move stays White, but White is now the other person,
    who owns the same stones the first player had as White."""
    values = []
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_over():
            values.append(_colour_value(child, state.mover if move != SWAP else "black"))
        elif depth <= 1:
            values.append(-_colour_value(child, child.mover))
        else:
            values.append(-_reference(child, depth - 1))
    return max(values)


@pytest.mark.parametrize("first", ["a1-a2", "b2-c2", "b2-b3", "d4-c4"])
def test_the_search_values_the_swap_as_the_rules_say(first):
    state = get_spec("wythe").new(**{"size": 4})
    state = state.play(state.parse_move(first))
    searcher = Searcher(WytheAdapter(), Limits(seconds=None, extend=False))
    for depth in (1, 2):
        assert searcher.negamax(state, depth, -WIN - 1, WIN + 1) == _reference(state, depth)
        searcher.table.clear()
    after = state.play(SWAP)
    adapter = WytheAdapter()
    assert adapter.mover(after) != adapter.mover(state)  # the other person moves next


def test_matches_play_wythe_with_the_pie_rule_and_players_keep_their_seats():
    assert get_spec("wythe").match_options.get("pie", True) is True
    asked: dict[str, list[int]] = {"black": [], "white": []}

    def player(seat: str):
        def play(state: WytheState):
            asked[seat].append(state.ply)
            moves = state.legal_moves()
            return SWAP if SWAP in moves and seat == "white" else moves[0]

        return play

    winner = play_game("wythe", {"black": player("black"), "white": player("white")},
                       {"size": 4})  # fmt: skip
    assert asked["black"][:2] == [0, 2]  # after White's swap the first seat moves, as White
    assert asked["white"][:2] == [1, 3]
    assert winner in ("black", "white")


# ------------------------------------------------------------------ in a real browser


def _live(browser, url: str) -> str:
    handle = browser.new_tab(url)
    browser.wait(lambda: browser.body_data("conn") == "live", what=f"{url} live")
    return handle


def _place(browser, black: str, white: str) -> None:
    """A piece by two clicks, the second once the first half shows as selected."""
    browser.click_square(black)
    browser.wait(lambda: "selected" in browser.cell_classes(black), what=f"{black} selected")
    browser.click_square(white)


def test_the_swappers_page_says_they_play_black_and_wait(browser, tmp_path):
    daemon, closers = _start(tmp_path)
    try:
        url = daemon.web.url
        tokens = daemon.web_backend.tokens()
        anas = _live(browser, f"{url}/p/{tokens['black']}")
        browser.wait(lambda: browser.text("you") == "You are BLACK (Ana). Your turn!",
                     what="Ana's page before the swap")  # fmt: skip
        _place(browser, "d4", "d5")
        bens = _live(browser, f"{url}/p/{tokens['white']}")
        browser.wait(lambda: browser.text("you") == "You are WHITE (Ben). Your turn!",
                     what="Ben's turn to answer")  # fmt: skip
        browser.click_action("swap")
        browser.wait(lambda: browser.text("you") == "You are BLACK (Ben).", timeout=10,
                     what="the swapper's page after the swap")  # fmt: skip
        assert "White swapped" in browser.page_text()
        browser.to(anas)
        browser.wait(lambda: browser.text("you") == "You are WHITE (Ana). Your turn!",
                     timeout=10, what="the first player's page after the swap")  # fmt: skip
        _place(browser, "e4", "e5")
        browser.wait(lambda: daemon.session.moves == ["d4-d5", "swap", "e4-e5"], timeout=10,
                     what="Ana's move as White")  # fmt: skip
        browser.to(bens)
        browser.wait(lambda: browser.text("you") == "You are BLACK (Ben). Your turn!",
                     timeout=10, what="Ben's turn as Black")  # fmt: skip
    finally:
        _stop(daemon, closers)


# ------------------------------------------------------------------ invariants


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_seats_alternate_and_follow_the_swap_in_random_games(seed, take_pie):
    """Whatever the game: the seat on move alternates at every move (the swap too), the
    seating is swapped exactly after a swap, and the adapter values a position for the seat
    on move as the rules value it for the colour that seat plays."""
    rng = random.Random(seed)
    adapter = WytheAdapter()
    state = get_spec("wythe").new(**{"size": 4})
    while not state.is_over():
        moves = [m for m in state.legal_moves() if m != SWAP]
        move = SWAP if take_pie and state.swap_allowed() else rng.choice(moves)
        after = state.play(move)
        assert after.swapped == (take_pie and after.ply >= 2)
        assert after.seating() == (
            {"black": "white", "white": "black"}
            if after.swapped
            else {"black": "black", "white": "white"}
        )
        if not after.is_over():
            assert adapter.mover(after) != adapter.mover(state)  # the other person moves
            assert adapter.mover(after) == after.seat_of(after.mover)
        for seat in ("black", "white"):
            assert adapter.evaluate(after, seat) == _colour_value(after, after.player_of(seat))
        state = after
    leader = state.score().leader
    assert adapter.winner(state) == (None if leader is None else state.seat_of(leader))


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
