"""The menu button's hints: the game's own hint steps, then (in an engine game) the engine's
move, and round again. A move, an undo or a new game starts the round afresh."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.base import Hint
from companion.referee.verdict import Verdict
from companion.service.engine_hint import EngineHint
from companion.service.host import Host


class Hints:
    def __init__(self, host: Host, engine: EngineHint, thinking: Callable[[], bool]):
        self.host = host
        self.engine = engine  # the last step in an engine game
        self.thinking = thinking  # the companion is thinking about its own move
        self._step = 0

    def next(self) -> None:
        if self.thinking():
            self.host.say("thinking: wait")
            return
        session = self.host.session
        self.engine.cancel()
        own = self.engine.own_steps()
        step = self._step if own is None else self._step % (own + 1)
        self._step += 1
        if step == own:
            self.host.tell(Verdict(hint=Hint((), ""), say=""))  # until the engine answers
            self.engine.start()
            return
        self.host.tell(Verdict(hint=session.spec.hint(session.state, step)))

    def reset(self) -> None:
        """The game moved: the next press starts from the game's first hint again."""
        self.engine.cancel()
        self._step = 0
