"""Building the daemon from the config: a missing device is reported and the referee goes on."""

import logging

from companion.core.config import Config
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.app import build_daemon, make_display, make_leds


def test_missing_oled_is_one_line_and_the_daemon_still_starts(caplog, monkeypatch):
    monkeypatch.setattr("os.path.exists", lambda p: False)  # no /dev/i2c-1
    cfg = Config.default().with_overrides(display={"driver": "ssd1306"}, journal={"path": "none"})
    caplog.set_level(logging.ERROR, logger="binaryon")
    device = make_display(cfg, simulated=False)
    assert device.width == 128 and device.height == 64  # a stand-in keeps the daemon going
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.getMessage().startswith("display: ") and "\n" not in record.getMessage()
    assert "raspi-config nonint do_i2c 0" in record.getMessage()


def test_missing_led_driver_runs_without_leds(caplog):
    cfg = Config.default().with_overrides(leds={"driver": "ws281x"})
    caplog.set_level(logging.ERROR, logger="binaryon")
    assert make_leds(cfg, MockBoard(has_leds=False)) is None
    assert any(r.getMessage().startswith("LEDs: ") for r in caplog.records)


def test_board_leds_are_used_when_the_board_has_them():
    board = MockBoard()
    assert make_leds(Config.default(), board) is board.leds()
    assert make_leds(Config.default().with_overrides(leds={"driver": "none"}), board) is None


def test_build_daemon_on_the_simulated_board(tmp_path):
    cfg = Config.default().with_overrides(
        board={"driver": "mock"}, journal={"path": str(tmp_path / "j.sqlite")}
    )
    daemon, closers = build_daemon(cfg)
    try:
        assert isinstance(daemon.board, MockBoard)
        assert type(daemon.journal).__name__ == "SqliteJournal"
    finally:
        for close in closers:
            close()
