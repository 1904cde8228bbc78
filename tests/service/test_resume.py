"""Explicit options start what they say: ``--size``, ``--rule``, ``--player`` and
``--game`` given while another game is in progress start the new game and pause the old one,
which ``binaryon resume`` and the menu take up again; ``new GAME`` starts from the command
line's and config's options, not the resumed game's; the journal keeps the pause in its old
format (an abandoned game with the note 'paused')."""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from companion.cli.main import main
from companion.core.config import Config
from companion.core.events import ButtonEvent, UserCommand
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from companion.views.oled import CHARS
from tests.conftest import step


def sim(monkeypatch, capsys, path, *args: str, typed: str = "") -> str:
    """``binaryon sim ARGS --journal PATH`` with ``typed`` as its input; its output."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "quit\n"))
    assert main(["sim", *args, "--journal", str(path)]) == 0
    return capsys.readouterr().out


def history(capsys, path) -> list[dict]:
    assert main(["history", "--json", "--journal", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def path(tmp_path, monkeypatch):
    monkeypatch.delenv("BINARYON_CONFIG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no config file of this machine
    return tmp_path / "journal.sqlite"


@pytest.mark.parametrize(
    ("asked", "game", "size", "players"),
    [
        (["--size", "8"], "binaryon", 8, {}),
        (["--rule", "size=8"], "binaryon", 8, {}),
        (["--game", "binary"], "binary", 8, {}),
        (["--size", "4", "--player", "on=Ben"], "binaryon", 4, {"on": "Ben"}),
    ],
)
def test_explicit_options_start_a_new_game_and_pause_the_one_in_progress(
    path, monkeypatch, capsys, asked, game, size, players
):
    sim(monkeypatch, capsys, path, "--size", "4", "--player", "on=Ana", typed="c3\n")
    out = sim(monkeypatch, capsys, path, *asked)
    games = history(capsys, path)
    assert [(g["id"], g["status"], g["moves"]) for g in games] == [
        (1, "paused", 1),
        (2, "in_progress", 0),
    ]
    assert games[1]["game"] == game and games[1]["options"]["size"] == size
    assert games[1]["players"] == players
    said = [ln for ln in out.splitlines() if ln.startswith("turn:")][0].split(" | ")[1]
    assert said == "paused binaryon #1" and len(said) <= CHARS  # one OLED line
    assert main(["history", "--journal", str(path)]) == 0
    assert "paused" in capsys.readouterr().out.splitlines()[1]


def test_the_same_options_again_carry_on_with_the_game_in_progress(path, monkeypatch, capsys):
    sim(monkeypatch, capsys, path, "--size", "4", "--player", "on=Ana", typed="c3\n")
    out = sim(monkeypatch, capsys, path, "--size", "4", "--player", "on=Ana")
    assert "moves: c3" in out
    assert [g["status"] for g in history(capsys, path)] == ["in_progress"]


def test_new_game_takes_the_command_lines_options_not_the_resumed_games(path, monkeypatch, capsys):
    sim(monkeypatch, capsys, path, "--size", "4", "--player", "on=Ana", typed="c3\n")
    # resumed with no options: the 4x4 game carries on; `new binaryon` is 8x8, no names
    sim(monkeypatch, capsys, path, typed="new binaryon\n")
    # the command line's options (and names) for a game started inside
    sim(monkeypatch, capsys, path, "--size", "6", "--player", "off=Cy", typed="new binaryon\n")
    sim(monkeypatch, capsys, path, "--size", "6", typed="new binaryon size=4 first=off\n")
    sim(monkeypatch, capsys, path, "--size", "6", typed="menu long\nconfirm\n")
    games = history(capsys, path)
    started = [(g["options"]["size"], g["options"]["first"], g["players"]) for g in games]
    assert started == [
        (4, "on", {"on": "Ana"}),
        (8, "on", {}),  # new binaryon: the defaults (the simulated board had become 4x4)
        (6, "on", {"off": "Cy"}),  # --size 6 asked for: started 6x6 with the names given
        (6, "on", {"off": "Cy"}),  # new binaryon: the command line's size and names
        (4, "off", {}),  # new binaryon size=4 first=off
        (6, "on", {}),  # --size 6 asked for again
        (6, "on", {}),  # the menu: the command line's options
    ]


def test_binaryon_resume_takes_a_paused_game_up_again(path, monkeypatch, capsys):
    sim(monkeypatch, capsys, path, "--size", "4", typed="c3\n")
    sim(monkeypatch, capsys, path, "--size", "6", typed="c4\n")  # pauses game 1
    assert main(["resume", "1", "--journal", str(path)]) == 0
    assert "game 1 (binaryon, 1 move) is the game in progress; game 2 paused" in (
        capsys.readouterr().out
    )
    out = sim(monkeypatch, capsys, path)
    assert "moves: c3" in out
    games = history(capsys, path)
    assert [(g["status"], g["options"]["size"]) for g in games] == [
        ("in_progress", 4),
        ("paused", 6),
    ]
    assert main(["resume", "1", "--journal", str(path)]) == 2  # not paused: one line
    assert capsys.readouterr().err.strip() == "binaryon: game 1 is in progress, not paused"
    assert main(["resume", "--journal", str(path)]) == 0  # the latest paused: game 2
    assert capsys.readouterr().out.startswith("game 2 (binaryon, 1 move)")
    assert [g["status"] for g in history(capsys, path)] == ["paused", "in_progress"]


def test_a_typed_resume_takes_up_a_paused_game_in_the_simulator(path, monkeypatch, capsys):
    sim(monkeypatch, capsys, path, "--size", "4", typed="c3\n")
    out = sim(monkeypatch, capsys, path, "--size", "6", typed="c4\nresume 1\n")
    last = [ln for ln in out.splitlines() if ln.startswith(("moves:", "turn:"))][-2:]
    assert last == ["moves: c3", "turn: OFF | resumed #1; #2 paused"]
    assert [g["status"] for g in history(capsys, path)] == ["in_progress", "paused"]


def test_the_menu_offers_the_paused_games_and_takes_one_up(path, clock):
    cfg = Config.default().with_overrides(rules={"binaryon": {"size": 4}})
    journal = SqliteJournal.open(path, clock=clock)
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock, journal=journal)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    d.post(UserCommand("move c3"))
    d.loop.run_pending()
    assert d.session.moves == ["c3"] and d.session.pause()
    d.new_game()
    d.post(UserCommand("move d4"))
    d.loop.run_pending()
    d.post(ButtonEvent("menu", long=True))
    d.loop.run_pending()
    entries, _ = d.menu.shown()
    assert entries[-1] == "resume:1"
    assert d.screen().panel.rows  # the menu is drawn: the entry's title
    while d.menu.chosen != "resume:1":
        d.post(ButtonEvent("menu"))
        d.loop.run_pending()
    assert "RESUME #1 BINARYON" in [r.label for r in d.screen().panel.rows]
    d.post(ButtonEvent("confirm"))
    d.loop.run_pending()
    assert d.session.game_id == 1 and d.session.moves == ["c3"]
    assert d.message == "resumed #1; #2 paused"
    state = d.session.state
    move = state.legal_moves()[0].name
    d.post(UserCommand(f"move {move}"))  # play goes on in the game taken up, journaled
    d.loop.run_pending()
    assert journal.load(1).move_names == ["c3", move] and journal.load(2).status == "paused"
    journal.close()


def test_a_paused_game_is_stored_as_an_older_companion_reads_it(path, clock):
    """Backward compatible: the status column holds 'abandoned' (the note says 'paused'); the
    pause survives a reopen; a paused game's secrets stay hidden like a game in progress."""
    journal = SqliteJournal.open(path, clock=clock)
    gid = journal.begin("binaryon", {"size": 4}, {})
    journal.commit_turn(gid, 0, [MoveEntry(0, "c3")], None)
    assert journal.pause(gid)
    empty = journal.begin("binaryon", {"size": 4}, {})
    assert not journal.pause(empty)  # nothing to keep: abandoned
    journal.close()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT status, note FROM games ORDER BY id").fetchall()
    kinds = db.execute("SELECT kind FROM events WHERE game_id = ?", (gid,)).fetchall()
    db.close()
    assert rows == [("abandoned", "paused"), ("abandoned", None)]
    assert [k for (k,) in kinds] == ["move", "abandon"]
    journal = SqliteJournal.open(path, clock=clock)
    entry = journal.load(gid)
    assert entry.status == "paused" and not entry.ended_for_all and entry.note is None
    assert [e.id for e in journal.paused()] == [gid] and journal.current() is None
    assert journal.resume(gid) is None
    assert journal.current().moves == ["c3"] and journal.load(gid).note is None
    journal.close()


def test_a_paused_game_exports_and_imports(path, monkeypatch, capsys, tmp_path):
    sim(monkeypatch, capsys, path, "--size", "4", typed="c3\n")
    sim(monkeypatch, capsys, path, "--size", "6")
    record = tmp_path / "game1.txt"
    assert main(["export", "1", "-o", str(record), "--journal", str(path)]) == 0
    assert '[Status "paused"]' in record.read_text()
    other = tmp_path / "other.sqlite"
    assert main(["import", str(record), "--journal", str(other)]) == 0
    capsys.readouterr()
    assert [(g["status"], g["moves"]) for g in history(capsys, other)] == [("abandoned", 1)]


def test_size_on_the_command_line_wins_over_the_config_files(path, monkeypatch, capsys):
    config = path.parent / "config.toml"
    config.write_text("[rules.binaryon]\nsize = 6\n")
    sim(monkeypatch, capsys, path, "--config", str(config), "--size", "4")
    sim(monkeypatch, capsys, path, "--config", str(config), typed="new binaryon\n")
    sim(monkeypatch, capsys, path, "--config", str(config), "--rule", "size=8")
    sizes = [(g["options"]["size"], g["status"]) for g in history(capsys, path)]
    assert sizes == [(4, "abandoned"), (6, "abandoned"), (8, "in_progress")]


@pytest.mark.parametrize("how", ["typed", "menu"])
def test_a_new_game_started_inside_pauses_the_one_in_progress(tmp_path, clock, how):
    """As the command line's options do: kept whole, to be taken up again, not abandoned."""
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    try:
        d = Daemon(Config.default(), board=MockBoard(8, "switch", clock), clock=clock,
                   journal=journal)  # fmt: skip
        d.board.start(d.loop.post)
        d.loop.run_pending()
        d.board.tap(d.session.state.legal_moves()[0].cell)
        step(d, clock, 0.1)
        old = d.session.game_id
        if how == "typed":
            d.post(UserCommand("new binary"))
        else:
            d.post(ButtonEvent("menu", True))
            step(d, clock)
            d.post(ButtonEvent("confirm"))
        step(d, clock)
        assert d.session.game_id != old and d.message.endswith(f"; #{old} paused")
        assert {g.id: g.status for g in journal.games()}[old] == "paused"
    finally:
        journal.close()
