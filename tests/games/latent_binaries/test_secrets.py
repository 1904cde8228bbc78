"""Latent Binaries' hidden pawns never leak through damage: a damaged secret row in the
journal, or a secret move that cannot be replayed when a game resumes, is named by its
public name in the recovery line, the history's note, the log and the error.
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from companion.cli.main import main
from companion.journal.api import MoveEntry, NullJournal, SavedGame
from companion.journal.store import SqliteJournal
from companion.referee.session import Session


def test_a_damaged_secret_row_is_described_by_its_public_name(tmp_path, capsys, caplog):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        s = Session("latent-binaries", journal=j, rng=random.Random(1))
        s.submit(s.state.legal_moves()[0])
        first = s.played[0]
        assert first.public != first.name  # a setup: where the pawn is, not its colours
    damaged = first.name.replace(first.name[-2:], "xx")
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO events (game_id, kind, ply, move, at, player, public)"
        " VALUES (1, 'move', 1, ?, NULL, 'rainbow', ?)",
        (damaged, first.public),
    )
    db.execute("UPDATE games SET ply = 2")
    db.commit()
    db.close()
    j = SqliteJournal.open(path)
    j.close()
    assert j.recovery is not None and first.public in j.recovery.problem
    assert main(["history", "--json", "--journal", str(path)]) == 0
    note = json.loads(capsys.readouterr().out)[0]["note"]
    for text in (caplog.text, note, j.recovery.problem):
        assert damaged not in text and damaged.split()[-1] not in text
        assert first.name.split()[-1] not in text


def test_a_game_that_cannot_resume_names_its_damaged_secret_move_by_its_public_name():
    s = Session("latent-binaries", journal=NullJournal(), rng=random.Random(1))
    s.submit(s.state.legal_moves()[0])
    first = s.played[0]
    damaged = first.name.rsplit("/", 1)[0] + "/blux"
    saved = SavedGame(1, "latent-binaries", dict(s.options), [damaged], {},
                      [MoveEntry(0, damaged, first.player, first.public)])  # fmt: skip
    with pytest.raises(ValueError) as caught:
        Session.resume(saved, NullJournal())
    assert first.public in str(caught.value) and "blux" not in str(caught.value)
