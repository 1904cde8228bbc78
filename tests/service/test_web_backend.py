"""What the daemon hands the pages costs what the request asks for, not the game's length
(companion/service/web_backend.py): a replay page builds only the views it holds and the
next page starts from a kept position; the live view lists the recent moves with their count.
"""

from __future__ import annotations

import json

from companion.journal.api import MoveEntry, NullJournal
from companion.journal.store import SqliteJournal
from companion.service import web_backend
from companion.service.web_backend import replay_frames
from companion.views.presenter import MOVES_SHOWN
from tests.positions import solo_session


def long_binome_game() -> tuple[dict, list[str]]:
    """A whole solo game against six virtual players: well over a page of plies."""
    s = solo_session(NullJournal(), bots=6, finish=True, seed=3, decline=True)
    assert len(s.moves) > MOVES_SHOWN + 30
    return dict(s.options), list(s.moves)


LONG = long_binome_game()


def test_a_replay_page_builds_only_the_views_it_holds(monkeypatch):
    options, names = LONG
    built = []
    real = web_backend.web_view
    monkeypatch.setattr(web_backend, "web_view", lambda *a: built.append(1) or real(*a))
    page = replay_frames(7, "binome", options, names, len(names) - 10, 30)
    assert len(built) == len(page["frames"]) == 11  # plies total-10 .. total
    assert page["plies"] == len(names) and page["from"] == len(names) - 10
    assert page["frames"][-1]["ply"] == len(names) and page["frames"][-1]["over"]
    for frame in page["frames"]:
        assert len(frame["moves"]) <= MOVES_SHOWN
        assert frame["moves_total"] == frame["ply"]
    assert [m["ply"] for m in page["moves"]] == list(range(len(names) - 9, len(names) + 1))
    built.clear()
    page = replay_frames(7, "binome", options, names, 0, 10**6)
    assert len(built) == len(page["frames"]) == web_backend.MAX_FRAMES_PER_PAGE


def test_the_next_page_of_a_replay_starts_from_a_kept_position(monkeypatch):
    from companion.games.binome.engine import BinomeState

    options, names = LONG
    plays = []
    real = BinomeState.play
    monkeypatch.setattr(BinomeState, "play", lambda *a, **k: plays.append(1) or real(*a, **k))
    kept = web_backend.ReplayCheckpoints()
    end = replay_frames(1, "binome", options, names, len(names) - 10, 10, kept)
    assert len(plays) >= len(names) - 1  # the first page replays the game up to it
    plays.clear()
    page = replay_frames(1, "binome", options, names, len(names) - 30, 10, kept)
    assert len(plays) <= web_backend.CHECKPOINT + 10
    plays.clear()
    assert page == replay_frames(1, "binome", options, names, len(names) - 30, 10)
    assert replay_frames(1, "binome", options, names, len(names) - 10, 10, kept) == end
    # another game (or this one changed) starts afresh
    other = replay_frames(1, "binome", options, names[:-1], len(names) - 30, 10, kept)
    assert other == replay_frames(1, "binome", options, names[:-1], len(names) - 30, 10)


def test_a_replay_page_is_small_whatever_the_game_length():
    options, names = LONG
    sizes = [
        len(json.dumps(replay_frames(1, "binome", options, names[:n], n - 20, 20)))
        for n in (MOVES_SHOWN, len(names))
    ]
    # the same number of views with at most MOVES_SHOWN moves each: about the same size
    assert sizes[1] < 1.3 * sizes[0]


def test_the_live_view_lists_recent_moves_only_with_their_count(make_daemon, tmp_path):
    options, names = LONG
    kept = names[: MOVES_SHOWN + 30]
    journal = SqliteJournal.open(tmp_path / "j.sqlite")
    game_id = journal.begin("binome", options, {})
    journal.commit_turn(game_id, 0, [MoveEntry(i, n) for i, n in enumerate(kept)])
    d = make_daemon(game="binome", rules={"players": "Solo", "solo": 6}, journal=journal)
    assert d.session.game_id == game_id and d.session.moves[: len(kept)] == kept
    total = len(d.session.played)
    for viewer in (None, "Solo"):
        view = d.web_view(viewer)
        assert view["moves_total"] == total and len(view["moves"]) == MOVES_SHOWN
        assert [m["ply"] for m in view["moves"]] == list(range(total - MOVES_SHOWN + 1, total + 1))
