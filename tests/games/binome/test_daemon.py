"""Binøme hosted by the daemon: whole games (five players; solo against virtual players)
played by move names as the player pages send them, what the OLED and the web pages show
(no secret on the table or on another player's page), the journal, and a resume mid-turn."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon

FIVE = "p1,p2,p3,p4,p5"
WRITE_NAME = re.compile(r"\b(\w+) write [1-8][ab]\b")
CLAIM_NAME = re.compile(r"\b(\w+) claim \d\d(?: burn)?\b")


def make(clock, rules, journal=None, rng_seed=1):
    cfg = Config.default().with_overrides(game={"name": "binome"}, rules={"binome": rules})
    d = Daemon(
        cfg,
        board=MockBoard(8, "switch", clock),
        clock=clock,
        journal=journal,
        rng=random.Random(rng_seed),
    )
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def submit(d, name, player):
    result = d.submit(name, player)
    d.loop.run_pending()
    assert result.accepted, (name, result.refusal)
    return result


def unrevealed_claims(state):
    """'p3 44' for every claim made this turn (still secret on the table)."""
    return [f"{p} {n:02d}" for p, n in state.decided if n is not None]


def check_views(d):
    """The table's model holds no sheet and no unresolved claim; each page holds only its
    player's own sheet and full move names."""
    state = d.session.state
    table = json.dumps(d.web_view(None))
    assert not WRITE_NAME.search(table) and not CLAIM_NAME.search(table)
    assert "your number" not in table and "'s sheet" not in table
    told = {f"{p} {n:02d}" for r in state.history for p, n in r.claims}  # resolved turns
    for secret in unrevealed_claims(state):
        assert secret in told or secret not in table
    for player in state.players[:2]:
        view = d.web_view(player)
        page = json.dumps(view)
        lines = view["private"]["lines"]
        sheet = d.session.spec.view(state, player).private
        assert lines == list(sheet) and lines[0].startswith("your number 1: ")
        others = {m.group(1) for m in WRITE_NAME.finditer(page)}
        others |= {m.group(1) for m in CLAIM_NAME.finditer(page)}
        assert others <= {player}, (player, others)
        # everything private on the page is this player's own view: nobody else's sheet
        rest = json.dumps({k: v for k, v in view.items() if k != "private"})
        assert "your " not in rest
        for action in view["private"]["actions"]:
            assert action["move"].startswith(f"{player} ")


def play_out(d, rng, checks_every=7):
    """Play every human's move as their page would, until the game ends; checks the views
    and the OLED along the way. Returns the number of moves submitted."""
    spec = d.session.spec
    count = 0
    while not d.session.state.is_over():
        state = d.session.state
        humans = sorted(state.to_act - state.virtual)
        assert humans, "the game waits for nobody"
        player = humans[0]
        name, _label = rng.choice(spec.view(state, player).actions)
        resolved = len(state.history)
        result = d.submit(name, player)
        d.loop.run_pending()
        if not result.accepted and result.refusal.confirm:
            # a number that is not eligible: the page asks to confirm it will be burned
            assert result.refusal.reason.endswith("not eligible, it will be burned")
            offered = [a["move"] for a in d.web_view(player)["private"]["actions"]]
            assert result.refusal.confirm in offered
            submit(d, result.refusal.confirm, player)
        else:
            assert result.accepted, (name, result.refusal)
        count += 1
        after = d.session.state
        if len(after.history) > resolved and not after.is_over():
            # a turn resolved: the OLED says who won it and why, for a few seconds
            assert after.history[-1].explanation in d.message
        if count % checks_every == 0 and not d.session.state.is_over():  # then all is told
            check_views(d)
            screen = d.screen()
            panel = screen.panel
            assert len(panel.rows) == len(state.players)
            now = d.session.state
            if now.digit is not None:
                assert panel.note == f"ROLL {now.digit}"
            elif now.card is not None:
                assert panel.corner == f"deck {len(now.remaining)}"
    return count


def test_a_five_player_game_through_the_daemon(clock, tmp_path):
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    d = make(clock, {"players": FIVE}, journal)
    state = d.session.state
    assert state.players == ("p1", "p2", "p3", "p4", "p5")
    assert d.session.moves[0].startswith("roll ")  # the referee rolled at once
    assert d.screen().panel.title == "BINOME" and d.screen().panel.note.startswith("ROLL ")
    play_out(d, random.Random(5))
    state = d.session.state
    outcome = state.outcome()
    assert outcome is not None and set(outcome.winners) <= set(state.players)
    screen = d.screen()
    assert screen.over and outcome.summary in screen.message
    # over: the sheets are public now, on the table page too
    table = d.web_view(None)
    assert table["result"]["winners"] == list(outcome.winners)
    assert any(line.startswith("p1's sheet: ") for line in table["explanation"])
    assert WRITE_NAME.search(json.dumps(table["moves"]))
    # the journal kept every roll, entry, draw and claim, and the result
    saved = journal.load(d.session.game_id)
    names = saved.move_names
    assert names == d.session.moves
    assert sum(n.startswith("roll ") for n in names) == 16
    assert sum(bool(WRITE_NAME.fullmatch(n)) for n in names) == 16 * 5
    assert sum(n.startswith("draw ") for n in names) == len(state.history)
    decided = sum(bool(CLAIM_NAME.fullmatch(n)) or n.endswith(" pass") for n in names)
    assert decided == 5 * len(state.history)
    assert saved.status == "finished"


def test_a_solo_game_against_three_virtual_players(clock):
    d = make(clock, {"players": "Solo", "solo": 3, "seed": 11})
    state = d.session.state
    assert state.players == ("Solo", "bot1", "bot2", "bot3")
    # the virtual players wrote the first roll by themselves: only the human is waited for
    assert state.to_act == {"Solo"}
    assert [r.value for r in d.screen().panel.rows] == ["0"] * 4
    played = play_out(d, random.Random(2), checks_every=3)
    state = d.session.state
    assert state.is_over()
    assert played == sum(1 for p in d.session.played if p.player == "Solo")
    bots = [p for p in d.session.played if p.name.startswith("bot")]
    assert bots and all(p.forced for p in bots)  # the referee played them, journaled alike
    # the same seed and the same human moves replay the same game
    again = make(clock, {"players": "Solo", "solo": 3, "seed": 11})
    play_out(again, random.Random(2), checks_every=1000)
    assert again.session.moves == d.session.moves


def test_confirm_steps_through_the_news_and_presses_mean_nothing(clock):
    d = make(clock, {"players": "Ann,Bob,Cy"})
    state = d.session.state
    d.post(ButtonEvent("confirm"))
    d.loop.run_pending()
    assert d.screen().message == "to write: Ann, Bob and Cy"
    d.post(ButtonEvent("confirm"))
    d.loop.run_pending()
    assert d.screen().message == "score: Ann 0, Bob 0, Cy 0"
    d.board.tap(27)  # a switch press: no board in this game
    d.loop.run_pending()
    clock.advance(0.1)
    d.loop.run_pending()
    assert d.session.state == state
    # a move clears the page shown and starts the cycle again
    submit(d, "Ann write 1a", "Ann")
    assert d.screen().message == ""
    d.post(ButtonEvent("confirm"))
    d.loop.run_pending()
    assert d.screen().message == "to write: Bob and Cy"


def test_a_page_cannot_play_for_another_player(clock):
    d = make(clock, {"players": "Ann,Bob"})
    result = d.submit("Bob write 1a", "Ann")
    assert not result.accepted and result.refusal.code == "wrong-player"
    result = d.submit("write 9z", "Ann")
    assert not result.accepted and result.refusal.code == "bad-notation"
    assert d.screen().message  # the refusal is told on the OLED


def test_undo_takes_back_the_last_entry(clock):
    d = make(clock, {"players": "Ann,Bob"})
    submit(d, "Ann write 3b", "Ann")
    d.post(ButtonEvent("undo"))
    d.loop.run_pending()
    state = d.session.state
    assert state.sheet("Ann") == (None,) * 16 and "Ann" in state.to_act
    assert d.screen().message == "took back Ann write"  # the table sees no cell


def test_resume_mid_turn_after_a_power_cut(clock, tmp_path):
    path = tmp_path / "j.sqlite"
    d = make(clock, {"players": FIVE}, SqliteJournal.open(path), rng_seed=3)
    rng = random.Random(9)
    spec = d.session.spec
    # play until part 2 has a claim or two in the current turn
    while not (d.session.state.card is not None and len(d.session.state.decided) == 2):
        state = d.session.state
        player = sorted(state.to_act)[0]
        submit(d, rng.choice(spec.view(state, player).actions)[0], player)
    before = d.session.state
    moves = d.session.moves
    d.board.stop()
    # the power comes back: a new daemon on the same journal
    again = make(clock, {"players": FIVE}, SqliteJournal.open(path), rng_seed=4)
    after = again.session.state
    assert again.session.moves == moves and again.message.startswith("resumed")
    assert after == before
    assert after.decided == before.decided and after.card == before.card
    assert again.screen().panel == d.screen().panel
    # the game goes on: the next player's claim is taken where it stopped
    player = sorted(after.to_act)[0]
    submit(again, spec.view(after, player).actions[-1][0], player)
    assert len(again.session.state.decided) == 3


def test_a_bad_deck_file_is_refused_at_start_with_one_line(tmp_path):
    from companion.core.config import ConfigError
    from companion.service.config_check import rule_options

    bad = tmp_path / "deck.toml"
    bad.write_text("[cards]\nidentical-digits = 4\n")
    cfg = Config.default().with_overrides(
        game={"name": "binome"}, rules={"binome": {"deck": str(bad)}}
    )
    with pytest.raises(ConfigError) as err:
        rule_options(cfg)
    text = str(err.value)
    assert "\n" not in text and "deck" in text and "missing card" in text


def test_a_deck_file_sets_the_points(clock, tmp_path):
    from companion.games.binome.deck import builtin_deck

    cards = {card: 7 for card in builtin_deck()}
    deck = tmp_path / "mine.toml"
    deck.write_text("[cards]\n" + "".join(f"{c} = {p}\n" for c, p in cards.items()))
    d = make(clock, {"players": "Ann,Bob", "deck": str(deck)})
    assert d.session.state.deck["identical-digits"] == 7
    assert d.session.options["points"].startswith("identical-digits=7,")


def test_a_solo_game_resumes_with_the_virtual_players_moves_as_they_were(clock, tmp_path):
    path = tmp_path / "j.sqlite"
    rules = {"players": "Solo", "solo": 2, "seed": 5, "secrets": True}
    d = make(clock, rules, SqliteJournal.open(path), rng_seed=8)
    spec = d.session.spec
    rng = random.Random(4)
    while d.session.state.card is None or len(d.session.state.history) < 2:
        state = d.session.state
        submit(d, rng.choice(spec.view(state, "Solo").actions)[0], "Solo")
    state = d.session.state
    assert state.to_act == {"Solo"} and {p for p, _ in state.decided} == {"bot1", "bot2"}
    assert "bot1 chose" in json.dumps(d.web_view(None)["moves"])
    played = list(d.session.played)
    d.board.stop()
    again = make(clock, rules, SqliteJournal.open(path), rng_seed=9)
    assert again.session.state == state
    assert [(p.name, p.player, p.forced) for p in again.session.played] == [
        (p.name, p.player, p.forced) for p in played
    ]


def test_the_simulator_plays_binome_by_move_names(tmp_path):
    from tests.service.test_simulator import run_cli, status_lines

    args = ["sim", "--game", "binome", "--rule", "players=3", "--journal", "none"]
    lines = ["confirm", "e4", "move p1 write 1a", "move p2 write 3b as p2", "quit"]
    r = run_cli(args, lines, tmp_path)
    assert r.returncode == 0, r.stderr
    status = status_lines(r.stdout)
    moves = [line.split()[1:] for line in status if line.startswith("moves:")]
    assert moves[0][0] == "roll" and len(moves[0]) == 2  # one roll, the press did nothing
    assert moves[1] == moves[0]
    assert moves[-1][2:] == ["p1", "write", "p2", "write"]  # the table sees no cell
    assert "turn: P1, P2, P3" in status and "turn: P3" in status
    assert "⣿" in r.stdout or "▀" in r.stdout  # the OLED is drawn


def test_a_claim_typed_without_its_player_is_the_named_players_own(clock, caplog):
    """``move claim NN as Cy`` in the conference: Cy's claim, journaled with Cy's name, no
    traceback in the log (it once raised 'a player's move needs its player to be named')."""
    from companion.core.events import UserCommand

    d = make(clock, {"players": "Ann,Bob,Cy"})
    while d.session.state.phase != "claim":
        state = d.session.state
        for player in sorted(state.to_act):
            submit(d, state.legal_moves(player)[0].name, player)
    while "Cy" not in d.session.state.to_act:
        player = next(iter(d.session.state.to_act))
        submit(d, f"{player} pass", player)
    eligible = d.session.state.eligible_numbers("Cy")
    assert eligible, "these seeds give Cy an eligible number for the first postulate"
    number = eligible[0]
    before = len(d.session.played)
    d.post(UserCommand(f"move claim {number:02d} as Cy"))
    d.loop.run_pending()
    assert d.loop.errors == 0 and "Traceback" not in caplog.text
    assert d.session.played[before].name == f"Cy claim {number:02d}"
    assert d.session.played[before].player == "Cy"
