"""The voice in the daemon, on a fake clock: what the table is told said as lines (moves,
refusals, whose turn, squares to put back, the clock's ten seconds, the result once), queued
only once the OLED frame is out, and commands heard acted on through the buttons' paths (an
undo only once confirmed; a line not understood said back and never acted on)."""

from __future__ import annotations

import threading

from companion.core.config import Config
from companion.core.events import ButtonEvent, LinkStatus
from companion.hardware.simulated.mock_board import MockBoard
from companion.service.daemon import Daemon
from companion.service.table_voice import TableVoice
from companion.service.voice_commands import VoiceCommands, acting
from companion.voice.grammar import Command
from companion.voice.listener import Heard
from companion.voice.queue import SpeechQueue
from tests.conftest import FakeClock, step, wait_until


class Said:
    """What the speech queue handed on, in order (its ``say`` function; nothing is cut)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, text: str, cut: threading.Event) -> bool:
        with self.lock:
            self.lines.append(text)
        return True


def voiced(clock, speak="all", control="", game="binaryon", kind="switch", rules=None):
    cfg = Config.default().with_overrides(
        game={"name": game}, clock={"control": control}, rules={game: rules or {}}
    )
    d = Daemon(cfg, board=MockBoard(8, kind, clock), clock=clock)
    said = Said()
    queue = SpeechQueue(said, bound=64)
    voice = TableVoice(d, speak, queue)
    d.voice = voice
    d.feedback.on_message = voice.message
    voice.commands = VoiceCommands(d, voice, "companion")
    d.board.start(d.loop.post)
    d.loop.run_pending()
    return d, voice, queue, said


def lines(queue, said) -> list[str]:
    assert queue.wait_idle(10)
    with said.lock:
        out, said.lines[:] = list(said.lines), []
    return out


def press(d, clock, square: str) -> None:
    d.board.tap(d.map.square_named(square))
    step(d, clock)


def heard(
    d, voice, name: str, number: int | None = None, words: str = "x", loudness: float = 40.0
) -> None:
    line = Heard(words, Command(name, number), True, loudness=loudness)
    d.call(lambda: voice.commands.act(line))


def test_moves_refusals_and_whose_turn_are_said_after_the_frame():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    handed: list[int] = []  # lines handed to the speech queue when each frame was sent
    d.on_frame = lambda: handed.append(len(queue.pending()) + len(said.lines))
    press(d, clock, "e5")
    assert handed == [0]  # the press's lines were put in words and queued after its frame
    assert lines(queue, said) == ["on e5.", "off to play."]
    press(d, clock, "d4")
    assert lines(queue, said) == ["off d4.", "on to play."]
    press(d, clock, "f5")
    assert lines(queue, said) == ["No: f5: not in line with d4."]


def test_whose_turn_is_not_said_once_it_has_passed():
    clock = FakeClock()
    gate = threading.Event()
    said: list[str] = []

    def slow(text: str, cut: threading.Event) -> bool:  # a voice behind the presses
        gate.wait(30)
        said.append(text)
        return True

    d, voice, first, _ = voiced(clock)
    first.close()
    queue = voice.queue = SpeechQueue(slow, bound=64)
    try:
        press(d, clock, "e5")
        press(d, clock, "d4")
        press(d, clock, "f5")  # refused: the turn is still on's
        gate.set()
        assert queue.wait_idle(30)
    finally:
        gate.set()
        queue.close()
    assert "off to play." not in said  # off moved before it was said
    assert "on to play." in said  # a refused press leaves it true
    assert queue.stale == ["off to play."]


def test_the_moves_level_says_the_game_and_not_the_chat():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, speak="moves")
    got = []
    for square in ("e5", "d4", "f5"):
        press(d, clock, square)
        got += lines(queue, said)
    assert got == ["on e5.", "off d4.", "No: f5: not in line with d4."]


def test_squares_to_put_back_on_a_sensor_board_are_said():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, kind="polarity")
    for square, value in enumerate(d.expected_readings()):
        d.board.set_reading(square, value)
    step(d, clock, 1.0)
    e5 = d.map.square_named("e5")
    d.board.set_reading(e5, "o" if d.board.readings[e5] == "x" else "x")
    step(d, clock, 1.0)
    assert lines(queue, said)[0] == "on e5."
    d.post(ButtonEvent("undo"))
    step(d, clock, 1.0)
    got = lines(queue, said)
    assert sorted(got) == ["fix e5", "took back e5"]  # the disc to turn back: more urgent


def test_ten_seconds_are_said_once_then_the_flag_and_the_result_once():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, speak="moves", control="0:30")
    press(d, clock, "e5")  # the first move is free: OFF's time runs now
    lines(queue, said)
    for _ in range(39):  # 19.5 s: 10.5 left
        step(d, clock, 0.5)
    assert lines(queue, said) == []
    step(d, clock, 0.5)
    assert lines(queue, said) == ["ten seconds, off."]
    for _ in range(25):
        step(d, clock, 0.5)
    got = lines(queue, said)
    assert len(got) == 1 and "time" in got[0].lower(), got
    step(d, clock, 5)
    assert lines(queue, said) == []  # the result is said once


def test_undo_by_voice_waits_for_yes_and_no_leaves_the_game():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    press(d, clock, "e5")
    lines(queue, said)
    heard(d, voice, "undo")
    assert len(d.session.played) == 1  # asked, not done
    assert voice.commands.context().confirm
    heard(d, voice, "no")
    assert len(d.session.played) == 1
    assert not voice.commands.context().confirm
    heard(d, voice, "yes")  # no takeback asked any more: nothing happens
    assert len(d.session.played) == 1
    heard(d, voice, "undo")
    heard(d, voice, "yes")
    assert len(d.session.played) == 0
    assert lines(queue, said) == [
        "Take back the last move? Say yes, or press undo.",
        "Not taken back.",
        "Take back the last move? Say yes, or press undo.",
        "took back e5",
    ]


def test_the_undo_button_confirms_an_undo_asked_by_voice():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    press(d, clock, "e5")
    heard(d, voice, "undo")
    d.post(ButtonEvent("undo"))
    step(d, clock)
    assert len(d.session.played) == 0
    assert not voice.commands.context().confirm  # the game moved: the question is gone


def test_a_line_not_understood_is_said_back_and_never_acted_on():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    press(d, clock, "e5")
    lines(queue, said)
    before = (d.session.game_id, len(d.session.played), d.message)
    voice.commands.act(Heard("companion open the window", None, True))
    voice.commands.act(Heard("", None, False))  # talk not said to the companion: silence
    d.render()
    assert lines(queue, said) == ["Not understood: open the window."]
    assert (d.session.game_id, len(d.session.played), d.message) == before
    assert voice.commands.acted == []


def test_answers_from_the_position_and_the_clock():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, speak="off", control="5:00")
    press(d, clock, "e5")
    assert lines(queue, said) == []  # speak off: the game is not said...
    heard(d, voice, "rank", 5)  # ...but what is asked is answered
    heard(d, voice, "changed")
    heard(d, voice, "turn")
    heard(d, voice, "time")
    heard(d, voice, "repeat")
    got = lines(queue, said)
    assert got[0].startswith("Rank 5: a5 black") and "e5 white" in got[0]
    assert got[1].startswith("e5 now white") or "now" in got[1]
    assert got[2] == "off to play."
    assert got[3] == "on 5 minutes 0, off 5 minutes 0."
    assert got[4] == got[3]


def test_pause_and_resume_by_voice_act_on_the_clock():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, control="5:00")
    press(d, clock, "e5")
    heard(d, voice, "pause")
    assert d.session.clock.paused
    heard(d, voice, "pause")  # already paused: said, nothing done
    assert d.session.clock.paused
    heard(d, voice, "resume")
    assert not d.session.clock.paused
    got = lines(queue, said)
    assert "The clock is not running." in got
    assert "clock running" in got


def test_new_game_and_hint_by_voice_go_the_buttons_way():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock)
    press(d, clock, "e5")
    old = d.session.game_id
    heard(d, voice, "hint")
    assert d.notices.hint is not None
    lines(queue, said)
    heard(d, voice, "new game")  # however clearly heard, asked first
    assert d.session.game_id == old and voice.commands.context().confirm
    assert lines(queue, said) == ["Start a new game? This one is kept. Say yes or no."]
    heard(d, voice, "repeat")  # the question said again, and still asked
    assert lines(queue, said) == ["Start a new game? This one is kept. Say yes or no."]
    heard(d, voice, "no")
    assert d.session.game_id == old and lines(queue, said) == ["Not done."]
    heard(d, voice, "new game")
    heard(d, voice, "yes")
    assert d.session.game_id != old and d.session.played == []
    got = lines(queue, said)
    assert any(line.startswith("new game") for line in got)


def names(d) -> list[str]:
    return [m.name for m in d.session.played]


def at_a_postulate(clock):
    """Binøme on paper sheets, Ann and Bob, every digit written: a postulate is put to the
    table, and Ann is to claim or pass."""
    d, voice, queue, said = voiced(
        clock, game="binome", rules={"paper": True, "players": "Ann,Bob"}
    )
    while d.session.state.card is None:
        state = d.session.state
        player = sorted(state.to_act)[0]
        move = state.legal_moves(player)[0].name
        d.call(lambda m=move, p=player: d.submit(m, p))
    assert acting(d.session.state) == "Ann"
    lines(queue, said)
    return d, voice, queue, said


def test_a_move_by_voice_in_a_noisy_room_is_asked_first_and_no_number_said():
    clock = FakeClock()
    d, voice, queue, said = at_a_postulate(clock)
    played = len(d.session.played)
    heard(d, voice, "claim", loudness=5.0)  # words 14 dB over the room's talk
    assert len(d.session.played) == played  # asked, not made
    assert lines(queue, said) == ["Claim for Ann? Say yes or no."]
    heard(d, voice, "no")
    assert len(d.session.played) == played and lines(queue, said) == ["Not done."]
    heard(d, voice, "pass", loudness=5.0)
    assert lines(queue, said) == ["Pass for Ann? Say yes or no."]
    heard(d, voice, "claim", loudness=5.0)  # the last question is the one answered
    heard(d, voice, "yes")
    assert names(d)[played:] == ["Ann claim"]
    heard(d, voice, "pass", loudness=30.0)  # Bob passes, in a quieter moment
    assert names(d)[-1] == "Bob pass"
    assert any(t.endswith("Ann, your number?") for t in lines(queue, said))
    heard(d, voice, "claim", 42, loudness=5.0)
    question = lines(queue, said)
    assert question == ["Claim for Ann? Say yes or no."]  # never the number before it is told
    heard(d, voice, "yes")
    assert "Ann claim 42" in names(d)
    assert not voice.commands.context().confirm


def test_a_move_by_voice_in_a_quiet_room_is_made_at_once():
    clock = FakeClock()
    d, voice, queue, said = at_a_postulate(clock)
    heard(d, voice, "pass", loudness=30.0)
    assert "Ann pass" in names(d)
    assert not voice.commands.context().confirm


def test_a_move_that_cannot_be_made_is_refused_at_once_even_in_noise():
    clock = FakeClock()
    d, voice, queue, said = at_a_postulate(clock)
    heard(d, voice, "claim", 42, loudness=5.0)  # the number is asked for later, not now
    assert not voice.commands.context().confirm
    assert "Claim for Ann? Say yes or no." not in lines(queue, said)


def test_the_engines_move_to_make_is_said_then_the_move_when_made():
    clock = FakeClock()
    cfg = Config.default().with_overrides(game={"opponent": "engine:beginner"})
    d = Daemon(cfg, board=MockBoard(8, "switch", clock), clock=clock)
    said = Said()
    queue = SpeechQueue(said, bound=64)
    voice = TableVoice(d, "moves", queue)
    d.voice = voice
    d.board.start(d.loop.post)
    d.loop.run_pending()
    press(d, clock, "e5")
    wait_until(lambda: d.loop.run_pending() or d.opponent.wanted, 30, "the engine's move")
    step(d, clock)
    move = d.opponent.wanted.name
    assert lines(queue, said) == ["on e5.", f"off plays {move}: press it."]
    press(d, clock, move)
    assert lines(queue, said) == [f"off {move}."]


def test_a_board_that_disconnects_and_comes_back_is_said():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, speak="moves")
    d.post(LinkStatus(False, "board disconnected"))
    step(d, clock)
    assert lines(queue, said) == ["board disconnected"]
    press(d, clock, "e5")  # no play meanwhile: nothing said
    assert lines(queue, said) == []
    d.post(LinkStatus(True, "simulated 8x8 switch board"))
    step(d, clock)
    assert lines(queue, said) == ["Play goes on."]


def test_score_help_and_where_can_i_move_are_answered_from_the_table():
    clock = FakeClock()
    d, voice, queue, said = voiced(clock, speak="moves")
    press(d, clock, "e5")
    lines(queue, said)
    heard(d, voice, "score")
    heard(d, voice, "help")
    heard(d, voice, "moves")
    score, help_line, moves = lines(queue, said)
    view = d.session.spec.view(d.session.state, None)  # the table's own words for it
    assert score == ". ".join(view.explanation) + "."
    assert help_line.startswith("Say companion, then: say that again, what is the score")
    assert "read rank three" in help_line and "pause the clock" not in help_line  # no clock
    legal = d.session.state.legal_moves()
    assert moves.startswith(f"{len(legal)} moves: ")
    assert all(m.name in moves for m in legal[:5])
