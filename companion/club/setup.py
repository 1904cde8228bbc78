"""``binaryon club setup``: the broker's identities for one club (docs/club.md, "Security").

Mosquitto's own security does the checking: a password file (each board and the hub one user,
in Mosquitto's PBKDF2-SHA512 format, ``user:$7$<iterations>$<salt>$<hash>``, as
``mosquitto_passwd`` writes it) and an ACL file in which each board writes only its own tree
(``<root>/<board>/#``) and the hub only its own (``<root>/hub/#``, where its acks and pairings
for each board live). The broker then refuses a board that writes another's topics, whoever
is on the hall's network. Beside them: each board's and the hub's ``[club]`` config snippet
and a ``mosquitto.conf`` snippet; every file holding a secret is mode 0600.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from companion.club import topics

ITERATIONS = 101  # mosquitto_passwd's own count for $7$ (PBKDF2-SHA512)
SALT_BYTES = 12  # mosquitto_passwd's salt length
HASH_BYTES = 64  # SHA-512's output
HUB_USER = topics.HUB
SECRET_MODE = 0o600


def password_line(user: str, password: str, *, salt: bytes | None = None,
                  iterations: int = ITERATIONS) -> str:  # fmt: skip
    """One line of Mosquitto's password file: ``user:$7$iterations$salt$hash`` (base64)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, HASH_BYTES)
    b64 = base64.b64encode
    return f"{user}:$7${iterations}${b64(salt).decode()}${b64(digest).decode()}"


def acl_text(boards: list[str]) -> str:
    """Mosquitto's ACL file: the hub reads everything under the root and writes its own tree;
    each board writes its own tree and reads what the hub says to it, the hub's status and
    what other boards send it for remote play."""
    root = topics.ROOT
    lines = [
        f"# {root} club night: each user writes only its own tree (binaryon club setup)",
        "",
        f"user {HUB_USER}",
        f"topic read {root}/#",
        f"topic write {topics.hub_topic('#')}",
    ]
    for board in boards:
        lines += [
            "",
            f"user {board}",
            f"topic write {topics.board_topic(board, '#')}",
            f"topic read {topics.hub_topic(board, '#')}",
            f"topic read {topics.hub_topic('status')}",
            f"topic read {topics.remote('+', board)}",
        ]
    return "\n".join(lines) + "\n"


BROKER_DIR = Path("/etc/mosquitto/club")  # where the broker's two files are installed


def mosquitto_conf(port: int = 1883, where: Path = BROKER_DIR) -> str:
    """The broker's snippet (``/etc/mosquitto/conf.d/club.conf``): no anonymous client, the
    password and ACL files installed in ``where`` for the broker's user (Debian's Mosquitto
    reads them as user ``mosquitto``); TLS lines to uncomment."""
    return (
        f"# {topics.ROOT} club night (binaryon club setup): every client is a user of the\n"
        "# password file, and writes only what the ACL file allows. Install the two files:\n"
        f"#   sudo install -D -o mosquitto -g mosquitto -m 0600 passwd acl -t {where}\n"
        f"listener {port}\n"
        "allow_anonymous false\n"
        f"password_file {where / 'passwd'}\n"
        f"acl_file {where / 'acl'}\n"
        "\n"
        "# TLS (the boards then use mqtts://HOST:8883 and, for a club's own CA, ca_file):\n"
        "#listener 8883\n"
        "#certfile /etc/mosquitto/certs/server.crt\n"
        "#keyfile /etc/mosquitto/certs/server.key\n"
    )


def club_snippet(broker: str, user: str, password: str, board: str = "",
                 ca_file: str = "") -> str:  # fmt: skip
    """A ``[club]`` table for one board's config file (or the hub's: no ``board``)."""
    q = json.dumps  # a JSON string is a TOML basic string
    lines = ["[club]", f"broker = {q(broker)}"]
    if board:
        lines.append(f"board = {q(board)}")
    lines += [f"user = {q(user)}", f"password = {q(password)}"]
    if ca_file:
        lines.append(f"ca_file = {q(ca_file)}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Setup:
    out: Path
    passwords: dict[str, str]  # user -> password (the hub's under HUB_USER)

    def files(self) -> list[Path]:
        return sorted(self.out.iterdir())


def parse_boards(text: str) -> list[str]:
    """``t1,t2,...``: board names (ValueError, one line)."""
    boards = [b.strip() for b in text.split(",") if b.strip()]
    if not boards:
        raise ValueError("--boards: name at least one board (t1,t2,...)")
    for board in boards:
        if not topics.valid_board_name(board):
            raise ValueError(f"--boards: {board!r}: {topics.BOARD_NAME_RULE}")
    if len(set(boards)) != len(boards):
        dup = next(b for b in boards if boards.count(b) > 1)
        raise ValueError(f"--boards: {dup!r} is named twice")
    return boards


def write_setup(out: Path, boards: list[str], broker: str, ca_file: str = "",
                port: int = 1883) -> Setup:  # fmt: skip
    """Write the club's files into ``out`` (made if missing): ``passwd``, ``acl``,
    ``mosquitto.conf``, ``hub.toml`` and ``<board>.toml`` each; a new password each user.
    Files with a secret are made with mode 0600 from the start (never readable by others)."""
    out.mkdir(parents=True, exist_ok=True)
    passwords = {user: secrets.token_urlsafe(18) for user in (HUB_USER, *boards)}
    lines = [password_line(user, pw) for user, pw in passwords.items()]
    _write(out / "passwd", "\n".join(lines) + "\n", SECRET_MODE)
    _write(out / "acl", acl_text(boards), 0o644)
    _write(out / "mosquitto.conf", mosquitto_conf(port), 0o644)
    hub = club_snippet(broker, HUB_USER, passwords[HUB_USER], ca_file=ca_file)
    _write(out / "hub.toml", hub, SECRET_MODE)
    for board in boards:
        snippet = club_snippet(broker, board, passwords[board], board=board, ca_file=ca_file)
        _write(out / f"{board}.toml", snippet, SECRET_MODE)
    return Setup(out, passwords)


def _write(path: Path, text: str, mode: int) -> None:
    """Replace ``path`` by a new file made with ``mode`` (not chmod after: never a moment
    readable by others)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, mode)  # whatever the umask took away
    os.replace(tmp, path)
