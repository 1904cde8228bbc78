"""An event with real boards on a real Mosquitto: the desk's pairings start each board's game
with the pairing's names, the boards' results (stored and acknowledged as a hub does) come
back to the desk by their pairing ids, and round 2 starts on the boards by itself."""

from __future__ import annotations

import pytest

from companion.club.event.desk import EventDesk
from tests.club.event.events import ROUND_ROBIN_OF_FOUR as EVENT
from tests.club.event.test_desk import Publisher
from tests.club_boards import Acker, moves_to_end, play, start_board, stop_board, wait


@pytest.fixture
def hall(tmp_path, broker):
    acker = Acker(broker.url)
    boards = {name: start_board(tmp_path, broker.url, name) for name in ("t1", "t2")}
    (tmp_path / "march.toml").write_text(EVENT)
    publish = Publisher(broker.url)
    desk = EventDesk(tmp_path / "march.toml", publish)
    yield desk, {name: daemon for name, (daemon, _) in boards.items()}, acker
    desk.close()
    publish.close()
    for daemon, closers in boards.values():
        stop_board(daemon, closers)
    acker.close()


def _names(daemon) -> dict[str, str]:
    return daemon.call(lambda: dict(daemon.session.seat_names()), render=False)


def test_boards_play_the_events_rounds(hall):
    desk, boards, acker = hall
    for daemon in boards.values():
        wait(lambda d=daemon: d.club.connected, what="the board's link")
    desk.publish_pairings(force=True)
    one = {"t1": {"on": "Ann", "off": "Dan"}, "t2": {"on": "Ben", "off": "Cat"}}
    for name, daemon in boards.items():
        wait(lambda d=daemon, n=name: _names(d) == one[n], what=f"{name}'s pairing")
        assert daemon.session.options["size"] == 4
    for daemon in boards.values():
        for move in moves_to_end("binaryon", size=4):
            play(daemon, move)
    wait(lambda: len(acker.stored) == 2, what="both results stored")
    for result in list(acker.stored.values()):  # what the hub tells the desk
        assert result["pairing"].startswith(desk.id + "-r1-")
        assert desk.on_result(result["board"], result)
    two = {"t1": {"on": "Dan", "off": "Cat"}, "t2": {"on": "Ann", "off": "Ben"}}  # 4-3, 1-2
    for name, daemon in boards.items():
        wait(lambda d=daemon, n=name: _names(d) == two[n], what=f"{name}'s round 2")
    table = desk.standings_json()
    assert table["round"] == 2 and sum(s["points"] for s in table["standings"]) == 2
    records = desk.export()
    assert records.count("[Game ") == 2 and '[Round "1"]' in records
