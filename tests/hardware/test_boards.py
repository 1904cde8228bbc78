"""The board registry: every ``[board] driver`` is a factory in ``hardware.boards.BOARDS``, the
simulated board included, so choosing a board never imports a test aid."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from companion.core.config import BoardConfig, Config, ConfigError
from companion.hardware.boards import BOARDS, driver_problem, make_board
from companion.hardware.interfaces import SensorBoard
from companion.service.config_check import check_config


def test_the_simulated_board_is_made_by_its_factory_like_the_others():
    assert set(BOARDS) == {"mock", "serial", "gpio"}
    board = make_board(BoardConfig(driver="mock", size=6, kind="presence"))
    assert board.simulated and (board.size, board.kind) == (6, "presence")
    assert not SensorBoard.simulated  # a real board is not drawn in the terminal


def test_a_registered_factory_is_chosen_by_its_driver_name(monkeypatch):
    made = []

    def factory(cfg, port, clock, brightness):
        made.append((cfg.size, port, brightness))
        return make_board(replace(cfg, driver="mock"), clock)

    monkeypatch.setitem(BOARDS, "bench", factory)
    assert driver_problem("bench") is None
    board = make_board(BoardConfig(driver="bench", size=4), led_brightness=0.5)
    assert made == [(4, "", 0.5)] and board.size == 4


@pytest.mark.parametrize("driver", ["usb", "serial", "mock:x", "gpio:3"])
def test_a_driver_that_names_no_board_is_one_line(driver):
    message = f"[board] driver {driver!r}: use auto, mock, gpio or serial:PORT"
    with pytest.raises(ConfigError) as e:
        check_config(Config.default().with_overrides(board={"driver": driver}))
    assert str(e.value) == message
    with pytest.raises(ConfigError, match="^board driver"):
        make_board(BoardConfig(driver=driver))


def test_the_daemons_default_board_imports_no_test_aid():
    code = (
        "import sys\n"
        "from companion.core.config import Config\n"
        "from companion.service.daemon import Daemon\n"
        "d = Daemon(Config.default().with_overrides(board={'driver': 'mock', 'size': 4}))\n"
        "assert d.board.simulated and d.board.size == 4\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tests'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
