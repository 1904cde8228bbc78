"""End to end: real companions (daemons on the mock board, each with its own journal and the
club link as the service builds it) publish to a real Mosquitto, and ``binaryon club`` shows
them and keeps their results: each once, acknowledged, and cleared from the broker."""

from __future__ import annotations

from companion.club import topics
from tests.club_boards import moves_to_end, play, start_board, stop_board
from tests.mosquitto import Listener

SMALL = {"size": 4}


def test_real_boards_publish_to_the_hub_which_shows_them_and_keeps_each_result_once(
    tmp_path, broker, hub
):
    listener = Listener(broker.url)
    boards = {}
    try:
        for name in ("t1", "t2"):
            (tmp_path / name).mkdir()
            boards[name] = start_board(tmp_path / name, broker.url, name, rules=SMALL)
        t1, _ = boards["t1"]
        names = moves_to_end("binaryon", **SMALL)
        for name in names[:3]:
            play(t1, name)
        view = t1.call(lambda: t1.web_view(None), render=False)
        same = ("game_id", "ply", "board", "players", "moves", "to_act")

        def shown_as_on_the_board():
            shown = hub.get("/api/board/t1")
            return all(shown["view"][k] == view[k] for k in same) and shown

        shown = hub.wait(shown_as_on_the_board, what="the board's view as its table page has it")
        assert shown["board"]["online"] and shown["board"]["status"] == "playing"
        assert set(hub.boards()) == {"t1", "t2"}
        for name in names[3:]:
            play(t1, name)
        uid = t1.club.game_uid()
        games = hub.wait(lambda: hub.get("/api/results")["games"], what="the result")
        assert [(g["board"], g["game_uid"]) for g in games] == [("t1", uid)]
        assert games[0]["record"] and games[0]["game"] == "binaryon"
        # the board clears its retained result once acknowledged
        listener.wait_for(
            lambda heard: any(
                h.topic == topics.result("t1", uid) and h.payload == b"" for h in heard
            )
        )
        hub.wait(lambda: hub.boards()["t1"]["status"] == "over", what="the game over")
        stop_board(*boards.pop("t2"))
        hub.wait(lambda: not hub.boards()["t2"]["online"], what="t2 offline")
        hub.kill()
        hub.start()  # nothing doubled: the result was acknowledged and cleared
        hub.wait(lambda: len(hub.boards()) == 2, what="the boards again")
        assert [g["game_uid"] for g in hub.get("/api/results")["games"]] == [uid]
    finally:
        for daemon, closers in boards.values():
            stop_board(daemon, closers)
        listener.close()
