"""The config file: the defaults, a full file, each bad value one line naming the file and key
(a file that is not UTF-8 or is a folder, values that used to pass unnoticed), a byte-order mark
read, and the journal's path taken from the file's folder."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.config import Config, ConfigError
from companion.games import DEFAULT_GAME
from companion.service.app import load_config
from companion.service.config_check import check_config, game_name, rule_options
from tests.cli.conftest import run_error
from tests.paths import REPO


def test_defaults_need_no_file():
    c = Config.default()
    assert game_name(c) == DEFAULT_GAME == "binaryon"
    assert c.board.driver == "auto" and c.board.debounce_ms == 20 and c.board.settle_ms == 300
    assert rule_options(c)["first"] == "on"


def test_core_reads_the_file_and_the_service_checks_the_games(tmp_path):
    """core's Config reads typed values alone; what needs the games is checked above it."""
    p = tmp_path / "c.toml"
    p.write_text("[game]\nname = 'chess'\n[rules.chess]\nsize = 6\n")
    c = Config.load(p)
    assert c.game.name == "chess" and c.rules == {"chess": {"size": 6}}
    with pytest.raises(ConfigError, match="name 'chess' is not one of binaryon"):
        check_config(c)


def test_load_a_full_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text(
        """
[game]
name = "binaryon"
players = { on = "Ana", off = "Ben" }
[rules.binaryon]
first = "off"
reach = "ray"
[board]
driver = "mock"
kind = "polarity"
settle_ms = 250
[display]
driver = "dummy"
i2c_address = 0x3D
[leds]
brightness = 0.1
"""
    )
    c = load_config(str(p))
    assert c.game.players == {"on": "Ana", "off": "Ben"}
    assert rule_options(c)["first"] == "off" and rule_options(c)["reach"] == "ray"
    assert c.board.kind == "polarity" and c.board.settle_ms == 250
    assert c.display.i2c_address == 0x3D
    assert c.leds.brightness == 0.1


@pytest.mark.parametrize(
    "text, words",
    [
        ("[board]\nkind = 'laser'", "kind 'laser'"),
        ("[board]\nsize = 'eight'", "expected a whole number"),
        ("[board]\nflavour = 1", "unknown key 'flavour'"),
        ("[screen]\ndriver = 'x'", "unknown section [screen]"),
        ("[display]\ndriver = 'crt'", "driver 'crt'"),
        ("[leds]\nbrightness = 3", "brightness must be"),
        ("[game]\nname = 'chess'", "name 'chess'"),
        ("[board\n", "not valid TOML"),
        ("[board]\ndriver = 'usb'", "driver 'usb'"),
        ("[board]\nsize = 7", "size 7 must be even"),
        ("[board]\nsize = 0", "size 0 must be even"),
        ("[rules]\nsize = 6", "use a table [rules.GAME]"),
        ("[rules.chess]\nsize = 6", "[rules.chess]: no such game"),
    ],
)
def test_bad_config_is_one_clear_line(tmp_path, text, words):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(str(p))
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_bad_rule_option_names_the_section(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[rules.binaryon]\nfirst = 'maybe'\n")
    with pytest.raises(ConfigError) as e:  # at load, naming the file
        load_config(str(p))
    assert str(e.value).startswith(f"{p}: [rules.binaryon] first")


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        Config.load(tmp_path / "nope.toml")


def test_overrides_keep_the_rest():
    c = Config.default().with_overrides(board={"driver": "mock"}, rules={"binaryon": {"size": 6}})
    assert c.board.driver == "mock" and c.board.settle_ms == 300
    assert rule_options(c)["size"] == 6
    with pytest.raises(ConfigError):
        Config.default().with_overrides(board={"kind": "nope"})


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
        cwd=REPO,
    )


def one_line(r) -> str:
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


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
