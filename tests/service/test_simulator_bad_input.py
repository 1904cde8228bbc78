"""Issue 18's simulator items: typed input as a hostile tester types it."""

from __future__ import annotations

import io

from companion.core.config import Config
from companion.service.daemon import Daemon
from companion.service.simulator import Simulator


def simulator():
    cfg = Config.default().with_overrides(board={"driver": "mock"})
    daemon = Daemon(cfg)
    daemon.start()
    out = io.StringIO()
    return daemon, Simulator(daemon, daemon.board, out=out, colour=False), out


def test_the_same_square_on_consecutive_lines_is_refused_as_the_same_square():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("e5\nd4\nd4\n"))
        assert daemon.session.moves == ["e5", "d4"]
        assert daemon.message == "d4: same square as last"  # not swallowed by the debounce
    finally:
        daemon.stop()


def test_new_game_typed_while_the_menu_is_open_closes_the_menu():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("e5\nmenu long\nnew binary\nc3\nconfirm\n"))
        assert not daemon.menu.is_open
        assert daemon.session.game == "binary"
        assert daemon.session.moves == ["c3"]  # presses count again; confirm did not abandon
    finally:
        daemon.stop()


def test_extra_words_after_a_button_are_refused_not_dropped():
    daemon, sim, _ = simulator()
    try:
        sim.run(io.StringIO("menu x\n"))
        assert daemon.message == "menu: only 'long' may follow"
        assert not daemon.menu.is_open
    finally:
        daemon.stop()


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
