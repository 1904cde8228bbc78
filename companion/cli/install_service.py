"""``binaryon install-service``: run the companion at boot on Raspberry Pi OS.

Creates the unprivileged ``binaryon`` user (groups gpio, i2c, spi, dialout), installs the
systemd unit and the udev rule for the Pico, writes a starter /etc/binaryon/config.toml (never
overwrites one), enables I2C and SPI with raspi-config when present, and enables + starts the
service. ``--dry-run`` only prints the plan; ``--root DIR`` installs the files under DIR and
skips everything that would change this machine (tests, image builders).

It refuses (one line, unless ``--force``) on a machine that is not a Raspberry Pi, and when the
program it would run lives under /home, /root or /run/user, which the unit's ProtectHome=yes
hides from the service.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from companion import PROGRAM

UNIT_NAME = "binaryon.service"
RULE_NAME = "99-binaryon.rules"
DEFAULT_EXEC = "/opt/binaryon/venv/bin/binaryon"
GROUPS = ("gpio", "i2c", "spi", "dialout")
# Hidden from the service by its ProtectHome=yes: a program (or venv, or source) there fails
# to start with status 203/EXEC.
HIDDEN_DIRS = ("/home", "/root", "/run/user")
OPT_RECIPE = "install it in /opt/binaryon/venv as README.md shows (On a Raspberry Pi, step 4)"

STARTER_CONFIG = """\
# Binaryon companion settings. Every key is optional: delete or comment out what you do not need.
# After a change: sudo systemctl restart binaryon

[board]
# driver = "auto"     # auto: the Pico on USB; "gpio": matrix wired to the Pi's own pins
# kind = "switch"     # switch (LED switches), presence (reed), polarity (hall, Pico build)

[display]
# driver = "ssd1306"  # or "sh1106"
# i2c_address = 0x3C  # some modules answer at 0x3D (see: i2cdetect -y 1)

[leds]
# brightness = 0.25   # 0..1; the current budget caps it further

[buttons]
# hold_seconds = 1.0  # a long press: long menu = new game, long undo = take back

[web]
listen = "0.0.0.0:8080"  # the table page and the players' pages; "" turns them off
"""


@dataclass
class Step:
    text: str  # what it does, for people
    command: list[str] | None = None
    write: tuple[Path, str, int] | None = None  # path, content, mode
    keep_existing: bool = False
    host_only: bool = False  # changes this machine: skipped under --root

    def describe(self) -> str:
        if self.command:
            return f"{self.text}: {' '.join(self.command)}"
        return self.text


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *args, **kwargs) -> None:
        self.steps.append(Step(*args, **kwargs))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dry-run", action="store_true", help="print what would be done, do nothing")
    p.add_argument("--root", default="/", metavar="DIR", help="install under DIR (default /)")
    p.add_argument("--user", default=PROGRAM, help=f"the service user (default {PROGRAM})")
    p.add_argument(
        "--exec",
        dest="exec_path",
        metavar="PATH",
        help="the binaryon program the unit runs (default: the one running now)",
    )
    p.add_argument("--no-start", action="store_true", help="enable at boot but do not start now")
    p.add_argument(
        "--force",
        action="store_true",
        help="install even when this is not a Pi or the program is under /home (the unit's "
        "ProtectHome=yes hides it)",
    )


def on_a_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False
    return "raspberry pi" in model.lower()


def _hidden_under(path: str) -> str | None:
    for top in HIDDEN_DIRS:
        if path == top or path.startswith(top + "/"):
            return top
    return None


def _interpreter(path: str) -> str | None:
    """The interpreter named on a script's #! line (a venv's python), if any."""
    try:
        with open(path, "rb") as f:
            first = f.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode(errors="replace").split()
    return words[0] if words else None


def exec_problem(exec_path: str, package_dir: str | None = None) -> str | None:
    """Why the service could not run ``exec_path`` (one line), or None.

    Looks at the path, where a symlink leads, the script's interpreter (its venv) and, for the
    running install, where the package itself lives (an editable install's source tree).
    """
    looked = [("the program", exec_path), ("the program", os.path.realpath(exec_path))]
    interpreter = _interpreter(os.path.realpath(exec_path))
    if interpreter:
        looked.append(("its Python", interpreter))
    if package_dir:
        looked.append(("the companion package", package_dir))
    for what, path in looked:
        top = _hidden_under(path)
        if top is not None:
            return (
                f"{what} ({path}) is under {top}, which the service cannot reach "
                f"(ProtectHome=yes): {OPT_RECIPE}, or pass --force"
            )
    return None


def refusal(args: argparse.Namespace, root: Path, exec_path: str) -> str | None:
    """The one-line reason not to install, or None. --force skips every check."""
    if args.force:
        return None
    if root == Path("/") and not args.dry_run and not on_a_pi():
        return (
            "this is not a Raspberry Pi: the service belongs on the Pi under the board "
            "(--dry-run shows the plan, --force installs anyway)"
        )
    package = None if args.exec_path else str(Path(__file__).resolve().parents[1])
    return exec_problem(exec_path, package)


def source_dir() -> Path | None:
    """Where systemd/binaryon.service lives: the source tree, or an installed share dir."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "systemd", Path(sys.prefix) / "share/binaryon/systemd"):
        if (candidate / UNIT_NAME).is_file() and (candidate / RULE_NAME).is_file():
            return candidate
    return None


def current_exec() -> str:
    beside = Path(sys.executable).parent / PROGRAM
    if beside.is_file():
        return str(beside)
    return shutil.which(PROGRAM) or DEFAULT_EXEC


def render_unit(text: str, exec_path: str, user: str) -> str:
    """The unit with ExecStart pointing at ``exec_path`` and the service user set."""
    if not Path(exec_path).is_absolute():
        raise ValueError(f"--exec must be an absolute path, got {exec_path!r}")
    if any(c.isspace() for c in exec_path):
        raise ValueError(f"--exec path must not contain spaces: {exec_path!r}")
    out = []
    for line in text.splitlines():
        if line.startswith("ExecStart="):
            line = line.replace(DEFAULT_EXEC, exec_path, 1)
        elif line.startswith("User="):
            line = f"User={user}"
        elif line.startswith("Group="):
            line = f"Group={user}"
        out.append(line)
    return "\n".join(out) + "\n"


def _user_exists(name: str, root: Path) -> bool:
    if root == Path("/"):
        try:
            pwd.getpwnam(name)
            return True
        except KeyError:
            return False
    passwd = root / "etc/passwd"
    return passwd.is_file() and any(
        line.split(":", 1)[0] == name for line in passwd.read_text().splitlines()
    )


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def make_plan(root: Path, user: str, exec_path: str, start: bool) -> Plan:
    plan = Plan()
    src = source_dir()
    if src is None:
        raise FileNotFoundError(
            "cannot find systemd/binaryon.service: run from a source checkout "
            "(git clone ... && pip install -e .)"
        )
    host = root == Path("/")
    unit = render_unit((src / UNIT_NAME).read_text(), exec_path, user)
    etc = root / "etc"
    home = "/var/lib/binaryon"

    if not _user_exists(user, root):
        useradd = f"useradd --system --home-dir {home} --no-create-home --shell /usr/sbin/nologin"
        command = [*useradd.split(), "--user-group", user]  # the name as given, one word
        plan.add(f"create the system user {user}", command, host_only=True)
    for g in GROUPS:
        if host and not _group_exists(g):
            plan.add(f"create the missing group {g}", ["groupadd", "--system", g], host_only=True)
    plan.add(
        f"add {user} to {', '.join(GROUPS)}",
        ["usermod", "--append", "--groups", ",".join(GROUPS), user],
        host_only=True,
    )
    plan.add(
        f"install {etc / 'systemd/system' / UNIT_NAME}",
        write=(etc / "systemd/system" / UNIT_NAME, unit, 0o644),
    )
    plan.add(
        f"install {etc / 'udev/rules.d' / RULE_NAME}",
        write=(etc / "udev/rules.d" / RULE_NAME, (src / RULE_NAME).read_text(), 0o644),
    )
    plan.add(
        f"write a starter {etc / 'binaryon/config.toml'} (kept if present)",
        write=(etc / "binaryon/config.toml", STARTER_CONFIG, 0o644),
        keep_existing=True,
    )
    if shutil.which("raspi-config") or not host:
        plan.add("enable I2C", ["raspi-config", "nonint", "do_i2c", "0"], host_only=True)
        plan.add("enable SPI", ["raspi-config", "nonint", "do_spi", "0"], host_only=True)
    else:
        plan.notes.append("no raspi-config here: enable I2C and SPI yourself if this is a Pi")
    plan.add("reload udev rules", ["udevadm", "control", "--reload-rules"], host_only=True)
    plan.add(
        "apply them to plugged-in boards",
        ["udevadm", "trigger", "--subsystem-match=tty", "--action=change"],
        host_only=True,
    )
    plan.add("reload systemd", ["systemctl", "daemon-reload"], host_only=True)
    enable = ["systemctl", f"--root={root}", "enable", UNIT_NAME]
    if host:
        enable = ["systemctl", "enable", *(["--now"] if start else []), UNIT_NAME]
    plan.add("enable the service at boot" + (" and start it" if host and start else ""), enable)
    if not Path(exec_path).exists():
        plan.notes.append(f"{exec_path} does not exist yet: install the package there first")
    return plan


def execute(plan: Plan, root: Path, dry_run: bool, out=None) -> int:
    out = out or sys.stdout
    host = root == Path("/")
    for step in plan.steps:
        if dry_run:
            print(f"would {step.describe()}", file=out)
            continue
        if step.host_only and not host:
            print(f"skipped (--root): {step.describe()}", file=out)
            continue
        if step.write:
            path, content, mode = step.write
            if step.keep_existing and path.exists():
                print(f"kept {path}", file=out)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)
            path.chmod(mode)
            print(f"wrote {path}", file=out)
        elif step.command:
            if shutil.which(step.command[0]) is None:
                print(f"binaryon: {step.command[0]} not found: cannot {step.text}", file=sys.stderr)
                return 1
            result = subprocess.run(step.command, capture_output=True, text=True)
            if result.returncode != 0:
                why = (result.stderr or result.stdout).strip().splitlines()
                reason = why[-1] if why else f"exit status {result.returncode}"
                print(f"binaryon: could not {step.text}: {reason}", file=sys.stderr)
                return 1
            print(f"done: {step.describe()}", file=out)
    for note in plan.notes:
        print(f"note: {note}", file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve()
    exec_path = args.exec_path or current_exec()
    why_not = refusal(args, root, exec_path)
    if why_not is not None and not args.dry_run:
        print(f"binaryon: {why_not}", file=sys.stderr)
        return 1
    if root == Path("/") and not args.dry_run and os.geteuid() != 0:
        print(
            "binaryon: installing the service needs root: sudo binaryon install-service "
            "(or --dry-run to see the plan)",
            file=sys.stderr,
        )
        return 1
    try:
        plan = make_plan(root, args.user, exec_path, not args.no_start)
    except (OSError, ValueError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 1
    if why_not is not None:  # --dry-run: show the plan, and why the real run would refuse
        plan.notes.append(f"the install would stop here: {why_not}")
    code = execute(plan, root, args.dry_run)
    if code == 0 and not args.dry_run and root == Path("/"):
        print(
            "installed: watch it with  journalctl -u binaryon -f  and check the hardware "
            "with  binaryon doctor"
        )
    return code
