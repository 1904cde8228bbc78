"""A remote game with secrets as each board's session keeps it (referee/masked_play.py) and
its journal (schema version 5: the masked and revealed tables): the other board's facts
learned and kept, a restart that replays it as the board knew it (never taken for damage), a
damaged file salvaged with it, the whole game rebuilt from the other board's names at the end,
and facts or names that do not fit refused in one line with nothing changed."""

from __future__ import annotations

import random
import sqlite3

import pytest

from companion.club.remote_stream import canonical, from_seat, stream
from companion.journal.api import Dispute, Masked
from companion.journal.store import SqliteJournal
from companion.referee.session import Session

GAME = "latent-binaries"
SEATS = ("rainbow", "xeno")


def boards(tmp_path, journals: bool = True) -> dict[str, Session]:
    """The two boards of one game: rainbow's and xeno's sessions, each masked for its seat."""
    out = {}
    for seat in SEATS:
        journal = SqliteJournal.open(tmp_path / f"{seat}.sqlite") if journals else None
        out[seat] = Session(GAME, journal=journal, local_seat=lambda spec, o, s=seat: s)
    return out


def tell(sessions: dict[str, Session]) -> None:
    """Each board learns what the other disclosed (as the ``told`` messages carry it)."""
    for seat, s in sessions.items():
        other = next(o for o in SEATS if o != seat)
        s.learn(other, sessions[other].state.disclosed(other))


def step(sessions: dict[str, Session], rng: random.Random) -> None:
    """One move of a random game: a board whose player may act plays a legal move of its
    own; the other board plays it by its public name; then the facts go both ways."""
    for seat, s in sessions.items():
        mine = s.state.legal_moves(seat)
        if not mine:
            continue
        move = rng.choice(mine)
        done = s.submit(move, seat)
        assert done.accepted, done.refusal
        other = sessions[next(o for o in SEATS if o != seat)]
        for p in done.played:
            if p.player == seat:  # forced passes: each board plays its own
                got = other.submit_name(p.public, seat)
                assert got.accepted, got.refusal
        break
    tell(sessions)


def play_to(sessions: dict[str, Session], rng: random.Random, plies: int = 10_000) -> None:
    a = sessions["rainbow"]
    while not a.state.is_over() and len(a.played) < plies:
        step(sessions, rng)


def whole(sessions: dict[str, Session]) -> list[str]:
    """The game with every full name, as the ``names`` messages make it."""
    a, b = sessions["rainbow"], sessions["xeno"]
    theirs = [b.played[k].name for k in stream(b, "xeno")]
    return canonical(a.moves, stream(a, "xeno"), theirs)


def test_the_facts_are_learned_journaled_and_replayed_after_a_restart(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(3), plies=12)
    a = sessions["rainbow"]
    assert a.seat_knowledge is not None and "stash" in a.seat_knowledge.told["xeno"]
    secret = [p.name for p in sessions["xeno"].played if p.name != p.public]
    journal = a.journal
    journal.close()
    held = sqlite3.connect(tmp_path / "rainbow.sqlite")
    text = "\n".join(str(r) for r in held.execute("SELECT move, public FROM events"))
    held.close()
    assert secret and not [n for n in secret if n in text]  # xeno's setups never here
    with SqliteJournal.open(tmp_path / "rainbow.sqlite") as again:
        assert again.recovery is None  # its public moves are not taken for damage
        saved = again.current()
        assert saved is not None and saved.masked == a.seat_knowledge
        back = Session.resume(saved, again)
        assert back.moves == a.moves and back.seat_knowledge == a.seat_knowledge
        assert back.spec.view(back.state, None) == a.spec.view(a.state, None)
        assert back.spec.view(back.state, "rainbow") == a.spec.view(a.state, "rainbow")
        assert [from_seat(back, k, "xeno") for k in range(len(back.played))] == [
            from_seat(a, k, "xeno") for k in range(len(a.played))
        ]


def test_facts_that_contradict_the_game_are_refused_and_change_nothing(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(3), plies=8)
    a = sessions["rainbow"]
    told = a.seat_knowledge.told["xeno"]["stash"]
    before = (a.moves, a.seat_knowledge, a.spec.view(a.state, None))
    with pytest.raises(ValueError) as refused:
        a.learn("xeno", {"stash": [9 for _ in told]})
    assert "\n" not in str(refused.value)
    assert (a.moves, a.seat_knowledge, a.spec.view(a.state, None)) == before
    assert a.journal.load(a.game_id).masked == a.seat_knowledge


def test_the_end_rebuilds_the_whole_game_from_the_other_boards_names(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(5))
    a, b = sessions["rainbow"], sessions["xeno"]
    assert a.state.is_over() and b.state.is_over()
    full = whole(sessions)
    assert a.reveal(full) is None and b.reveal(full) is None
    assert a.moves == b.moves == full and a.seat_knowledge is None and b.seat_knowledge is None
    assert a.outcome() == b.outcome() and a.outcome().detail  # every nest's pawns
    for s in (a, b):
        entry = s.journal.load(s.game_id)
        assert entry.masked is None and [m.name for m in entry.moves] == full
        assert [m.player for m in entry.moves] == [p.player for p in s.played]
        assert entry.summary == a.outcome().summary
        assert entry.detail["nests"] == a.outcome().detail["nests"]  # every pawn shown


def test_names_that_do_not_fit_the_game_are_refused_and_change_nothing(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(5))
    a = sessions["rainbow"]
    full = whole(sessions)
    k = next(k for k in stream(a, "xeno") if full[k].startswith("setup"))
    square = full[k].split()[1]
    for wrong in (
        full[:-1],  # a move short
        [*full[:k], f"setup {square} bogus/colour", *full[k + 1 :]],
    ):
        before = (a.moves, a.seat_knowledge)
        problem = a.reveal(wrong)
        assert problem and "\n" not in problem
        assert (a.moves, a.seat_knowledge) == before
        assert a.journal.load(a.game_id).masked == a.seat_knowledge


def test_a_damaged_file_is_salvaged_with_its_remote_game(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(3), plies=14)
    a = sessions["rainbow"]
    masked, moves = a.seat_knowledge, a.moves
    public = next(k for k in stream(a, "xeno"))  # the first of xeno's setups, public here
    lie = Dispute("disputed", "t4 told answer 9 wrong", {"lie": {"fact": "answer 9"}})
    a.journal.dispute(a.game_id, lie)
    for _ in range(400):  # enough moves for the file's last page to hold only events
        a.journal.clock_tick(a.game_id, len(a.played), {"x": 1})
        a.journal.set_meta({"pad": "x" * 200})
    j = SqliteJournal.open(tmp_path / "other.sqlite")
    j.close()
    a.journal.close()
    path = tmp_path / "rainbow.sqlite"
    whole_file = path.read_bytes()
    path.write_bytes(whole_file[: len(whole_file) - 4096])
    with SqliteJournal.open(path) as again:
        assert again.recovery is not None
        saved = again.current()
        assert saved is not None and saved.masked == masked
        assert len(saved.moves) > public + 1 and saved.moves == moves[: len(saved.moves)]
        back = Session.resume(saved, again)
        assert back.seat_knowledge == masked
        assert again.load(saved.game_id).dispute == lie  # the lie caught is kept too


def test_a_game_ended_but_not_yet_revealed_is_closed_as_finished_by_the_next(tmp_path):
    sessions = boards(tmp_path)
    play_to(sessions, random.Random(5))
    a = sessions["rainbow"]
    gid = a.game_id
    db = sqlite3.connect(tmp_path / "rainbow.sqlite")  # a crash before its finish was kept
    db.execute("UPDATE games SET status = 'in_progress', result = NULL WHERE id = ?", (gid,))
    db.commit()
    db.close()
    a.journal.begin(GAME, a.options, {})
    assert a.journal.load(gid).status == "finished"


def test_a_board_without_a_remote_game_keeps_everything(tmp_path):
    s = Session(GAME, journal=SqliteJournal.open(tmp_path / "j.sqlite"))
    assert s.seat_knowledge is None and s.state.masked_for is None
    assert s.journal.load(s.game_id).masked is None
    assert Masked("rainbow") == Masked("rainbow", {})
