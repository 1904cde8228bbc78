"""Builds a daemon from the config: board, display, LEDs, buttons, journal, systemd notifier.

Each part is chosen by the config and imported only when chosen.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from companion.core.config import Config, ConfigError, default_state_dir
from companion.hardware.interfaces import HardwareError, SensorBoard
from companion.service.daemon import Daemon

log = logging.getLogger("binaryon")

CONFIG_PLACES = ("~/.config/binaryon/config.toml", "/etc/binaryon/config.toml")


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def load_config(path: str | None) -> Config:
    """The config file named, else $BINARYON_CONFIG, else the first of CONFIG_PLACES, else
    the defaults."""
    path = path or os.environ.get("BINARYON_CONFIG")
    if path:
        return Config.load(path)
    for place in CONFIG_PLACES:
        full = os.path.expanduser(place)
        if os.path.exists(full):
            log.info("config: %s", full)
            return Config.load(full)
    return Config.default()


def make_display(config: Config, simulated: bool) -> Any:
    driver = config.display.driver
    if driver == "auto":
        driver = (
            "ssd1306"
            if on_a_pi() and not simulated and os.path.exists(f"/dev/i2c-{config.display.i2c_port}")
            else "dummy"
        )
    from luma.core.device import dummy

    if driver in ("terminal", "dummy", "none"):
        return dummy(width=128, height=64, mode="1")
    if driver == "emulator":
        return mirrored_emulator()
    from companion.hardware.oled import open_display

    d = config.display
    try:
        return open_display(
            driver, i2c_port=d.i2c_port, i2c_address=d.i2c_address, spi=d.spi, rotate=d.rotate
        )
    except HardwareError as e:  # the referee goes on without its display
        log.error("display: %s; running without it", e)
        return dummy(width=128, height=64, mode="1")


def mirrored_emulator() -> Any:
    """A dummy device (so the terminal view and tests can read the frame) that also shows
    every frame in a luma.emulator window."""
    from luma.core.device import dummy

    try:
        from luma.emulator.device import pygame as emulator
    except ImportError:
        raise ConfigError(
            "display emulator needs luma.emulator: pip install 'binaryon-companion[emulator]'"
        ) from None

    window = emulator(width=128, height=64, mode="1", transform="scale2x", scale=2)

    class Mirrored(dummy):
        def display(self, image):
            super().display(image)
            window.display(image)

    return Mirrored(width=128, height=64, mode="1")


def make_leds(config: Config, board: SensorBoard):
    driver = config.leds.driver
    if driver == "none":
        return None
    own = board.leds()
    if driver in ("auto", "board") and own is not None:
        return own
    if driver == "board":
        raise ConfigError("leds driver board: this board has no LEDs of its own")
    if driver in ("spi", "ws281x") or (driver == "auto" and on_a_pi()):
        from companion.hardware import pinout
        from companion.hardware.pi_leds import open_leds

        try:
            return open_leds(
                "ws281x" if driver == "ws281x" else "spi",
                count=board.size**2,
                pin=config.leds.pin or pinout.LED_PIN,
                brightness=config.leds.brightness,
            )
        except HardwareError as e:  # the referee goes on without its LEDs
            log.error("LEDs: %s; running without them", e)
            return None
    from companion.testing.recording_leds import RecordingLeds

    return RecordingLeds(board.size**2)


def make_journal(config: Config):
    path = config.journal_path()
    if path is None:
        return None
    from companion.journal.store import SqliteJournal

    # the daemon's lock: a second companion on the same journal is refused with one line
    return SqliteJournal.open(path, lock=True)


def make_buttons(config: Config, sink, simulated: bool):
    b = config.buttons
    if b.enabled == "no" or (b.enabled == "auto" and (simulated or not on_a_pi())):
        return None, None
    from companion.hardware import pinout
    from companion.hardware.buttons import Buttons, Buzzer

    pins = {
        "confirm": b.confirm or pinout.BUTTONS["confirm"],
        "undo": b.undo or pinout.BUTTONS["undo"],
        "menu": b.menu or pinout.BUTTONS["menu"],
    }
    buttons = buzzer = None
    try:
        buttons = Buttons(pins, sink, hold_seconds=b.hold_seconds)
        buzzer = Buzzer(b.buzzer, kind=b.buzzer_kind) if b.buzzer else None
    except HardwareError as e:  # the referee goes on without them
        log.error("buttons: %s; running without them", e)
    return buttons, buzzer


def make_notifier():
    if not os.environ.get("NOTIFY_SOCKET"):
        return None
    from companion.service.notify import Notifier

    return Notifier()


def build_daemon(
    config: Config,
    board: SensorBoard | None = None,
    simulated: bool | None = None,
    service: bool = False,
):
    """Returns (daemon, closers): call each closer after the daemon stops. A ``service``
    never falls back to the simulated board: it waits for the real one."""
    from companion.hardware.boards import make_board
    from companion.testing.mock_board import MockBoard

    board = board or make_board(
        config.board, simulate_if_missing=not service, led_brightness=config.leds.brightness
    )
    simulated = isinstance(board, MockBoard) if simulated is None else simulated
    display = make_display(config, simulated)
    leds = make_leds(config, board)
    journal = make_journal(config)
    daemon = Daemon(
        config,
        board=board,
        display=display,
        leds=leds,
        journal=journal,
        notifier=make_notifier(),
    )
    buttons, buzzer = make_buttons(config, daemon.post, simulated)
    daemon.buzzer = buzzer
    closers = [c.close for c in (buttons, buzzer, journal) if c is not None and hasattr(c, "close")]
    if config.web.listen:
        try:
            closers.insert(0, start_web(config, daemon))
        except Exception:
            for close in closers:
                close()
            raise
    return daemon, closers


def web_files(config: Config) -> tuple[Path, Path]:
    """Where the running daemon keeps its players' tokens and its web address (for
    ``binaryon invite``): beside the journal."""
    journal = config.journal_path()
    folder = journal.parent if journal is not None else default_state_dir()
    return folder / "web-tokens.json", folder / "web.json"


def start_web(config: Config, daemon: Daemon):
    """Serve the table page and the players' pages; returns the function that stops it.
    Raises WebError (one line) when it cannot listen."""
    import json

    from companion.service.web_backend import DaemonWebBackend
    from companion.views.web.server import WebError, WebServer

    tokens_path, address_path = web_files(config)
    backend = DaemonWebBackend(daemon, tokens_path)
    try:
        server = WebServer(backend, config.web.listen)
        server.start()
    except WebError as e:
        raise HardwareError(str(e)) from None
    daemon.web = server
    daemon.web_backend = backend
    try:
        address_path.parent.mkdir(parents=True, exist_ok=True)
        address_path.write_text(json.dumps({"url": server.base_url(), "pid": os.getpid()}))
    except OSError as e:
        log.warning("web: cannot write %s: %s", address_path, e.strerror)

    def stop() -> None:
        server.stop()
        with contextlib.suppress(OSError):
            address_path.unlink()

    return stop
