"""``binaryon --help`` and ``--version``: the program described for its users, and the version
the package is installed with.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from companion.cli.main import main


def test_help_describes_the_program_for_its_users(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "Referee, scorer and record keeper" in out
    assert "--rule NAME=VALUE" in out  # the one convention, said once
    assert "companion/cli" not in out and "Each subcommand lives" not in out
    assert "--version" in out


def test_version_is_the_one_the_package_is_installed_with(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out, err = capsys.readouterr()
    assert out == f"binaryon {version('binaryon-companion')}\n" and err == ""
