"""The command line's tables line up on a terminal whatever the names: every row's columns start
(numbers: end) at the same display column, with long game names, accented names written either
way, wide characters and emoji counted as a terminal shows them."""

from __future__ import annotations

import json
import random

import pytest

from companion.cli import history
from companion.cli.main import main
from companion.core.terminal_text import display_width, pad
from companion.journal.store import SqliteJournal
from companion.referee.session import Session


@pytest.mark.parametrize(
    "text, width",
    [
        ("Ana", 3),
        ("Zoë", 3),  # one code point
        ("Zoe\u0308", 3),  # e and a combining diaeresis
        ("李雷", 4),  # wide characters
        ("Ana 🎲", 6),  # an emoji takes two columns
        ("a\u200db", 2),  # a zero-width joiner takes none
    ],
)
def test_display_width(text, width):
    assert display_width(text) == width
    assert display_width(pad(text, 10)) == 10 and display_width(pad(text, 10, right=True)) == 10
    assert pad(text, 1) == text  # never cut


GAMES = [
    ("binaryon", {"on": "Zoë", "off": "Zoe\u0308 B"}, True),
    ("latent-binaries", {"rainbow": "李雷", "xeno": "Ana 🎲"}, False),
    ("binary", {"black": "Ben"}, True),
    ("wythe", {}, True),
    ("binome", {"p1": "Ève"}, False),
    ("latent-binaries", {}, True),
]


def journal_of_games(path):
    rng = random.Random(3)
    with SqliteJournal.open(path) as journal:
        for game, players, finish in GAMES:
            session = Session(game, {}, journal, players)
            for _ in range(400 if finish else 5):
                state = session.state
                if state.is_over() or state.chance() is not None:
                    break
                forced = state.forced_move()
                if forced is not None:
                    session.submit(forced)
                    continue
                player = sorted(state.to_act)[0]
                session.submit(rng.choice(list(state.legal_moves(player))), player)


def starts(line: str, values: list[str]) -> list[tuple[int, int]]:
    """The display columns where each value starts and ends, found left to right."""
    out, at = [], 0
    for value in values:
        k = line.index(value, at)
        left = display_width(line[:k])
        out.append((left, left + display_width(value)))
        at = k + len(value)
    return out


@pytest.mark.parametrize("held", [1 << 20, 1])  # rows kept in memory, or in a temporary file
@pytest.mark.parametrize("args", [[], ["--limit", "2"], ["--game", "latent-binaries"]])
def test_history_columns_line_up(tmp_path, capsys, monkeypatch, args, held):
    monkeypatch.setattr(history, "SPOOL", held)
    path = tmp_path / "journal.sqlite"
    journal_of_games(path)
    assert main(["history", *args, "--json", "--journal", str(path)]) == 0
    games = json.loads(capsys.readouterr().out)
    assert len(games) == {0: len(GAMES)}.get(len(args), 2)
    assert main(["history", *args, "--journal", str(path)]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert len(rows) == len(games)
    edges = [starts(header, ["id", "started", "game", "moves", "status", "result", "players"])]
    for row, g in zip(rows, games, strict=True):
        said = f"{g['said']} ({g['summary']})" if g["said"] and g["summary"] else g["said"]
        result = said or g["summary"] or "-"
        players = " ".join(f"{k}={v}" for k, v in g["seated"].items())
        values = [str(g["id"]), g["started"][:10], g["game"], str(g["moves"])]
        values += [g["status"].replace("_", " "), result] + ([players] if players else [])
        edges.append(starts(row, values))
    for column, name in enumerate(("id", "started", "game", "moves", "status", "result")):
        side = 1 if name in ("id", "moves") else 0  # numbers end, words start, together
        assert len({e[column][side] for e in edges}) == 1, (name, [e[column] for e in edges])
    named = [e[6][0] for e in edges if len(e) > 6]
    assert len(named) >= 2 and len(set(named)) == 1  # the players, after the longest result


def test_invite_lines_up_the_links(tmp_path, capsys):
    from companion.service.app import load_config, web_files

    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "c.toml"
    config.write_text(f'[journal]\npath = "{journal}"\n')
    tokens, address = web_files(load_config(str(config)))
    address.write_text(json.dumps({"url": "http://board.lan:8080/"}))
    players = {"Zoë": "t1", "李雷": "t2", "Ana 🎲": "t3", "Ben": "t4"}
    tokens.write_text(json.dumps({"tokens": players}))
    assert main(["invite", "--config", str(config)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["table", *players]
    assert len({display_width(line[: line.index("http")]) for line in lines}) == 1


def test_the_simulators_text_screen_lines_up_names():
    from companion.games.base import Panel, PanelRow
    from companion.views.oled import Screen, screen_text
    from companion.views.terminal import framed

    rows = (PanelRow("李雷 RAINBOW", "2", True), PanelRow("Zoe\u0308 XENO", "3", False))
    lines = screen_text(Screen(Panel("LATENT", 4, rows, "move a nest")))
    assert display_width(lines[1][: lines[1].index(" 2")]) == display_width(
        lines[2][: lines[2].index(" 3")]
    )
    box = framed(lines, "OLED")
    assert len({display_width(line) for line in box}) == 1
