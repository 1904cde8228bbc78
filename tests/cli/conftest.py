"""Helpers of the command line's tests: a command run for its output or its one-line error,
and a start position and a short record in files.
"""

from __future__ import annotations

import json

import pytest

from companion.cli.main import main
from tests.positions import BINARYON_START

# A legal Binaryon game on 8x8: ON turns a5, OFF a1, ON e5, OFF e1.
RECORD = '[Game "binaryon"]\n[Options "size=8"]\n\n1. a5 a1\n2. e5 e1\n'


def run_ok(capsys, argv) -> str:
    """What a command printed, once it ended with exit status 0."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def run_json(capsys, argv):
    """A command's JSON answer, once it ended with exit status 0 and nothing on stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def run_error(capsys, argv) -> str:
    """The one line of a command refused (exit status 2), with nothing on stdout."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("binaryon: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "invalid literal" not in err
    return err.strip()


@pytest.fixture
def start_file(tmp_path):
    p = tmp_path / "start.txt"
    p.write_text(BINARYON_START)
    return str(p)


@pytest.fixture
def record_file(tmp_path):
    p = tmp_path / "game.txt"
    p.write_text(RECORD)
    return str(p)
