from companion.games.base import Outcome
from companion.journal.api import JournalError, NullJournal
from companion.referee.session import Session


class RecordingJournal(NullJournal):
    def __init__(self, fail_after=None):
        super().__init__()
        self.log = []
        self.fail_after = fail_after

    def commit_turn(self, game_id, first_ply, moves, outcome: Outcome | None):
        """One press: its moves and the finish, all or nothing."""
        last = first_ply + len(moves) - 1
        if moves and self.fail_after is not None and last >= self.fail_after:
            raise JournalError("disk full")
        self.log += [("move", game_id, first_ply + k, m.name) for k, m in enumerate(moves)]
        if outcome is not None:
            self.log.append(("finish", game_id, outcome.winner))

    def takeback(self, game_id, to_ply):
        self.log.append(("takeback", game_id, to_ply))

    def abandon(self, game_id):
        self.log.append(("abandon", game_id))


def test_moves_are_journaled_before_they_count():
    j = RecordingJournal()
    s = Session("binaryon", journal=j)
    r = s.submit(s.state.parse_move("e5"))
    assert r.accepted and r.names == ["e5"]
    assert j.log == [("move", s.game_id, 0, "e5")]


def test_a_refused_move_changes_nothing_and_is_not_journaled():
    j = RecordingJournal()
    s = Session("binaryon", journal=j)
    before = s.state
    r = s.submit(s.state.parse_move("e4"))  # ON cannot turn a white piece
    assert not r.accepted and r.refusal.reason == "e4: already white"
    assert s.state is before and j.log == []


def test_a_move_that_cannot_be_saved_is_refused():
    j = RecordingJournal(fail_after=1)
    s = Session("binaryon", journal=j)
    assert s.submit(s.state.parse_move("e5")).accepted
    r = s.submit(s.state.parse_move("d4"))
    assert not r.accepted and r.refusal.code == "cannot-save"
    assert r.refusal.reason == "not saved: disk full"
    assert s.moves == ["e5"]


def test_undo_records_a_takeback_and_keeps_the_rest():
    j = RecordingJournal()
    s = Session("binaryon", journal=j)
    for m in ("e5", "d4", "f6"):
        assert s.submit(s.state.parse_move(m)).accepted
    assert s.undo() == ["f6"]
    assert s.moves == ["e5", "d4"] and s.state.turn == "on"
    assert ("takeback", s.game_id, 2) in j.log
    assert s.undo(5) == ["e5", "d4"]
    assert s.undo() == []


def test_resume_replays_to_the_same_position():
    from companion.journal.api import SavedGame

    s = Session("binaryon", {"first": "off"})
    for m in ("d4", "e5"):
        assert s.submit(s.state.parse_move(m)).accepted
    saved = SavedGame(s.game_id, "binaryon", s.options, list(s.moves))
    r = Session.resume(saved, NullJournal())
    assert r.moves == s.moves and r.state.cells() == s.state.cells()
    assert r.state.turn == s.state.turn and r.options["first"] == "off"


def test_new_game_abandons_an_unfinished_one():
    j = RecordingJournal()
    s = Session("binaryon", journal=j)
    s.submit(s.state.parse_move("e5"))
    first = s.game_id
    s.new_game("binary")
    assert ("abandon", first) in j.log
    assert s.game == "binary" and s.game_id != first and s.moves == []


def test_the_final_move_and_the_finish_are_one_write_and_a_lost_finish_is_made_on_resume():
    import random

    from companion.games.binaryon.engine import PASS
    from companion.journal.api import SavedGame

    j = RecordingJournal()
    s = Session("binaryon", {"size": 4}, journal=j)
    rng = random.Random(4)
    while not s.state.is_over():
        moves = [m for m in s.state.legal_moves() if m is not PASS]
        assert s.submit(rng.choice(moves)).accepted
    winner = s.state.outcome().winner
    assert j.log[-1] == ("finish", s.game_id, winner)
    # a journal that kept the moves but not the finish (a file from before one-write presses)
    again = RecordingJournal()
    saved = SavedGame(s.game_id, "binaryon", s.options, list(s.moves))
    resumed = Session.resume(saved, again)
    assert resumed.state.is_over() and again.log == [("finish", s.game_id, winner)]


def test_a_game_closed_elsewhere_is_flagged_not_retried():
    from companion.journal.api import GameClosed

    class Closed(RecordingJournal):
        def commit_turn(self, game_id, first_ply, moves, outcome):
            raise GameClosed(f"game {game_id} was abandoned elsewhere")

        def abandon(self, game_id):
            raise GameClosed("already abandoned")

    s = Session("binaryon", journal=Closed())
    r = s.submit(s.state.parse_move("e5"))
    assert not r.accepted and r.refusal.code == "game-closed" and s.closed_elsewhere
    s.new_game()  # abandoning an already-closed game is not an error
    assert s.moves == [] and not s.closed_elsewhere


def test_long_undo_takes_back_a_full_round_in_binaryon():
    s = Session("binaryon")
    for m in ("e5", "d4", "f6", "c3"):
        assert s.submit(s.state.parse_move(m)).accepted
    assert s.undo_round() == ["f6", "c3"]
    assert s.moves == ["e5", "d4"] and s.state.turn == "on"


def test_long_undo_in_binary_first_takes_back_the_unconfirmed_part_of_a_turn():
    s = Session("binary")
    for m in ("c3", "b1", "d1", "a1"):  # black c3; white b1 d1; black a1 (a 2nd may follow)
        assert s.submit(s.state.parse_move(m)).accepted
    assert s.state.turn == "black"
    assert s.undo_round() == ["a1"]  # back to the start of Black's turn
    assert s.undo_round() == ["c3", "b1", "d1"]  # then a full round: White's turn and Black's
    assert s.moves == []
