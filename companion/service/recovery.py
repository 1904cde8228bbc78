"""Recovery from the board's buttons alone (hold confirm), as owners of electronic boards ask
for: for one message's time the LEDs show the position as the game has it (no blinking, no
marks: where each piece should be), and the OLED says in words what the table waits for and
which button gets out of it (docs/hardware.md lists the buttons)."""

from __future__ import annotations

from typing import Any


def way_out(host: Any) -> str:
    """What the table waits for now and the button out of it, in at most two OLED lines."""
    session = host.session
    state = session.state
    if host.status:  # the board is away or does not fit: only a new game helps here
        return f"{host.status}: hold menu: new game"
    if state.is_over():
        return "game over: undo takes back, hold menu: new game"
    clock = session.clock
    if clock is not None and clock.paused:
        return "clock paused: confirm resumes it"
    if host.turn_pending():
        return "half a turn entered: hold undo takes it back"
    if host.notices.differ or host.notices.strays:
        return "LEDs show the game: match it, or undo"
    opponent = host.opponent
    if opponent is not None and opponent.to_move():
        if opponent.wanted is not None:
            return f"{opponent.source.whose} move: {opponent.wanted.name}: make it on the board"
        if opponent.source.busy:
            return "I am thinking: hold menu for a new game"
        return f"waiting for {opponent.source.by}: hold menu for a new game"
    label = session.spec.player_label
    acting = [label(p) for p in state.players if p in state.to_act]
    who = ", ".join(acting) if acting else "the referee"
    return f"{who} to play: undo takes back, hold menu: new game"
