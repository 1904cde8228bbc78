import os
import time

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
# Speed is measured in benchmarks/, not asserted in tests: on a Pi Zero, or an emulated Pi, a
# property test's inputs take longer to draw and each example longer to run.
settings.register_profile(
    "any-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("any-machine")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """With ./run-tests' workers (pytest-xdist, ``--dist loadgroup``) a test file runs on one
    worker, as its module-scoped fixtures (a browser, a broker, a daemon) expect. A module
    marked ``spread`` holds independent long tests that may go to different workers."""
    for item in items:
        if item.get_closest_marker("spread") is None:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


class FakeClock:
    """Monotonic time that only moves when a test says so."""

    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium (tests/web_browser.py), one a test module; a CI run without it fails
    rather than skips."""
    from tests.web_browser import Browser, browser_missing

    reason = browser_missing()
    if reason:
        (pytest.fail if os.environ.get("CI") else pytest.skip)(reason)
    b = Browser(1280, 900)
    yield b
    b.quit()


@pytest.fixture(scope="module")
def axe_js() -> str:
    """axe-core's source for the accessibility tests (tests/axe.py), fetched once and kept."""
    from tests import axe

    try:
        return axe.source()
    except axe.Offline as e:
        pytest.skip(str(e))


@pytest.fixture
def factory():
    """gpiozero's MockFactory: buttons, a buzzer and LEDs on mock pins, reset after the test."""
    from gpiozero.pins.mock import MockFactory

    f = MockFactory()
    yield f
    f.reset()


class Connections(list):
    """The SQLite connections journals opened (``companion.journal.db.open_rw``), newest
    last, each passed through ``wrap`` first: to watch or to fault what a journal sends."""

    def __init__(self) -> None:
        super().__init__()
        self.wrap = lambda db: db


@pytest.fixture
def journal_connections(monkeypatch) -> Connections:
    import companion.journal.db as journal_db

    made = Connections()
    real = journal_db.open_rw

    def open_rw(path):
        made.append(made.wrap(real(path)))
        return made[-1]

    monkeypatch.setattr(journal_db, "open_rw", open_rw)
    return made


@pytest.fixture
def stub_games():
    """The protocol's stub games (tests/stub_games), registered for one test."""
    from tests.stub_games import stubs_registered

    with stubs_registered():
        yield


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_daemon(clock):
    """A daemon on a mock board with a fake clock, stepped by hand (no threads)."""
    from companion.core.config import Config
    from companion.hardware.simulated.mock_board import MockBoard
    from companion.service.config_check import rule_options
    from companion.service.daemon import Daemon

    made = []

    def make(kind="switch", game="binaryon", rules=None, initial=None, journal=None, **board):
        cfg = Config.default().with_overrides(
            game={"name": game}, board={"kind": kind, **board}, rules={game: rules or {}}
        )
        size = rule_options(cfg).get("size", 8)
        mock = MockBoard(size, kind, clock, initial=initial)
        d = Daemon(cfg, board=mock, clock=clock, journal=journal)
        d.board.start(d.loop.post)
        d.loop.run_pending()
        made.append(d)
        return d

    yield make
    for d in made:
        d.board.stop()


def step(daemon, clock, seconds: float = 0.0) -> None:
    """Let ``seconds`` pass and handle everything that became due."""
    daemon.loop.run_pending()
    if seconds:
        clock.advance(seconds)
        daemon.loop.run_pending()


def wait_until(cond, timeout: float = 5.0, what: str = "condition") -> None:
    """Poll ``cond`` (for threads: drivers, retries) until true; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def daemon_on_journal(path, clock):
    """A daemon on a mock switch board with an SQLite journal at ``path``, stepped by hand
    (a second call on the same path is a restart)."""
    from companion.core.config import Config
    from companion.hardware.simulated.mock_board import MockBoard
    from companion.journal.store import SqliteJournal
    from companion.service.daemon import Daemon

    d = Daemon(
        Config.default(),
        board=MockBoard(8, "switch", clock),
        journal=SqliteJournal.open(path),
        clock=clock,
    )
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


@pytest.fixture
def broker(tmp_path):
    """A real Mosquitto on a loopback port (tests/mosquitto.py); CI installs it, so a CI run
    without it fails rather than skips."""
    from tests.mosquitto import Broker, require_mosquitto

    require_mosquitto()
    (tmp_path / "broker").mkdir()
    b = Broker(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture
def club_hub(broker, tmp_path):
    """Starts the club's hub (``binaryon club``) in its own process on the broker
    (tests/club_hub.py), working in the test's folder: ``start(event=None, timeout=30.0)``;
    given an event file, the hub runs that event. Each hub started is stopped at the end."""
    from tests.club_hub import HubProcess

    made: list[HubProcess] = []

    def start(event=None, timeout: float = 30.0) -> HubProcess:
        extra = ("--event", str(event)) if event is not None else ()
        made.append(HubProcess(broker.url, tmp_path, extra=extra))
        return made[-1].start(timeout=timeout)

    yield start
    for h in made:
        h.stop()


@pytest.fixture
def hub(club_hub):
    """The club's hub on the broker, with no event."""
    return club_hub()


@pytest.fixture
def pair(tmp_path, broker):
    """Boards t3 (plays the first side; the second is remote) and t4 (the mirror), each a
    companion in its own process: ``make(game, rules, clock="", env=None, t4_env=None)``;
    both run with ``env``, t4 also with ``t4_env`` (a dishonest board: tests/remote_child.py)."""
    from tests.remote_boards import Board

    made: list[Board] = []

    def make(
        game: str, rules: dict, clock: str = "", env: dict | None = None,
        t4_env: dict | None = None,
    ) -> tuple[Board, Board]:  # fmt: skip
        t3 = Board(tmp_path, broker, "t3", "t4", "", game, rules, env=env, clock=clock)
        made.append(t3)
        first = t3.state()["local"]
        t4_env = {**(env or {}), **(t4_env or {})}
        t4 = Board(tmp_path, broker, "t4", "t3", first, game, rules, env=t4_env, clock=clock)
        made.append(t4)
        return t3, t4

    yield make
    for board in made:
        board.stop()


@pytest.fixture
def timed_pair(pair):
    """Boards t3 and t4 of a remote Binaryon game (size 4) on a clock (``make(control)``)."""

    def make(control: str = "5:00+3"):
        return pair("binaryon", {"size": 4}, clock=control)

    return make


def one_line_error(capsys) -> str:
    """The one line a command wrote to stderr (a refusal), never a traceback."""
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    return err


@pytest.fixture
def journal_path(tmp_path):
    """Where a test's journal goes (not made until something opens it)."""
    return tmp_path / "journal.sqlite"
