"""Binøme, Latent Binaries and Wythe played through their pages, on the real daemon, in
Debian's Chromium: moves are clicks on each player's own page (action buttons and squares),
and no page but the owner's ever shows a secret before the game reveals it."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.config import Config
from companion.service.app import build_daemon
from tests.live_daemon import start_daemon, stop_daemon
from tests.web_browser import Browser


class Site:
    """A real daemon (mock board, SQLite journal) serving its pages on 127.0.0.1, and the
    browser tabs open on them: ``pages[None]`` is the table page, ``pages[player]`` a player's."""

    def __init__(
        self, browser: Browser, tmp_path, game: str, rules: dict[str, Any], clock: str = ""
    ):
        self.browser = browser
        self.journal = str(tmp_path / f"{game}.sqlite")
        self.daemon, self.closers = start_daemon(
            tmp_path, game, journal=Path(self.journal), rules=rules, clock=clock
        )  # a game clock: "5:00+3" ("": none)
        self.url = self.daemon.web.url
        self.spec = self.daemon.session.spec
        self.pages: dict[str | None, str] = {}

    def open(self, players: list[str]) -> None:
        tokens = self.daemon.web_backend.tokens()
        for who in [None, *players]:
            url = self.url + "/" if who is None else f"{self.url}/p/{tokens[who]}"
            handle = self.browser.new_tab(url)
            self.browser.wait(lambda: self.browser.body_data("conn") == "live", what=f"{who}")
            self.pages[who] = handle

    def close(self) -> None:
        stop_daemon(self.daemon, self.closers)
        b = self.browser
        for handle in self.pages.values():
            b.to(handle)
            b.driver.close()
        b.to(b.driver.window_handles[0])
        errors = [
            e for e in b.driver.get_log("browser") if e.get("source") in ("javascript", "security")
        ]  # script errors and Content-Security-Policy violations
        assert errors == [], errors

    # --- the game, read in the daemon's thread
    def state(self):
        return self.daemon.call(lambda: self.daemon.session.state)

    def played(self) -> list:
        return self.daemon.call(lambda: list(self.daemon.session.played))

    def private(self, state, player: str) -> list[str]:
        return list(self.spec.view(state, player).private)

    def submit(self, name: str, player: str) -> None:
        result = self.daemon.call(lambda: self.daemon.submit(name, player))
        assert result.accepted, (name, result.refusal)

    # --- the pages
    def show(self, who: str | None) -> int:
        """Switch to ``who``'s page once it shows the game as it is now; returns the ply."""
        ply = self.state().ply
        b = self.browser
        b.to(self.pages[who])
        busy = "return document.body.classList.contains('busy');"
        b.wait(lambda: b.body_data("ply") == str(ply) and not b.js(busy), what=f"{who} at {ply}")
        return ply

    def _then(self, who: str, do: Callable[[], None]) -> None:
        before = self.show(who)
        do()
        self.browser.wait(lambda: self.state().ply > before, what=f"{who}'s click played")

    def click_action(self, who: str, move: str) -> None:
        self._then(who, lambda: self.browser.click_action(move))

    def click_squares(self, who: str, first: str, second: str | None = None) -> None:
        """Click ``first`` (and then ``second``) on ``who``'s page: one move."""
        if second is None:
            self._then(who, lambda: self.browser.click_square(first))
            return
        self.show(who)
        self.browser.click_square(first)
        b = self.browser
        b.wait(lambda: "mark-selected" in b.cell_classes(first), what=f"{first} selected")
        self._then(who, lambda: b.click_square(second))

    def text(self, who: str | None) -> str:
        self.show(who)
        return self.browser.page_text()

    def private_shown(self, who: str) -> list[str]:
        self.show(who)
        return self.browser.js(
            "return [...document.querySelectorAll('#private li')].map((li) => li.textContent);"
        )


def cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# ------------------------------------------------------------------------------------ Binøme


def binome_secrets(site: Site, state) -> dict[str, list[str]]:
    """Each player's moves whose full names differ from what the others may see."""
    out: dict[str, list[str]] = {p: [] for p in state.players}
    if state.revealed():
        return out
    for p in site.played():
        if p.name != p.public:  # a write or a claim, the virtual players' (forced) too
            out[p.name.split()[0]].append(p.name)
    return out


def check_binome_pages(site: Site, viewers: list[str | None]) -> None:
    """The table shows no sheet and no unrevealed move; a player's page shows exactly their own
    sheet and none of the others' secret moves."""
    state = site.state()
    if state.revealed():
        return  # the game ended with this move: everything is public (check_binome_end)
    secrets = binome_secrets(site, state)
    for who in viewers:
        text = site.text(who)
        for player, names in secrets.items():
            if player == who:
                continue
            shown = [n for n in names if n in text]
            assert shown == [], (who, player, shown)
            sheet = " ".join(state.numbers(player))
            mine = " ".join(state.numbers(who)) if who else ""
            if any(c.isdigit() for c in sheet) and sheet != mine:
                assert sheet not in text, (who, player, sheet)
        assert "'s sheet" not in text, who
        body = site.browser.js("return document.body.innerText;")
        step = site.spec.view(state, who).explanation[0]
        assert site.browser.text("no-board") == step, who  # large, where a board would be
        if who is None:
            assert "your number" not in body and "your choice" not in body
        else:
            own = site.private(state, who)
            assert site.private_shown(who) == own
            assert body.count("your number") == sum("your number" in line for line in own) == 8


def check_resolution_on_table(site: Site) -> None:
    """The last turn's explanation and the scoreboard on the table page."""
    state = site.state()
    last = state.last_resolution
    site.show(None)
    explanation = site.browser.text("explanation")
    assert last.explanation in explanation
    scores = ", ".join(f"{p} {s}" for p, s in zip(state.players, state.scores, strict=True))
    assert f"Score: {scores}." in explanation
    shown = site.browser.js(
        "return [...document.querySelectorAll('#players li')].map("
        "(li) => [li.dataset.player, li.querySelector('.score').textContent]);"
    )
    assert shown == [[p, str(s)] for p, s in zip(state.players, state.scores, strict=True)]


def play_binome(site: Site, rng: random.Random, click: Callable[[Any, str, str, dict], str]):
    """Play the humans' moves until the game ends, clicking those ``click`` picks on the
    mover's page ("click", or "check" to check every page's secrets after the click); the
    rest go to the referee as the page would send them. Checks the table page after each
    resolution. Returns the number of clicks."""
    firsts: dict[str, int] = {}
    clicks = 0
    viewers = [None, *site.pages.keys() - {None}]
    while not (state := site.state()).is_over():
        humans = sorted(state.to_act - state.virtual)
        assert humans, "the game waits for nobody"
        player = humans[0]
        name, label = rng.choice(site.spec.view(state, player).actions)
        resolved = len(state.history)
        how = click(state, player, name, firsts)
        burn = label.endswith(": not eligible")  # refused until confirmed: it will be burned
        if how:
            if burn:
                confirm_burn(site, player, name)
            else:
                site.click_action(player, name)
            clicks += 1
            if how == "check":
                check_binome_pages(site, viewers)
        else:
            site.submit(f"{name} burn" if burn else name, player)
        after = site.state()
        if len(after.history) > resolved and not after.is_over():
            check_resolution_on_table(site)
    return clicks


def confirm_burn(site: Site, player: str, name: str) -> None:
    """A claim with a number that is not eligible: the first click is refused and the page
    asks to confirm that the number will be burned; the second click plays it."""
    site.show(player)
    b = site.browser
    b.click_action(name)
    confirm = f"{name} burn"
    found = f"return !!document.querySelector('button.action[data-move=\"{confirm}\"]');"
    b.wait(lambda: b.js(found), what=f"{player}'s page asks to confirm {name}")
    assert "not eligible, it will be burned" in b.text("private")
    assert site.state().ply == site.show(player)  # nothing played yet
    site.click_action(player, confirm)


def kind_of(name: str) -> str:
    return name.split()[1]  # "p1 write 3a" -> write, "p1 claim 44" -> claim, "p1 pass"


def first_of_kind(player: str, name: str, firsts: dict) -> bool:
    key = f"{player} {kind_of(name)}"
    firsts[key] = firsts.get(key, 0) + 1
    return firsts[key] == 1


def check_binome_end(site: Site, players: list[str]) -> None:
    state = site.state()
    outcome = state.outcome()
    site.show(None)
    b = site.browser
    assert outcome.summary in b.text("status")
    explanation = b.text("explanation")
    for p in state.players:
        assert f"{p}'s sheet: {' '.join(state.numbers(p))}." in explanation
    moves = b.text("moves")
    for p in site.played():  # every secret is revealed now
        assert p.name in moves


def test_binome_five_players_on_their_own_pages(browser, tmp_path):
    players = ["p1", "p2", "p3", "p4", "p5"]
    site = Site(browser, tmp_path, "binome", {"players": ",".join(players)})
    try:
        site.open(players)
        check_binome_pages(site, [None, *players])

        def click(state, player, name, firsts) -> str:
            if first_of_kind(player, name, firsts):
                return "check"
            whole_turn = len(state.rolls) == 7 or len(state.history) == 3
            return "click" if whole_turn else ""

        clicks = play_binome(site, random.Random(5), click)
        assert clicks >= 2 * len(players)
        check_binome_end(site, players)
        # a claim made on a page is kept like a board move: the journal holds all of it
        saved = site.daemon.journal.load(site.daemon.session.game_id)
        assert saved.move_names == site.daemon.session.moves and saved.status == "finished"
    finally:
        site.close()


def test_binome_solo_against_virtual_players_on_one_page(browser, tmp_path):
    site = Site(browser, tmp_path, "binome", {"players": "Solo", "solo": 3, "seed": 4})
    try:
        site.open(["Solo"])

        def click(state, player, name, firsts) -> str:
            return "check" if first_of_kind(player, name, firsts) or rng.random() < 0.2 else "click"

        rng = random.Random(8)
        clicks = play_binome(site, random.Random(3), click)
        state = site.state()
        assert clicks == sum(1 for p in site.played() if p.player == "Solo")
        assert any(p.forced and p.name.startswith("bot") for p in site.played())
        check_binome_end(site, ["Solo"])
        assert state.players == ("Solo", "bot1", "bot2", "bot3")
    finally:
        site.close()


# ------------------------------------------------------------------------- Latent Binaries


def latent_game(seed: int):
    """A whole game by the pure engine: every move a page or the board makes (the referee's
    forced passes left out), chosen so each is one click or one button."""
    from companion.games.latent_binaries.engine import CHALLENGE, MARKER, MOVE, SETUP
    from companion.games.latent_binaries.moves import END, PASS, Marker, Step
    from companion.games.latent_binaries.spec import SPEC

    rng = random.Random(seed)
    state = SPEC.new(**SPEC.resolve({}))
    moves: list[tuple[str, Any]] = []
    while not state.is_over() and len(moves) < 200:
        if state.forced_move() is not None:
            state = state.play(state.forced_move())
            continue
        if state.phase == SETUP:
            player = sorted(state.to_act)[0]
            move = rng.choice(state.legal_moves(player))
        else:
            legal = state.legal_moves()
            player = state.mover
            if state.phase == MOVE:
                steps = [m for m in legal if isinstance(m, Step)]
                wins = [m for m in steps if state.play(m).is_over()]
                move = wins[0] if wins else rng.choice(steps)
            elif state.phase == CHALLENGE:
                move = END if END in legal and rng.random() < 0.5 else rng.choice(legal)
            else:
                assert state.phase == MARKER
                srcs = [m.src for m in legal if isinstance(m, Marker)]
                move = rng.choice([m for m in legal if srcs.count(m.src) == 1])
            assert move != PASS
        moves.append((player, move))
        state = state.play(move, player) if state.phase == SETUP else state.play(move)
    return moves, state


def check_latent_pages(site: Site, viewers: list[str | None]) -> None:
    """No page but the owner's shows a hidden pawn: no setup's full name, no hidden order of a
    nest in its cell, no 'hides ... over ...' line (the caps and stash counts are public)."""
    from companion.games.latent_binaries.geometry import square_name

    state = site.state()
    if state.revealed():
        return
    hidden = [n for n in state.nests if n.is_set and not n.shown]
    setups = [(p.player, p.name) for p in site.played() if p.name.startswith("setup ")]
    for who in viewers:
        text = site.text(who)
        cells = site.browser.js(
            "return Object.fromEntries([...document.querySelectorAll('#board .cell')].map("
            "(c) => [c.dataset.square, (c.querySelector('.text') || {}).textContent || '']));"
        )
        for n in hidden:
            sq = square_name(n.square)
            if n.owner == who:
                assert cells[sq] == f"{n.top}/{n.bottom}", (who, sq)
                continue
            assert cells[sq] == "+".join(c[:3] for c in n.caps), (who, sq, cells[sq])
            for secret in (f"{sq} hides {n.top} over {n.bottom}", f"{sq}: {n.top} over"):
                assert secret not in text, (who, secret)
        for owner, name in setups:
            if owner != who:
                assert name not in text, (who, name)


def test_latent_binaries_through_two_player_pages(browser, tmp_path):
    from companion.games.latent_binaries.geometry import square_name
    from companion.games.latent_binaries.moves import (
        Challenge,
        Marker,
        Order,
        Setup,
        Step,
    )

    seed = next(
        s for s in range(200) if latent_game(s)[1].is_over() and len(latent_game(s)[0]) < 60
    )
    moves, final = latent_game(seed)
    site = Site(browser, tmp_path, "latent-binaries", {})
    players = ["rainbow", "xeno"]
    try:
        site.open(players)
        viewers: list[str | None] = [None, *players]
        checked_records, answers = False, 0
        for k, (player, move) in enumerate(moves):
            if isinstance(move, Step):
                site.click_squares(player, square_name(move.src), square_name(move.dst))
            elif isinstance(move, Marker):
                site.click_squares(player, square_name(move.src))
            else:
                site.click_action(player, move.name)
            if isinstance(move, Challenge | Order):  # the answer, on the table page
                answer = site.state().answer
                assert answer.startswith(("correct", "wrong"))
                site.show(None)
                assert answer in site.browser.text("explanation")
                answers += 1
            if isinstance(move, Setup) or k % 4 == 0:
                check_latent_pages(site, viewers)
            if not checked_records and not isinstance(move, Setup) and k > 8:
                check_latent_records(site, revealed=False)
                checked_records = True
        state = site.state()
        assert state.is_over() and state.winner == final.winner
        assert checked_records and answers
        site.show(None)
        outcome = state.outcome()
        assert outcome.summary in site.browser.text("status")
        moves_text = site.browser.text("moves")
        assert "long-names" in site.browser.js("return document.getElementById('moves').className;")
        legend = site.browser.js("return document.querySelector('.legend').innerText;")
        assert "winning line" in legend and "black" not in legend  # pieces here are R, X, G
        for p in site.played():
            if p.name.startswith("setup "):
                assert p.name in moves_text  # revealed at the end
        check_latent_records(site, revealed=True)
    finally:
        site.close()


def check_latent_records(site: Site, revealed: bool) -> None:
    """``binaryon history`` never shows a setup's colours; after the end ``export`` shows
    every setup in full and ``import`` takes the record back (before the end: see
    test_latent_export_hides_the_setup_before_the_end)."""
    setups = [p for p in site.played() if p.name.startswith("setup ")]
    assert len(setups) == 6
    history = cli("history", "--journal", site.journal)
    history += cli("history", "--json", "--journal", site.journal)
    for p in setups:
        assert p.name.split()[-1] not in history  # "red/blue"
    if not revealed:
        return
    record = cli("export", "last", "--journal", site.journal)
    for p in setups:
        assert p.name in record


def latent_daemon_game(tmp_path, upto: Callable[[Any], bool]) -> str:
    """A Latent Binaries game played on the daemon by move names until ``upto(move)``; the
    journal's path."""

    moves, _ = latent_game(1)
    path = str(tmp_path / "j.sqlite")
    cfg = Config.default().with_overrides(
        game={"name": "latent-binaries"}, board={"driver": "mock"}, journal={"path": path}
    )
    daemon, closers = build_daemon(cfg, simulated=True)
    daemon.start()
    try:
        for player, move in moves:
            if upto(move):
                break
            name = move.name
            result = daemon.call(lambda: daemon.submit(name, player))  # noqa: B023
            assert result.accepted, (name, result.refusal)
    finally:
        daemon.stop()
        for close in closers:
            close()
    return path


def test_latent_records_import_after_the_end(tmp_path):
    path = latent_daemon_game(tmp_path, lambda move: False)
    record = cli("export", "last", "--journal", path)
    assert "setup b2 " in record
    with open(path + ".txt", "w", encoding="utf-8") as f:
        f.write(record)
    cli("import", path + ".txt", "--journal", path + ".copy")
    assert (
        cli("export", "last", "--journal", path + ".copy").split("\n")[-8:]
        == record.split("\n")[-8:]
    )


def test_latent_export_hides_the_setup_before_the_end(tmp_path):
    """Both setups made, the game going on: the exported record names no hidden pawn."""
    from companion.games.latent_binaries.moves import Setup

    path = latent_daemon_game(tmp_path, lambda move: not isinstance(move, Setup))
    setups = [m.name for _, m in latent_game(1)[0] if isinstance(m, Setup)]
    record = cli("export", "last", "--journal", path)
    assert "setup b2" in record
    assert [name for name in setups if name in record] == []


# ------------------------------------------------------------------------------------ Wythe


def wythe_game(seed: int):
    from companion.games.wythe.spec import SPEC

    rng = random.Random(seed)
    state = SPEC.new(size=4, pie=True)
    moves: list[tuple[str, str]] = []
    while not state.is_over():
        if state.forced_move() is not None:
            state = state.play(state.forced_move())
            continue
        legal = state.legal_moves()
        names = [m.name for m in legal]
        name = "swap" if "swap" in names else rng.choice([n for n in names if "-" in n])
        moves.append((state.turn, name))
        state = state.play(state.parse_move(name))
    return moves, state


def private_box_shown(browser: Browser) -> bool:
    return browser.js("return !document.getElementById('private').closest('section').hidden;")


def test_wythe_through_the_player_pages(browser, tmp_path):
    moves, final = wythe_game(2)
    assert moves[1][1] == "swap"
    site = Site(browser, tmp_path, "wythe", {"size": 4, "pie": True})
    try:
        site.open(["black", "white"])
        for k, (player, name) in enumerate(moves):
            if name == "swap":
                site.show(player)
                labels = site.browser.js(
                    "return [...document.querySelectorAll('button.action')].map("
                    "(b) => b.dataset.move);"
                )
                assert labels == ["swap"]
                assert private_box_shown(site.browser)
                site.show("black" if player == "white" else "white")
                assert (
                    site.browser.js("return document.querySelectorAll('button.action').length;")
                    == 0
                )
                assert not private_box_shown(site.browser)  # no secret, nothing to choose
                site.click_action(player, "swap")
                site.show(None)
                assert "swapped" in site.browser.text("explanation")
                continue
            black, white = name.split("-")
            # a page belongs to a seat: after the swap the person who started as White plays
            # Black, on the same page
            site.click_squares(site.state().seat_of(player), black, white)
            if k == 0:
                site.show(None)
                assert name in site.browser.text("moves")
                # every piece is a stack of one: no height badge, no text over the letter
                assert (
                    site.browser.js(
                        "return document.querySelectorAll('#board .height, #board .text').length;"
                    )
                    == 0
                )
        state = site.state()
        assert state.is_over() and state.outcome().winners == final.outcome().winners
        assert [n for n in site.daemon.session.moves if n != "pass"] == [n for _, n in moves]
        site.show(None)
        outcome = state.outcome()
        assert outcome.summary in site.browser.text("status")
    finally:
        site.close()
