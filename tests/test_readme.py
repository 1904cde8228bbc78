"""The README's examples are checked, so they keep working."""

import re
import tomllib
from pathlib import Path

from companion.core.config import Config

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_first_lines_are_the_two_commands_and_ci_runs_the_test_one():
    first = README.splitlines()[:4]
    assert first[1].startswith("./run ") and first[2].startswith("./run-tests ")
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "exec ./run-tests" in ci


def test_the_config_example_is_a_valid_config():
    block = re.search(r"```toml\n(.*?)```", README, re.S).group(1)
    config = Config.from_dict(tomllib.loads(block), source="README")
    assert config.game.players == {"on": "Ana", "off": "Ben"}
    assert config.rule_options()["first"] == "on"
