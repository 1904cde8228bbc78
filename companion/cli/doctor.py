"""``binaryon doctor``: what hardware is present, what is missing, and the fix for each.

Checks the Pi, I2C and the OLED on it, SPI (Pi-driven LEDs), the GPIO chip and library, the
buttons at rest, the board link (a Pico on USB, found by VID:PID, and its udev name), the
user's groups and the service. On a machine that is not a Pi it says so and skips the
hardware checks. ``--leds`` runs a visible self-test: a chase over the LEDs, then press each
button and some squares; on a machine that is not a Pi it says there is nothing to test.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from companion.cli.doctor_check import INFO, MISSING, OK, Check
from companion.firmware_location import firmware_dir
from companion.hardware import pinout
from companion.hardware.interfaces import IDLE_READING


class Probe:
    """Where the checks look. ``root`` prefixes /dev, /proc and /sys so tests can fake them."""

    def __init__(self, root: str | os.PathLike[str] = "/"):
        self.root = Path(root)

    def path(self, p: str) -> Path:
        return self.root / p.lstrip("/")

    def model(self) -> str | None:
        for p in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
            try:
                return self.path(p).read_text(errors="replace").strip("\0\n ")
            except OSError:
                continue
        return None

    def exists(self, p: str) -> bool:
        return os.path.lexists(self.path(p))

    def usable(self, p: str) -> bool:
        return os.access(self.path(p), os.R_OK | os.W_OK)

    def glob(self, pattern: str) -> list[str]:
        return sorted("/" + str(p.relative_to(self.root)) for p in self.root.glob(pattern))

    def i2c_answers(self, port: int, address: int) -> bool | None:
        """True when a device acknowledges ``address``; None when the bus cannot be opened."""
        try:
            from smbus2 import SMBus
        except ImportError:
            return None
        try:
            bus = SMBus(port)
        except OSError:
            return None
        try:
            bus.write_quick(address)  # what i2cdetect does: address only, no data
            return True
        except OSError:
            return False
        finally:
            bus.close()

    def usb_serial_ports(self) -> list[tuple[str, int | None, int | None, str]]:
        """(device, vid, pid, description) of every serial port."""
        try:
            from serial.tools import list_ports
        except ImportError:
            return []
        return [(p.device, p.vid, p.pid, p.description or "") for p in list_ports.comports()]

    def has_module(self, name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            return False

    def user_groups(self) -> set[str]:
        import grp

        names = set()
        for gid in os.getgroups():
            with contextlib.suppress(KeyError):
                names.add(grp.getgrgid(gid).gr_name)
        return names

    def buttons_at_rest(self, pins: dict[str, int]) -> dict[str, bool] | str:
        """name -> pressed, read once through gpiozero; a one-line reason when impossible."""
        try:
            from gpiozero import Button
        except ImportError as e:
            return str(e)
        out, made = {}, []
        try:
            for name, pin in pins.items():
                b = Button(pin, pull_up=True)
                made.append(b)
                out[name] = bool(b.is_pressed)
        except Exception as e:
            return " ".join(str(e).split()) or type(e).__name__
        finally:
            for b in made:
                b.close()
        return out

    def is_root(self) -> bool:
        return os.geteuid() == 0

    def web_answers(self, host: str, port: int) -> bool:
        """Whether something accepts a TCP connection at ``host``:``port`` (loopback)."""
        import socket

        try:
            with socket.create_connection((host, port), timeout=2):
                return True
        except OSError:
            return False

    def pid_alive(self, pid: int) -> bool:
        if pid <= 0:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:
            return True  # someone else's process: it exists
        return True

    def service_state(self) -> str | None:
        if shutil.which("systemctl") is None or self.root != Path("/"):
            return None
        r = subprocess.run(
            ["systemctl", "is-active", "binaryon.service"], capture_output=True, text=True
        )
        return r.stdout.strip() or None


UNIT_PATH = "/etc/systemd/system/binaryon.service"
SERVICE_STATE = (
    "/var/lib/binaryon/journal.sqlite"  # the service's journal (XDG_STATE_HOME=/var/lib)
)
NETLINK_WHY = "AF_NETLINK (the invites' network address)"


def web_checks(probe: Probe, config) -> list[Check]:
    """The web pages the config turns on: does the installed unit let them open a socket, did
    the companion say it could not listen, and does anything answer on the port?"""
    import json

    from companion.views.web.address import ListenError, parse_listen

    try:
        listen = parse_listen(config.web.listen)
    except ListenError:
        return []
    checks: list[Check] = []

    def add(name: str, status: str, detail: str, fix: str = "") -> None:
        checks.append(Check(name, status, detail, fix))

    unit = probe.path(UNIT_PATH)
    if unit.is_file():
        lines = [
            ln.split("=", 1)[1].split()
            for ln in unit.read_text(errors="replace").splitlines()
            if ln.strip().startswith("RestrictAddressFamilies=")
        ]
        allowed = {name for words in lines for name in words}
        need = ["AF_INET6"] if ":" in listen.host else ["AF_INET"]
        if listen.host == "::":
            need = ["AF_INET", "AF_INET6"]
        lacking = [f for f in (*need, "AF_NETLINK") if lines and f not in allowed]
        if lacking and not any(name.startswith("~") for name in allowed):
            what = ", ".join(NETLINK_WHY if f == "AF_NETLINK" else f for f in lacking)
            add(
                "web unit",
                MISSING,
                f"{UNIT_PATH} does not allow {what} (RestrictAddressFamilies="
                f"{' '.join(lines[-1])}): the web pages cannot work under it",
                "sudo binaryon install-service (writes the current unit), then "
                "sudo systemctl restart binaryon",
            )
    from companion.service.app import web_files

    places = [web_files(config)[1]]
    if not config.journal.path:
        places.append(probe.path(SERVICE_STATE + ".web.json"))
    state = None
    for place in places:
        try:
            state = json.loads(place.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(state, dict) and probe.pid_alive(int(state.get("pid", 0) or 0)):
            break
        state = None
    if state is not None and "error" in state:
        add(
            "web pages",
            MISSING,
            f"the companion serves no pages: {state['error']}",
            "see the line above and journalctl -u binaryon",
        )
        return checks
    running = state is not None or probe.service_state() == "active"
    if not running:
        add("web pages", INFO, f"{listen}: the companion is not running")
        return checks
    host = listen.host if listen.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    if listen.host == "::":
        host = "::1"
    if probe.web_answers(host, listen.port):
        url = state.get("url") if state else None
        add("web pages", OK, f"answering on port {listen.port}" + (f" ({url})" if url else ""))
    else:
        add(
            "web pages",
            MISSING,
            f"nothing answers on {host} port {listen.port} although the companion runs",
            "journalctl -u binaryon says why (web: cannot listen on ...)",
        )
    return checks


def run_checks(
    probe: Probe,
    *,
    i2c_port: int = pinout.PI_I2C_PORT,
    i2c_address: int = pinout.OLED_I2C_ADDRESS,
    config=None,
) -> list[Check]:
    checks: list[Check] = []

    def add(name: str, status: str, detail: str, fix: str = "") -> None:
        checks.append(Check(name, status, detail, fix))

    model = probe.model()
    on_pi = bool(model and "raspberry pi" in model.lower())
    if on_pi:
        add("machine", OK, model or "")
    else:
        add(
            "machine",
            INFO,
            f"{model or 'not a Raspberry Pi'}: Pi hardware checks "
            "skipped; `binaryon run` plays on the simulated board",
        )

    # the board link: a Pico on USB (any machine can have one)
    vid, pid = pinout.PICO_USB_VID_PID
    picos = [p for p in probe.usb_serial_ports() if (p[1], p[2]) == (vid, pid)]
    if picos:
        dev = picos[0][0]
        add("board link", OK, f"Pico (MicroPython) on {dev}")
        if not probe.exists("/dev/binaryon-board"):
            add(
                "board name",
                MISSING,
                "no /dev/binaryon-board symlink",
                "sudo binaryon install-service (installs the udev rule), then replug",
            )
        if not probe.usable(dev):
            checks.append(_no_permission("board access", dev, "dialout"))
    else:
        add(
            "board link",
            INFO if not on_pi else MISSING,
            f"no Pico ({vid:04x}:{pid:04x}) on USB",
            "plug the board's Pico in; flash the firmware: see "
            f"{firmware_dir() / 'README.md'} "
            '(or use the gpio build: [board] driver = "gpio")',
        )
    if config is not None and config.web.listen:
        checks += web_checks(probe, config)
    if config is not None and config.club.broker:
        from companion.cli.doctor_club import club_checks

        checks += club_checks(probe, config, SERVICE_STATE)
    if config is not None:
        from companion.cli.doctor_voice import voice_checks

        checks += voice_checks(config.voice, config.buttons)
    if not on_pi:
        return checks

    # I2C and the display
    dev = f"/dev/i2c-{i2c_port}"
    if not probe.exists(dev):
        add(
            "I2C",
            MISSING,
            f"I2C not enabled ({dev} missing)",
            "sudo raspi-config nonint do_i2c 0, then reboot",
        )
    elif not probe.usable(dev):
        checks.append(_no_permission("I2C", dev, "i2c"))
    else:
        add("I2C", OK, dev)
        answer = probe.i2c_answers(i2c_port, i2c_address)
        if answer:
            add("display", OK, f"a device answers at 0x{i2c_address:02X} on i2c-{i2c_port}")
        else:
            other = 0x3D if i2c_address == 0x3C else 0x3C
            if answer is not None and probe.i2c_answers(i2c_port, other):
                add(
                    "display",
                    MISSING,
                    f"the display answers at 0x{other:02X}, not 0x{i2c_address:02X}",
                    f"set i2c_address = 0x{other:02X} under [display] in /etc/binaryon/config.toml",
                )
            else:
                add(
                    "display",
                    MISSING,
                    f"no display answers at 0x{i2c_address:02X} on i2c-{i2c_port}",
                    "check the wiring: SDA to pin 3, SCL to pin 5, VCC "
                    f"to 3V3 (pin 1), GND (pin 6); then i2cdetect -y {i2c_port}",
                )

    # GPIO: the chip, the library, the buttons
    chips = probe.glob("dev/gpiochip*")
    if not chips:
        add("GPIO", MISSING, "no /dev/gpiochip*", "update Raspberry Pi OS (bookworm)")
    elif not all(probe.usable(c) for c in chips[:1]):
        checks.append(_no_permission("GPIO", chips[0], "gpio"))
    else:
        add("GPIO", OK, ", ".join(chips))
    if probe.has_module("lgpio"):
        add("GPIO library", OK, "lgpio")
    else:
        add(
            "GPIO library",
            MISSING,
            "lgpio is not installed (buttons, gpio board)",
            "pip install lgpio  (or: sudo apt install python3-lgpio and a venv made "
            "with --system-site-packages)",
        )
    rest = probe.buttons_at_rest(dict(pinout.PI_BUTTONS))
    if isinstance(rest, str):
        add("buttons", MISSING, f"cannot read the buttons: {rest}", "see GPIO above")
    else:
        stuck = [n for n, pressed in rest.items() if pressed]
        if stuck:
            pins = ", ".join(f"{n} (GPIO{pinout.PI_BUTTONS[n]})" for n in stuck)
            add(
                "buttons",
                MISSING,
                f"reads pressed at rest: {pins}",
                "check for a short to GND; each button goes from its GPIO to GND",
            )
        else:
            add("buttons", OK, "confirm, undo, menu released (press test: --leds)")

    # SPI: needed when the Pi drives the LEDs (gpio build)
    if probe.exists("/dev/spidev0.0"):
        add("SPI (Pi-driven LEDs)", OK, "/dev/spidev0.0")
    else:
        add(
            "SPI (Pi-driven LEDs)",
            MISSING,
            "SPI not enabled (/dev/spidev0.0 missing); needed only when the Pi drives the LEDs",
            "sudo raspi-config nonint do_spi 0, then reboot",
        )

    mine = probe.user_groups()
    lacking = [g for g in ("gpio", "i2c", "spi", "dialout") if g not in mine]
    if lacking and not probe.is_root():
        add(
            "groups",
            MISSING,
            f"you are not in {', '.join(lacking)}",
            f"sudo usermod -aG {','.join(lacking)} $USER, then log in again",
        )
    state = probe.service_state()
    if state is not None:
        add(
            "service",
            OK if state == "active" else INFO,
            f"binaryon.service is {state}",
            "" if state == "active" else "sudo binaryon install-service",
        )
    return checks


def _no_permission(name: str, dev: str, group: str) -> Check:
    return Check(
        name, MISSING, f"no permission for {dev}", f"sudo adduser $USER {group}, then log in again"
    )


def report(checks: list[Check], out=None) -> None:
    out = out or sys.stdout
    width = max(len(c.name) for c in checks)
    for c in checks:
        print(f"{c.status.upper():8s}{c.name:{width}s}  {c.detail}", file=out)
        if c.fix:  # the same fixes --json gives, for a hint (info) as for a problem
            print(f"{'':8s}{'':{width}s}  fix: {c.fix}", file=out)
    problems = sum(c.status == MISSING for c in checks)
    print(
        f"{problems} problem{'s' if problems != 1 else ''} found"
        if problems
        else "nothing missing",
        file=out,
    )


# ── the visible self-test ────────────────────────────────────────────────────────────────────
def self_test(
    leds,
    buttons_factory: Callable,
    board=None,
    *,
    wait: float = 10.0,
    out=None,
    sleep: Callable[[float], None] = time.sleep,
    asking: Callable[[str], None] | None = None,
) -> bool:
    """Chase each LED (red, green, blue), then ask for each button. True when all answered.
    ``asking(name)`` is called once the test waits for that button (the buttons are set up
    and its prompt is out): what presses it can wait for that, not for a time."""
    from companion.cli.bring_up import Events
    from companion.core.events import ButtonEvent, SquareReading
    from companion.core.squares import square_name

    out = out or sys.stdout
    n = len(leds.last) if hasattr(leds, "last") else 64
    events = Events()
    if board is not None:
        board.start(events.put)  # first: a Pico's LEDs work only over a live link
    all_ok = True
    try:
        print(f"LEDs: a red, then green, then blue dot walks a1 -> h8 over {n} LEDs", file=out)
        for colour in ((255, 0, 0), (0, 255, 0), (0, 0, 255)):
            for i in range(n):
                frame = [(0, 0, 0)] * n
                frame[i] = colour
                leds.show(frame)
                sleep(0.02)
        leds.show([(0, 0, 0)] * n)
        buttons = buttons_factory(events.put)
        try:
            for name in ("confirm", "undo", "menu"):
                print(f"press {name} (GPIO{pinout.PI_BUTTONS[name]}) ...", file=out, flush=True)
                if asking is not None:
                    asking(name)
                got = events.next(
                    wait, lambda e, name=name: isinstance(e, ButtonEvent) and e.button == name
                )
                print(f"  {name}: {'ok' if got else f'nothing in {wait:g}s'}", file=out)
                all_ok &= got is not None
        finally:
            buttons.close()
        if board is not None:
            print(f"press or place on a few squares for {wait:g}s (each lights up) ...", file=out)
            seen: list[str] = []
            frame = [(0, 0, 0)] * n
            deadline = time.monotonic() + wait

            def is_piece(e) -> bool:
                return isinstance(e, SquareReading) and e.value not in ("0", ".")

            while (e := events.next(deadline - time.monotonic(), is_piece)) is not None:
                seen.append(square_name(e.square, board.size))
                if e.square < n:
                    frame[e.square] = (0, 255, 0)
                    leds.show(frame)
            print(f"  squares: {' '.join(seen) or 'none'}", file=out)
        leds.show([(0, 0, 0)] * n)
    finally:
        if board is not None:
            board.stop()
    return all_ok


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--leds", action="store_true", help="visible LED, button and square self-test")
    p.add_argument(
        "--bring-up",
        action="store_true",
        help="first test of a new board: each square pressed in turn (its LED lit), the OLED "
        "and the buttons, with what to check for each fault",
    )
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.add_argument("--config", metavar="FILE", help="TOML config (display address, board)")


def _config(path: str | None):
    from companion.service.app import load_config

    return load_config(path)


def run(args: argparse.Namespace) -> int:
    try:
        config = _config(args.config)
    except Exception as e:  # a bad config is itself a finding
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    d = config.display
    checks = run_checks(Probe(), i2c_port=d.i2c_port, i2c_address=d.i2c_address, config=config)
    if args.json:
        print(json.dumps([asdict(c) for c in checks], indent=1))
    else:
        report(checks)
    problems = any(c.status == MISSING for c in checks)
    if getattr(args, "bring_up", False):
        return run_bring_up(config, on_pi=checks[0].status == OK)
    if args.leds:
        if checks[0].status != OK:  # not a Pi: no LEDs, buttons or pins of ours to exercise
            print(
                "--leds: no Pi hardware here to test (the LED, button and square self-test "
                "runs on the Raspberry Pi); skipped",
                file=sys.stderr if args.json else sys.stdout,
            )
            return int(problems)
        return run_self_test(config) or int(problems)
    return int(problems)


def run_self_test(config) -> int:
    """``doctor --leds``: the LED, button and square self-test on the configured hardware;
    0 when it passed (tests stand in for it: it needs a person at the board)."""
    from companion.hardware.boards import make_board
    from companion.hardware.pi_leds import open_leds

    leds = None
    try:
        board = make_board(config.board)
        set_brightness = getattr(board, "set_brightness", None)  # a Pico's own LED chain
        if set_brightness is not None:
            set_brightness(round(config.leds.brightness * 255))
        leds = board.leds()
        if leds is None:
            leds = open_leds("spi", count=board.size**2, brightness=config.leds.brightness)
            if config.leds.driver == "ws281x":
                leds.close()
                leds = open_leds(
                    "ws281x",
                    count=board.size**2,
                    pin=config.leds.pin,
                    brightness=config.leds.brightness,
                )
        ok = self_test(leds, _buttons_factory(config), board)
    except Exception as e:
        print(f"binaryon: self-test stopped: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    finally:
        if leds is not None:
            with contextlib.suppress(Exception):
                leds.close()
    return 0 if ok else 1


def run_bring_up(config, *, on_pi: bool) -> int:
    """``doctor --bring-up`` on the configured board (0: every part answered). Off a Pi the
    squares and LEDs of a Pico on USB are walked, the OLED and buttons skipped; on the
    simulated board (``[board] driver = "mock"``) the walk presses each square itself, a
    rehearsal of what the maker will be asked."""
    from companion.cli.bring_up import bring_up
    from companion.hardware.boards import make_board
    from companion.hardware.simulated.recording_leds import RecordingLeds

    board = make_board(config.board, simulate_if_missing=False)
    simulated = getattr(board, "simulated", False)
    leds = board.leds() or RecordingLeds(board.size**2)
    buttons_factory = oled = None
    if on_pi and not simulated:
        from companion.hardware.oled import DRIVERS, open_display

        buttons_factory = _buttons_factory(config)
        d = config.display
        driver = d.driver if d.driver in DRIVERS else "ssd1306"  # auto: the usual module
        try:
            oled = open_display(driver, i2c_port=d.i2c_port, i2c_address=d.i2c_address)
        except Exception as e:
            print(f"OLED: {' '.join(str(e).split())}: skipped", file=sys.stdout)
    elif not on_pi:
        print("not a Raspberry Pi: the OLED and buttons are skipped", file=sys.stdout)

    def act(step: tuple) -> None:  # the simulated board: press and release for the maker
        if step[0] == "square":
            board.set_reading(step[1], step[2], clean=True)
        elif step[0] == "release":
            board.set_reading(step[1], IDLE_READING[board.kind], clean=True)

    try:
        result = bring_up(board, leds, buttons_factory, oled, asking=act if simulated else None)
    except Exception as e:
        print(f"binaryon: bring-up stopped: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    return 0 if result.passed else 1


def _buttons_factory(config) -> Callable:
    """The configured buttons (each pin, else the usual one), made for a sink when asked."""
    from companion.hardware.buttons import Buttons

    b = config.buttons
    pins = {n: getattr(b, n) or pinout.PI_BUTTONS[n] for n in ("confirm", "undo", "menu")}
    return lambda sink: Buttons(pins, sink, hold_seconds=b.hold_seconds)
