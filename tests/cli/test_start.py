"""Starting ``binaryon run`` or ``sim``: what the options ask is checked at once (players,
board kinds, rule options; one line, exit status 2), no board or no GPIO said once in one
line, a journal another companion holds refused naming it (``sim`` and the service alike),
and the line a damaged journal gets says which copies were kept.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from companion.cli.main import main
from companion.core.config import Config
from companion.journal.api import RecoveryReport
from tests.cli.conftest import run_error
from tests.paths import REPO


def test_a_recovery_report_says_which_copies_were_kept(tmp_path):
    main_copy, wal_copy = tmp_path / "j.corrupt-1", tmp_path / "j.corrupt-1-wal"
    line = RecoveryReport(tmp_path / "j", "bad page", []).line()
    assert "no copy of the damaged file could be kept" in line and "?" not in line
    line = RecoveryReport(tmp_path / "j", "bad page", [wal_copy]).line()
    assert f"only of its WAL: {wal_copy}" in line and "(and its -wal)" not in line
    line = RecoveryReport(tmp_path / "j", "bad page", [main_copy, wal_copy]).line()
    assert f"kept as {main_copy} (and its -wal)" in line


def test_a_second_companion_on_one_journal_is_told_to_use_its_own(tmp_path, capsys):
    """Two simulated boards on one machine: the second is refused in one line that names the
    first by its whole command line and says each needs a journal."""
    path = tmp_path / "j.sqlite"
    holding = (
        "import sys, time\n"
        "from companion.journal.files import acquire_lock\n"
        "acquire_lock(sys.argv[1])\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    first = subprocess.Popen(
        [sys.executable, "-c", holding, str(path), "--club", "mqtt://127.0.0.1:1883",
         "--board-name", "t1"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert first.stdout.readline().strip() == "held"
        code = main(["sim", "--journal", str(path), "--display", "none", "--board-name", "t2",
                     "--club", "mqtt://127.0.0.1:1883"])  # fmt: skip
        err = capsys.readouterr().err.strip()
        assert code == 2 and "\n" not in err
        assert f"in use by process {first.pid} (" in err
        assert "--board-name t1)" in err  # the whole command line, not its first two words
        assert err.endswith("need a journal each: --journal FILE (or --journal none)")
    finally:
        first.kill()
        first.wait()
        first.stdout.close()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--player", "x=Bob"], "binaryon has no player 'x' (its players: on, off)"),
        (["--game", "binary", "--player", "on=Ana"], "binary has no player 'on'"),
        (["--player", "on="], "give a name"),
        (["--kind", "presence"], "--kind presence: binaryon is played on switch or polarity"),
        (["--game", "binary", "--rule", "first=off"], "--rule unknown rule option"),
    ],
)
def test_sim_refuses_what_it_used_to_ignore(capsys, args, words):
    assert words in run_error(capsys, ["sim", "--journal", "none", *args])


def test_players_and_kinds_that_fit_the_game_are_taken():
    from argparse import Namespace

    from companion.cli.daemon_options import config_from_args

    def args(**given):
        base = dict(
            config=None, game=None, board=None, kind=None, size=None, display=None, web=None
        )
        return Namespace(**{**base, "journal": "none", "rule": [], "player": [], **given})

    c = config_from_args(args(game="binary", kind="presence", player=["Black=Ana"]))
    assert c.game.players == {"black": "Ana"} and c.board.kind == "presence"
    assert config_from_args(args(player=["on=Ana", "off=Ben"])).game.players == {
        "on": "Ana",
        "off": "Ben",
    }


def test_the_config_files_players_do_not_follow_another_game(tmp_path, monkeypatch):
    from argparse import Namespace

    from companion.cli.daemon_options import config_from_args

    cfg = tmp_path / "c.toml"
    cfg.write_text('[game]\nplayers = { on = "Ana", off = "Ben" }\n')
    base = dict(config=str(cfg), board=None, kind=None, size=None, display=None, web=None)
    c = config_from_args(Namespace(**base, journal="none", game="binary", rule=[], player=[]))
    assert c.game.name == "binary" and c.game.players == {}


def test_no_board_found_is_said_once(tmp_path):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), HOME=str(tmp_path), NO_COLOR="1")
    env.pop("BINARYON_CONFIG", None)
    r = subprocess.run(
        [sys.executable, "-m", "companion.cli.main", "run", "--journal", "none"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=REPO,
    )
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if "no board" in line]
    assert said == ["binaryon: no board found: using the simulated board"]


no_gpio_here = pytest.mark.skipif(
    any(importlib.util.find_spec(m) for m in ("lgpio", "RPi")), reason="a GPIO library is here"
)


def _stand_in_daemon(monkeypatch):
    """build_daemon replaced: reaching it shows the start was not stopped (and never waits)."""
    from companion.hardware.interfaces import HardwareError
    from companion.service import app

    def built(config, **kw):
        raise HardwareError("reached the daemon")

    monkeypatch.setattr(app, "build_daemon", built)


@no_gpio_here
def test_gpio_board_without_gpio_is_one_line_and_exit_2(capsys, monkeypatch):
    _stand_in_daemon(monkeypatch)
    err = run_error(capsys, ["run", "--board", "gpio", "--journal", "none", "--display", "none"])
    assert err.startswith("binaryon: board gpio: no GPIO access")
    assert err.endswith("(--wait to wait for it)")


@no_gpio_here
def test_gpio_board_with_wait_goes_on_to_wait(capsys, monkeypatch):
    _stand_in_daemon(monkeypatch)
    argv = ["run", "--board", "gpio", "--journal", "none", "--display", "none", "--wait"]
    assert run_error(capsys, argv) == "binaryon: reached the daemon"


def test_a_second_companion_on_the_same_journal_is_refused_naming_the_first(tmp_path):
    import os

    import pytest

    from companion.journal.api import JournalError
    from companion.service.app import build_daemon

    cfg = Config.default().with_overrides(
        board={"driver": "mock"}, journal={"path": str(tmp_path / "j.sqlite")}
    )
    first, closers = build_daemon(cfg, simulated=True)
    try:
        with pytest.raises(JournalError, match=f"in use by process {os.getpid()}"):
            build_daemon(cfg, simulated=True)
    finally:
        for close in closers:
            close()
    second, closers = build_daemon(cfg, simulated=True)  # free again once the first closed
    for close in closers:
        close()
