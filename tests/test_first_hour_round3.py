"""What a new user tripped on in the first hour, round 3 (issue 39): Binøme in the terminal,
results that read right, the terminal's status line and the board's buttons alone."""

from __future__ import annotations

import io
import random

import pytest

from companion.cli.main import main
from companion.journal.store import SqliteJournal
from companion.referee.clock import TimeControl
from companion.referee.session import Session
from companion.service.simulator import Simulator

from .conftest import step


def sim(make_daemon, clock, game="binaryon", rules=None, colour=False):
    d = make_daemon(game=game, rules=rules)
    out = io.StringIO()
    s = Simulator(d, d.board, out=out, colour=colour)
    s.settle = lambda timeout=10.0: step(d, clock, 0.5)  # type: ignore[method-assign]
    step(d, clock)
    return d, s, out


def typed(s: Simulator, out: io.StringIO, *lines: str) -> str:
    """What the terminal printed for ``lines``."""
    start = len(out.getvalue())
    for line in lines:
        s.handle_line(line)
    return out.getvalue()[start:]


# ------------------------------------------------------------------ 1. Binøme in the terminal


def test_binome_shows_your_sheet_and_takes_write_and_bare_cells(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "binome", {"players": "Ann,Bob"})
    shown = typed(s, out, "show")
    digit = d.session.state.digit
    assert "ANN's page: your number 1: ??;" in shown  # the sheet of the first to act
    assert f"your digit to write: {digit}" in shown
    assert "ANN to play: type a move, e.g. write" in shown
    typed(s, out, "1a")  # Ann's: the first in seat order to write
    assert d.session.played[-1].name == "Ann write 1a"
    shown = typed(s, out, "write 2b")  # now Bob's
    assert d.session.played[-2].name == "Bob write 2b"  # then the referee rolls again
    assert "ANN's page: your number 1: " + str(digit) + "?;" in shown
    typed(s, out, "move write 1b")  # `move` is a command, not a player's name
    assert d.session.played[-1].name == "Ann write 1b"
    refused = typed(s, out, "bob write 2b")  # a used cell: the reason, not "see your page"
    assert d.session.played[-1].name == "Ann write 1b"
    assert "BOB: 2b: already written" in refused and "see your page" not in refused


def test_binome_solo_types_for_the_only_person_and_claims_and_passes(make_daemon, clock):
    d, s, out = sim(make_daemon, clock, "binome", {"players": "Ann", "solo": 2, "seed": 4})
    state = d.session.state
    while state.phase == "write":
        free = next(m for m in state.legal_moves("Ann"))
        typed(s, out, free.name.split(" ", 1)[1])  # "write 3a", without her name
        state = d.session.state
    assert state.phase == "claim"
    while d.session.state.turn != "Ann":
        step(d, clock, 1)
    state = d.session.state
    unused = set(state.unused_numbers("Ann"))
    not_hers = next(n for n in range(100) if n not in unused)
    said = typed(s, out, f"claim {not_hers:02d}")
    turn_line = next(line for line in said.splitlines() if line.startswith("turn:"))
    assert turn_line.split(" | ")[1] in (
        f"ANN: {not_hers:02d}: not on your sheet",
        "ANN: no eligible number: pass",
    )
    before = len(d.session.played)
    typed(s, out, "pass")
    assert d.session.played[before].name == "Ann pass"


# ------------------------------------------------------------------ 2. no duplicate imports


@pytest.mark.parametrize(
    "game, options, clock, moves",
    [
        ("binaryon", {}, None, 12),
        ("wythe", {}, "5:00+3", 12),
        ("binome", {"players": "Ann,Bob"}, None, 10_000),  # to its end: its secrets shown
    ],
)
def test_a_record_exported_from_this_journal_is_refused_when_imported_into_it(
    tmp_path, capsys, game, options, clock, moves
):
    """`export N -o g.txt` then `import g.txt` into the same journal: refused as the game it
    came from (docs/records.md), finished or not; --allow-duplicate imports it all the same;
    another journal takes it."""
    path = tmp_path / "j.sqlite"
    journal = SqliteJournal.open(path)
    control = TimeControl.parse(clock) if clock else None
    s = Session(game, options, journal, rng=random.Random(3), time_control=control)
    rng = random.Random(5)
    while len(s.played) < moves and not s.state.is_over():
        player = s.state.turn or sorted(s.state.to_act)[0]
        assert s.submit(rng.choice(list(s.state.legal_moves(player))), player).accepted
    journal.close()
    record = tmp_path / "g1.txt"
    assert main(["export", str(s.game_id), "-o", str(record), "--journal", str(path)]) == 0
    capsys.readouterr()
    assert main(["import", str(record), "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"binaryon: {record}: already in the journal as game 1 (--allow-duplicate)"
    assert main(["import", str(record), "--journal", str(tmp_path / "other.sqlite")]) == 0
    assert main(["import", str(record), "--allow-duplicate", "--journal", str(path)]) == 0
    with SqliteJournal.open(path, read_only=True) as j:
        assert j.last_id() == 2
