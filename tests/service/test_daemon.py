"""End to end: simulated sensor events drive the daemon; check game, OLED and LEDs."""

import random

import pytest

from companion.core.config import Config
from companion.core.events import ButtonEvent, LinkStatus, UserCommand
from companion.core.squares import parse_square
from companion.games import get_spec
from companion.games.binaryon.engine import PASS
from companion.journal.store import SqliteJournal
from companion.service.daemon import Daemon
from companion.views.leds import GREEN, RED
from tests.conftest import step


def sq(name, n=8):
    return parse_square(name, n)


def play_press(d, clock, name):
    d.board.tap(sq(name, d.board.size))
    step(d, clock)


def test_a_legal_press_turns_the_piece_and_lights_it(make_daemon, clock):
    d = make_daemon()
    before = d.leds.frame[sq("e5")]
    play_press(d, clock, "e5")
    assert d.session.moves == ["e5"]
    assert d.session.state.turn == "off"
    assert d.leds.frame[sq("e5")] != before  # the LED shows the turned piece
    assert d.oled.frames >= 2


def test_an_illegal_press_is_refused_with_a_reason_and_changes_nothing(make_daemon, clock):
    d = make_daemon()
    play_press(d, clock, "e5")
    play_press(d, clock, "d4")
    state = d.session.state
    play_press(d, clock, "f5")  # not in line with d4
    assert d.session.state is state
    assert d.message == "f5: not in line with d4"
    assert d.leds.frame[sq("f5")] == RED
    clock.advance(d.config.display.message_seconds + 0.1)
    d.loop.run_pending()
    assert d.message == "" and d.leds.frame[sq("f5")] != RED  # the refusal goes after a while


def test_bounce_on_the_switch_counts_one_press(make_daemon, clock):
    d = make_daemon()
    d.board.bounce(sq("e5"), "1", edges=6)
    d.board.bounce(sq("e5"), "0", edges=6)
    step(d, clock, 0.05)
    assert d.session.moves == ["e5"]


def test_a_full_random_game_ends_with_winner_shown_and_line_blinking(make_daemon, clock):
    rng = random.Random(7)
    d = make_daemon(rules={"size": 6}, size=6)
    presses = 0
    while not d.session.state.is_over():
        state = d.session.state
        moves = [m for m in state.legal_moves() if m is not PASS]
        assert moves, "the session plays passes by itself"
        d.board.tap(rng.choice(moves).cell)
        step(d, clock, 0.03)
        presses += 1
        assert presses < 200
    outcome = d.session.state.outcome()
    assert d.message == outcome.summary
    highlight = d.session.spec.highlight(d.session.state)
    assert highlight
    frames = set()
    for _ in range(4):  # the winning line blinks
        step(d, clock, 0.5)
        frames.add(tuple(d.leds.frame[s] for s in highlight))
    assert len(frames) == 2 and any(all(c == GREEN for c in f) for f in frames)
    # a press after the end changes nothing and says so
    moves = list(d.session.moves)
    d.board.tap(0)
    step(d, clock, 0.03)
    assert d.session.moves == moves and "game over" in d.message


def test_passes_are_played_and_announced(make_daemon, clock):
    # Find a random 4x4 game where someone passes, then replay it through the board.
    new_game = get_spec("binaryon").new

    for seed in range(200):
        rng = random.Random(seed)
        st, moves, passed = new_game(size=4), [], False
        while not st.is_over():
            legal = st.legal_moves()
            m = rng.choice(legal)
            passed |= m is PASS and not st.is_over() and len(moves) > 0
            if m is not PASS:
                moves.append(m)
            st = st.play(m)
            if passed:
                break
        if passed:
            break
    else:
        raise AssertionError("no game with a pass found")
    d = make_daemon(rules={"size": 4}, size=4)
    for m in moves:
        d.board.tap(m.cell)
        step(d, clock, 0.03)
    assert "pass" in d.session.moves
    assert "passes" in d.message or d.session.state.is_over()


def test_undo_and_new_game_buttons(make_daemon, clock):
    d = make_daemon()
    play_press(d, clock, "e5")
    play_press(d, clock, "d4")
    d.post(ButtonEvent("undo"))
    step(d, clock)
    assert d.session.moves == ["e5"] and d.message == "took back d4"
    play_press(d, clock, "d4")
    d.post(ButtonEvent("undo", long=True))  # a full round
    step(d, clock)
    assert d.session.moves == []
    play_press(d, clock, "e5")
    d.post(UserCommand("new binary"))
    step(d, clock)
    assert d.session.game == "binary" and d.session.moves == []


def test_menu_button_chooses_the_next_game(make_daemon, clock):
    d = make_daemon()
    play_press(d, clock, "e5")
    d.post(ButtonEvent("menu", long=True))  # opens the new-game menu
    step(d, clock)
    assert d.screen().panel.title == "NEW GAME"
    rows = d.screen().panel.rows
    assert rows[0].label == "BINARYON" and [r.to_move for r in rows].count(True) == 1
    d.post(ButtonEvent("undo"))  # back out: nothing changes
    step(d, clock)
    assert not d.menu.is_open and d.session.moves == ["e5"]
    d.post(ButtonEvent("menu", long=True))
    d.post(ButtonEvent("menu"))  # next game
    d.post(ButtonEvent("confirm"))
    step(d, clock)
    assert d.session.game == "binary" and d.message == "new game: binary"
    d.post(ButtonEvent("menu", long=True))
    d.post(ButtonEvent("confirm"))  # the same game again: a fresh one
    step(d, clock)
    assert d.session.game == "binary" and d.session.moves == []


def test_unplugged_board_is_shown_and_presses_wait(make_daemon, clock):
    d = make_daemon()
    d.board.unplug()
    step(d, clock)
    assert d.status == "board disconnected"
    assert d.screen().status == "board disconnected"
    d.board.replug()
    step(d, clock)
    assert d.status == ""
    play_press(d, clock, "e5")
    assert d.session.moves == ["e5"]


def test_colour_board_move_needs_a_still_board(make_daemon, clock):
    new_game = get_spec("binaryon").new

    cells = new_game().cells()
    d = make_daemon(kind="polarity", initial=cells)
    step(d, clock, 0.31)
    assert d.marks().differ == ()
    d.board.set_reading(sq("e5"), "o")  # ON turns the disc on e5 to white
    step(d, clock, 0.1)
    assert d.session.moves == []  # not still long enough
    step(d, clock, 0.25)
    assert d.session.moves == ["e5"]
    # OFF turns a disc that is not in line: refused, shown, waits until turned back
    d.board.set_reading(sq("b1"), "x")
    step(d, clock, 0.31)
    assert d.session.moves == ["e5"]
    assert d.marks().differ == (sq("b1"),)
    assert "b1" in d.message
    d.board.set_reading(sq("b1"), "o")
    step(d, clock, 0.31)
    assert d.marks().differ == ()
    d.board.set_reading(sq("d4"), "x")
    step(d, clock, 0.31)
    assert d.session.moves == ["e5", "d4"]


def test_colour_board_two_discs_turned_at_once_are_both_shown(make_daemon, clock):
    new_game = get_spec("binaryon").new

    d = make_daemon(kind="polarity", initial=new_game().cells())
    step(d, clock, 0.31)
    d.board.set_reading(sq("e5"), "o")
    d.board.set_reading(sq("a8"), "o")
    step(d, clock, 0.31)
    assert d.session.moves == []
    assert set(d.marks().differ) == {sq("e5"), sq("a8")}


def test_binaryon_refuses_a_presence_board_with_a_reason(make_daemon, clock):
    d = make_daemon(kind="presence")
    assert d.status.startswith("binaryon can't use a presence board")


def test_a_reading_off_the_board_is_ignored(make_daemon, clock):
    from companion.core.events import SquareReading

    d = make_daemon()
    d.post(SquareReading(999, "1", clock()))
    step(d, clock)
    assert d.loop.errors == 0 and d.session.moves == []


def test_threaded_run_goes_idle_and_stops(clock):

    d = Daemon(Config.default().with_overrides(board={"driver": "mock"}))
    d.start()
    try:
        d.board.tap(sq("e5"))
        assert d.wait_idle(5)
        assert d.session.moves == ["e5"]
    finally:
        d.stop()
    assert d.leds.frame == [(0, 0, 0)] * 64  # LEDs off on exit


def test_link_status_message_is_kept_until_reconnected(make_daemon, clock):
    d = make_daemon()
    d.post(LinkStatus(False, "board disconnected"))
    step(d, clock, 10)
    assert d.screen().status == "board disconnected"


def test_colour_board_put_back_to_an_earlier_position_is_a_takeback(make_daemon, clock):
    new_game = get_spec("binaryon").new

    d = make_daemon(kind="polarity", initial=new_game().cells())
    step(d, clock, 0.31)  # the board matches the game
    for name, colour in (("e5", "o"), ("d4", "x")):
        d.board.set_reading(sq(name), colour)
        step(d, clock, 0.31)
    assert d.session.moves == ["e5", "d4"]
    d.board.set_reading(sq("d4"), "o")  # d4 turned back: the position after e5
    step(d, clock, 0.31)
    assert d.session.moves == ["e5"] and d.message == "took back d4"
    assert d.marks().differ == ()


def test_emulator_window_mirrors_the_frames(tmp_path, monkeypatch):
    pytest.importorskip("luma.emulator")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from companion.service.app import mirrored_emulator

    device = mirrored_emulator()
    d = Daemon(Config.default().with_overrides(board={"driver": "mock"}), display=device)
    d.board.start(d.loop.post)
    d.loop.run_pending()
    assert d.oled.frames == 1
    assert device.image.getbbox() is not None  # the frame that went to the window


def test_colour_board_must_match_the_game_before_moves_count(make_daemon, clock):
    new_game = get_spec("binaryon").new

    cells = new_game().cells()
    cells[sq("a1")] = "x"  # a disc set out wrong
    d = make_daemon(kind="polarity", initial=cells)
    step(d, clock, 0.31)
    assert d.marks().differ == (sq("a1"),) and d.message == "fix a1"
    d.board.set_reading(sq("a1"), "o")
    step(d, clock, 0.31)
    assert d.marks().differ == () and d.message == "board matches"
    d.board.set_reading(sq("e5"), "o")
    step(d, clock, 0.31)
    assert d.session.moves == ["e5"]
    # undo: the game goes back, the disc on the board must follow before play goes on
    d.post(ButtonEvent("undo"))
    step(d, clock)
    assert d.session.moves == [] and d.marks().differ == (sq("e5"),) and d.message == "fix e5"
    d.board.set_reading(sq("e5"), "x")
    step(d, clock, 0.31)
    assert d.marks().differ == () and d.session.moves == []


def test_a_mistyped_new_game_changes_nothing_and_play_goes_on(make_daemon, clock, tmp_path):

    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    d = make_daemon(journal=journal)
    play_press(d, clock, "e5")
    d.post(UserCommand("new chess"))
    step(d, clock)
    assert "unknown game 'chess'" in d.message
    play_press(d, clock, "d4")
    assert d.session.moves == ["e5", "d4"]
    assert journal.current().moves == ["e5", "d4"]


def test_hint_lights_go_when_a_move_is_played(make_daemon, clock):
    d = make_daemon()
    d.post(ButtonEvent("menu"))
    step(d, clock)
    assert len(d.marks().hint) == 32 and d.message == "32 moves for ON"
    play_press(d, clock, "e5")
    assert d.marks().hint == ()
    assert all(d.leds.frame[s] != GREEN for s in range(64))


def test_a_board_problem_clears_when_the_game_can_use_the_board(make_daemon, clock):
    d = make_daemon(kind="presence", game="binary")
    assert d.status == ""
    d.post(UserCommand("new binaryon"))
    step(d, clock)
    assert d.status.startswith("binaryon can't use a presence board")
    d.post(UserCommand("new binary"))
    step(d, clock)
    assert d.status == "" and d.session.game == "binary"


def test_replugged_board_that_did_not_change_plays_on(make_daemon, clock):
    new_game = get_spec("binaryon").new

    d = make_daemon(kind="polarity", initial=new_game().cells())
    step(d, clock, 0.31)
    d.board.set_reading(sq("e5"), "o")
    step(d, clock, 0.31)
    d.board.unplug()
    step(d, clock)
    d.board.replug()  # same readings as before
    step(d, clock, 0.31)
    assert d.board_synced and d.marks().differ == ()
    d.board.set_reading(sq("d4"), "x")  # OFF's legal reply counts as a move
    step(d, clock, 0.31)
    assert d.session.moves == ["e5", "d4"]


def test_a_game_switched_to_takes_its_rule_options_from_the_config(make_daemon, clock):

    cfg = Config.default().with_overrides(
        board={"driver": "mock"},
        rules={"binaryon": {"first": "off"}, "binary": {"empty_joins": False}},
    )
    d = Daemon(cfg, clock=clock)
    d.new_game("binary")
    assert d.session.options["empty_joins"] is False
    d.new_game("binaryon")
    assert d.session.options["first"] == "off" and d.session.state.turn == "off"


def test_board_input_waits_while_the_menu_is_open(make_daemon, clock):
    d = make_daemon()
    d.post(ButtonEvent("menu", long=True))
    step(d, clock)
    play_press(d, clock, "e5")
    assert d.session.moves == [] and d.screen().panel.title == "NEW GAME"
    d.post(ButtonEvent("undo"))  # close the menu
    step(d, clock, 0.05)
    play_press(d, clock, "e5")
    assert d.session.moves == ["e5"]


def test_a_resumed_game_that_had_ended_shows_its_result_and_blinks(clock):

    new_game = get_spec("binaryon").new
    from companion.journal.api import NullJournal, SavedGame

    rng = random.Random(2)
    st, names = new_game(size=4), []
    while not st.is_over():
        m = rng.choice(st.legal_moves())
        names.append(m.name)
        st = st.play(m)
    while names[-1] == "pass":  # the crash came before the final passes were saved
        names.pop()

    class Saved(NullJournal):
        def current(self):
            return SavedGame(1, "binaryon", {"size": 4}, list(names))

    cfg = Config.default().with_overrides(board={"driver": "mock", "size": 4})
    d = Daemon(cfg, clock=clock, journal=Saved())
    assert d.session.state.is_over()
    outcome = d.session.state.outcome()
    assert d.message == f"{outcome.summary}: {outcome.reason}"  # draw: why, in one line
    assert outcome.summary == "draw" and "cancels" in outcome.reason
    assert d.feedback.blinking  # the result blinks


def test_undo_after_the_game_was_abandoned_elsewhere_starts_a_new_game(
    make_daemon, clock, tmp_path
):

    path = tmp_path / "j.sqlite"
    d = make_daemon(journal=SqliteJournal.open(path))
    play_press(d, clock, "e5")
    first = d.session.game_id
    SqliteJournal.open(path).abandon(first)  # e.g. `binaryon abandon` from a shell
    d.post(ButtonEvent("undo"))
    step(d, clock)
    assert d.session.game_id != first and d.session.moves == []
    assert d.message == f"game {first} was closed: new game"


def test_a_new_game_is_said_by_the_games_name(make_daemon, clock):
    d = make_daemon()
    d.post(UserCommand("new latent-binaries"))
    step(d, clock)
    assert d.message == "new game: latent binaries"
