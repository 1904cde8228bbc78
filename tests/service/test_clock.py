"""The game clock through the daemon, on a fake clock: each time control switched by the
board's presses, the flag's timer ending the game on time, the tick journaled about once a
second and drawn only when the shown seconds change, confirm pausing and resuming, a long
undo adding time while paused, undo, turns of several presses, forced passes, and a restart
after a crash (charged up to the last tick, then paused until a press)."""

import random

import pytest

from companion.core.config import Config
from companion.core.events import ButtonEvent
from companion.games import get_spec
from companion.hardware.simulated.mock_board import MockBoard
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from companion.timing.on_time import on_time
from companion.views.leds import GREEN
from companion.views.oled import screen_text
from tests.conftest import FakeClock, step
from tests.journal.test_clock import power_cut


def clocked_daemon(clock, control, game="binaryon", journal=None, rules=None, size=8):
    cfg = Config.default().with_overrides(
        game={"name": game}, clock={"control": control}, rules={game: rules or {}}
    )
    d = Daemon(cfg, board=MockBoard(size, "switch", clock), clock=clock, journal=journal)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d


def press_move(d, clock, k: int = 0) -> None:
    """The player on move presses the cell of one of their legal moves."""
    move = d.session.state.legal_moves()[k]
    d.board.tap(move.cell)
    step(d, clock)


def button(d, clock, name: str, long: bool = False) -> None:
    d.post(ButtonEvent(name, long))
    step(d, clock)


def times(d, clock) -> dict[str, float]:
    return {p: round(v, 3) for p, v in d.session.clock.times(clock()).items()}


@pytest.mark.parametrize(
    "control, on_after, off_after",
    [
        # ON moves at once (the first move is free), OFF thinks 4 s, ON thinks 6 s
        ("0:30", 24.0, 26.0),  # sudden death: what was used is gone
        ("0:30+2", 26.0, 28.0),  # Fischer: 2 s back after each turn
        ("0:30d2", 26.0, 28.0),  # Bronstein: the first 2 s of each turn are free
        ("0:30h", 28.0, 32.0),  # hourglass: what one uses, the other gains (6 - 4 = 2)
    ],
)
def test_each_time_control_switches_with_the_presses(control, on_after, off_after):
    clock = FakeClock()
    d = clocked_daemon(clock, control)
    assert d.session.clock.running is None  # nothing runs before the first move
    press_move(d, clock)
    assert d.session.clock.running == "off"
    step(d, clock, 4)
    press_move(d, clock)
    assert d.session.clock.running == "on"
    step(d, clock, 6)
    press_move(d, clock)
    assert times(d, clock) == {"on": on_after, "off": off_after}
    assert d.session.played[-1].clock["left"] == {"on": on_after, "off": off_after}


def test_the_flag_ends_the_game_on_time_at_its_due_time(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "0:12+2", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    press_move(d, clock)
    step(d, clock, 11.5)
    assert not d.session.state.is_over()
    step(d, clock, 0.6)  # the flag's own timer: 12 s after OFF's turn began
    state = d.session.state
    assert state.is_over() and on_time(state) is not None
    assert state.outcome().winners == ("on",) and "on time" in d.message
    assert d.web_view()["result"]["summary"] == "ON wins on time"
    assert d.web_view()["clock"]["off"] == 0 and d.web_view()["clock"]["running"] is None
    entry = d.journal.load(d.session.game_id)
    assert entry.status == "finished" and entry.summary == "ON wins on time"
    assert [e.kind for e in d.journal.clock_events(entry.id)] == ["flag"]
    press_move_refused = d.session.state.legal_moves()
    assert press_move_refused == []


def test_the_tick_is_journaled_each_second_and_drawn_only_when_the_seconds_change(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "5:00", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    drawn, told = [], []
    real_render = d.render
    d.render = lambda pages=True: drawn.append(clock()) or real_render(pages)
    d.listeners.append(lambda: told.append(clock()))
    press_move(d, clock)
    ticks = []
    real = d.journal.clock_tick
    d.journal.clock_tick = lambda *a: ticks.append(clock()) or real(*a)
    drawn.clear()
    told.clear()
    for _ in range(40):
        step(d, clock, 0.1)
    assert len(ticks) == 4 and len(drawn) == 4  # 4 s: one write and one frame a second
    assert told == []  # the pages count down by themselves
    row = d.journal.current().clock
    assert row.ply == 1 and row.state["used"] == pytest.approx(3.9, abs=0.11)
    button(d, clock, "confirm")  # paused: nothing changes, nothing is written or drawn
    step(d, clock)
    ticks.clear()
    drawn.clear()
    step(d, clock, 10)
    assert ticks == [] and drawn == []


def test_confirm_pauses_and_resumes_and_a_long_undo_adds_time_while_paused(tmp_path):
    clock = FakeClock()
    d = clocked_daemon(clock, "1:00", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    press_move(d, clock)
    step(d, clock, 5)
    button(d, clock, "confirm")
    step(d, clock, 100)
    assert d.session.clock.paused and times(d, clock)["off"] == 55
    moves = len(d.session.played)
    button(d, clock, "undo", long=True)  # while paused: +10 s to the player on move, no takeback
    button(d, clock, "undo", long=True)
    assert times(d, clock)["off"] == 75 and len(d.session.played) == moves
    assert "+10 s" in d.message
    button(d, clock, "confirm")
    step(d, clock, 5)
    assert not d.session.clock.paused and times(d, clock)["off"] == 70
    events = d.journal.clock_events(d.session.game_id)
    assert [(e.kind, e.player, e.seconds, e.why) for e in events] == [
        ("pause", None, None, None),
        ("add", "off", 10, "correction"),
        ("add", "off", 10, "correction"),
        ("resume", None, None, None),
    ]
    button(d, clock, "undo", long=True)  # running: the long undo takes a round back as before
    assert len(d.session.played) < moves


def test_undo_through_the_daemon_restores_the_clock():
    clock = FakeClock()
    d = clocked_daemon(clock, "1:00+1")
    press_move(d, clock)
    step(d, clock, 10)
    press_move(d, clock)  # off: 51
    step(d, clock, 20)
    press_move(d, clock)  # on: 41
    step(d, clock, 3)
    button(d, clock, "undo")
    assert d.session.clock.running == "on"
    assert times(d, clock) == {"on": 60, "off": 51}
    step(d, clock, 2)
    assert times(d, clock)["on"] == 58


def test_a_turn_of_several_presses_switches_when_it_ends():
    """Binary: a press places one piece; the turn ends with the second piece, or with
    confirm after one (confirm completes it before it would pause the clock)."""
    clock = FakeClock()
    d = clocked_daemon(clock, "1:00", game="binary")
    press_move(d, clock)  # Black's first turn: one piece, the turn is over
    assert d.session.clock.running == "white"
    step(d, clock, 3)
    press_move(d, clock)  # White's first piece: still White's turn
    assert d.session.clock.running == "white" and d.turn_pending()
    step(d, clock, 2)
    button(d, clock, "confirm")  # completes the turn: no pause
    step(d, clock)
    assert d.session.clock.running == "black" and not d.session.clock.paused
    assert times(d, clock) == {"black": 60, "white": 55}
    button(d, clock, "confirm")  # nothing half entered: the clock pauses
    assert d.session.clock.paused


def test_forced_passes_cost_nobody():
    """A player's move that leaves the opponent nothing to play: their pass is the
    referee's, and the mover's time runs again at once (with the increment of their turn)."""
    new = get_spec("binaryon").new
    for seed in range(300):
        rng = random.Random(seed)
        st, moves = new(size=4), []
        while not st.is_over():
            m = rng.choice(st.legal_moves())
            if st.forced_move() is None:
                moves.append(m)
            after = st.play(m)
            if len(moves) > 1 and after.forced_move() is not None and not after.is_over():
                break
            st = after
        else:
            continue
        break
    else:
        raise AssertionError("no game with a forced pass found")
    clock = FakeClock()
    d = clocked_daemon(clock, "1:00+5", rules={"size": 4}, size=4)
    for m in moves[:-1]:
        d.board.tap(m.cell)
        step(d, clock, 1)
    mover = d.session.state.turn
    before = d.session.clock.left(mover, clock())
    other = next(p for p in ("on", "off") if p != mover)
    other_before = d.session.clock.left(other, clock())
    d.board.tap(moves[-1].cell)
    step(d, clock)
    assert d.session.played[-1].forced and d.session.state.turn == mover
    assert d.session.clock.running == mover
    assert d.session.clock.left(other, clock()) == other_before  # the pass cost nothing
    assert d.session.clock.left(mover, clock()) == pytest.approx(before + 5)


def test_a_restart_after_a_crash_charges_up_to_the_last_tick_and_waits_paused(tmp_path):
    path = tmp_path / "j.sqlite"
    clock = FakeClock()
    d = clocked_daemon(clock, "0:12+2", journal=SqliteJournal.open(path))
    press_move(d, clock)
    step(d, clock, 3.05)  # OFF's time ticked at 1, 2 and 3 s
    path = power_cut(path, tmp_path / "after")  # the files as a power cut leaves them
    d.journal.close()
    clock.advance(500)  # the companion was off for a while
    again = clocked_daemon(clock, "0:12+2", journal=SqliteJournal.open(path))
    c = again.session.clock
    assert c.paused and c.running == "off"
    assert c.left("off", clock()) == pytest.approx(9, abs=0.06)
    step(again, clock, 30)
    assert not again.session.state.is_over() and c.left("off", clock()) == pytest.approx(9, 0.01)
    assert again.web_view()["clock"]["paused"] is True
    button(again, clock, "confirm")  # the press that resumes it
    step(again, clock, 9.1)
    assert again.session.state.is_over() and on_time(again.session.state) is not None


def test_binome_steps_are_timed_an_unwritten_digit_goes_to_the_first_free_half():
    clock = FakeClock()
    rules = {"players": "Ann,Bob", "step_seconds": 20}
    d = clocked_daemon(clock, "", game="binome", rules=rules)
    state = d.session.state
    assert state.phase == "write" and state.to_act == {"Ann", "Bob"}
    d.submit("Ann write 3b", "Ann")
    step(d, clock, 19)
    assert d.session.state.sheet("Bob")[0] is None  # Bob still has a second
    step(d, clock, 1.5)
    sheet = d.session.state.sheet("Bob")
    assert sheet[0] is not None and sheet[1:].count(None) == len(sheet) - 1
    assert any(p.name == "Bob write 1a" for p in d.session.played)
    assert "time up: BOB" in d.message
    assert d.session.state.to_act == {"Ann", "Bob"}  # the next roll: a new step, in full
    step(d, clock, 19)
    assert d.session.state.to_act == {"Ann", "Bob"}


def test_binome_an_unclaimed_turn_is_a_pass_and_each_claimant_gets_a_step():
    clock = FakeClock()
    rules = {"players": "Ann,Bob", "step_seconds": 5}
    d = clocked_daemon(clock, "", game="binome", rules=rules)
    for _ in range(16):  # nobody writes: every digit goes to the first free half
        step(d, clock, 5.01)
    state = d.session.state
    assert state.phase == "claim" and state.turn == "Ann"
    step(d, clock, 5.01)  # Ann let her step run out: a pass
    assert any(p.name == "Ann pass" for p in d.session.played)
    assert d.session.state.turn == "Bob"
    step(d, clock, 4)
    assert d.session.state.turn == "Bob"  # Bob's own step began when Ann's ended


def test_a_game_ended_on_time_is_not_explained_or_lit_as_the_board_deciding_it():
    """The sim's walk: ON plays e5, OFF d4, ON's flag falls with the board tied on numbers
    (ON's next higher: ON leads). The time decided it: no line is lit or marked as won,
    the explanation says the result first and the board as it stood (never 'every number
    cancels', a draw's reason), the OLED's note says 'on time'."""
    from companion.views.presenter import Notices

    clock = FakeClock()
    d = clocked_daemon(clock, "0:12+2")
    for name in ("e5", "d4"):
        assert d.session.submit_name(name).accepted
        d.render()
        step(d, clock, 1)
    step(d, clock, 13)
    assert d.session.state.outcome().summary == "OFF wins on time"
    view = d.web_view()
    assert view["explanation"][0] == "OFF wins on time: ON's time ran out"
    assert not any("cancels" in line and "next" not in line for line in view["explanation"])
    assert [c["name"] for c in view["board"]["cells"] if "win" in c["marks"]] == []
    for blink in (True, False):
        d.notices = Notices(blink_on=blink)
        d.render()
        assert GREEN not in d.leds.frame  # no winning line: the board did not decide it
    assert d.frame.view.panel.note == "OFF wins on time: ON's time ran out"
    assert any("on time" in line for line in screen_text(d.frame.screen))


def test_the_replay_viewer_ends_a_game_ended_on_time_with_its_flag(tmp_path):
    from companion.service.web_backend import DaemonWebBackend

    clock = FakeClock()
    d = clocked_daemon(clock, "0:12+2", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    backend = DaemonWebBackend(d, tmp_path / "tokens.json")
    press_move(d, clock)
    step(d, clock, 13)  # OFF's flag falls
    assert on_time(d.session.state) is not None
    frames = backend.record(d.session.game_id)["frames"]
    assert len(frames) == 2  # the start, then after ON's move: where the flag fell
    assert not frames[0]["over"] and frames[0]["result"] is None
    last = frames[-1]
    assert last["over"] and last["turn"] is None
    assert last["result"]["summary"] == "ON wins on time"
    assert last["explanation"][0] == "ON wins on time: OFF's time ran out"
    assert last["clock"]["off"] == 0 and last["clock"]["running"] is None
    assert last["clock"]["on"] == d.web_view()["clock"]["on"]


def test_a_paused_clock_takes_no_move_until_confirm_resumes_it(tmp_path):
    """Nobody thinks for free: on a paused clock a move is refused (the square blinks, the
    reason is said), nothing is journaled; after confirm the same move is played and charged."""
    clock = FakeClock()
    d = clocked_daemon(clock, "1:00", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    press_move(d, clock)
    step(d, clock, 5)
    button(d, clock, "confirm")
    assert d.session.clock.paused
    step(d, clock, 30)  # thinking on a paused clock
    move = d.session.state.legal_moves()[0]
    d.board.tap(move.cell)
    step(d, clock)
    assert len(d.session.played) == 1 and d.session.state.turn == "off"
    assert d.message == "clock paused: confirm resumes"
    assert len(d.journal.load(d.session.game_id).move_names) == 1
    assert d.submit(move.name, None).refusal.code == "clock-paused"  # typed or from a page
    button(d, clock, "confirm")
    step(d, clock, 4)
    d.board.tap(move.cell)
    step(d, clock)
    assert d.session.played[-1].name == move.name and d.session.clock.running == "on"
    assert times(d, clock)["off"] == 51  # 5 s, then 4 s after the resume


def test_undo_after_a_flag_fall_takes_back_the_flag_not_the_winners_move(tmp_path):
    """The arbiter's correction: ON's move stays, OFF is on move again with the time of the
    turn's start, the clock paused (a long undo adds time, confirm resumes); a second undo
    takes moves back as before."""
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2", journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    press_move(d, clock)  # ON
    step(d, clock, 31)  # OFF's flag falls
    assert on_time(d.session.state) is not None
    button(d, clock, "undo")
    state = d.session.state
    assert not state.is_over() and on_time(state) is None
    assert len(d.session.played) == 1 and state.turn == "off"
    assert d.message == "OFF's flag taken back: confirm resumes, hold undo: +10 s"
    assert "took back" not in d.message
    assert d.session.clock.paused and times(d, clock) == {"on": 30, "off": 30}
    entry = d.journal.load(d.session.game_id)
    assert entry.status == "in_progress" and len(entry.move_names) == 1
    button(d, clock, "undo", long=True)  # paused: +10 s for OFF
    assert times(d, clock)["off"] == 40 and len(d.session.played) == 1
    button(d, clock, "confirm")
    press_move(d, clock)  # OFF plays on
    assert len(d.session.played) == 2 and d.session.clock.running == "on"
    button(d, clock, "undo")  # now an ordinary takeback
    assert len(d.session.played) == 1 and d.message.startswith("took back")


def test_a_page_cannot_take_back_the_winners_move_after_a_flag(tmp_path):
    """The flag is the arbiter's, taken back with undo on the board: a page's request would
    take back the move of the player whose time had not run out."""
    clock = FakeClock()
    d = clocked_daemon(clock, "0:30+2")
    press_move(d, clock)
    step(d, clock, 31)
    verdict = d.referee.ask_undo("off")
    assert verdict.refusal.code == "flag-fell" and len(d.session.played) == 1
    assert verdict.refusal.reason == "a flag is taken back with undo on the board"
