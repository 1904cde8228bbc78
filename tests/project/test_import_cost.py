"""Each command imports only what it uses. A command runs in a fresh interpreter and
the modules it added to ``sys.modules`` are compared with what it needs (no clock involved):
``--version`` and ``--help`` load no game, no aiohttp, paho, luma or package metadata; ``score``
loads the one game it scores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal.store import SqliteJournal
from companion.referee.session import Session
from tests.paths import REPO

ROOT = REPO

# runs ``main(argv)`` and prints the modules it imported, as JSON on stdout's last line
PROBE = """
import json, sys
before = set(sys.modules)
from companion.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print()
print(json.dumps(sorted(set(sys.modules) - before)))
"""

# what every command needs: the command line, the registry (names and module paths)
CLI = {"companion", "companion.cli", "companion.cli.main", "companion.games"}
# what a position's score needs besides its game's own folder
SCORE = CLI | {
    "companion.cli.rule_args",
    "companion.cli.score",
    "companion.core",
    "companion.core.position_text",
    "companion.core.squares",
    "companion.core.text_input",
    "companion.games.base",
    "companion.games.options",
    "companion.games.positions",
    "companion.games.state",
}
NEVER = ("aiohttp", "paho", "luma", "PIL", "gpiozero", "serial", "sqlite3", "importlib.metadata")


def imported(*argv: str, stdin: str = "") -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def ours(modules: list[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] == "companion"}


def outside_the_standard_library(modules: list[str]) -> set[str]:
    top = {m.split(".")[0] for m in modules if not m.startswith("_")}  # C parts: _json, ...
    return {m for m in top if m != "companion" and m not in sys.stdlib_module_names}


@pytest.mark.parametrize("argv", [("--version",), ("--help",)])
def test_the_version_and_help_load_no_game_and_no_library(argv):
    modules = imported(*argv)
    assert ours(modules) == CLI
    assert outside_the_standard_library(modules) == set()
    assert not [m for m in modules if m.startswith(NEVER)]


@pytest.mark.parametrize(
    ("game", "position"),
    [("binaryon", "xxxxxxxx\noooooooo\n" * 4), ("binary", ". . . .\n" * 4)],
)
def test_a_score_loads_only_the_game_it_scores(game, position):
    modules = imported("score", "--game", game, "-", stdin=position)
    folder = f"companion.games.{game}"
    assert {m for m in ours(modules) if not m.startswith(folder)} == SCORE
    assert f"{folder}.spec" in modules and f"{folder}.engine" in modules
    # neither the engine's adapter and words (engine play) nor json (for --json only)
    assert not {f"{folder}.adapter", f"{folder}.words", "json"} & set(modules)
    assert outside_the_standard_library(modules) == set()
    assert not [m for m in modules if m.startswith(NEVER)]


def test_the_old_rule_flags_still_load_the_game_they_name():
    """``--empty-joins false`` (a flag from before ``--rule``) is read from the game named."""
    modules = imported(
        "score", "--game", "binary", "-", "--empty-joins", "false", stdin=". . . .\n" * 4
    )
    assert "companion.games.binary.spec" in modules
    assert not [m for m in modules if m.startswith("companion.games.binaryon")]


@pytest.mark.parametrize("command", ["history", "export", "import"])
def test_a_journal_command_loads_no_game_for_its_help(command):
    """(export and import read records: the games' shared protocol, games/base.py, no game)"""
    modules = imported(command, "--help")
    games = [m for m in ours(modules) if m.startswith("companion.games.")]
    assert not [m for m in games if m.count(".") > 2]
    assert command != "history" or games == []
    assert outside_the_standard_library(modules) == set()


def test_history_of_a_journal_not_there_yet_loads_no_game(tmp_path):
    modules = imported("history", "--journal", str(tmp_path / "none.sqlite"))
    assert not [m for m in ours(modules) if m.startswith("companion.games.")]


# what a journal command reading a cleanly closed journal never needs: the check and repair
# after an unclean stop (the WAL read by its format), a temporary file, a fingerprint
AFTER_A_CRASH = ("companion.journal.recovery", "companion.journal.wal", "tempfile", "hashlib")


def journal_with_a_game(path: Path) -> None:
    with SqliteJournal.open(path) as journal:
        session = Session("binary", journal=journal)
        session.submit(session.state.legal_moves()[0])


@pytest.mark.parametrize("argv", [("history",), ("history", "--json"), ("export", "last")])
def test_reading_a_cleanly_closed_journal_loads_no_recovery(tmp_path, argv):
    path = tmp_path / "journal.sqlite"
    journal_with_a_game(path)
    modules = imported(*argv, "--journal", str(path))
    assert "companion.journal.store" in modules  # it did read the journal
    assert not [m for m in modules if m in AFTER_A_CRASH]


def test_importing_into_a_new_journal_loads_no_recovery(tmp_path):
    journal_with_a_game(tmp_path / "journal.sqlite")
    record = tmp_path / "game.txt"
    from companion.cli.main import main

    assert (
        main(["export", "last", "--journal", str(tmp_path / "journal.sqlite"), "-o", str(record)])
        == 0
    )
    modules = imported("import", str(record), "--journal", str(tmp_path / "new.sqlite"))
    assert "companion.journal.store" in modules
    assert not [m for m in modules if m in AFTER_A_CRASH[:3]]


# What each journal command leaves unloaded for a Binaryon game without a clock: ``history``
# and ``export`` ask the game its players and options only (its spec, not its engine, its
# positions' text or its moves' words); ``import`` replays the game (its engine) but reads
# no position text and no OpenSSL, and loads the clock's modules for a game on a clock or a
# flag fall only.
ENGINE_PLAY = ("companion.games.binaryon.adapter", "companion.games.binaryon.words")
POSITIONS = ("companion.games.binaryon.positions", "companion.core.position_text")
NOT_FOR_A_LIST = (
    "companion.games.binaryon.engine",
    "companion.games.binaryon.tables",
    "companion.games.binaryon.scoring",
    *POSITIONS,
    *ENGINE_PLAY,
    "companion.games.view",
    "companion.timing",
)
# (the record's fingerprint is Python's own SHA-256: hashlib would load OpenSSL's library)
NOT_FOR_AN_IMPORT = (*POSITIONS, *ENGINE_PLAY, "companion.games.view", "companion.timing")
NOT_FOR_AN_IMPORT += ("hashlib",)


def binaryon_journal(folder: Path) -> tuple[Path, Path]:
    """A journal holding one finished Binaryon game (no clock), and its record in a file."""
    from companion.cli.main import main

    path, record = folder / "journal.sqlite", folder / "game.txt"
    with SqliteJournal.open(path) as journal:
        session = Session("binaryon", {"size": 4}, journal=journal)
        while not session.state.is_over():
            session.submit(session.state.legal_moves()[0])
    assert main(["export", "last", "--journal", str(path), "-o", str(record)]) == 0
    return path, record


def loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that are ``names`` or inside them."""
    return [m for m in modules if m in names or m.startswith(tuple(n + "." for n in names))]


@pytest.mark.parametrize("argv", [("history",), ("history", "--json"), ("export", "last")])
def test_listing_or_exporting_a_game_loads_its_spec_and_not_its_engine(tmp_path, argv):
    path, _ = binaryon_journal(tmp_path)
    modules = imported(*argv, "--journal", str(path))
    assert "companion.games.binaryon.spec" in modules  # its players, in seat order
    assert loaded(modules, NOT_FOR_A_LIST) == []
    assert not [m for m in ours(modules) if m.startswith(OTHER_GAMES)]


def test_importing_a_record_loads_the_engine_and_no_positions_or_clock(tmp_path):
    _, record = binaryon_journal(tmp_path)
    modules = imported("import", str(record), "--journal", str(tmp_path / "new.sqlite"))
    assert "companion.games.binaryon.engine" in modules  # every move replayed
    assert loaded(modules, NOT_FOR_AN_IMPORT) == []
    assert not [m for m in ours(modules) if m.startswith(OTHER_GAMES)]


OTHER_GAMES = tuple(
    f"companion.games.{name}." for name in ("binary", "wythe", "binome", "latent_binaries")
)


# a game's modules that play, read or draw a position (a list of games needs none of them)
PLAYING = {
    "binary": ("engine", "positions", "territories"),
    "wythe": ("engine", "adapter", "input", "positions", "report", "words"),
    "binome": ("engine", "input", "masked", "notation", "paper", "solo", "spoken"),
    "latent_binaries": ("engine", "input", "masked", "position", "arrange", "queries"),
}


@pytest.mark.parametrize(
    ("game", "argv"),
    [
        *((game, ("history",)) for game in ("binary", "wythe")),
        *((game, ("export", "last")) for game in ("binary", "wythe")),
        # (their exports replay them: do their moves' secrets show yet?)
        *((game, ("history",)) for game in ("binome", "latent-binaries")),
    ],
)
def test_listing_or_exporting_a_game_loads_none_of_its_play(tmp_path, argv, game):
    """A game's players are asked without a game made (Binary's and Wythe's are the same
    whatever the options, Binøme's in seat order from them, Latent Binaries' two nests), and
    nothing of theirs is drawn (no views, no input). Binøme's points are in its options: no
    deck file read, and no seed drawn (OpenSSL's library, through hashlib)."""
    path = tmp_path / "journal.sqlite"
    with SqliteJournal.open(path) as journal:
        session = Session(game, journal=journal)
        session.submit(session.state.legal_moves()[0])
    modules = imported(*argv, "--journal", str(path))
    folder = f"companion.games.{game.replace('-', '_')}"
    assert f"{folder}.spec" in modules
    playing = tuple(f"{folder}.{m}" for m in PLAYING[folder.rpartition(".")[2]])
    drawn = ("companion.games.view", "companion.games.interpreter")
    assert not loaded(modules, (*playing, *drawn, "importlib.resources", "secrets", "hashlib"))
