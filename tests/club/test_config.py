"""The board's club settings: ``[club]`` in the config file and ``--club``/``--board-name`` on
the command line, each bad value one line and exit status 2; a user and password only from
the file, never echoed; the link's state in the menu and in ``binaryon doctor``."""

from __future__ import annotations

import json
import os

import pytest

from companion.cli.doctor import MISSING, OK, Probe, run_checks
from companion.cli.main import main
from companion.core.broker_url import parse_broker_url
from companion.core.config import Config, ConfigError
from tests.club_boards import play, start_board, stop_board, wait


def run_error(capsys, args: list[str]) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_the_club_table_is_read_typed_and_its_files_taken_from_the_configs_folder(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        '[club]\nbroker = "mqtts://club.lan:8883"\nboard = "t1"\nuser = "t1"\n'
        'password = "s3cret"\nca_file = "club-ca.pem"\n'
    )
    club = Config.load(path).club
    assert (club.broker, club.board, club.user, club.password) == (
        "mqtts://club.lan:8883", "t1", "t1", "s3cret",
    )  # fmt: skip
    assert club.ca_file == str(tmp_path / "club-ca.pem")
    assert parse_broker_url(club.broker).tls and parse_broker_url("mqtt://h").port == 1883


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ('broker = "http://club.lan"\nboard = "t1"', "must be mqtt:// or mqtts://"),
        ('broker = "mqtt://club.lan:99999"\nboard = "t1"', "Port out of range"),
        ('broker = "mqtt://club.lan"', "[club] board: give this board a name"),
        ('board = "t1"', "[club] board needs a broker"),
        ('broker = "mqtt://club.lan"\nboard = "t1"\nca_file = "ca.pem"', "ca_file is for mqtts"),
        ('broker = "mqtt://club.lan"\nboard = "t1"\npassword = "x"', "password without a user"),
        ('broker = "mqtt://club.lan"\nboard = 7', "[club] board: expected text"),
        ('broker = "mqtt://club.lan"\nboard = "t/1"', "[club] board 't/1': a board's name"),
        ('broker = "mqtt://club.lan"\nboard = "hub"', "[club] board 'hub'"),
        ('broker = "mqtt://club.lan"\nboard = "t1"\nreveal_timeout = 0', "reveal_timeout 0"),
        ('broker = "mqtt://club.lan"\nboard = "t1"\nreveal_timeout = "x"', "reveal_timeout"),
    ],
)
def test_a_bad_club_value_stops_the_start_in_one_line(tmp_path, capsys, table, words):
    path = tmp_path / "c.toml"
    path.write_text(f'[club]\n{table}\n[journal]\npath = "j.sqlite"\n')
    err = run_error(capsys, ["run", "--board", "mock", "--config", str(path)])
    assert words in err and str(path) in err


def test_credentials_in_the_address_are_refused_and_never_echoed(tmp_path, capsys):
    url = "mqtt://t1:hunter2@club.lan:1883"
    journal = str(tmp_path / "j")
    err = run_error(capsys, ["run", "--board", "mock", "--journal", journal, "--club", url])
    assert err.startswith("binaryon: --club ") and "config file's [club] table" in err
    assert "hunter2" not in err
    with pytest.raises(ConfigError) as e:  # nor in the file: user and password are keys
        Config.from_dict({"club": {"broker": "mqtt://t1:hunter2@h", "board": "t1"}})
    assert "hunter2" not in str(e.value) and "(user, password)" in str(e.value)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--club", "club.lan:1883", "--board-name", "t1"], "--club 'club.lan:1883': give it"),
        (["--club", "mqtt://club.lan", "--board-name", "a b"], "--board-name 'a b':"),
        (["--board-name", "t1"], "--board-name needs --club"),
        (["--club", "mqtt://club.lan"], "--club needs --board-name"),
        (
            ["--club", "mqtt://club.lan", "--board-name", "t1", "--journal", "none"],
            "needs a journal",
        ),
    ],
)
def test_a_bad_club_option_is_one_line_and_exit_status_2(tmp_path, capsys, args, words):
    journal = [] if "--journal" in args else ["--journal", str(tmp_path / "j.sqlite")]
    for command in (["run", "--board", "mock"], ["sim"]):
        assert words in run_error(capsys, [*command, *journal, *args])


def test_the_menu_and_doctor_say_how_the_link_is(tmp_path, broker, monkeypatch):
    daemon, closers = start_board(tmp_path, broker.url, "t1")
    config = Config.default().with_overrides(
        journal={"path": str(tmp_path / "t1.sqlite")},
        club={"broker": broker.url, "board": "t1"},
    )
    try:
        wait(lambda: daemon.club_status == "club: connected to 127.0.0.1", what="connected")
        checks = {c.name: c for c in run_checks(Probe(tmp_path / "root"), config=config)}
        assert (checks["club"].status, checks["club"].detail) == (OK, daemon.club_status)
        # the menu's last entry says it too
        daemon.call(lambda: daemon.button("menu", long=True))
        entries = daemon.menu.shown()[0]
        assert entries[-1] == "club"
        while daemon.menu.chosen != "club":
            daemon.call(lambda: daemon.button("menu"))
        daemon.call(lambda: daemon.button("confirm"))
        assert daemon.message == "club: connected to 127.0.0.1" and not daemon.menu.is_open
        broker.kill()
        wait(lambda: daemon.club_status == "club: broker unreachable", what="the OLED's line")
        wait(lambda: daemon.message == "club: broker unreachable", what="said on the OLED")
        checks = {c.name: c for c in run_checks(Probe(tmp_path / "root"), config=config)}
        assert checks["club"].status == MISSING
        assert (
            checks["club"].detail == "club: broker unreachable"
            and "mosquitto" in checks["club"].fix
        )
        state = json.loads((tmp_path / "t1.sqlite.club.json").read_text())
        assert state["pid"] == os.getpid() and state["connected"] is False
    finally:
        stop_board(daemon, closers)
    # the companion stopped: doctor asks the broker itself (still down here)
    checks = {c.name: c for c in run_checks(Probe(tmp_path / "root"), config=config)}
    assert checks["club"].detail.startswith("club: broker unreachable at mqtt://127.0.0.1:")
    broker.start()
    checks = {c.name: c for c in run_checks(Probe(tmp_path / "root"), config=config)}
    assert "answers (the companion is not running)" in checks["club"].detail


def password_broker(tmp_path, users: dict[str, str]):
    """A Mosquitto that wants a user and password (mosquitto_passwd, Debian's package)."""
    import pwd
    import shutil
    import subprocess

    from tests.mosquitto import Broker, mosquitto_path

    passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if mosquitto_path() is None or not os.access(passwd, os.X_OK):
        (pytest.fail if os.environ.get("CI") else pytest.skip)("mosquitto is not installed")
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker")
    path = tmp_path / "broker" / "passwd"
    for k, (user, password) in enumerate(users.items()):
        create = ["-c"] if k == 0 else []
        subprocess.run([passwd, "-b", *create, str(path), user, password], check=True, timeout=30)
    text = broker.config.read_text()
    me = pwd.getpwuid(os.getuid()).pw_name  # run as root, mosquitto would drop to its own
    broker.config.write_text(  # user, who cannot read the password file in our temp folder
        text.replace("allow_anonymous true", f"allow_anonymous false\npassword_file {path}")
        + f"user {me}\n"
    )
    return broker


def test_the_user_and_password_from_the_file_let_the_board_in_and_a_wrong_one_is_said(
    tmp_path,
):
    """A broker that wants a password (mosquitto_passwd, Debian's mosquitto package): the
    board's [club] user and password get it in; a wrong password is one line on the OLED and
    in the menu, and the board plays on."""
    broker = password_broker(tmp_path, {"t1": "right"})
    broker.start()
    try:
        daemon, closers = start_board(tmp_path, broker.url, "t1", user="t1", password="right")
        try:
            wait(lambda: daemon.club_status == "club: connected to 127.0.0.1", what="let in")
        finally:
            stop_board(daemon, closers)
        daemon, closers = start_board(tmp_path, broker.url, "t1", user="t1", password="wrong")
        try:
            wait(lambda: daemon.club_status.startswith("club: 127.0.0.1 refused: "), what="said")
            assert "Not authorized" in daemon.club_status and "\n" not in daemon.club_status
            play(daemon, "e5")  # the board plays on
        finally:
            stop_board(daemon, closers)
    finally:
        broker.stop()


def test_the_files_user_and_password_with_the_broker_on_the_command_line(tmp_path):
    """README's club night with a password_file: the hub's and the board's config files hold
    only [club] user and password, the broker (and the board's name) is on the command line:
    both get in."""
    from tests.club_boards import BoardProcess
    from tests.club_hub import HubProcess

    broker = password_broker(tmp_path, {"hub": "h4b", "t1": "s3cret"})
    hub_config = tmp_path / "hub.toml"
    hub_config.write_text('[club]\nuser = "hub"\npassword = "h4b"\n')
    board_config = tmp_path / "board.toml"
    board_config.write_text('[club]\nuser = "t1"\npassword = "s3cret"\n')
    broker.start()
    hub = board = None
    try:
        hub = HubProcess(broker.url, tmp_path, config=hub_config).start()
        journal = tmp_path / "t1.sqlite"
        board = BoardProcess(tmp_path, broker.url, "t1", journal, "--config", str(board_config))
        hub.wait(lambda: hub.boards()["t1"]["online"], 30, "the board let in")
    finally:
        if board is not None:
            board.close()
        if hub is not None:
            hub.stop()
        broker.stop()
