"""Remote play's source, seen from the broker: one real companion (board t3) and a bare paho
client on a real Mosquitto in the place of board t4, sending what a peer may send: moves out
of order, twice, garbage, another board's, questions for the moves after a ply."""

from __future__ import annotations

import itertools
import json
import time

import pytest

from companion.club import remote_checks, topics
from companion.club.remote_commit import Chain, Keys, facts_link, move_link
from companion.games import get_spec
from companion.games.remote_api import Hidden
from tests.club_boards import start_board, stop_board
from tests.conftest import wait_until


@pytest.fixture
def peer(broker):
    """Listening before t3 starts, so it hears t3's first question."""
    made = Peer(broker.url)
    yield made
    made.listener.close()


@pytest.fixture
def t3(tmp_path, broker, peer):
    daemon, closers = start_board(
        tmp_path, broker.url, "t3", rules={"size": 4}, opponent="remote:t4"
    )
    yield daemon
    stop_board(daemon, closers)


class Peer:
    """Board t4 as the broker sees it: what it hears from t3, what it sends."""

    def __init__(self, url: str):
        from tests.mosquitto import Listener

        self.listener = Listener(url)
        self.client = self.listener.client

    def heard(self, kind: str) -> list[dict]:
        out = []
        for h in self.listener.messages(topics.remote("t3", "t4")):
            message = json.loads(h.payload)
            if message["kind"] == kind:
                out.append(message)
        return out

    def send(self, message: dict | bytes) -> None:
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.client.publish(topics.remote("t4", "t3"), body, qos=1).wait_for_publish(10)


def of_the_game(peer: Peer, game: str) -> list[dict]:
    """What t3 sent t4 of ``game`` (a question about the game before may still be on its
    way: t3 asks at its start and again once connected)."""
    sent = [json.loads(h.payload) for h in peer.listener.messages(topics.remote("t3", "t4"))]
    return [m for m in sent if m.get("game") != "binaryon" or game == "binaryon"]


KEYS = Keys("0" * 64)  # t4's keys (remote_commit.py): its moves carry them


def identity(**rest) -> dict:
    """A message of t4's, its move signed with t4's key."""
    options = get_spec("binaryon").resolve({"size": 4})
    message = {"board": "t4", "sent": 0, "kind": "move", "game": "binaryon", "options": options,
               "seat": "off", "game_id": 1, "anchor": KEYS.anchor,
               "control": KEYS.control.anchor, **rest}  # fmt: skip
    if message["kind"] == "move" and "key" not in rest:
        message["key"] = KEYS.key(move_link(message["seq"]))
    if message["kind"] == "told" and "key" not in rest:
        message["key"] = KEYS.key(facts_link(len(message["facts"])))
    if message["kind"] in ("clock", "flag", "undo") and "cseq" not in rest:
        n = next(CONTROLS)  # each of t4's control messages its own number and key
        message |= {"cseq": n, "ckey": KEYS.control.key(n)}
    return message


CONTROLS = itertools.count()


def line_of_play(n: int) -> list[str]:
    spec = get_spec("binaryon")
    state = spec.new(**spec.resolve({"size": 4}))
    names = []
    for _ in range(n):
        move = state.legal_moves()[0]
        names.append(move.name)
        state = state.play(move)
    return names


def press(daemon, name: str) -> None:
    def tap() -> None:
        move = daemon.session.state.parse_move(name)
        daemon.board.tap(daemon.map.square(move.cells[0]), clean=True)

    daemon.call(tap, render=False)
    daemon.wait_idle()


def moves(daemon) -> list[str]:
    return daemon.call(lambda: list(daemon.session.moves), render=False)


def settled(daemon, peer) -> None:
    """Everything the board sent so far heard (a mark it sends after it, in order), then
    forgotten: what is heard next was sent after this."""
    daemon.wait_idle()
    mark = f"{topics.remote('t3', 't4')}/mark"
    daemon.club.publish(mark, {"mark": True})
    wait_until(lambda: peer.listener.messages(mark), 20, "the mark")
    peer.listener.heard.clear()


def test_moves_out_of_order_twice_or_foreign_are_harmless(t3, peer):
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks for the moves it missed")
    ask = peer.heard("ask")[-1]
    assert (ask["game"], ask["seat"], ask["have"], ask["board"]) == ("binaryon", "on", 0, "t3")
    m = line_of_play(4)
    press(t3, m[0])
    wait_until(lambda: [h["move"] for h in peer.heard("move")] == [m[0]], 20, "t3's move sent")
    assert (peer.heard("move")[0]["seq"], peer.heard("move")[0]["ply"]) == (0, 0)
    named = t3.call(lambda: t3.submit(m[1], "off"))  # t4's move, named on a page here
    assert named.refusal is not None and named.refusal.reason == "wait for t4's move"
    assert moves(t3) == [m[0]]
    peer.send(b"not json")
    peer.send({**identity(seq=0, move=m[1]), "board": "t9"})  # not the peer
    peer.send(identity(seq=1, move=m[3]))  # ahead of its time
    peer.send(identity(seq=0, move=m[1]))
    peer.send(identity(seq=0, move=m[1]))  # twice
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    assert t3.opponent.wanted.name == m[1] and t3.message == f"t4's move: {m[1]}: press it"
    press(t3, m[1])
    press(t3, m[2])  # t3's own; t4's next one came already
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's early move lit")
    assert t3.opponent.wanted.name == m[3]
    press(t3, m[3])
    assert moves(t3) == m
    peer.send(identity(seq=0, move=m[1]))  # a late duplicate changes nothing
    t3.wait_idle()
    assert moves(t3) == m
    t3.call(lambda: t3.undo(False))  # asks t4: nothing is taken back alone
    assert t3.message == f"takeback of {m[3]} asked: t4 agrees or not" and moves(t3) == m
    wait_until(lambda: peer.heard("undo"), 20, "the request sent")
    assert peer.heard("undo")[0]["ask"] == 3 and peer.heard("undo")[0]["moves"] == 4
    asked = t3.call(lambda: t3.ask_undo("on"))  # on a player's page
    assert asked.refusal is not None and "already asked" in asked.refusal.reason
    assert moves(t3) == m and t3.referee.undo_view()["waiting"] == ["off"]
    theirs = t3.call(lambda: t3.ask_undo("off"))  # the peer's player asks on its own board
    assert theirs.refusal is not None and theirs.refusal.reason == "no takebacks in a remote game"


def three_plies(t3, peer, n: int) -> list[str]:
    """A line of ``n`` moves, its first three played: t3's, t4's (sent by ``peer``, then
    made at t3) and t3's again, both of t3's sent."""
    m = line_of_play(n)
    press(t3, m[0])
    peer.send(identity(seq=0, move=m[1]))
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    press(t3, m[1])
    press(t3, m[2])
    wait_until(lambda: len(peer.heard("move")) == 2, 20, "t3's own moves sent")
    return m


def test_the_peer_asks_and_is_answered_from_the_game(t3, peer):
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = three_plies(t3, peer, 3)
    assert [(a["seq"], a["ply"], a["move"]) for a in peer.heard("move")] == [
        (0, 0, m[0]),
        (1, 2, m[2]),
    ]  # its own moves only: t4's own came from t4
    peer.listener.heard.clear()
    peer.send(identity(kind="ask", have=1, mine=1))  # t4 came back with one of t3's moves
    wait_until(lambda: len(peer.heard("move")) == 1, 20, "the answer")
    answer = peer.heard("move")
    assert [(a["seq"], a["ply"], a["move"]) for a in answer] == [(1, 2, m[2])]
    assert not peer.heard("ask")  # t3 is not behind
    peer.send(identity(kind="ask", have=2, mine=5))  # t4 has more than t3: t3 asks back
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks back")
    assert (peer.heard("ask")[-1]["have"], peer.heard("ask")[-1]["mine"]) == (1, 2)


def test_a_message_of_another_game_is_refused_with_one_line(t3, peer):
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    peer.send({**identity(seq=0, move=m[1]), "options": {"size": 6}})
    wait_until(lambda: "t4 plays" in t3.message, 20, "the refusal")
    assert t3.message.endswith("start the same game on both") and "\n" not in t3.message
    press(t3, m[0])
    peer.send(identity(seq=0, move=m[1], game_id=1))
    wait_until(lambda: t3.opponent.wanted is not None, 20, "the game's move lit")
    peer.send(identity(seq=0, move=m[1], game_id=2))  # the peer went on to another game
    wait_until(lambda: "another game" in t3.message, 20, "the refusal")
    assert t3.message == "t4 plays another game: start a new game on both boards"


def test_a_game_with_secrets_never_reaches_the_broker(t3, peer, monkeypatch):
    """The board is asked for a game with secrets that cannot be played remotely (Latent
    Binaries as if it had no masked states) in a remote game: it is said that it cannot be
    played remotely, and nothing of it goes on the broker (heard on ``#``) while it is played
    here."""
    monkeypatch.setattr(type(get_spec("latent-binaries")), "remote", lambda self: Hidden())
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    settled(t3, peer)
    t3.call(lambda: t3.new_game("latent-binaries"))
    wait_until(lambda: "hidden information" in t3.message, 20, "the refusal")
    for _ in range(6):  # its players play here (hidden placements and all)
        state = t3.call(lambda: t3.session.state, render=False)
        move = state.legal_moves()[0]
        t3.call(lambda mv=move, who=state.turn: t3.submit(mv.name, who))
    assert len(t3.session.played) >= 6
    t3.wait_idle()
    assert of_the_game(peer, "latent-binaries") == []  # (the table: club-board's)


def test_a_game_that_cannot_be_played_remotely_never_reaches_the_broker(t3, peer):
    """The board is asked for Binøme with three players in a remote game: it is said that
    it cannot be played remotely, and nothing of it goes on the broker (heard on ``#``)
    while it is played here."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    settled(t3, peer)
    t3.call(lambda: t3.new_game("binome", {"players": "Ann,Bob,Cy"}))
    wait_until(lambda: "remote play is for two players" in t3.message, 20, "the refusal")
    for _ in range(6):  # its players play here (secret writes and all)
        state = t3.call(lambda: t3.session.state, render=False)
        move = state.legal_moves()[0]
        who = state.actor(move)
        t3.call(lambda mv=move, who=who: t3.submit(mv.name, who))
    assert len(t3.session.played) >= 6
    t3.wait_idle()
    assert of_the_game(peer, "binome") == []  # (the table: club-board's)


def test_a_finished_game_of_the_peer_is_not_taken_for_the_new_one(t3, peer):
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    peer.send(identity(kind="ask", have=0, mine=6, over=True, game_id=7))  # t4's last game
    wait_until(lambda: "not started the new game" in t3.message, 20, "the line")
    assert t3.remote.peer_games == {} and t3.message == "t4 has not started the new game yet"
    press(t3, m[0])
    peer.send(identity(seq=0, move=m[1], game_id=8))  # its new game
    wait_until(lambda: t3.opponent.wanted is not None, 20, "the new game's move lit")
    assert t3.opponent.wanted.name == m[1]


def test_a_second_different_move_under_one_number_is_refused(t3, peer):
    """A move heard early keeps its number: another one under it (its key copied from the
    first, as a third party that heard it would) is refused, and the first is the one lit."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    peer.send(identity(seq=0, move=m[1]))
    other = next(name for name in line_of_play(4)[2:] if name != m[1])
    peer.send(identity(seq=0, move=other))
    wait_until(lambda: "was refused" in t3.message, 20, "the second one refused")
    assert (
        t3.message
        == f"a message said to be t4's was refused: {other} as its move 1, which was {m[1]}"
    )
    press(t3, m[0])
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    assert t3.opponent.wanted.name == m[1]


def test_a_flood_of_questions_costs_a_bounded_answer(t3, peer, monkeypatch):
    """500 questions for the whole game are answered ``ASK_BURST`` times (no refill while
    the test runs): no amplification. The move sent after them, and t3's next press, go
    through."""
    monkeypatch.setattr(remote_checks, "ASK_EVERY", 3600.0)
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = three_plies(t3, peer, 5)
    peer.listener.heard.clear()
    body = json.dumps(identity(kind="ask", have=0, mine=1)).encode()
    sent = [peer.client.publish(topics.remote("t4", "t3"), body, qos=1) for _ in range(500)]
    for info in sent:
        info.wait_for_publish(20)
    peer.send(identity(seq=1, move=m[3]))  # after the flood, on the same topic
    wait_until(lambda: t3.opponent.wanted is not None, 30, "the move after the flood lit")
    answers = peer.heard("move")
    assert len(answers) <= 2 * remote_checks.ASK_BURST  # two moves an answer, at most
    assert {a["seq"] for a in answers} == {0, 1}
    press(t3, m[3])
    press(t3, m[4])
    wait_until(lambda: m[4] in [a["move"] for a in peer.heard("move")], 20, "t3's press sent")


def test_a_message_of_a_past_game_of_the_peer_is_refused_in_one_line(t3, peer, caplog):
    """Game ids of a board's journal only grow: a message of the peer's game 1 (heard on the
    broker and sent again) once its game 2 is bound here is refused in one line of the log,
    and the game here stays bound to game 2; the peer with another journal starts again."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    old = identity(seq=0, move=m[1], game_id=1)
    press(t3, m[0])
    peer.send(old)
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    press(t3, m[1])
    t3.call(lambda: t3.new_game("binaryon", {"size": 4}))  # both boards start another game
    peer.send(identity(kind="ask", have=0, mine=0, game_id=2))
    wait_until(lambda: 2 in t3.remote.peer_games.values(), 20, "game 2 bound")
    caplog.clear()
    peer.send(old)
    wait_until(lambda: "past game" in caplog.text, 20, "the refusal")
    lines = [r.getMessage() for r in caplog.records if "past game" in r.getMessage()]
    assert lines == ["remote play: a message of t4's past game 1 refused (it plays game 2)"]
    game = t3.call(lambda: t3.session.game_id, render=False)
    assert t3.remote.peer_games[game] == 2 and "another game" not in t3.message
    # t4 with another journal (a new card, a restore) numbers its games from 1 again
    peer.send(identity(kind="ask", have=0, mine=0, game_id=1, journal="beef01"))
    wait_until(lambda: t3.remote.peer_games[game] == 1, 20, "the new journal's game bound")


def test_a_dispute_is_taken_only_with_the_peers_next_key(t3, peer):
    """A dispute under t4's name with a key nobody had is refused in one line; t4's own,
    signed with its next key, stops the game here: said, journaled with t4's evidence, and
    the result goes to the hub marked ``disputed`` (never a plain result)."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    press(t3, m[0])
    peer.send(identity(seq=0, move=m[1]))
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    press(t3, m[1])
    forged = identity(kind="dispute", seq=1, key="ab" * 32, why="t3 cheats", evidence={})
    peer.send(forged)
    wait_until(lambda: "was refused" in t3.message, 20, "the forged dispute refused")
    assert t3.message.endswith("a dispute that does not carry t4's key")
    assert not t3.call(lambda: t3.remote.is_disputed(), render=False)
    said = {"fact": "answer 3", "told": "right"}
    signed = {"seq": 1, "key": KEYS.key(move_link(1))}
    peer.send(identity(kind="dispute", **signed, why="t3 lied", evidence=said))
    wait_until(lambda: t3.message.startswith("game disputed"), 20, "the dispute said")
    assert t3.message == "game disputed: t4 says t3 lied; the result is the arbiter's"
    page = t3.call(lambda: t3.web_view(None), render=False)  # the table page says it too
    assert page["message"] == t3.message
    game = t3.call(lambda: t3.session.game_id, render=False)
    dispute = t3.journal.load(game).dispute
    assert dispute.status == "disputed" and dispute.evidence["theirs"] == said
    wait_until(lambda: peer.listener.messages(f"{topics.result('t3', '')}"), 20, "the result")
    result = json.loads(peer.listener.messages(topics.result("t3", ""))[-1].payload)
    assert result["status"] == "disputed" and result["why"] == "t4 says t3 lied"
    press(t3, line_of_play(3)[2])  # the game stopped here: nothing goes to t4 any more
    t3.wait_idle()
    assert [h["move"] for h in peer.heard("move")] == [m[0]]


def test_a_move_far_ahead_is_refused_without_hashing_its_key(t3, peer):
    """A move numbered far beyond the peer's moves known here is refused before its key is
    hashed down (a forged flood costs a bounded amount each)."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    peer.send(identity(seq=4000, move="a1", key="ab" * 32))
    wait_until(lambda: "far ahead" in t3.message, 20, "the refusal")
    assert t3.message.endswith("its move 4001 is far ahead of its move 0")


def test_facts_are_learned_only_signed_by_the_peer_and_within_bounds(t3, peer):
    """Facts about the peer number about one a move: a told message with far more (each a
    write to the journal) is refused in one line; facts within bounds and signed with the
    peer's key for as many facts are kept; the same number of facts changed, or a key made
    up, is refused (not a dispute: it is not the peer's)."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    t3.call(lambda: t3.new_game("latent-binaries"))
    game = t3.call(lambda: t3.session.game_id, render=False)
    options = t3.call(lambda: remote_options(t3), render=False)

    def told(facts: dict, **rest) -> dict:
        message = identity(kind="told", game_id=2, facts=facts, options=options, **rest)
        return {**message, "game": "latent-binaries", "seat": "xeno"}

    peer.send(told({f"answer {k}": "right" for k in range(200)}))
    wait_until(lambda: "facts for" in t3.message, 20, "the refusal")
    assert t3.message.endswith("200 facts for 0 moves")
    assert t3.call(lambda: t3.session.seat_knowledge.told, render=False) == {}
    peer.send(told({"answer 3": "wrong"}))
    wait_until(lambda: t3.call(lambda: t3.session.seat_knowledge.told, render=False), 20, "learned")
    assert t3.journal.load(game).masked.told == {"xeno": {"answer 3": "wrong"}}
    # a third party that heard them: the same key with another answer, or a key made up
    peer.send(told({"answer 3": "right"}))
    wait_until(lambda: "differ" in t3.message, 20, "the changed facts refused")
    assert t3.message.endswith("its 1 facts differ from those it told before")
    peer.send(told({"answer 3": "wrong", "answer 5": "right"}, key="ab" * 32))
    wait_until(lambda: "do not carry" in t3.message, 20, "the unsigned facts refused")
    assert t3.journal.load(game).masked.told == {"xeno": {"answer 3": "wrong"}}
    assert not t3.call(lambda: t3.remote.is_disputed(), render=False)


def remote_options(daemon) -> dict:
    from companion.club.remote_stream import plain
    from companion.referee.session import carried_options

    s = daemon.session
    return plain(carried_options(s.spec, s.options))


def test_names_at_the_end_are_taken_only_signed_by_the_peer(t3, peer):
    """The names a board reveals at the end carry the key of the move it would make next: a
    third party's (a key made up) are refused in one line."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    names = identity(kind="names", stream=["a1"], order=["a3", "a1"], theirs=[1], salts=[])
    peer.send({**names, "key": "ab" * 32})
    wait_until(lambda: "names" in t3.message, 20, "the refusal")
    assert t3.message.endswith("its names at the end do not carry t4's key")
    peer.send({**names, "key": KEYS.key(move_link(1))})  # t4's own: past the check
    peer.send({**names, "stream": ["b1"], "key": KEYS.key(move_link(1))})  # then changed
    wait_until(lambda: "differ" in t3.message, 20, "the changed names refused")
    assert t3.message.endswith("its names differ from those it told before")


def test_a_flood_of_forged_moves_is_one_line_a_second_in_the_log(t3, peer, caplog):
    """200 moves with keys made up: each refused, the log says so once a second (with how
    many more), and the peer's real move, after them, is lit."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    press(t3, m[0])
    caplog.clear()
    started = time.monotonic()
    forged = json.dumps(identity(seq=0, move=m[1], key="ab" * 32)).encode()
    sent = [peer.client.publish(topics.remote("t4", "t3"), forged, qos=1) for _ in range(200)]
    for info in sent:
        info.wait_for_publish(20)
    peer.send(identity(seq=0, move=m[1]))
    wait_until(lambda: t3.opponent.wanted is not None, 30, "the real move lit")
    elapsed = time.monotonic() - started
    lines = [r.getMessage() for r in caplog.records if "was refused" in r.getMessage()]
    assert 1 <= len(lines) <= elapsed + 1
    assert t3.opponent.wanted.name == m[1]


@pytest.mark.parametrize("accept", [True, False])
def test_the_peers_takeback_is_taken_back_here_only_when_the_player_here_agrees(t3, peer, accept):
    """t4 asks to take back its last move: t3's pages list the request and nothing is taken
    back until t3's player answers; then t4 hears ``done`` or ``declined``. A request for a
    position t3 is not at is declined in one line."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    press(t3, m[0])
    peer.send(identity(seq=0, ply=1, move=m[1]))
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    press(t3, m[1])
    assert moves(t3) == m
    peer.send(identity(kind="undo", ask=5, moves=7))  # not where t3 is
    wait_until(lambda: peer.heard("undo"), 20, "the answer")
    assert peer.heard("undo")[-1] == {**peer.heard("undo")[-1], "declined": 5, "moves": 7}
    assert "not at that move yet" in t3.message and moves(t3) == m
    peer.send(identity(kind="undo", ask=1, moves=2))
    wait_until(lambda: t3.referee.undo_view() is not None, 20, "the request on the pages")
    view = t3.call(lambda: t3.referee.undo_view(), render=False)
    assert view["by"] == "off" and view["moves"] == [m[1]] and view["waiting"] == ["on"]
    assert t3.message == f"OFF asks to take back {m[1]}: undo to agree" and moves(t3) == m
    t3.call(lambda: t3.answer_undo("on", accept))  # on the player's page
    wait_until(lambda: len(peer.heard("undo")) == 2, 20, "the answer")
    answer = peer.heard("undo")[-1]
    if accept:
        assert answer["done"] == 1 and answer["moves"] == 2 and moves(t3) == m[:1]
        assert t3.call(lambda: t3.journal.load(t3.session.game_id).takebacks, render=False) == 1
    else:
        assert answer["declined"] == 1 and moves(t3) == m


def test_control_messages_are_numbered_signed_and_each_number_taken_once(t3, peer, caplog):
    """t3's takeback request carries its number and a key of its control chain (hashing down
    to the ``control`` anchor every message carries). t4's request sent twice by the broker is
    taken once and said nothing of; the same number again with other content, a number
    already passed and a message without one are refused in one line each; the number taken
    is kept in the journal (a restart takes none of them again)."""
    wait_until(lambda: peer.heard("ask"), 20, "t3 asks")
    m = line_of_play(2)
    press(t3, m[0])
    peer.send(identity(seq=0, ply=1, move=m[1]))
    wait_until(lambda: t3.opponent.wanted is not None, 20, "t4's move lit")
    press(t3, m[1])
    t3.call(lambda: t3.undo(False))  # t3 asks t4
    wait_until(lambda: peer.heard("undo"), 20, "the request sent")
    asked = peer.heard("undo")[-1]
    chain = Chain(asked["control"])
    assert isinstance(asked["cseq"], int) and chain.check(asked["cseq"], asked["ckey"])
    t3.call(lambda: t3.referee.answer_undo("off", False))  # t4's player says no (as if heard)
    caplog.clear()
    n = next(CONTROLS) + 10
    request = identity(kind="undo", ask=1, moves=2, cseq=n, ckey=KEYS.control.key(n))
    peer.send(request)
    peer.send(request)  # the broker delivers it twice: taken once, nothing said
    wait_until(lambda: t3.referee.undo_view() is not None, 20, "the request on the pages")
    t3.wait_idle()
    assert not [r for r in caplog.records if "was refused" in r.getMessage()]
    game = t3.session.game_id
    assert t3.journal.meta(f"remote.control.taken.{game}") == str(n)
    t3.call(lambda: t3.answer_undo("on", False))
    for forged, why in (
        ({**request, "ask": 0}, "was heard before"),  # its number, other content
        ({**request, "cseq": n - 1, "ckey": KEYS.control.key(n - 1)}, "was heard before"),
        ({k: v for k, v in request.items() if k not in ("cseq", "ckey")}, "carries no number"),
        ({**request, "cseq": n + 1, "ckey": "ab" * 32}, "does not carry t4's key"),
        ({**request, "control": "cd" * 32}, "another key"),
    ):
        caplog.clear()
        peer.send(forged)
        wait_until(lambda: "was refused" in t3.message, 20, "the refusal")
        assert why in t3.message and "\n" not in t3.message
        assert t3.referee.undo_view() is None and moves(t3) == m
        t3.call(lambda: t3.say(""), render=False)
