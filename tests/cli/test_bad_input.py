"""Issue 18, the command line and config part: hostile input gets one line and exit 2, never a
traceback; config values that used to pass unnoticed are refused naming the file and key;
squares take ASCII digits only; a UTF-8 byte-order mark is accepted."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.core.config import Config, ConfigError
from companion.core.squares import parse_square
from companion.service.app import load_config
from tests.paths import REPO
from tests.positions import BINARYON_START

ROOT = REPO
RECORD = '[Game "binaryon"]\n[Options "size=8"]\n\n1. a5 a1\n2. e5 e1\n'


def run_error(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("binaryon: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "invalid literal" not in err
    return err.strip()


def run_cli(args, tmp_path, env_extra=None):
    """The command in a fresh interpreter (what a shell user sees), stdin empty."""
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), HOME=str(tmp_path), NO_COLOR="1")
    env.pop("BINARYON_CONFIG", None)
    env = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "companion.cli.main", *args],
        input=b"",
        capture_output=True,
        timeout=60,
        env=env,
        cwd=ROOT,
    )


def one_line(r) -> str:
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


# ── config files that are not UTF-8 ───────────────────────────────────────────────────────


def test_a_config_file_that_is_not_utf8_is_one_line_naming_it(tmp_path, capsys):
    p = tmp_path / "latin1.toml"
    p.write_bytes('[game]\nplayers = { on = "Zoë" }\n'.encode("latin-1"))
    with pytest.raises(ConfigError) as e:
        Config.load(p)
    assert str(e.value).startswith(f"{p}: not UTF-8 text")
    assert str(p) in run_error(capsys, ["sim", "--journal", "none", "--config", str(p)])


def test_binaryon_config_naming_a_file_that_is_not_utf8(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_bytes(b"\xff\xfe[\x00g\x00")
    r = run_cli(["sim", "--journal", "none"], tmp_path, {b"BINARYON_CONFIG": os.fsencode(p)})
    assert f"{p}: not UTF-8 text" in one_line(r)


def test_binaryon_config_whose_name_is_not_utf8(tmp_path):
    r = run_cli(
        ["sim", "--journal", "none"], tmp_path, {b"BINARYON_CONFIG": b"/nonexistent/\xff.toml"}
    )
    assert "no such config file" in one_line(r)


def test_a_config_file_with_a_byte_order_mark_is_read(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + b'[game]\nname = "binary"\n')
    assert Config.load(p).game.name == "binary"


def test_a_config_path_that_is_a_folder_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="is a folder"):
        Config.load(tmp_path)


# ── replay --delay ────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "1e9"])
def test_replay_delay_that_is_not_a_number_of_seconds(tmp_path, capsys, monkeypatch, delay):
    p = tmp_path / "g.txt"
    p.write_text(RECORD)
    monkeypatch.setattr("time.sleep", lambda s: pytest.fail(f"replay slept {s} s"))
    err = run_error(capsys, ["replay", str(p), "--delay", delay])
    assert err.startswith("binaryon: --delay") and "between 0 and" in err


# ── config values refused at load ─────────────────────────────────────────────────────────


def load(tmp_path, text: str) -> Config:
    p = tmp_path / "c.toml"
    p.write_text(text)
    return load_config(str(p))


@pytest.mark.parametrize(
    "text, words",
    [
        ('[journal]\npath = "   "\n', "[journal] path '   ': blank"),
        ('[journal]\npath = "~nosuchuser4711/x.sqlite"\n', "no user 'nosuchuser4711'"),
        ('[game]\nplayers = { x = "Bob" }\n', "'x' is not a player of binaryon (on, off)"),
        ('[game]\nname = "binary"\nplayers = { on = "Ana" }\n', "'on' is not a player of binary"),
        ('[game]\nplayers = { on = { name = "Ana" } }\n', "on must be a name in quotes"),
        ("[game]\nplayers = { on = 3 }\n", "on must be a name in quotes"),
        ("[board]\nrows = [5, -6, 13, 19, 26, 16, 20, 21]\n", "[board] rows: GPIO -6 is negative"),
        ("[leds]\npin = -18\n", "[leds] pin -18 is negative"),
        ("[buttons]\nconfirm = -5\n", "[buttons] confirm: GPIO -5 is negative"),
        ("[buttons]\nbuzzer = -1\n", "[buttons] buzzer: GPIO -1 is negative"),
        ("[display]\ni2c_address = -60\n", "i2c_address -60 must be 0x03..0x77"),
        ("[display]\ni2c_address = 0x80\n", "i2c_address 128 must be 0x03..0x77"),
        ("[display]\ni2c_port = -1\n", "[display] i2c_port -1 is negative"),
        ("[rules.binaryon]\nfirst = 'maybe'\n", "[rules.binaryon] first: 'maybe' is not one of"),
        ("[rules.binary]\nempty_joins = 'sometimes'\n", "[rules.binary] empty_joins"),
    ],
)
def test_config_values_that_used_to_pass_are_refused_naming_the_file(tmp_path, text, words):
    with pytest.raises(ConfigError) as e:
        load(tmp_path, text)
    message = str(e.value)
    assert message.startswith(str(tmp_path / "c.toml") + ": ")
    assert words in message
    assert "\n" not in message


def test_a_home_of_no_user_makes_no_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[journal]\npath = "~nosuchuser4711/x.sqlite"\n')
    assert "no user" in run_error(capsys, ["sim", "--config", str(cfg)])
    assert list(tmp_path.iterdir()) == [cfg]


def test_a_relative_journal_path_is_taken_from_the_config_files_folder(tmp_path, monkeypatch):
    folder = tmp_path / "etc"
    folder.mkdir()
    cfg = folder / "c.toml"
    cfg.write_text('[journal]\npath = "games/j.sqlite"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Config.load(cfg).journal_path() == folder / "games" / "j.sqlite"
    monkeypatch.chdir(tmp_path)
    assert Config.load("etc/c.toml").journal_path() == folder / "games" / "j.sqlite"


def test_absolute_home_and_none_journal_paths_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert load(tmp_path, '[journal]\npath = "/var/j.sqlite"\n').journal_path() == Path(
        "/var/j.sqlite"
    )
    assert load(tmp_path, '[journal]\npath = "~/j.sqlite"\n').journal_path() == (
        tmp_path / "home" / "j.sqlite"
    )
    assert load(tmp_path, '[journal]\npath = "none"\n').journal_path() is None


def test_good_players_pins_and_address_still_load(tmp_path):
    c = load(
        tmp_path,
        '[game]\nplayers = { on = "Ana", off = "Ben" }\n[display]\ni2c_address = 0x3D\n'
        "[buttons]\nconfirm = 0\nbuzzer = 12\n",
    )
    assert c.game.players == {"on": "Ana", "off": "Ben"} and c.display.i2c_address == 0x3D


# ── squares: ASCII digits only, and messages that say what is wrong ───────────────────────


@pytest.mark.parametrize("text", ["e²", "d⁴", "e٣", "e３", "a¹⁰"])
def test_a_square_takes_ascii_digits_only(text):
    with pytest.raises(ValueError) as e:
        parse_square(text)
    assert str(e.value) == f"{text}: not a square"


def test_legal_last_with_a_superscript_digit_says_not_a_square(capsys, tmp_path):
    p = tmp_path / "start.txt"
    p.write_text(BINARYON_START)
    base = ["legal", str(p), "--mover", "off"]
    assert run_error(capsys, [*base, "--last", "e²"]) == "binaryon: --last e²: not a square"
    assert run_error(capsys, [*base, "--last", "e٣"]) == "binaryon: --last e٣: not a square"
    assert main([*base, "--last", "e5", "--json"]) == 0  # an ordinary square still works


def test_a_record_move_with_a_superscript_digit_is_one_line(capsys, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text(RECORD.replace("2. e5 e1", "2. e5 d⁴"))
    err = run_error(capsys, ["score", "--record", str(p)])
    assert "d⁴" in err and "not a square" in err


# ── a UTF-8 byte-order mark in positions ──────────────────────────────────────────────────


def test_a_position_with_a_byte_order_mark_is_read(capsys, tmp_path, monkeypatch):
    plain = tmp_path / "plain.txt"
    plain.write_text(BINARYON_START)
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + BINARYON_START.encode())
    assert main(["score", str(plain), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main(["score", str(bom), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + BINARYON_START))
    assert main(["legal", "-", "--mover", "on", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["moves"]) == 32


def test_a_position_file_that_is_not_text_or_too_big_is_one_line(capsys, tmp_path):
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert "not a text file" in run_error(capsys, ["score", str(binary)])
    big = tmp_path / "big.txt"
    big.write_bytes(b"." * (2 << 20))
    assert "more than 1024 KiB" in run_error(capsys, ["score", str(big)])
    assert "is a folder" in run_error(capsys, ["score", str(tmp_path)])
