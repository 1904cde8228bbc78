"""A round is paired off the hub's loop: the desk hands the pairing job to its
background (on the hub, a process of its own) and places the round when it is done, so pages
and results are served meanwhile; what changed while it ran is never lost."""

from __future__ import annotations

import asyncio
import json

import pytest

from companion.club import topics
from companion.club.event.desk import EventDesk
from companion.club.event.hub import EventOnHub
from companion.club.event.spec import parse_event
from companion.club.event.tournament import EventStateError, Tournament
from companion.club.hub.club import ClubHub
from companion.club.hub.store import ResultStore


def swiss(players: int, boards: int | None = None) -> str:
    names = ", ".join(f'"P{i:03d}"' for i in range(players))
    boards_list = ", ".join(f'"t{i}"' for i in range(1, (boards or players // 2) + 1))
    return (
        'name = "Open"\ngame = "binaryon"\nrules = { size = 4 }\npairing = "swiss"\n'
        f"rounds = 4\nboards = [{boards_list}]\nplayers = [{names}]\n"
    )


def finished(desk: EventDesk, g) -> dict:
    return {"board": g.board, "game_uid": f"u-{g.pairing}", "game": "binaryon",
            "pairing": desk.wire_id(g), "players": {"on": g.white, "off": g.black},
            "winners": ["on"], "record": ""}  # fmt: skip


class Controlled:
    """A background whose jobs finish when the test says so."""

    def __init__(self) -> None:
        self.jobs: list[tuple] = []

    def __call__(self, job):
        future = asyncio.get_running_loop().create_future()
        self.jobs.append((job, future))
        return future

    def finish(self, index: int = -1) -> None:
        job, future = self.jobs[index]
        future.set_result(job.run())


def play_round(desk: EventDesk) -> None:
    for g in list(desk.tournament.waiting()):
        assert desk.on_result(g.board, finished(desk, g))


def test_the_desk_takes_results_and_answers_while_a_round_is_paired(tmp_path):
    async def run() -> None:
        event = tmp_path / "open.toml"
        event.write_text(swiss(12))
        sent: list[tuple[str, object]] = []
        background = Controlled()
        desk = EventDesk(event, lambda t, p, r: sent.append((t, p)), background=background)
        assert desk.tournament.round == 0 and desk.pairing is not None  # round 1 under way
        assert desk.standings_json()["round"] == 0  # the desk answers meanwhile
        background.finish()
        await asyncio.sleep(0)
        assert desk.tournament.round == 1 and desk.pairing is None
        play_round(desk)
        assert desk.tournament.round == 1 and desk.note == "pairing round 2…"
        assert desk.standings_json()["round"] == 1
        expected = Tournament(desk.event)
        expected.games = [*desk.tournament.games]
        background.finish()
        await asyncio.sleep(0)
        pairs = [(g.white, g.black) for g in desk.tournament.games if g.round == 2]
        assert pairs == [(g.white, g.black) for g in expected.pair_next()]
        assert any(t == topics.pairing("t1") and p and p["round"] == 2 for t, p in sent)
        desk.close()

    asyncio.run(run())


def test_a_correction_while_pairing_pairs_again_from_it(tmp_path):
    async def run() -> None:
        event = tmp_path / "open.toml"
        event.write_text(swiss(12))
        background = Controlled()
        desk = EventDesk(event, lambda *a: None, background=background)
        background.finish()
        await asyncio.sleep(0)
        play_round(desk)
        stale = len(background.jobs) - 1
        first = desk.tournament.games[0]
        desk.correct(first.pairing, "0-1", "Zoe", "wrong result")
        background.finish(stale)  # computed before the correction: thrown away
        await asyncio.sleep(0)
        assert desk.tournament.round == 1 and len(background.jobs) == stale + 2
        background.finish()
        await asyncio.sleep(0)
        expected = Tournament(desk.event)
        expected.games = [g for g in desk.tournament.games if g.round == 1]
        assert [(g.white, g.black) for g in desk.tournament.games if g.round == 2] == [
            (g.white, g.black) for g in expected.pair_next()
        ]
        desk.close()

    asyncio.run(run())


def test_on_the_hub_the_pairing_runs_in_another_process_and_the_loop_goes_on(tmp_path):
    """40 players: the hub's loop turns many times while the round is paired, and the round
    is the one the desk would have paired by itself."""

    async def run() -> None:
        event = tmp_path / "open.toml"
        event.write_text(swiss(40))
        club = ClubHub(ResultStore(tmp_path / "club.sqlite"))
        on_hub = EventOnHub(event, club, lambda line: None)
        desk = on_hub.desk
        try:
            await desk.pairing
            await asyncio.sleep(0)
            play_round(desk)
            assert desk.pairing is not None and desk.tournament.round == 1
            expected = Tournament(parse_event(event.read_text()))
            expected.games = [*desk.tournament.games]
            turns = 0
            while desk.pairing is not None:
                club.handle(
                    topics.status("t1"), json.dumps({"board": "t1", "online": True}).encode()
                )
                turns += 1
                await asyncio.sleep(0.001)
            assert turns > 1 and desk.tournament.round == 2
            assert [(g.white, g.black) for g in desk.tournament.games if g.round == 2] == [
                (g.white, g.black) for g in expected.pair_next()
            ]
        finally:
            on_hub.close()
            club.store.close()

    asyncio.run(run())


def test_the_arbiters_pairing_waits_for_one_under_way(tmp_path):
    async def run() -> None:
        event = tmp_path / "open.toml"
        event.write_text(swiss(12))
        background = Controlled()
        desk = EventDesk(event, lambda *a: None, background=background)
        with pytest.raises(EventStateError, match="being paired"):
            await desk.pair_next_off_loop()
        desk.close()

    asyncio.run(run())
