"""The README's examples are checked, so they keep working."""

import re
import tomllib
from pathlib import Path

from companion.core.config import Config
from companion.service.config_check import check_config, rule_options

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_title_and_one_sentence_then_the_two_commands_and_ci_runs_the_test_one():
    lines = README.splitlines()
    assert lines[0] == "# Binaryon companion"
    block = lines.index("```sh")
    sentence = " ".join(lines[1:block]).strip()
    assert sentence.endswith(".") and sentence.count(". ") == 0  # one sentence
    assert lines[block + 1].startswith("./run ") and lines[block + 2].startswith("./run-tests ")
    assert lines[block + 3] == "```"
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "exec ./run-tests" in ci


def test_the_config_example_is_a_valid_config():
    block = re.search(r"```toml\n(.*?)```", README, re.S).group(1)
    config = check_config(Config.from_dict(tomllib.loads(block), source="README"), "README")
    assert config.game.players == {"on": "Ana", "off": "Ben"}
    assert rule_options(config)["first"] == "on"
