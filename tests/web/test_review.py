"""The table page's review of a finished game (docs/review.md): ``Reviews`` runs it in a thread
of its own, one at a time; ``/api/review/<id>`` starts it (POST) and says how far it has got
(GET); in real Chromium the replay viewer's Review button shows the graph of the expected
result, the turning points and each move's label, axe-clean, at phone and desktop widths."""

from __future__ import annotations

import json
import os
import random
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.engines.review import NotReviewable, review_game
from companion.views.web import WebServer
from companion.views.web.reviews import Reviews
from tests import axe
from tests.web.test_games import Site
from tests.web_fake import FakeBackend

# ----------------------------------------------------------------------------- Reviews


def a_game(seed: int = 1, size: int = 4) -> list[str]:
    """A whole Binaryon game of random legal moves."""
    from companion.games import get_spec

    state, names, rng = get_spec("binaryon").new(size=size), [], random.Random(seed)
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        names.append(move.name)
        state = state.play(move)
    return names


class Gate:
    """A review that waits for the test to let it finish, and says in which thread it ran."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.threads: list[str] = []

    def __call__(self, game, options, names, progress):
        self.threads.append(threading.current_thread().name)
        progress(1, len(names))
        assert self.go.wait(10)
        return review_game(game, options, names, progress, nodes=200).as_dict()


def test_a_review_runs_in_its_own_thread_one_at_a_time_and_is_kept():
    gate = Gate()
    reviews = Reviews(run=gate)
    names = a_game()
    assert reviews.ask(1, "binaryon", {"size": 4}, names, start=False)["state"] == "idle"
    first = reviews.ask(1, "binaryon", {"size": 4}, names, start=True)
    assert first == {"id": 1, "state": "running", "done": 0, "total": len(names)}  # at once
    other = reviews.ask(2, "binaryon", {"size": 4}, names, start=True)
    assert other["state"] == "refused" and "game 1 is running" in other["reason"]
    again = reviews.ask(1, "binaryon", {"size": 4}, names, start=True)
    assert again["state"] == "running"
    gate.go.set()
    for thread in reviews.threads:
        thread.join(30)
    assert gate.threads == ["review-1"]  # one run, not on the asking thread
    done = reviews.ask(1, "binaryon", {"size": 4}, names, start=False)
    assert done["state"] == "done"
    assert [m["move"] for m in done["review"]["moves"]] == names
    assert reviews.ask(1, "binaryon", {"size": 4}, names, start=True) is done  # kept


def test_a_game_the_engine_does_not_review_and_a_failure_are_one_line_each(caplog):
    def broken(game, options, names, progress):
        raise RuntimeError("boom\nsecond line")

    def refused(game, options, names, progress):
        raise NotReviewable("no review for binome: no engine for 'binome'")

    for run, words in [(refused, "no review for binome"), (broken, "the review failed")]:
        reviews = Reviews(run=run)
        reviews.ask(3, "binome", {}, [], start=True)
        reviews.threads[0].join(10)
        answer = reviews.ask(3, "binome", {}, [], start=False)
        assert answer["state"] == "refused" and answer["reason"].startswith(words)
        assert "\n" not in answer["reason"]
    assert any("review of game 3 failed: RuntimeError" in r.message for r in caplog.records)


def test_only_the_last_few_reviews_are_kept():
    reviews = Reviews(run=lambda g, o, n, p: review_game(g, o, n, p, nodes=50).as_dict(), keep=2)
    for game_id in (1, 2, 3):
        reviews.ask(game_id, "binaryon", {"size": 4}, ["a4"], start=True)
        reviews.threads[-1].join(30)
    assert reviews.ask(1, "binaryon", {"size": 4}, ["a4"], start=False)["state"] == "idle"
    assert reviews.ask(3, "binaryon", {"size": 4}, ["a4"], start=False)["state"] == "done"


# ------------------------------------------------------------------------------- the API


def fetch(url: str, method: str = "GET", origin: str | None = None):
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    if origin:
        request.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_api_starts_a_review_and_says_how_far_it_has_got():
    backend = FakeBackend("binaryon")
    names = a_game(2, size=8)[:6]
    backend.new_game(names)
    past = backend.game_id
    backend.new_game()
    server = WebServer(backend, "127.0.0.1:0")
    server.start()
    try:
        url = f"{server.url}/api/review/{past}"
        assert fetch(url) == (200, {"id": past, "state": "idle"})
        status, body = fetch(url, "POST", origin="http://evil.example")
        assert status == 403 and body["code"] == "bad-origin"
        status, body = fetch(url, "POST")
        assert status == 200 and body["state"] in ("running", "done")
        for thread in backend.reviews.threads:
            thread.join(60)
        status, body = fetch(url)
        assert body["state"] == "done"
        assert [m["move"] for m in body["review"]["moves"]] == names
        status, body = fetch(f"{server.url}/api/review/{backend.game_id}", "POST")
        assert body["state"] == "refused"  # the game in progress
        status, body = fetch(f"{server.url}/api/review/999")
        assert status == 404 and body["code"] == "no-such-game"
    finally:
        server.stop()


# ------------------------------------------------------------------ the page, real Chromium

SHOTS = os.path.join(Path(__file__).resolve().parents[2], "docs", "screenshots")


def play_out(site: Site, seed: int = 4) -> None:
    """Play the daemon's game to its end with random legal moves (the referee plays the
    forced passes)."""
    rng = random.Random(seed)
    while not site.state().is_over():
        state = site.state()
        player = sorted(state.to_act)[0]
        site.submit(rng.choice(state.legal_moves(player)).name, player)


def test_the_review_beside_the_replay_on_the_real_daemon(browser, tmp_path, axe_js):
    site = Site(browser, tmp_path, "binaryon", {"size": 6})
    try:
        play_out(site)
        game_id = site.daemon.session.game_id
        moves = len(site.daemon.session.moves)
        site.open([])
        b = site.browser
        link = f'.game-link[data-game="{game_id}"]'
        b.wait(lambda: b.js(f"return !!document.querySelector('{link}')"), what="the history")
        b.js(f"document.querySelector('{link}').click();")
        b.wait(lambda: b.body_data("replayIndex") == "0", what="the replay viewer")
        assert not b.js("return document.getElementById('review-button').hidden;")
        assert b.js("return document.getElementById('review').hidden;")
        b.js("document.getElementById('review-button').click();")
        b.wait(lambda: b.body_data("review") == "done", what="the review", timeout=120)
        items = b.js("return document.querySelectorAll('#review-moves .review-move').length;")
        plies = int(b.js("return document.getElementById('replay-slider').max;"))
        assert items == plies == moves
        label = b.js("return document.querySelector('#review-svg').getAttribute('aria-label');")
        assert label.startswith(f"ON's expected result over {plies} moves: ")
        assert b.text("review-turns").startswith(("Turning points: ", "No turning point"))
        b.js("document.querySelector('#review-moves .review-move:nth-child(3) button').click();")
        b.wait(lambda: b.body_data("replayIndex") == "3", what="the third move's position")
        current = "return document.querySelector('#review-moves [aria-current]').dataset.ply;"
        assert b.js(current) == "3"
        severe = axe.severe(axe.violations(b.driver, axe_js))
        assert severe == [], severe
        if os.environ.get("BINARYON_SCREENSHOTS"):
            from tests.web.test_look import screenshot

            for size, (w, h) in {"phone": (390, 844), "desktop": (1366, 768)}.items():
                path = os.path.join(SHOTS, f"review-{size}.png")
                screenshot(b, Path(path), w, h)
                assert os.path.getsize(path) > 5000
    finally:
        site.close()


# ------------------------------------------------------------------- in a process of its own


def test_a_review_made_in_its_own_process_is_the_same_review():
    from companion.views.web.review_process import review_in_process

    names = a_game(4)
    seen = []
    made = review_in_process("binaryon", {"size": 4}, names, lambda d, t: seen.append(d), 800)
    assert made == json.loads(
        json.dumps(review_game("binaryon", {"size": 4}, names, None, 800).as_dict())
    )
    assert seen == list(range(1, len(names) + 1))
    with pytest.raises(NotReviewable, match="binome: only a game that is over is reviewed"):
        review_in_process("binome", {}, [], lambda d, t: None)  # refused in the child


def test_binomes_review_beside_the_replay_tells_each_turn(browser, tmp_path):
    """A game's own review (Binøme: its claims and passes) on the same page: each turn's line
    before its first choice, each choice's note, the moves found by their ply."""
    try:
        axe_js = axe.source()
    except axe.Offline as e:
        pytest.skip(str(e))
    site = Site(browser, tmp_path, "binome", {"players": "Ann,Bob"})
    try:
        play_out(site, seed=3)
        game_id = site.daemon.session.game_id
        names = [p.name for p in site.played()]
        choices = [n for n in names if " claim " in n or n.endswith(" pass")]
        site.open([])
        b = site.browser
        link = f'.game-link[data-game="{game_id}"]'
        b.wait(lambda: b.js(f"return !!document.querySelector('{link}')"), what="the history")
        b.js(f"document.querySelector('{link}').click();")
        b.wait(lambda: b.body_data("replayIndex") == "0", what="the replay viewer")
        b.js("document.getElementById('review-button').click();")
        b.wait(lambda: b.body_data("review") == "done", what="the review", timeout=120)
        shown = b.js(
            "return [...document.querySelectorAll('#review-moves .review-ply')]"
            ".map((e) => e.textContent);"
        )
        assert [s.split(" ", 2)[2] for s in shown] == choices
        headings = b.js(
            "return [...document.querySelectorAll('.review-turn-heading')]"
            ".map((e) => e.textContent);"
        )
        assert headings and headings[0].startswith("turn 1: ")
        notes = b.js("return document.querySelectorAll('.review-note').length;")
        assert notes == len(choices)
        assert b.text("review-intro").startswith("the die: ")
        plies = int(b.js("return document.getElementById('replay-slider').max;"))
        label = b.js("return document.querySelector('#review-svg').getAttribute('aria-label');")
        assert label.startswith(f"ANN's expected result over {plies} moves: ")
        turns = b.text("review-turns")
        assert turns.startswith(("Turning points: ", "No turning point"))
        second = b.js(
            "return document.querySelectorAll('#review-moves .review-move')[1].dataset.ply;"
        )
        b.js("document.querySelectorAll('#review-moves .review-move button')[1].click();")
        b.wait(lambda: b.body_data("replayIndex") == second, what="the second choice's position")
        severe = axe.severe(axe.violations(b.driver, axe_js))
        assert severe == [], severe
        if os.environ.get("BINARYON_SCREENSHOTS"):
            from tests.web.test_look import screenshot

            path = os.path.join(SHOTS, "review-binome-phone.png")
            screenshot(b, Path(path), 390, 844)
            assert os.path.getsize(path) > 5000
    finally:
        site.close()
