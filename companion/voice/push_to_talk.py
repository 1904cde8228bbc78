"""Push-to-talk: the microphone is open only while a button is held ([voice] push_to_talk:
the menu button or a talk button of its own). The button's thread says when it goes down and
up, the listener's reads it for every frame, the daemon's loop asks whether a press was talk
(a tap of menu with nothing said is still the hint). Thread-safe, no I/O."""

from __future__ import annotations

import threading

# frames (30 ms) still heard after the button is let go: the last word trails the finger
RELEASE_FRAMES = 10


class PushToTalk:
    """The state of the push-to-talk button ``button`` ("menu" or "talk")."""

    def __init__(self, button: str) -> None:
        self.button = button
        self._held = threading.Event()
        self._spoke = threading.Event()  # a line started during the latest press

    @property
    def held(self) -> bool:
        return self._held.is_set()

    def level(self, name: str, down: bool) -> None:
        """A button went down or up (``Buttons``' ``on_level``); others are not ours."""
        if name != self.button:
            return
        if down:
            self.press()
        else:
            self.release()

    def press(self) -> None:
        self._spoke.clear()
        self._held.set()

    def release(self) -> None:
        self._held.clear()

    def spoke(self) -> None:
        """The listener heard speech start while the button was held."""
        self._spoke.set()

    @property
    def talked(self) -> bool:
        """Speech started during the latest press: it was talk, not a tap."""
        return self._spoke.is_set()
