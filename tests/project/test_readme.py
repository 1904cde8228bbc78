"""The README's examples are checked, so they keep working."""

import re
import tomllib

from companion.cli.main import main
from companion.core.config import Config
from companion.service.config_check import check_config, rule_options
from tests.paths import REPO

README = (REPO / "README.md").read_text()


def test_title_and_one_sentence_then_the_two_commands_and_ci_runs_the_test_one():
    lines = README.splitlines()
    assert lines[0] == "# Binaryon companion"
    block = lines.index("```sh")
    sentence = " ".join(lines[1:block]).strip()
    assert sentence.endswith(".") and sentence.count(". ") == 0  # one sentence
    assert lines[block + 1].startswith("./run ") and lines[block + 2].startswith("./run-tests ")
    assert lines[block + 3] == "```"
    ci = (REPO / ".ci" / "run").read_text()
    assert "exec ./run-tests" in ci


def test_the_config_example_is_a_valid_config():
    block = re.search(r"```toml\n(.*?)```", README, re.S).group(1)
    config = check_config(Config.from_dict(tomllib.loads(block), source="README"), "README")
    assert config.game.players == {"on": "Ana", "off": "Ben"}
    assert rule_options(config)["first"] == "on"


def test_the_first_hour_comes_first_and_the_figures_live_in_docs_performance():
    first = "\n".join(README.splitlines()[:150])
    for heading in (
        "## The first hour",
        "### Set-up",
        "### The games",
        "### The pages",
        "### The clock",
        "### Club night, quick start",
        "### Where to read more",
    ):
        assert f"\n{heading}\n" in first, heading
    assert "binaryon club setup" in first and "binaryon club --broker" in first
    counts = r"[\d,]+ passed, \d+ skipped"  # the x86 run's
    assert re.search(counts, " ".join(first.split()))
    assert "## Benchmarks" not in README and "](docs/performance.md" in first
    assert not re.search(r"^\|.*\d (ms|MB|µs) ", README, re.M)  # no table of figures here
    performance = (REPO / "docs" / "performance.md").read_text()
    for script in re.findall(r"benchmarks/(bench_\w+\.py)", README):
        assert script in performance
    assert "benchmarks/bench_startup.py" in performance and "| Measure |" in performance


def test_the_readme_has_a_position_to_copy_and_it_scores_as_it_says(tmp_path, capsys):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Scoring real games") :]
    sample = section[
        section.index("```text\n") + 8 : section.index("```\n", section.index("```text"))
    ]
    path = tmp_path / "position.txt"
    path.write_text(sample)
    assert main(["score", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "OFF wins"
    assert "binaryon score position.txt                 # OFF wins" in section
