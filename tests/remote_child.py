"""Child process for tests/club/remote/test_play.py: one board of a remote game, the real daemon on
the simulated board with a real journal, on a real broker, until it is told to stop or
killed. Not a test module.

    python tests/remote_child.py JOURNAL BROKER BOARD PEER SIDE GAME RULES [PLAYERS [CLOCK]]

(RULES and PLAYERS in JSON.)

Prints ``R`` once running, then answers one JSON line per command read from stdin:
``state`` (the game as this board has it), ``play NAME`` (the player here makes that move:
a press of its square on the simulated board, or the confirm button for a move without one),
``submit NAME`` (the player here enters that move on their page), ``enter WHO NAME`` (a
move entered on WHO's page here: answers what was refused), ``make NAME`` (``play``
for a move with squares on a game with a board, else ``submit``), ``press SQUARE`` (a press
of any square), ``undo`` (the undo button), ``new`` (a new game of the same kind),
``confirm`` (the confirm button), ``stop``.
With CLOCK (a time control) the game is played on a clock: ``state`` has its times.

A dishonest board (docs/club.md, "A dishonest peer"), by the environment: ``REMOTE_LIE=flip``
tells the other board each guess's answer turned over, ``REMOTE_LIE=silent`` never reveals
its secret moves at the end, ``REMOTE_LIE=late`` reveals them 5 s late,
``REMOTE_LIE=rename`` reveals a setup with its two pawns
swapped (Latent Binaries) or a digit in another slot (Binøme), ``REMOTE_LIE=mute`` never
tells a fact.
``REMOTE_REVEAL_TIMEOUT``: ``[club] reveal_timeout``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.config import Config  # noqa: E402
from companion.core.events import ButtonEvent  # noqa: E402
from companion.service.app import build_daemon  # noqa: E402


def lie(how: str) -> None:
    """Make this board a dishonest one (the real companion, with one thing turned)."""
    from companion.club.remote_secrets import SecretExchange

    if how == "silent":  # never reveals its secret moves

        def silent(self, again: bool = False) -> None:
            return None

        SecretExchange.send_names = silent  # type: ignore[method-assign]
    elif how == "late":  # reveals its secret moves, but 5 s after it would
        reveal = SecretExchange.send_names

        def late(self, again: bool = False) -> None:
            s = self.link.host.session
            if not s.state.is_over():
                return reveal(self, again)
            if getattr(self, "late_for", None) != s.game_id:
                self.late_for = s.game_id
                later = lambda: self.link.host.post_call(lambda: reveal(self, again=True))  # noqa: E731
                self.link.host.loop.call_later(5.0, later)
            return None

        SecretExchange.send_names = late  # type: ignore[method-assign]
    elif how == "rename":  # reveals another setup than the one it made (and committed to)
        from companion.club.transport import LinkTransport

        publish = LinkTransport.publish

        def renamed(self, topic: str, message: dict) -> None:
            if message.get("kind") == "names":
                stream = list(message["stream"])
                k = next(i for i, name in enumerate(stream) if "/" in name or " write " in name)
                head, last = stream[k].rsplit(" ", 1)
                if "/" in last:  # a nest's two pawns, swapped
                    top, bottom = last.split("/")
                    stream[k] = f"{head} {bottom}/{top}"
                else:  # a digit written in another slot of the sheet
                    stream[k] = f"{head} {int(last[0]) % 8 + 1}{last[1:]}"
                message = {**message, "stream": stream}
            publish(self, topic, message)

        LinkTransport.publish = renamed  # type: ignore[method-assign]
    elif how == "mute":  # never tells a fact (a guess's answer, its stash)
        from companion.club.transport import LinkTransport

        say = LinkTransport.publish

        def mute(self, topic: str, message: dict) -> None:
            if message.get("kind") != "told":
                say(self, topic, message)

        LinkTransport.publish = mute  # type: ignore[method-assign]
    elif how == "flip":  # every guess's answer turned over as it goes to the other board
        from companion.club.transport import LinkTransport

        send = LinkTransport.publish
        turned = {"right": "wrong", "wrong": "right"}

        def flipped(self, topic: str, message: dict) -> None:
            if message.get("kind") == "told":
                facts = {k: turned.get(v, v) if k.startswith("answer") else v
                         for k, v in message["facts"].items()}  # fmt: skip
                message = {**message, "facts": facts}
            send(self, topic, message)

        LinkTransport.publish = flipped  # type: ignore[method-assign]


def main() -> None:
    journal, broker, board, peer, side, game, rules = sys.argv[1:8]
    players = json.loads(sys.argv[8]) if len(sys.argv) > 8 else {}
    control = sys.argv[9] if len(sys.argv) > 9 else ""
    if os.environ.get("REMOTE_LIE"):
        lie(os.environ["REMOTE_LIE"])
    timeout = float(os.environ.get("REMOTE_REVEAL_TIMEOUT", "120"))
    config = Config.default().with_overrides(
        clock={"control": control},
        game={
            "name": game,
            "opponent": f"remote:{peer}",
            "opponent_side": side,
            "players": players,
        },  # fmt: skip
        rules={game: json.loads(rules)},
        board={"driver": "mock"},
        display={"driver": "dummy"},
        journal={"path": journal},
        club={"broker": broker, "board": board, "reveal_timeout": timeout},
    )
    daemon, closers = build_daemon(config, simulated=True)
    daemon.start()
    answer("R")

    def state() -> dict:
        s, o = daemon.session, daemon.opponent
        assert o is not None
        wanted = o.wanted.name if o.wanted is not None else None
        local = next(p for p in s.state.players if p != o.side())  # the seat played here
        playing = s.state.player_of(local)  # the colour it plays now (a swap changes it)
        here = s.state.turn == playing and not s.state.is_over()
        outcome = s.state.outcome() if s.state.is_over() else None
        return {
            "game_id": s.game_id,
            "moves": s.moves,
            "turn": s.state.turn,
            "over": s.state.is_over(),
            "local": local,
            "playing": playing,
            "legal": [m.name for m in s.state.legal_moves()] if here else [],
            "wanted": wanted,
            "lit": list(daemon.notices.pending),
            "message": daemon.message,
            "acting": playing in s.state.to_act,
            "mine": [m.name for m in s.state.legal_moves(playing)],
            "waiting": sorted(s.spec.remote().waiting(s.state)),
            "masked": s.seat_knowledge is not None,
            "summary": outcome.summary if outcome is not None else None,
            "disputed": daemon.remote.is_disputed(),
            "clock": clock_state(),
        }

    def clock_state() -> dict | None:
        clock = daemon.session.clock
        if clock is None:
            return None
        now = daemon.loop.clock()  # the machine's monotonic clock: the same in both processes
        return {"times": clock.times(now), "running": clock.running, "paused": clock.paused,
                "now": now}  # fmt: skip

    def local_player() -> str:
        s, o = daemon.session, daemon.opponent
        assert o is not None
        return s.state.player_of(next(p for p in s.state.players if p != o.side()))

    def make(name: str, on_board: bool) -> None:
        move = daemon.session.state.parse_move(name)
        spec = daemon.session.spec
        if on_board and spec.remote().on_board(move) and spec.sensor_kinds:
            play(name)
        else:
            daemon.submit(name, local_player())

    def play(name: str) -> None:
        move = daemon.session.state.parse_move(name)
        if move.cells:
            for cell in move.cells:  # a move of two squares is two presses
                daemon.board.tap(daemon.map.square(cell), clean=True)
        else:
            daemon.post(ButtonEvent("confirm"))

    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        if command == "state":
            daemon.wait_idle()
            answer(json.dumps(daemon.call(state, render=False)))
        elif command == "play":
            daemon.call(lambda name=arg: play(name), render=False)
            daemon.wait_idle()
            answer("{}")
        elif command == "enter":  # a move entered on the page of any player: enter WHO NAME
            who, _, name = arg.partition(" ")
            verdict = daemon.call(lambda w=who, n=name: daemon.submit(n, w))
            daemon.wait_idle()
            refusal = verdict.refusal
            answer(json.dumps({"refused": refusal.reason if refusal is not None else None}))
        elif command in ("submit", "make"):
            daemon.call(lambda name=arg, c=command: make(name, c == "make"))  # as a page does
            daemon.wait_idle()
            answer("{}")
        elif command == "press":
            daemon.board.tap(int(arg), clean=True)
            daemon.wait_idle()
            answer("{}")
        elif command in ("undo", "confirm"):
            daemon.post(ButtonEvent(command))
            daemon.wait_idle()
            answer("{}")
        elif command == "new":
            daemon.call(lambda: daemon.new_game(game, json.loads(rules)))
            daemon.wait_idle()
            answer("{}")
        elif command == "stop":
            break
    daemon.stop()
    for close in closers:
        close()


def answer(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
