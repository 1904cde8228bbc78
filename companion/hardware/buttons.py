"""The three push buttons (confirm/end turn, undo, menu/hint) and the optional buzzer.

Each button is a gpiozero Button wired from its GPIO to ground (internal pull-up). A short
press is posted on release as ButtonEvent(name); holding for ``hold_seconds`` posts
ButtonEvent(name, long=True) once, and that press's release posts nothing more (long menu =
new game, long undo = take back to the last confirmed position: the daemon decides).

Contact bounce: a "press" shorter than ``min_press_seconds`` is not a press, so the extra
edges of a bouncing contact never reach the sink. This does not rely on the pin factory's
own bounce handling (gpiozero's mock pins have none).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping

from companion.core.events import ButtonEvent
from companion.hardware.interfaces import HardwareError

log = logging.getLogger(__name__)

NAMES = ("confirm", "undo", "menu")


class ButtonsError(HardwareError):
    """Buttons or buzzer cannot be used; the message is one line for the user."""


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


class _OneButton:
    def __init__(self, name, device, sink, min_press, clock):
        self.name = name
        self.device = device
        self._sink = sink
        self._min_press = min_press
        self._clock = clock
        self._pressed_at: float | None = None
        self._held = False
        self._lock = threading.Lock()
        device.when_pressed = self._pressed
        device.when_released = self._released
        device.when_held = self._long

    def _pressed(self) -> None:
        with self._lock:
            self._pressed_at = self._clock()
            self._held = False

    def _released(self) -> None:
        with self._lock:
            started, self._pressed_at = self._pressed_at, None
            if started is None or self._held:
                return
            if self._clock() - started < self._min_press:
                return  # a bounce, not a press
        self._post(ButtonEvent(self.name, long=False))

    def _long(self) -> None:
        with self._lock:
            if self._pressed_at is None or self._held:
                return
            self._held = True
        self._post(ButtonEvent(self.name, long=True))

    def _post(self, event: ButtonEvent) -> None:
        try:
            self._sink(event)
        except Exception:  # a sink error must not kill gpiozero's callback thread
            log.exception("button sink failed on %s", event)


class Buttons:
    """gpiozero Buttons for ``pins`` (name -> BCM pin), posting ButtonEvent to ``sink``."""

    def __init__(
        self,
        pins: Mapping[str, int],
        sink: Callable[[ButtonEvent], None],
        *,
        hold_seconds: float = 1.0,
        min_press_seconds: float = 0.03,
        pin_factory=None,
        clock: Callable[[], float] = time.monotonic,
    ):
        unknown = sorted(set(pins) - set(NAMES))
        if unknown:
            raise ButtonsError(f"unknown button {unknown[0]!r}: buttons are {', '.join(NAMES)}")
        if len(set(pins.values())) != len(pins):
            raise ButtonsError("two buttons share a GPIO pin")
        if not hold_seconds > 0:
            raise ButtonsError(f"hold_seconds must be > 0, got {hold_seconds}")
        from gpiozero import Button  # gpiozero picks lgpio on a Pi; imported only when used

        self._buttons: dict[str, _OneButton] = {}
        try:
            for name, pin in pins.items():
                device = Button(pin, pull_up=True, hold_time=hold_seconds, pin_factory=pin_factory)
                self._buttons[name] = _OneButton(name, device, sink, min_press_seconds, clock)
        except Exception as e:
            self.close()
            raise ButtonsError(f"button {name} on GPIO{pin}: {_why(e)}") from e

    def device(self, name: str):
        """The gpiozero Button behind ``name`` (tests and the self-test use its pin)."""
        return self._buttons[name].device

    def is_pressed(self, name: str) -> bool:
        return bool(self._buttons[name].device.is_pressed)

    def close(self) -> None:
        for b in self._buttons.values():
            try:
                b.device.close()
            except Exception:
                log.debug("closing button %s failed", b.name, exc_info=True)
        self._buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Buzzer:
    """A buzzer on ``pin``: an active buzzer (on/off), or a passive one (``tonal=True``)."""

    def __init__(self, pin: int, *, tonal: bool = False, pin_factory=None):
        self.tonal = tonal
        self._timer: threading.Timer | None = None
        try:
            if tonal:
                from gpiozero import TonalBuzzer

                self._device = TonalBuzzer(pin, pin_factory=pin_factory)
            else:
                from gpiozero import Buzzer as _GzBuzzer

                self._device = _GzBuzzer(pin, pin_factory=pin_factory)
        except Exception as e:
            raise ButtonsError(f"buzzer on GPIO{pin}: {_why(e)}") from e

    @property
    def device(self):
        return self._device

    def refuse(self) -> None:
        """Two short low beeps: the move was refused. Returns at once."""
        if self.tonal:
            from gpiozero.tones import Tone

            self._device.play(Tone(frequency=220.0))
            self._stop_after(0.25)
        else:
            self._device.beep(on_time=0.08, off_time=0.06, n=2, background=True)

    def ok(self) -> None:
        """One short chirp."""
        if self.tonal:
            from gpiozero.tones import Tone

            self._device.play(Tone(frequency=880.0))
            self._stop_after(0.05)
        else:
            self._device.beep(on_time=0.03, off_time=0.0, n=1, background=True)

    def _stop_after(self, seconds: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(seconds, self._device.stop)
        self._timer.daemon = True
        self._timer.start()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        try:
            self._device.close()
        except Exception:
            log.debug("closing the buzzer failed", exc_info=True)
