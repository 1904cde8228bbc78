"""Builds a daemon from the config: board, display, LEDs, buttons, journal, systemd notifier.

Each part is chosen by the config and imported only when chosen.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from companion import PROGRAM
from companion.core.config import Config, ConfigError, default_state_dir
from companion.hardware.interfaces import HardwareError, SensorBoard
from companion.journal.api import JournalError
from companion.service.config_check import check_config
from companion.service.daemon import Daemon

log = logging.getLogger(PROGRAM)

CONFIG_PLACES = ("~/.config/binaryon/config.toml", "/etc/binaryon/config.toml")


def on_a_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def load_config(path: str | None, club: bool = True) -> Config:
    """The config file named, else $BINARYON_CONFIG, else the first of CONFIG_PLACES, else
    the defaults. ``club`` False: the command line gives ``--club`` or ``--board-name``, so
    the file's [club] table is checked as a whole only once they are in (``check_config``)."""
    path = path or os.environ.get("BINARYON_CONFIG")
    if path:
        return check_config(Config.load(path), str(path), club)
    for place in CONFIG_PLACES:
        full = os.path.expanduser(place)
        if os.path.exists(full):
            log.info("config: %s", full)
            return check_config(Config.load(full), full, club)
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
    from companion.hardware.simulated.recording_leds import RecordingLeds

    return RecordingLeds(board.size**2)


def make_journal(config: Config):
    path = config.journal_path()
    if path is None:
        return None
    from companion.journal.store import SqliteJournal

    # the daemon's lock: a second companion on the same journal is refused with one line
    try:
        return SqliteJournal.open(path, lock=True)
    except JournalError as e:
        from companion.journal.files import holder

        if holder(path) is None:
            raise
        raise JournalError(
            f"{e}: two companions on one machine (two simulated boards) need a journal each: "
            "--journal FILE (or --journal none)"
        ) from None


def make_buttons(config: Config, sink, simulated: bool, on_level=None):
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
    if b.talk:  # push-to-talk's own button ([voice] push_to_talk = "talk")
        pins["talk"] = b.talk
    buttons = buzzer = None
    try:
        buttons = Buttons(pins, sink, hold_seconds=b.hold_seconds, on_level=on_level)
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
    later: bool = False,
    voice_to: Path | None = None,
    listen_from: Any = None,
):
    """Returns (daemon, closers): call each closer after the daemon stops. A ``service``
    never falls back to the simulated board: it waits for the real one. ``later``: the
    optional parts (the web pages, the club's link) are imported in a thread of their own and
    started once the table's first frame is up, so that the board is ready (READY=1, the
    first OLED frame, presses taken) before them: a service, whose failures there are a log
    line and an OLED line. ``voice_to`` (a folder of WAVs and said.txt instead of the sound
    card) and ``listen_from`` (WAV files instead of the microphone): the voice's test paths."""
    from companion.hardware.boards import make_board

    board = board or make_board(
        config.board, simulate_if_missing=not service, led_brightness=config.leds.brightness
    )
    simulated = board.simulated if simulated is None else simulated
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
    buttons, buzzer = make_buttons(config, daemon.post, simulated, daemon.button_level)
    daemon.buzzer = buzzer
    closers = [c.close for c in (buttons, buzzer, journal) if c is not None and hasattr(c, "close")]
    v = config.voice
    if v.listen and v.push_to_talk != "off" and buttons is None and not simulated:
        why = f"push-to-talk on {v.push_to_talk}, but no buttons: nothing opens the microphone"
        log.warning("voice: %s ([buttons] enabled)", why)
        daemon.say(why, kind="warning")
    if v.speak != "off" or v.listen or voice_to is not None or listen_from is not None:
        from companion.service.voice_setup import start_voice

        try:
            closers.insert(0, start_voice(config, daemon, voice_to, listen_from))
        except (ValueError, OSError):
            for close in closers:
                close()
            raise
    optional: list[tuple[str, Callable[[], Callable[[], None]]]] = []
    if config.web.listen:  # (what it imports, how it starts)
        optional.append(("companion.views.web", lambda: start_web(config, daemon, service)))
    if config.club.broker:
        optional.append(("companion.club.board_link", lambda: start_club(config, daemon)))
    if later and optional:
        closers.insert(0, start_later(daemon, optional))
        return daemon, closers
    try:
        for _, start in optional:
            closers.insert(0, start())
    except Exception:
        for close in closers:
            close()
        raise
    return daemon, closers


def start_later(
    daemon: Daemon, parts: list[tuple[str, Callable[[], Callable[[], None]]]]
) -> Callable[[], None]:
    """Import each part's modules in a thread of its own once the first frame is up, then
    start it in the loop's thread; returns the function that stops what was started (and
    keeps what was not yet from starting)."""
    stops: list[Callable[[], None]] = []
    lock = threading.Lock()
    closed = False

    def start_all() -> None:
        with lock:
            for module, start in parts:
                if closed:
                    return
                try:
                    stops.append(start())
                except Exception as e:  # the referee goes on without it
                    log.error("cannot start %s: %s", module, e)

    def load() -> None:
        for module, _ in parts:
            try:
                import_module(module)  # the slow part, off the loop's thread
            except ImportError as e:
                log.error("cannot load %s: %s", module, e)
        daemon.post_call(start_all)

    def begin() -> None:
        threading.Thread(target=load, name="binaryon-optional", daemon=True).start()

    daemon.after_first_frame.append(begin)

    def close() -> None:
        nonlocal closed
        with lock:
            closed = True
            for stop in reversed(stops):
                stop()

    return close


def club_state_file(config: Config) -> Path | None:
    """Where the running daemon says how its club link is, for ``binaryon doctor``: beside
    the journal, named after it (``J.club.json``)."""
    journal = config.journal_path()
    if journal is None:
        return None
    from companion.journal.files import journal_file

    return journal_file(journal, "club.json")


def start_club(config: Config, daemon: Daemon):
    """Publish this board to the club's broker (docs/club.md); returns the function that
    stops the link (the board says it goes offline). The broker need not be up: the board
    plays on and sends what it kept when the broker answers."""
    from companion.club.board_link import BoardLink

    link = BoardLink(daemon, config.club, state_file=club_state_file(config))
    daemon.club = link
    if daemon.remote is not None:  # a remote game rides on the board's link
        from companion.club.transport import LinkTransport

        daemon.remote.connect(LinkTransport(link))
    link.start()
    return link.stop


def web_files(config: Config) -> tuple[Path, Path]:
    """Where the running daemon keeps its players' tokens and its web address (for
    ``binaryon invite``): beside the journal and named after it (``J.web-tokens.json``,
    ``J.web.json``, J's links resolved), so two journals in one folder never share them."""
    journal = config.journal_path()
    if journal is None:
        folder = default_state_dir()
        return folder / "web-tokens.json", folder / "web.json"
    from companion.journal.files import journal_file

    return journal_file(journal, "web-tokens.json"), journal_file(journal, "web.json")


OLD_WEB_FILES = ("web-tokens.json", "web.json")  # shared by every journal of a folder, once
SQLITE_MAGIC = b"SQLite format 3\x00"


def _journals_in(folder: Path, limit: int = 200) -> set[tuple[int, int]] | None:
    """(device, inode) of every SQLite file in ``folder``; None when there are too many
    entries to look at."""
    found: set[tuple[int, int]] = set()
    try:
        with os.scandir(folder) as entries:
            for n, entry in enumerate(entries):
                if n >= limit:
                    return None
                if not entry.is_file(follow_symlinks=False):
                    continue
                try:
                    with open(entry.path, "rb") as f:
                        if f.read(16) != SQLITE_MAGIC:
                            continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                found.add((st.st_dev, st.st_ino))
    except OSError:
        return None
    return found


def migrate_web_files(config: Config) -> None:
    """Take over the old folder-wide web files when they can only be this journal's: no
    per-journal tokens yet, and no other journal in the folder."""
    journal = config.journal_path()
    if journal is None:
        return
    tokens_path, _ = web_files(config)
    folder = tokens_path.parent
    old_tokens, old_address = (folder / name for name in OLD_WEB_FILES)
    if not old_tokens.is_file() and not old_address.is_file():
        return
    try:
        st = os.stat(journal)
    except OSError:
        return
    if _journals_in(folder) != {(st.st_dev, st.st_ino)}:
        log.info("web: %s left as it is: more than one journal in %s", old_tokens.name, folder)
        return
    with contextlib.suppress(OSError):
        if old_tokens.is_file() and not old_tokens.is_symlink() and not tokens_path.exists():
            os.replace(old_tokens, tokens_path)
            log.info("web: players' tokens moved to %s", tokens_path)
    with contextlib.suppress(OSError):
        if old_address.is_file() and not old_address.is_symlink():
            old_address.unlink()  # an old companion's address: rewritten per journal now


def _write_state(path: Path, data: dict[str, Any]) -> None:
    import json

    if path.is_symlink() or (path.exists() and not path.is_file()):
        log.warning("web: %s is not a regular file: left as it is", path)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**data, "pid": os.getpid()}))
    except OSError as e:
        log.warning("web: cannot write %s: %s", path, e.strerror)


def start_web(config: Config, daemon: Daemon, service: bool = False):
    """Serve the table page and the players' pages; returns the function that stops it.
    When it cannot listen: HardwareError (one line), or for the ``service`` one log line and
    one OLED line, and the referee goes on without its pages (``binaryon doctor`` says why)."""
    from companion.service.web_backend import DaemonWebBackend
    from companion.views.web import WebError, WebServer  # the lean import: no TLS

    migrate_web_files(config)
    tokens_path, address_path = web_files(config)

    def forget() -> None:
        with contextlib.suppress(OSError):
            address_path.unlink()

    backend = DaemonWebBackend(daemon, tokens_path)
    try:
        server = WebServer(
            backend,
            config.web.listen,
            hosts=config.web.hosts,
            # the referee first: the web thread waits (bounded) while a press is handled
            yield_to=lambda most: daemon.loop.thread is not None and daemon.loop.wait_idle(most),
        )
        server.start()
    except WebError as e:
        if not service:
            raise HardwareError(str(e)) from None
        log.error("%s", e)
        daemon.web_problem = f"web pages off: {e.short}"
        daemon.say(daemon.web_problem, lasting=True)
        _write_state(address_path, {"error": str(e)})
        return forget
    daemon.web = server
    daemon.web_backend = backend
    _write_state(address_path, {"url": server.base_url()})

    def stop() -> None:
        server.stop()
        forget()

    return stop
