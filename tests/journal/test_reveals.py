"""``history``/``export`` show a secret move's full name when the GAME says its secrets are
public (``GameState.revealed()``), not when the journal's status says the game has ended."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.cli.main import main
from companion.games import register, unregister
from companion.games.base import Outcome
from companion.games.options import Option
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal
from tests.stub_games.hidden import HiddenSpec, HiddenState


@dataclass(frozen=True)
class RevealState(HiddenState):
    """The hidden game with its own reveal: ``early`` shows the treasures once both are
    hidden (long before the end), ``never`` not even at the end."""

    game = "reveal-hidden"
    reveal: str = "early"

    def revealed(self) -> bool:
        return self.reveal == "early" and not self.setting_up


class RevealSpec(HiddenSpec):
    name = "reveal-hidden"
    options = (Option("reveal", "early", "when the treasures are shown", ("early", "never")),)

    def new(self, **options):
        return RevealState(reveal=options.get("reveal", "early"))


SPEC = RevealSpec()  # registered by the fixture below as this module
HIDES = [
    MoveEntry(0, "hide left a1", "left", "hide left"),
    MoveEntry(1, "hide right b2", "right", "hide right"),
]


@pytest.fixture
def game():
    register(SPEC.name, __name__)
    yield SPEC.name
    unregister(SPEC.name)


def export(path, capsys) -> str:
    capsys.readouterr()
    assert main(["export", "last", "--journal", str(path)]) == 0
    return capsys.readouterr().out


def test_a_game_in_progress_that_revealed_its_secrets_exports_them(game, tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        gid = j.begin(game, {"reveal": "early"}, {})
        j.commit_turn(gid, 0, [*HIDES, MoveEntry(2, "c3", "left")], None)
        assert j.load(gid).status == "in_progress"
    out = export(path, capsys)
    assert "hide left a1" in out and "hide right b2" in out and "{revealed}" in out


def test_a_finished_game_that_keeps_its_secrets_exports_public_names(game, tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        gid = j.begin(game, {"reveal": "never"}, {})
        j.commit_turn(gid, 0, [*HIDES, MoveEntry(2, "b2", "left")], Outcome("left", "LEFT wins"))
        assert j.load(gid).status == "finished"
    out = export(path, capsys)
    assert "hide left" in out and "a1" not in out and "{hidden}" in out
