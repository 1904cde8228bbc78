"""Records come back whatever the players are called: every game, exported from the journal,
imported into another, replayed on the simulated board and scored, with names of any case,
length and characters (Binøme's players are named by their ids: Ann, Zoë, Jean-Luc, Result)."""

from __future__ import annotations

import contextlib
import io
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.games import get_spec
from companion.journal.api import NullJournal
from companion.journal.rows import FINISHED
from companion.journal.store import SqliteJournal
from companion.records.check import read_record
from companion.records.format import Record, format_record
from companion.referee.session import Session

LATENT = [
    ("setup b2 red/yellow", "rainbow"), ("setup b6 cyan/magenta", "xeno"),
    ("setup c2 green/blue", "rainbow"), ("setup c6 orange/purple", "xeno"),
    ("setup d2 red/green", "rainbow"), ("setup d6 cyan/orange", "xeno"),
    *((name, None) for name in (
        "c2-c3", "challenge c6 purple", "marker b1-d1", "b6-a6", "challenge c3 green",
        "marker c7-e7", "c3-c4", "challenge c6 orange", "order c6 orange/purple",
        "marker e7-c7", "a6-a5", "challenge d2 red", "end", "marker c1-e1", "c4-c5")),
]  # fmt: skip
SMALL = {"binaryon": {"size": 4}, "binary": {"size": 4}, "wythe": {"size": 4}}

# what a person may type as a name: any printable text, quotes, spaces, accents, emoji
people = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda s: s.strip()
)
# a Binøme player's id: letters (any script), digits, - and _, in any case, tag words too
binome_id = st.one_of(
    st.sampled_from(
        [
            "Ann",
            "ann",
            "ANN",
            "Result",
            "game",
            "Summary",
            "Options",
            "Date",
            "Zoë",
            "Jean-Luc",
            "ÉLODIE",
            "李",
            "Ωmega_2",
            "x",
            "AbCdEfGhIjKl",
        ]
    ),
    st.text(st.characters(whitelist_categories=("Lu", "Ll", "Lo", "Nd")), min_size=1, max_size=12),
).filter(  # fmt: skip
    lambda s: (
        not s.isdigit()
        and s.lower() not in {"roll", "draw", "write", "claim", "pass"}
        and all(c.isalnum() or c in "-_" for c in s)
    )
)


def finished_game(
    journal, game: str, names: list[str], seed: int, ids: list[str] | None = None
) -> Session:
    """A finished game of ``game`` played into ``journal``, its players called ``names``
    (Binøme's seated as ``ids``)."""
    rng = random.Random(seed)
    options = dict(SMALL.get(game, {}))
    if ids:
        options["players"] = ",".join(ids)
    spec = get_spec(game)
    ids = spec.players(spec.resolve(options))
    people = dict(zip(ids, names, strict=False))
    s = Session(game, options, journal, players=people, rng=random.Random(seed))
    if game == "latent-binaries":
        for name, player in LATENT:
            assert s.submit_name(name, player).accepted, name
        return s
    while not s.state.is_over():
        acting = sorted(s.state.to_act)
        player = acting[0] if len(acting) > 1 else None
        moves = list(s.state.legal_moves(player))
        assert s.submit(rng.choice(moves), player).accepted
    return s


def quiet(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


def comparable(entry):
    return (entry.game, entry.options, entry.players, entry.move_names, entry.status,
            entry.result, entry.summary, entry.detail)  # fmt: skip


@pytest.mark.parametrize("game", ["binaryon", "binary", "wythe", "binome", "latent-binaries"])
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_export_import_replay_score_for_any_names(game, data, seed):
    ids = None
    if game == "binome":
        ids = data.draw(
            st.lists(binome_id, min_size=2, max_size=4, unique_by=str.lower), label="ids"
        )
    count = len(ids) if ids else 2
    names = data.draw(st.lists(people, min_size=count, max_size=count), label="names")
    with tempfile.TemporaryDirectory() as tmp:
        first, second = Path(tmp) / "a.sqlite", Path(tmp) / "b.sqlite"
        record = Path(tmp) / "game.txt"
        journal = SqliteJournal.open(first)
        s = finished_game(journal, game, names, seed, ids)
        original = journal.load(s.game_id)
        journal.close()
        assert original.status == FINISHED
        export = ["export", str(s.game_id), "-o", str(record), "--journal", str(first)]
        assert quiet(export)[0] == 0
        code, said = quiet(["import", str(record), "--journal", str(second)])
        assert code == 0, said
        copy = SqliteJournal.open(second)
        assert comparable(copy.load(1)) == comparable(original)
        copy.close()
        code, said = quiet(["replay", str(record), "--no-colour", "--delay", "0"])
        assert code == 0, said
        assert f"end of record: {s.state.outcome().summary}" in said
        code, said = quiet(["score", "--record", str(record)])
        assert code == 0, said


def test_a_binome_game_of_ann_bob_and_cy_comes_back(tmp_path):
    first, record = tmp_path / "a.sqlite", tmp_path / "game.txt"
    journal = SqliteJournal.open(first)
    s = finished_game(journal, "binome", ["Ann", "Bob", "Cy"], 7, ["Ann", "Bob", "Cy"])
    journal.close()
    assert quiet(["export", "1", "-o", str(record), "--journal", str(first)])[0] == 0
    code, said = quiet(["import", str(record), "--journal", str(tmp_path / "b.sqlite")])
    assert code == 0 and f"binome, {len(s.moves)} moves, {s.state.outcome().summary}" in said
    code, said = quiet(["score", "--record", str(record)])
    assert code == 0 and said.startswith(s.state.outcome().summary), said


def test_a_record_won_by_a_capitalised_name_reads_back(tmp_path, capsys):
    s = Session("binome", {"players": "Ann,Bob"}, NullJournal(), rng=random.Random(5))
    rng = random.Random(5)
    while not s.state.is_over():
        player = sorted(s.state.to_act)[0]
        s.submit(rng.choice(s.state.legal_moves(player)), player)
    winner = s.state.outcome().winner
    assert winner in ("Ann", "Bob")
    rec = Record(game="binome", options=s.options, moves=s.moves, status="finished")
    rec.result = winner
    f = tmp_path / "r.txt"
    f.write_text(format_record(rec))
    again, _ = read_record(f)
    assert again.result == winner
