"""``binaryon club setup``: the broker's users and ACL (docs/club.md, "Security"), held to a
real Mosquitto. The password file's lines are Mosquitto's PBKDF2-SHA512 (``$7$``) and the real
broker takes them; the ACL lets each board write only its own tree and the hub only its own,
so the broker refuses a board that writes another board's topics or the hub's. A club night on
such a broker, and over ``mqtts://`` with the club's own CA (made here with ``openssl``)."""

from __future__ import annotations

import base64
import hashlib
import re
import stat
import subprocess
import threading
import time
import tomllib
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.main import main
from companion.club import topics
from companion.club.broker import stop_client
from companion.club.setup import HASH_BYTES, acl_text, password_line
from companion.core.config import Config
from tests.club_boards import moves_to_end, play, start_board, stop_board, wait
from tests.club_hub import HubProcess
from tests.mosquitto import Broker, Listener, mosquitto_path

SMALL = {"size": 4}
LINE = re.compile(r"^[^:]+:\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$")

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason="mosquitto not installed")


def check_password(line: str, password: str) -> bool:
    """Does ``password`` match a ``$7$`` line (as the broker checks it)?"""
    try:
        _user, rest = line.rstrip("\n").split(":", 1)
        _, kind, iterations, salt, digest = rest.split("$")
        if kind != "7":
            return False
        got = hashlib.pbkdf2_hmac(
            "sha512", password.encode(), base64.b64decode(salt), int(iterations), HASH_BYTES
        )
    except ValueError:
        return False
    return got == base64.b64decode(digest)


# ------------------------------------------------------------------ the files


# No NUL: the broker reads a password as a C string, and HMAC pads a short key with zero
# bytes, so "x" and "x\0" are one key to PBKDF2 itself.
NO_NUL = st.characters(blacklist_characters="\x00")


@settings(max_examples=25, deadline=None)
@given(st.text(NO_NUL, min_size=0, max_size=40), st.text(NO_NUL, min_size=1, max_size=8))
def test_a_password_line_checks_its_password_and_no_other(password, more):
    line = password_line("t1", password)
    assert LINE.match(line)
    assert check_password(line, password)
    assert not check_password(line, password + more)


def test_each_line_has_its_own_salt():
    assert password_line("t1", "same") != password_line("t1", "same")


def test_setup_writes_the_broker_files_and_each_config_with_its_secret_private(tmp_path, capsys):
    out = tmp_path / "club"
    assert main(["club", "setup", "--boards", "t1,t2", "--out", str(out),
                 "--broker", "mqtts://club.lan:8883", "--ca-file", "club-ca.pem"]) == 0  # fmt: skip
    assert "2 boards" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["acl", "hub.toml", "mosquitto.conf", "passwd", "t1.toml", "t2.toml"]
    for name in ("passwd", "hub.toml", "t1.toml", "t2.toml"):
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o600, name
    users = {}
    for line in (out / "passwd").read_text().splitlines():
        assert LINE.match(line)
        users[line.split(":")[0]] = line
    assert sorted(users) == ["hub", "t1", "t2"]
    for name in ("t1", "t2"):
        club = Config.load(str(out / f"{name}.toml")).club
        assert (club.board, club.user, club.broker) == (name, name, "mqtts://club.lan:8883")
        assert club.ca_file == str(out / "club-ca.pem")  # beside the config, as it is read
        assert check_password(users[name], club.password)
    hub = Config.load(str(out / "hub.toml")).club
    assert hub.user == "hub" and not hub.board and check_password(users["hub"], hub.password)
    assert (out / "acl").read_text() == acl_text(["t1", "t2"])
    conf = (out / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "listener 8883" in conf
    # a second run makes new passwords (the old files replaced, still private)
    before = Config.load(str(out / "t1.toml")).club.password
    assert main(["club", "setup", "--boards", "t1", "--out", str(out)]) == 0
    assert Config.load(str(out / "t1.toml")).club.password != before
    assert stat.S_IMODE((out / "t1.toml").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("boards", "said"),
    [("t1,hub", "'hub'"), ("t1,t/2", "'t/2'"), ("t1,t1", "named twice"), (",", "at least one")],
)
def test_setup_refuses_a_bad_board_list_in_one_line(tmp_path, capsys, boards, said):
    assert main(["club", "setup", "--boards", boards, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err
    assert not (tmp_path / "o").exists()


def test_the_acl_gives_each_board_its_own_tree_and_the_hub_its_own():
    acl = acl_text(["t1", "t2"])
    blocks = {b.split("\n")[0]: b.split("\n")[1:] for b in acl.split("\n\n")[1:]}
    assert blocks["user hub"] == ["topic read binaryon/#", "topic write binaryon/hub/#"]
    assert blocks["user t1"][0] == "topic write binaryon/t1/#"
    assert not any(line.startswith("topic write") for line in blocks["user t1"][1:])
    assert topics.ack("t1").startswith("binaryon/hub/t1/")
    assert topics.pairing("t1").startswith("binaryon/hub/t1/")


# ------------------------------------------------------------------ a real broker


def _setup(tmp_path: Path, boards: str = "t1,t2", **extra) -> tuple[Path, dict[str, str]]:
    out = tmp_path / "club"
    args = ["club", "setup", "--boards", boards, "--out", str(out)]
    for key, value in extra.items():
        args += [f"--{key.replace('_', '-')}", value]
    assert main(args) == 0
    passwords = {}
    for user in ["hub", *boards.split(",")]:
        passwords[user] = tomllib.loads((out / f"{user}.toml").read_text())["club"]["password"]
    return out, passwords


@pytest.fixture
def secure(tmp_path):
    """A Mosquitto that takes only the users of ``binaryon club setup``, with its ACL."""
    out, passwords = _setup(tmp_path)
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", passwd=out / "passwd", acl=out / "acl").start()
    yield broker, out, passwords
    broker.stop()


def _client(broker: Broker, user: str = "", password: str = "") -> tuple[mqtt.Client, str]:
    """A paho client; its connection's reason ("Success", "Not authorized")."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    if user:
        client.username_pw_set(user, password)
    done = threading.Event()
    reason: list[str] = []
    client.on_connect = lambda c, u, f, rc, p: (reason.append(str(rc)), done.set())
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert done.wait(10)
    return client, reason[0]


@needs_mosquitto
def test_the_broker_takes_each_user_and_refuses_strangers(secure):
    broker, _out, passwords = secure
    for user in ("hub", "t1", "t2"):
        client, reason = _client(broker, user, passwords[user])
        assert reason == "Success", user
        stop_client(client)
    for user, password in (("", ""), ("t1", passwords["t2"]), ("t3", "x")):
        client, reason = _client(broker, user, password)
        assert reason == "Not authorized", user
        stop_client(client)


@needs_mosquitto
def test_the_broker_refuses_a_board_that_writes_another_boards_topics(secure):
    broker, _out, passwords = secure
    hub = Listener(broker.url, user="hub", password=passwords["hub"])  # hears all it may
    t1 = Listener(broker.url, user="t1", password=passwords["t1"], topic="binaryon/hub/t1/#")
    t2, _ = _client(broker, "t2", passwords["t2"])
    forged = [
        topics.table("t1"),
        topics.status("t1"),
        topics.result("t1", "x-1"),
        topics.ack("t1"),  # the hub's tree: what the hub says to t1
        topics.pairing("t1"),
        topics.hub_topic("status"),
    ]
    for topic in forged:
        t2.publish(topic, b'{"board": "t1", "results": ["x-1"]}', qos=1, retain=True)
    t2.publish(topics.table("t2"), b'{"board": "t2"}', qos=1).wait_for_publish(10)
    hub.wait_for(lambda h: any(m.topic == topics.table("t2") for m in h))
    time.sleep(0.3)  # the forged ones were sent first: they would be here by now
    assert [m.topic for m in hub.messages()] == [topics.table("t2")]
    assert t1.messages() == []
    # later subscribers find nothing retained either
    late = Listener(broker.url, user="hub", password=passwords["hub"])
    time.sleep(0.3)
    assert [m.topic for m in late.messages()] == []
    for listener in (hub, t1, late):
        listener.close()
    stop_client(t2)


@needs_mosquitto
def test_the_mosquitto_conf_snippet_runs_a_broker_as_written(tmp_path):
    """The snippet as setup writes it, with its two files where it says (here: the setup's
    folder) and the port free: Mosquitto starts on it and takes only the club's users."""
    import os

    from tests.mosquitto import free_port

    port = free_port()
    out, passwords = _setup(tmp_path, "t1", broker=f"mqtt://127.0.0.1:{port}")
    conf = (out / "mosquitto.conf").read_text().replace("/etc/mosquitto/club", str(out))
    conf = conf.replace(f"listener {port}", f"listener {port} 127.0.0.1")
    if os.geteuid() == 0:
        conf += "user root\n"  # else it reads the files as user mosquitto
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", port)
    broker.config.write_text(conf)
    broker.start()
    try:
        client, reason = _client(broker, "t1", passwords["t1"])
        stop_client(client)
        stranger, refused = _client(broker)
        stop_client(stranger)
    finally:
        broker.stop()
    assert (reason, refused) == ("Success", "Not authorized")


def test_a_hub_without_a_user_says_once_that_its_broker_is_anonymous(tmp_path, broker):
    (tmp_path / "hub").mkdir()
    hub = HubProcess(broker.url, tmp_path / "hub").start()
    hub.stop()
    log = (tmp_path / "hub" / "hub.log").read_text()
    assert log.count("no [club] user") == 1 and "binaryon club setup" in log


@needs_mosquitto
def test_a_club_night_on_the_secure_broker(secure, tmp_path):
    broker, out, passwords = secure
    config = tmp_path / "hub-config.toml"
    here = f"127.0.0.1:{broker.port}"
    config.write_text((out / "hub.toml").read_text().replace("club.lan:1883", here))
    (tmp_path / "hub").mkdir()
    hub = HubProcess(None, tmp_path / "hub", config=config).start()
    daemon, closers = start_board(
        tmp_path, broker.url, "t1", rules=SMALL, user="t1", password=passwords["t1"]
    )
    try:
        wait(lambda: daemon.club.connected, what="t1 connected")
        for name in moves_to_end("binaryon", **SMALL):
            play(daemon, name)
        uid = daemon.club.game_uid()
        wait(lambda: any(g["game_uid"] == uid for g in hub.results()), what="stored")
        wait(lambda: daemon.journal.meta(f"club.delivered.{uid}") is not None, what="acked")
    finally:
        stop_board(daemon, closers)
        hub.stop()
    log = (tmp_path / "hub" / "hub.log").read_text()
    assert "no [club] user" not in log  # the warning is for an anonymous broker only


def test_a_board_without_a_user_says_once_that_its_broker_is_anonymous(tmp_path, broker, caplog):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    try:
        wait(lambda: daemon.club.connected, what="connected")
    finally:
        stop_board(daemon, closers)
    said = [r.getMessage() for r in caplog.records if "no [club] user" in r.getMessage()]
    assert len(said) == 1 and "binaryon club setup" in said[0]


# ------------------------------------------------------------------ mqtts with the club's CA


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_ca(where: Path) -> tuple[Path, Path, Path]:
    """A club's own CA and the broker's certificate for 127.0.0.1, signed by it."""
    where.mkdir(parents=True, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
             "-subj", "/CN=Club CA", cwd=where)  # fmt: skip
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1",
             cwd=where)  # fmt: skip
    (where / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.ext",
             cwd=where)  # fmt: skip
    return where / "ca.pem", where / "server.crt", where / "server.key"


@needs_mosquitto
# paho drops the socket of a failed TLS handshake (the board without the CA) unclosed
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_mqtts_with_the_clubs_own_ca(tmp_path):
    ca, cert, key = make_ca(tmp_path / "ca")
    (tmp_path / "broker").mkdir()
    probe = Broker(tmp_path / "broker")
    url = f"mqtts://127.0.0.1:{probe.port}"
    out, passwords = _setup(tmp_path, "t1", broker=url, ca_file=str(ca))
    broker = Broker(
        tmp_path / "broker", probe.port, passwd=out / "passwd", acl=out / "acl", tls=(cert, key)
    ).start()
    assert broker.url == url
    (tmp_path / "hub").mkdir()
    hub = HubProcess(None, tmp_path / "hub", config=out / "hub.toml").start()
    board = Config.load(str(out / "t1.toml")).club
    daemon, closers = start_board(tmp_path, url, "t1", rules=SMALL, user="t1",
                                  password=board.password, ca_file=board.ca_file)  # fmt: skip
    stranger, closers2 = start_board(  # no CA: the system's do not know the club's
        tmp_path, url, "t2", journal=tmp_path / "t2.sqlite", user="t1", password=board.password
    )
    try:
        wait(lambda: daemon.club.connected, what="t1 connected over TLS")
        for name in moves_to_end("binaryon", **SMALL):
            play(daemon, name)
        uid = daemon.club.game_uid()
        wait(lambda: any(g["game_uid"] == uid for g in hub.results()), what="stored over TLS")
        assert not stranger.club.connected  # its TLS handshake fails: never on the broker
    finally:
        stop_board(stranger, closers2)
        stop_board(daemon, closers)
        hub.stop()
        broker.stop()
