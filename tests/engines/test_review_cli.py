"""``binaryon review [ID] [--json]``: the last finished game by default, a one-line refusal for
a game in progress, an unknown id or a game without an engine, progress on stderr, JSON for
scripts."""

from __future__ import annotations

import json
import random

from companion.cli.main import main
from companion.cli.review import curve_line
from companion.games import get_spec
from companion.journal.api import MoveEntry
from companion.journal.store import SqliteJournal


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def played(game, options, seed):
    spec = get_spec(game)
    state = spec.new(**spec.resolve(options))
    rng = random.Random(seed)
    names = []
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        names.append(move.name)
        state = state.play(move)
    return names, state


def finished(journal, game, options, players, seed):
    names, state = played(game, options, seed)
    return journal.import_game(
        game, get_spec(game).resolve(options), players, [(n, None) for n in names],
        started=None, ended=None, status="finished", outcome=state.outcome(),
    )  # fmt: skip


def test_the_last_finished_game_is_reviewed_by_default(capsys, tmp_path):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        finished(j, "wythe", {"size": 4}, {"black": "Ana", "white": "Ben"}, 1)
        last = finished(j, "binaryon", {"size": 4}, {"on": "Cy", "off": "Di"}, 2)
        j.begin("binaryon", get_spec("binaryon").resolve({"size": 4}), {})  # in progress
    code, out, err = run(capsys, "review", "--journal", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"game {last}, binaryon: ")
    names, _ = played("binaryon", {"size": 4}, 2)
    moves = [line.split()[2] for line in lines[1 : 1 + len(names)]]
    assert moves == names
    assert any(line.startswith("turning points: ") for line in lines)
    assert any(line.startswith("ON (Cy): ") for line in lines)
    assert f"reviewing game {last}: {len(names)}/{len(names)} moves" in err


def test_json_for_scripts(capsys, tmp_path):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id = finished(j, "binary", {"size": 4}, {"black": "Ana", "white": "Ben"}, 5)
    code, out, _ = run(capsys, "review", str(game_id), "--json", "--journal", str(path))
    assert code == 0
    review = json.loads(out)
    names, _ = played("binary", {"size": 4}, 5)
    assert review["id"] == game_id and review["game"] == "binary"
    assert [m["move"] for m in review["moves"]] == names
    assert len(review["curve"]) == len(names) + 1
    assert {m["label"] for m in review["moves"]} <= {
        "best", "good", "inaccuracy", "mistake", "blunder",
    }  # fmt: skip


def test_a_game_in_progress_and_an_unknown_id_are_refused_in_one_line(capsys, tmp_path):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        live = j.begin("binaryon", get_spec("binaryon").resolve({"size": 4}), {})
        j.commit_turn(live, 0, [MoveEntry(0, "a4", "on")])
    for args, words in [
        ((str(live),), f"game {live} is in progress: only a finished game is reviewed"),
        (("99",), "no game 99 in the journal"),
        (("x1",), "is not a game id"),
    ]:
        code, out, err = run(capsys, "review", *args, "--journal", str(path))
        assert code == 2 and out == ""
        assert err.startswith("binaryon: ") and words in err and err.count("\n") == 1, err


def test_no_finished_game_is_said(capsys, tmp_path):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        j.begin("binaryon", get_spec("binaryon").resolve({"size": 4}), {})
    code, _, err = run(capsys, "review", "--journal", str(path))
    assert code == 2 and "no finished game in the journal" in err


def test_the_curve_line_rises_with_the_first_seats_chances():
    assert curve_line([0.0, 0.5, 1.0]) == "▁▅█"
    line = curve_line([i / 199 for i in range(200)], width=20)
    assert len(line) <= 21 and line[0] == "▁" and line[-1] == "█"
    assert list(line) == sorted(line)


def _secret_game(journal, seed=1, plies=6):
    """A Latent Binaries game cut short (as by a flag) after ``plies`` moves, its secret moves
    journaled with their public names: finished, its secrets never revealed."""
    from companion.games.base import Outcome

    spec = get_spec("latent-binaries")
    options = spec.resolve({})
    state = spec.new(**options)
    rng = random.Random(seed)
    rows, secrets = [], []
    for _ in range(plies):
        player = sorted(state.to_act)[0] if state.to_act else None
        move = rng.choice(state.legal_moves(player) if player else state.legal_moves())
        public = state.public_name(move)
        if public != move.name:
            secrets.append(move.name)
        rows.append((move.name, None, state.actor(move), public if public != move.name else None))
        state = state.play(move)
    assert secrets and not state.revealed()
    outcome = Outcome((state.players[0],), "won on time", {"on_time": state.players[1]})
    game_id = journal.import_game(
        "latent-binaries", options, {}, rows, started=None, ended=None, status="finished",
        outcome=outcome,
    )  # fmt: skip
    return game_id, secrets


def test_a_game_that_kept_its_secrets_is_not_reviewed_nor_are_they_shown(capsys, tmp_path):
    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id, secrets = _secret_game(j)
    for args in ((str(game_id),), (str(game_id), "--json"), ()):
        code, out, err = run(capsys, "review", *args, "--journal", str(path))
        assert code == 2 and out == ""
        assert f"game {game_id} has not revealed its secrets: no review before" in err
        assert not any(secret in err for secret in secrets)


def test_the_page_refuses_it_too(tmp_path):
    """The table page's backend asks the same check (``views.reviewable.refusal``)."""
    from companion.views.reviewable import refusal

    path = tmp_path / "j.sqlite"
    with SqliteJournal.open(path) as j:
        game_id, _ = _secret_game(j, seed=2)
        entry = j.load(game_id)
    assert refusal(entry) == f"game {game_id} has not revealed its secrets: no review before"
