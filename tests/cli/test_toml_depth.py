"""A TOML file nested too deep (a config, an event file, a Binøme deck) is one line, never a
RecursionError's traceback."""

from __future__ import annotations

import pytest

from companion.cli.main import main
from companion.club.event.spec import EventError, load_event
from companion.core.config import Config, ConfigError
from companion.core.toml_text import loads
from companion.core.wire_json import MAX_DEPTH
from companion.games.binome.deck import DeckError, load_deck

ARRAYS = "x = " + "[" * 5000 + "]" * 5000 + "\n"
TABLES = "x = " + "{ y = " * 3000 + "1" + " }" * 3000 + "\n"
JUST_OVER = "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"


LOADERS = [(Config.load, ConfigError), (load_event, EventError), (load_deck, DeckError)]


@pytest.mark.parametrize("text", [ARRAYS, TABLES, JUST_OVER])
@pytest.mark.parametrize(("load", "error"), LOADERS)
def test_a_file_nested_too_deep_is_one_line(tmp_path, text, load, error):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    with pytest.raises(error) as e:
        load(path)
    line = str(e.value)
    assert "\n" not in line and f"nested deeper than {MAX_DEPTH}" in line and str(path) in line


def test_a_fair_depth_reads_as_before():
    assert loads("x = [[1, 2], { y = [3] }]\n") == {"x": [[1, 2], {"y": [3]}]}


def test_the_event_command_says_it_in_one_line(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(ARRAYS)
    assert main(["event", str(path), "show"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested deeper" in err
