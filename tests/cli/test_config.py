import pytest

from companion.core.config import Config, ConfigError
from companion.games import DEFAULT_GAME
from companion.service.app import load_config
from companion.service.config_check import check_config, game_name, rule_options


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
