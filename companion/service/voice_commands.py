"""Commands by voice, acted on in the daemon's loop through the same paths as the buttons and
the pages: an undo or a new game asked is confirmed (by "yes"; an undo by the undo button too),
and so is a move (a pass, a claim, the next step) heard in a noisy room; the clock paused and
resumed as confirm does, a hint as the menu button gives it. A line heard that is not a command
of the game's state is said back once and never acted on."""

from __future__ import annotations

import logging
from typing import Any

from companion import PROGRAM
from companion.voice.grammar import Command, Context, commands
from companion.voice.listener import Heard
from companion.voice.words import (
    changed_words,
    moves_words,
    rank_words,
    time_words,
    turn_words,
)

log = logging.getLogger(PROGRAM)

ALWAYS_ASKED = ("undo", "new game")  # confirmed by "yes" first, however clearly heard
# moves made by voice: confirmed first when the line stood under NOISY times the room's level
# (about 18 dB): in a talking room a near command is heard as often as the right one
# (bench_voice.py: babble at 10 dB SNR), and a claim or a pass is not taken back
ASKED_IN_NOISE = ("pass", "claim", "next")
NOISY = 8.0

SAID = {  # the phrase said for each command in "help"
    "repeat": "say that again",
    "score": "what is the score",
    "turn": "whose turn is it",
    "hint": "give me a hint",
    "undo": "undo",
    "new game": "start a new game",
    "menu": "open the menu",
    "time": "how much time",
    "pause": "pause the clock",
    "resume": "resume the clock",
    "next": "next step",
    "pass": "i pass",
    "claim": "i claim, then: claim four two",
    "moves": "where can i move",
    "changed": "what changed",
    "rank": "read rank three",
}


class VoiceCommands:
    """What the listener heard, acted on (``act``, in the loop's thread)."""

    def __init__(self, host: Any, voice: Any, wake: str, hold: str = "") -> None:
        self.host = host  # the daemon
        self.voice = voice  # the TableVoice: answers are its lines
        self.wake = wake
        self.hold = hold  # the push-to-talk button ("" : the wake word)
        self.asked: Command | None = None  # awaiting "yes" (an undo: or the undo button)
        self.acted: list[str] = []  # the commands acted on, in order (``binaryon`` logs them)

    def context(self) -> Context:
        """What can be said now: the grammar's context for the game's state."""
        session = self.host.session
        state = session.state
        layout = self.host.map.layout if self.host.map.squares else None
        player = acting(state)
        names = [m.name for m in state.legal_moves(player)] if player is not None else []
        return Context(
            ranks=layout.ranks if layout is not None else 0,
            numbers=any(n.startswith(f"{player} claim") for n in names),
            next=layout is None,
            clock=session.clock is not None,
            confirm=self.asked is not None,
            pass_move=any(_passes(n) for n in names),
        )

    def moved(self) -> None:
        """The game moved (a move, an undo, a new game): a question asked is forgotten."""
        self.asked = None

    def act(self, heard: Heard) -> None:
        """One line heard: its command acted on, or said back once when it was said to the
        companion and is not a command of this state."""
        command = heard.command
        if command is None:
            if heard.reply:
                log.info("voice: not understood: %r", heard.words)
                self.voice.add(heard.reply, "answer")
            return
        log.info("voice: %s", command)
        self.acted.append(str(command))
        self.voice.asked = True
        try:
            if self._to_ask(command, heard.loudness):
                self.asked = command
                self._say(self._question(command))
            else:
                self._do(command)
        finally:
            self.voice.asked = False

    def _to_ask(self, c: Command, loudness: float | None) -> bool:
        return asked_first(c.name, loudness) and (c.name in ALWAYS_ASKED or self._can(c))

    def _can(self, c: Command) -> bool:
        """Whether the move ``c`` stands for can be made now (else it is said why at once)."""
        if c.name == "next":
            return True
        player = acting(self.host.session.state)
        if player is None:
            return False
        if c.name == "pass":
            return bool(self._passes(player))
        legal = {m.name for m in self.host.session.state.legal_moves(player)}
        return _claim_move(player, c.number) in legal

    def _question(self, c: Command) -> str:
        """The question before ``c``: never with a claim's number (a secret until resolved)."""
        if c.name == "undo":
            return "Take back the last move? Say yes, or press undo."
        if c.name == "new game":
            return "Start a new game? This one is kept. Say yes or no."
        if c.name == "next":
            return "Next step? Say yes or no."
        verb = "Claim" if c.name == "claim" else "Pass"
        return f"{verb} for {acting(self.host.session.state)}? Say yes or no."

    def _say(self, text: str) -> None:
        self.voice.add(text, "answer")

    def _do(self, c: Command) -> None:
        host, session = self.host, self.host.session
        spec, state, options = session.spec, session.state, session.options
        name = c.name
        asked = self.asked
        if name != "repeat":  # any other command drops the question ("repeat" says it again)
            self.asked = None
        if name == "repeat":
            self._say(self.voice.last or "Nothing said yet.")
        elif name == "score":
            self._say(score_words(spec.view(state, None)))
        elif name == "turn":
            self._say(turn_words(spec, state))
        elif name == "help":
            ctx = self.context()
            said = [SAID[n] for n in commands(ctx) if n in SAID]
            if ctx.ranks:
                said.append(SAID["rank"])
            if ctx.numbers:
                said.append(SAID["claim"])
            lead = f"Hold {self.hold} and say: " if self.hold else f"Say {self.wake}, then: "
            self._say(lead + ", ".join(said) + ".")
        elif name == "hint":
            host.hint()
        elif name == "undo":
            host.undo(False)
        elif name == "yes":
            if asked is not None:
                self._do(asked)
        elif name == "no":
            if asked is not None:
                self._say("Not taken back." if asked.name == "undo" else "Not done.")
        elif name == "new game":
            host.new_game(keep=True)
        elif name == "menu":  # push-to-talk on menu: its hold is the microphone's
            if not host.menu.is_open:
                host.controls.open_menu()
        elif name == "time":
            clock = session.clock
            if clock is None:
                self._say("No clock in this game.")
            else:
                self._say(time_words(spec, clock.times(host.loop.clock())))
        elif name in ("pause", "resume"):
            clock = session.clock
            wanted = name == "pause"
            if clock is None or clock.paused == wanted or (wanted and clock.running is None):
                self._say("The clock is " + ("not running." if wanted else "running."))
            else:
                host.game_clock.toggle()
        elif name == "next":
            self._next()
        elif name == "claim":
            self._claim(c.number)
        elif name == "pass":
            self._pass()
        elif name == "moves":
            self._say(moves_words(spec, state, state.turn))
        elif name == "changed":
            states = session.states
            if len(states) < 2:
                self._say("Nothing changed.")
            else:
                self._say(changed_words(spec, states[-2], states[-1], options))
        elif name == "rank":
            self._say(rank_words(spec, state, options, c.number or 0))

    def _passes(self, player: str) -> list[str]:
        legal = self.host.session.state.legal_moves(player)
        return [m.name for m in legal if m.is_pass or _passes(m.name)]

    def _pass(self) -> None:
        player = acting(self.host.session.state)
        passes = self._passes(player) if player is not None else []
        if not passes:
            self._say("No pass now.")
            return
        self.host.submit(passes[0], player)

    def _claim(self, number: int | None) -> None:
        """'I claim' (the number is asked later: a paper sheet), or 'claim 4 2' (the number
        itself), for the person to act, as their page would send it."""
        state = self.host.session.state
        player = acting(state)
        if player is None:
            self._say("Nobody claims now.")
            return
        self.host.submit(_claim_move(player, number), player)

    def _next(self) -> None:
        """'Next step': every person to act who has one move only (a digit written on a paper
        sheet) has made it; otherwise the confirm button's step."""
        session = self.host.session
        state = session.state
        done = False
        for player in [p for p in state.players if p in state.to_act - state.virtual]:
            moves = session.state.legal_moves(player)
            if len(moves) == 1 and not moves[0].is_pass:
                self.host.submit(moves[0].name, player)
                done = True
        if not done:
            self.host.button("confirm")


def score_words(view: Any) -> str:
    """The live score as the table shows it: the view's words, else its rows."""
    if view.explanation:
        return ". ".join(view.explanation) + "."
    rows = [f"{r.label.lower()} {r.value}" for r in view.panel.rows if r.value]
    return ("Score: " + ", ".join(rows) + ".") if rows else "No score yet."


def asked_first(name: str, loudness: float | None) -> bool:
    """Whether the command ``name``, heard at ``loudness`` (its level over the room's), waits
    for "yes" (a move only when it can be made now, which the daemon looks at too)."""
    noisy = loudness is not None and loudness < NOISY
    return name in ALWAYS_ASKED or (noisy and name in ASKED_IN_NOISE)


def acting(state: Any) -> str | None:
    """The person a command said aloud acts for: the one on turn, else the first person (not a
    virtual player) in seat order who is to act."""
    if state.is_over():
        return None
    if state.turn is not None and state.turn not in state.virtual:
        return state.turn
    people = [p for p in state.players if p in state.to_act and p not in state.virtual]
    return people[0] if people else None


def _claim_move(player: str, number: int | None) -> str:
    return f"{player} claim" + ("" if number is None else f" {number:02d}")


def _passes(name: str) -> bool:
    return name.split()[-1:] == ["pass"]
