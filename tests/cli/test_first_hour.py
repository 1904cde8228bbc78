"""Issue 17, as a new user meets the command line and the package: help and version, one way to
give rule options, clear errors at start, stdin for every file argument, position errors that
point at the real problem, one line when there is no board, doctor's fixes, packaging."""

from __future__ import annotations

import binascii
import filecmp
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.main import main
from tests.paths import REPO
from tests.positions import BINARY_FIG3, BINARYON_START

ROOT = REPO
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
README = (ROOT / "README.md").read_text()

# A legal Binaryon game on 8x8: ON turns a5, OFF a1, ON e5, OFF e1.
RECORD = '[Game "binaryon"]\n[Options "size=8"]\n\n1. a5 a1\n2. e5 e1\n'


def run_ok(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def run_error(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("binaryon: ") and err.count("\n") == 1, err
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


# ── --help and --version ──────────────────────────────────────────────────────────────────


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


def test_the_version_is_written_in_one_place():
    """companion.VERSION, read by pyproject.toml: no other file spells it."""
    import companion

    assert PYPROJECT["project"]["dynamic"] == ["version"] and "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "companion.VERSION"}
    assert companion.__version__ == companion.VERSION == version("binaryon-companion")
    written = [
        p
        for p in (ROOT / "companion").rglob("*.py")
        if re.search(r"""__version__\s*=\s*["']""", p.read_text())
    ]
    assert written == []


# ── one convention for rule options ───────────────────────────────────────────────────────


def test_score_takes_rule_options_as_rule_name_value(capsys, start_file):
    by_rule = json.loads(
        run_ok(
            capsys,
            ["score", start_file, "--json", "--rule", "scoring=orthogonal", "--rule", "through=e4"],
        )
    )
    old_flags = json.loads(
        run_ok(
            capsys, ["score", start_file, "--json", "--scoring", "orthogonal", "--through", "e4"]
        )
    )
    plain = json.loads(run_ok(capsys, ["score", start_file, "--json"]))
    assert by_rule == old_flags  # the old flags still work
    assert by_rule != plain  # and the option did something


def test_binary_rule_names_take_dashes_or_underscores(capsys, tmp_path):
    p = tmp_path / "two.txt"
    p.write_text(". . . .\n. . . .\n. . . .\n. x . x\n")
    argv = ["score", str(p), "--game", "binary", "--json"]
    joined = json.loads(run_ok(capsys, argv))["black"]["score"]
    split = json.loads(run_ok(capsys, [*argv, "--rule", "empty_joins=false"]))["black"]["score"]
    dashed = json.loads(run_ok(capsys, [*argv, "--rule", "empty-joins=false"]))["black"]["score"]
    assert (joined, split, dashed) == (12, 11, 11)


def test_legal_takes_rule_options_as_rule_name_value(capsys, tmp_path):
    # e4 black with only 4 black neighbours: a free opening may take it, a majority one not
    p = tmp_path / "p1.txt"
    p.write_text("\n".join(["xxxxxxxx"] * 4 + ["oooxxooo"] + ["oooooooo"] * 3) + "\n")
    free = json.loads(run_ok(capsys, ["legal", str(p), "--mover", "on", "--json"]))["moves"]
    argv = ["legal", str(p), "--mover", "on", "--json", "--rule", "opening=majority"]
    majority = json.loads(run_ok(capsys, argv))["moves"]
    assert "e4" in free and "e4" not in majority


def test_lines_takes_the_size_as_a_rule_too(capsys):
    by_rule = json.loads(run_ok(capsys, ["lines", "--json", "--rule", "size=4"]))["lines"]
    assert by_rule == json.loads(run_ok(capsys, ["lines", "--json", "--size", "4"]))["lines"]
    assert len(by_rule) < len(json.loads(run_ok(capsys, ["lines", "--json"]))["lines"])


def test_an_unknown_rule_option_is_one_line(capsys, start_file):
    assert "unknown rule option" in run_error(capsys, ["score", start_file, "--rule", "stuck=end"])
    assert "expected NAME=VALUE" in run_error(capsys, ["score", start_file, "--rule", "first"])


def test_help_lists_rule_not_the_old_per_game_flags(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = capsys.readouterr().out
    assert "--rule NAME=VALUE" in out
    assert "--first" not in out and "--empty-joins" not in out


def test_the_readme_documents_rule_options_once_and_calls_no_option_a_bare_flag():
    assert "--rule NAME=VALUE" in README
    assert "`--empty-joins`" not in README and "`--stuck`" not in README
    assert "Rule options are flags" not in README
    for option in ("first", "opening", "reach", "scoring", "through", "empty_joins", "stuck"):
        assert f"`{option}`" in README


# ── accepted and silently ignored, now errors at start ────────────────────────────────────


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


def test_score_record_refuses_a_game_that_is_not_the_records(capsys, record_file):
    err = run_error(capsys, ["score", "--record", record_file, "--game", "binary"])
    assert err == f"binaryon: --game binary, but {record_file} is a binaryon game"
    assert json.loads(run_ok(capsys, ["score", "--record", record_file, "--json"]))["game"] == (
        "binaryon"
    )
    assert run_ok(capsys, ["score", "--record", record_file, "--game", "binaryon", "--json"])


# ── every command that reads a file takes - for stdin ─────────────────────────────────────


def test_score_record_from_stdin(capsys, monkeypatch, record_file):
    from_file = run_ok(capsys, ["score", "--record", record_file, "--json"])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RECORD.encode())))
    assert run_ok(capsys, ["score", "--record", "-", "--json"]) == from_file


def test_legal_from_stdin(capsys, monkeypatch, start_file):
    from_file = run_ok(capsys, ["legal", start_file, "--mover", "on", "--json"])
    monkeypatch.setattr("sys.stdin", io.StringIO(BINARYON_START))
    assert run_ok(capsys, ["legal", "-", "--mover", "on", "--json"]) == from_file


def test_replay_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RECORD.encode())))
    out = run_ok(capsys, ["replay", "-", "--delay", "0", "--no-colour"])
    assert "stdin: binaryon, 4 moves" in out
    assert "move 4/4: e1" in out


def test_replay_step_needs_stdin_for_enter(capsys):
    assert "--step" in run_error(capsys, ["replay", "-", "--step"])


# ── position errors that point at the problem ─────────────────────────────────────────────


def test_ragged_ranks_are_named_not_taken_for_a_board_size(capsys, tmp_path):
    p = tmp_path / "ragged.txt"
    p.write_text("x x o\nx o\n")
    err = run_error(capsys, ["score", str(p)])
    assert "line 2 has 2 squares but line 1 has 3" in err
    assert "board size" not in err


def test_a_caption_under_a_diagram_is_ignored(capsys, tmp_path, start_file):
    p = tmp_path / "captioned.txt"
    p.write_text("Fig. 1: the start\n\n" + BINARYON_START + "\nNote: both sides draw 11111111.\n")
    plain = run_ok(capsys, ["score", start_file, "--json"])
    assert run_ok(capsys, ["score", str(p), "--json"]) == plain
    binary = tmp_path / "fig3.txt"
    binary.write_text("Figure 3\n" + BINARY_FIG3 + "Black wins 49-42\n")
    out = json.loads(run_ok(capsys, ["score", str(binary), "--game", "binary", "--json"]))
    assert out["black"]["score"] == 49 and out["white"]["score"] == 42


def test_text_inside_the_diagram_is_still_an_error(capsys, tmp_path):
    rows = BINARYON_START.splitlines()
    p = tmp_path / "broken.txt"
    p.write_text("\n".join([*rows[:3], "Now the middle", *rows[3:]]) + "\n")
    assert "line 4: 'N' is not x, o or ." in run_error(capsys, ["score", str(p)])
    typo = tmp_path / "typo.txt"  # a rank with a typo is a rank, not a caption
    typo.write_text(
        BINARYON_START.replace("| x | x | x | x | x | x | x | x | 8", "x x y x x x x x")
    )
    assert "line 1: 'y' is not x, o or ." in run_error(capsys, ["score", str(typo)])


# ── start-up with no board, and the GPIO board on a desktop ───────────────────────────────


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
        cwd=ROOT,
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


# ── doctor ────────────────────────────────────────────────────────────────────────────────


def test_doctor_text_shows_every_fix_the_json_shows(tmp_path, monkeypatch):
    from companion.cli.doctor import INFO, Check, Probe, report, run_checks

    monkeypatch.setattr(Probe, "usb_serial_ports", lambda self: [])
    checks = run_checks(Probe(tmp_path))  # not a Pi, no Pico: hints only
    assert any(c.status == INFO and c.fix for c in checks)
    out = io.StringIO()
    report([*checks, Check("extra", INFO, "a hint", "do this")], out)
    text = out.getvalue()
    for c in checks:
        if c.fix:
            assert f"fix: {c.fix}" in text
    assert "fix: do this" in text


# ── packaging ─────────────────────────────────────────────────────────────────────────────


def test_optional_hardware_modules_are_declared_in_extras():
    extras = PYPROJECT["project"]["optional-dependencies"]
    declared = " ".join(" ".join(v) for v in extras.values())
    assert "smbus2" in declared and "rpi_ws281x" in declared


def test_no_package_data_names_a_missing_folder():
    data = PYPROJECT.get("tool", {}).get("setuptools", {}).get("package-data", {})
    for package, patterns in data.items():
        base = ROOT / package.replace(".", "/")
        for pattern in patterns:
            assert list(base.glob(pattern)), f"{package}: {pattern} matches nothing"


def test_pillow_is_pinned_below_the_release_that_drops_getdata():
    pillow = next(d for d in PYPROJECT["project"]["dependencies"] if d.startswith("pillow"))
    assert "<14" in pillow


def test_warnings_are_errors_with_narrow_ignores():
    rules = PYPROJECT["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert rules[0] == "error"
    for rule in rules[1:]:
        action, message, category, module = rule.split(":")[:4]
        assert action == "ignore" and message and category and module  # never a blanket ignore


def test_firmware_location_prefers_the_packaged_copy(tmp_path):
    from companion.firmware_location import firmware_dir

    package = tmp_path / "site" / "companion"
    (package / "firmware" / "boardfw").mkdir(parents=True)
    assert firmware_dir(package) == tmp_path / "site" / "firmware"  # no main.py: not firmware
    (package / "firmware" / "main.py").write_text("")
    assert firmware_dir(package) == package / "firmware"


def test_in_a_checkout_the_simulator_uses_the_top_level_firmware():
    from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR

    assert FIRMWARE_DIR == ROOT / "firmware"


def test_the_build_ships_the_firmware_and_the_built_package_simulates_it(tmp_path):
    lib = tmp_path / "lib"
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.returncode == 0, build.stderr
    shipped = lib / "companion" / "firmware"
    source = ROOT / "firmware"
    files = sorted(
        p.relative_to(source)
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )
    assert files and (Path("boardfw") / "app.py") in files
    for rel in files:
        assert filecmp.cmp(source / rel, shipped / rel, shallow=False), rel
    assert os.access(shipped / "install.sh", os.X_OK)  # the flashing script stays runnable
    # the built package, away from the checkout, runs that copy in the simulated Pico
    probe = (
        "from companion.hardware.simulated.pico_firmware import FIRMWARE_DIR\n"
        "from companion.hardware.simulated.pico_sim import SimulatedPico\n"
        "pico = SimulatedPico(size=8)\n"
        "print(FIRMWARE_DIR)\n"
        "pico.close()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(lib))
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(shipped)


def _crc_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def test_the_host_crc_is_binascii_crc_hqx():
    from companion.hardware import link_protocol as lp

    assert not hasattr(lp, "_TABLE") and not hasattr(lp, "_make_table")
    assert lp.crc16(b"123456789") == 0x29B1 == binascii.crc_hqx(b"123456789", 0xFFFF)


@given(st.binary(max_size=300))
def test_the_host_crc_is_crc16_ccitt_false(data):
    from companion.hardware import link_protocol as lp

    assert lp.crc16(data) == _crc_ccitt_false(data)
