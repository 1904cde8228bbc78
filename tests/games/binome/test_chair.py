"""Binøme at a table where not everyone has a phone: the chairperson enters those players'
sheets and claims on the chair's own page; nobody else can."""

from __future__ import annotations

import json

import pytest

from companion.games import get_spec
from tests.games.binome.test_daemon import make


def test_the_option_names_players_and_refuses_strangers():
    spec = get_spec("binome")
    assert spec.resolve({"players": "Ann,Bob,Cy", "phoneless": "cy"})["phoneless"] == "Cy"
    with pytest.raises(ValueError, match="phoneless: 'Dee' is not a player"):
        spec.resolve({"players": "Ann,Bob,Cy", "phoneless": "Dee"})


def test_the_chair_enters_for_a_player_without_a_phone(clock):
    d = make(clock, {"players": "Ann,Bob,Cy", "phoneless": "Cy", "chair": "Ann"})
    state = d.session.state
    assert state.chair == "Ann" and state.phoneless == {"Cy"}
    chair = d.session.spec.view(state, "Ann")
    other = d.session.spec.view(state, "Bob")
    assert any(line.startswith("Cy (no phone): ") for line in chair.private)
    assert not any("Cy" in line for line in other.private)
    entries = [(name, label) for name, label in chair.actions if label.startswith("for Cy: ")]
    assert entries and all(name.startswith("Cy ") for name, _ in entries)
    assert not any(name.startswith("Cy ") for name, _ in other.actions)
    # Bob's page may not enter for Cy; the chair's may, and the move is Cy's
    name = entries[0][0]
    refused = d.submit(name, "Bob")
    assert not refused.accepted and refused.refusal.code == "wrong-player"
    accepted = d.submit(name, "Ann")
    assert accepted.accepted and d.session.played[-1].player == "Cy"
    assert "Cy" not in d.session.state.to_act
    # the table never sees what the chair entered
    assert name not in json.dumps(d.web_view(None))
    assert name not in json.dumps(d.web_view("Bob"))
