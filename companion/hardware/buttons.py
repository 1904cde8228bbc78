"""The three push buttons (confirm/end turn, undo, menu/hint), an optional push-to-talk
button ("talk") and the optional buzzer.

Each button is a gpiozero Button wired from its GPIO to ground (internal pull-up). A short
press is posted on release as ButtonEvent(name); holding for ``hold_seconds`` posts
ButtonEvent(name, long=True) once, and that press's release posts nothing more (long menu =
new game, long undo = take back to the last confirmed position: the daemon decides).

Contact bounce: a "press" shorter than ``min_press_seconds`` is not a press, so the extra
edges of a bouncing contact never reach the sink. This does not rely on the pin factory's
own bounce handling (gpiozero's mock pins have none).

``on_level(name, down)``, when given, is told each button's every press and release as it
happens, in gpiozero's thread (push-to-talk opens the microphone while a button is held).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping

from companion.core.events import ButtonEvent
from companion.hardware.interfaces import HardwareError

log = logging.getLogger(__name__)

NAMES = ("confirm", "undo", "menu", "talk")


class ButtonsError(HardwareError):
    """Buttons or buzzer cannot be used; the message is one line for the user."""


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


class _OneButton:
    def __init__(self, name, device, sink, min_press, clock, on_level=None):
        self.name = name
        self._on_level = on_level
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
        self._level(True)

    def _level(self, down: bool) -> None:
        if self._on_level is None:
            return
        try:
            self._on_level(self.name, down)
        except Exception:  # as for the sink: gpiozero's callback thread goes on
            log.exception("button level failed on %s", self.name)

    def _released(self) -> None:
        self._level(False)
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
        on_level: Callable[[str, bool], None] | None = None,
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
                self._buttons[name] = _OneButton(
                    name, device, sink, min_press_seconds, clock, on_level
                )
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


# The bill of materials' piezo (TDK PS1240P02BT) is passive: it sounds only while it is driven
# with a tone, loudest near its 4 kHz resonance; a steady level just clicks it once per edge.
# gpiozero's TonalBuzzer spans one octave either side of its middle tone: B5 (988 Hz) to
# B7 (3951 Hz) here, so both sounds sit where the piezo is loud.
BUZZER_KINDS = ("passive", "active")
MID_TONE = "B6"
OK_TONE = "B7"  # 3951 Hz: one short chirp
REFUSE_TONE = "B6"  # 1976 Hz: two short, lower beeps
Pattern = tuple[tuple[str | None, float], ...]  # (note or None for silence, seconds)
REFUSE: Pattern = ((REFUSE_TONE, 0.08), (None, 0.06), (REFUSE_TONE, 0.08))
OK: Pattern = ((OK_TONE, 0.05),)


class Buzzer:
    """The buzzer on ``pin``: a passive piezo driven with a PWM tone (``kind="passive"``, the
    part in the bill of materials) or an active, self-oscillating buzzer switched on and off
    (``kind="active"``). Sounds play in a background thread; a new one cuts the last short."""

    def __init__(self, pin: int, *, kind: str = "passive", pin_factory=None):
        if kind not in BUZZER_KINDS:
            raise ButtonsError(f"buzzer kind {kind!r}: use {' or '.join(BUZZER_KINDS)}")
        self.kind = kind
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            if kind == "passive":
                from gpiozero import TonalBuzzer
                from gpiozero.tones import Tone

                self._device = TonalBuzzer(
                    pin, mid_tone=Tone(MID_TONE), octaves=1, pin_factory=pin_factory
                )
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
        self.play(REFUSE)

    def ok(self) -> None:
        """One short chirp. Returns at once."""
        self.play(OK)

    def play(self, pattern: Pattern) -> None:
        """Play ``pattern`` in the background, after silencing whatever was playing."""
        with self._lock:
            self._halt()
            self._stop = stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(pattern, stop), name="buzzer", daemon=True
            )
            self._thread.start()

    def _halt(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None

    def _run(self, pattern: Pattern, stop: threading.Event) -> None:
        try:
            for note, seconds in pattern:
                self._sound(note)
                if stop.wait(seconds):
                    break
        except Exception:  # a closed or failing pin must not kill the daemon
            log.debug("the buzzer failed", exc_info=True)
        finally:
            try:
                self._sound(None)
            except Exception:
                log.debug("silencing the buzzer failed", exc_info=True)

    def _sound(self, note: str | None) -> None:
        if self.kind == "passive":
            if note is None:
                self._device.stop()
            else:
                from gpiozero.tones import Tone

                self._device.play(Tone(note))
        elif note is None:
            self._device.off()
        else:
            self._device.on()

    def close(self) -> None:
        with self._lock:
            self._halt()
        try:
            self._device.close()
        except Exception:
            log.debug("closing the buzzer failed", exc_info=True)
