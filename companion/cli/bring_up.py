"""``binaryon doctor --bring-up``: the first test of a newly built board, one part at a time.

It walks the maker through every square (its LED lit, so the lit square is the one to press:
a wrong LED order shows as the wrong square), the OLED and the three buttons, and says for
each fault what to look at. Nothing here knows whether the board is real or simulated: tests
run it on the simulated GPIO matrix (tests/fake_gpio.py) and the mock board, and
act on each prompt through ``asking``.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.core.events import BoardSnapshot, ButtonEvent, SquareReading
from companion.core.squares import square_name
from companion.hardware import pinout
from companion.hardware.interfaces import IDLE_READING

LIT = (40, 40, 40)  # the square to press: dim white, well inside any LED budget
GOOD = (0, 60, 0)
BAD = (60, 0, 0)
# What a maker puts on a square, per sensor kind: each value the square must read in turn.
ASKS = {
    "switch": (("1", "press"),),
    "presence": (("1", "place a piece on"),),
    "polarity": (("x", "place a disc black side up on"), ("o", "turn it white side up on")),
}


@dataclass
class BringUpResult:
    squares_ok: list[int] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # one line each, with what to check
    buttons_ok: list[str] = field(default_factory=list)
    oled_ok: bool | None = None  # None: no display to test
    colours_ok: bool | None = None  # None: no buttons to answer with

    @property
    def passed(self) -> bool:
        return not self.faults


def diagnose(asked: int, got: int, n: int) -> str:
    """What a reading of ``got`` when ``asked`` was pressed points at."""
    (ar, af), (gr, gf) = divmod(asked, n), divmod(got, n)  # (rank, file) each
    a, g = square_name(asked, n), square_name(got, n)
    where = []
    if ar != gr:
        where.append(f"rank lines {ar + 1} and {gr + 1} swapped or crossed")
    if af != gf:
        where.append(f"file lines {'abcdefgh'[af]} and {'abcdefgh'[gf]} swapped or crossed")
    return (
        f"{a}: read as {g} ({'; '.join(where)}; or the LED chain is out of order if the lit "
        f"LED sits under {g})"
    )


class Events:
    """What the board and the buttons post (``put``), waited for one kind at a time."""

    def __init__(self) -> None:
        self.q: queue.Queue = queue.Queue()

    def put(self, e) -> None:
        self.q.put(e)

    def next(self, seconds: float, wanted: Callable) -> object | None:
        """The first event that is ``wanted`` within ``seconds`` (others are dropped), else
        None."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                e = self.q.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            if wanted(e):
                return e
        return None


def bring_up(
    board,
    leds,
    buttons_factory: Callable | None = None,
    oled=None,
    *,
    wait: float = 30.0,
    out=None,
    asking: Callable[[tuple], None] | None = None,
    squares: list[int] | None = None,
) -> BringUpResult:
    """Walk ``board`` square by square (each lit on ``leds``), then the OLED (a luma device,
    or None) and the buttons (``buttons_factory(sink)``, or None). ``asking(step)`` is called
    once each prompt is out: ("square", square, value), ("release", square),
    ("oled", text) and ("button", name)."""
    out = out or sys.stdout
    ask = asking or (lambda step: None)
    n = board.size
    idle = IDLE_READING[board.kind]
    result = BringUpResult()
    events = Events()
    count = n * n
    frame = [(0, 0, 0)] * count
    board.start(events.put)
    try:
        snap = events.next(wait, lambda e: isinstance(e, BoardSnapshot))
        if snap is None:
            result.faults.append(f"board: no reading in {wait:g}s (is it connected?)")
            return result
        stuck = [sq for sq, v in enumerate(snap.values) if v != idle]
        for sq in stuck:
            name = square_name(sq, n)
            result.faults.append(
                f"{name}: reads {snap.values[sq]!r} with nothing on it (a stuck sensor, a "
                "solder bridge across it, or its diode shorted)"
            )
        print(f"bring-up: {count} squares, one at a time; the lit one is next", file=out)
        for sq in squares if squares is not None else range(count):
            if sq in stuck:
                continue
            frame[sq] = LIT
            leds.show(frame)
            ok = _walk_square(board, sq, events, result, wait, out, ask)
            frame[sq] = GOOD if ok else BAD
            leds.show(frame)
        leds.show([(0, 0, 0)] * count)
    finally:
        board.stop()
    if buttons_factory is not None:
        result.colours_ok = _check_colours(leds, count, buttons_factory, events, result, wait,
                                           out, ask)  # fmt: skip
    if oled is not None:
        result.oled_ok = _check_oled(oled, buttons_factory, events, result, wait, out, ask)
    if buttons_factory is not None:
        _check_buttons(buttons_factory, events, result, wait, out, ask)
    squares_total = count if squares is None else len(squares)
    summary = f"bring-up: {len(result.squares_ok)}/{squares_total} squares"
    if buttons_factory is not None:
        summary += f", {len(result.buttons_ok)}/3 buttons"
    if result.colours_ok is not None:
        summary += f", LED colours {'ok' if result.colours_ok else 'not confirmed'}"
    if result.oled_ok is not None:
        summary += f", OLED {'ok' if result.oled_ok else 'not confirmed'}"
    summary += ": all good" if result.passed else f"; {len(result.faults)} to fix:"
    print(summary, file=out)
    for line in result.faults:
        print(f"  - {line}", file=out)
    return result


def _walk_square(board, sq, events, result, wait, out, ask) -> bool:
    n = board.size
    name = square_name(sq, n)
    idle = IDLE_READING[board.kind]
    for value, verb in ASKS[board.kind]:
        print(f"{verb} {name} (lit) ...", file=out, flush=True)
        ask(("square", sq, value))
        got = events.next(
            wait, lambda e: isinstance(e, SquareReading) and e.value not in (idle, "0", ".")
        )
        if got is None:
            result.faults.append(
                f"{name}: nothing in {wait:g}s (its sensor, its diode: band toward the row; "
                f"rank {sq // n + 1}'s row wire or file {name[0]}'s column wire)"
            )
            print(f"  {name}: nothing", file=out)
            return False
        if got.square != sq:
            result.faults.append(diagnose(sq, got.square, n))
            print(f"  {name}: read as {square_name(got.square, n)}", file=out)
            _release(board, got.square, events, wait, ask)
            return False
        if got.value != value:
            result.faults.append(
                f"{name}: read {got.value!r} for {value!r} (its two hall sensors swapped, or "
                "the disc's magnet glued the wrong way)"
            )
            _release(board, sq, events, wait, ask)
            return False
    ghosts = _release(board, sq, events, wait, ask)
    if ghosts is None:
        result.faults.append(f"{name}: did not read empty again (a sticking switch or cap)")
        return False
    if ghosts:
        others = " ".join(square_name(g, n) for g in sorted(ghosts))
        result.faults.append(
            f"{name}: {others} read too while it was closed (a diode missing, shorted or the "
            "wrong way round)"
        )
        return False
    print(f"  {name}: ok", file=out)
    result.squares_ok.append(sq)
    return True


def _release(board, sq, events, wait, ask) -> set[int] | None:
    """Ask to clear ``sq``; the other squares that read closed meanwhile (ghosts), or None
    when ``sq`` never read empty again."""
    idle = IDLE_READING[board.kind]
    ask(("release", sq))
    ghosts: set[int] = set()

    def wanted(e) -> bool:
        if isinstance(e, SquareReading) and e.square != sq and e.value != idle:
            ghosts.add(e.square)
        return isinstance(e, SquareReading) and e.square == sq and e.value == idle

    return ghosts if events.next(wait, wanted) is not None else None


def oled_text_image(lines: list[str], size: tuple[int, int] = (128, 64), mode: str = "1"):
    from PIL import Image, ImageDraw

    image = Image.new(mode, size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] - 1, size[1] - 1), outline="white")
    for i, line in enumerate(lines):
        draw.text((4, 4 + 14 * i), line, fill="white")
    return image


COLOURS = (("red", (60, 0, 0)), ("green", (0, 60, 0)), ("blue", (0, 0, 60)))


def _check_colours(leds, count, buttons_factory, events, result, wait, out, ask) -> bool:
    """Every LED red, then green, then blue: a dead channel (or a blue-red swap of an RGBW or
    odd part) shows as one LED of another colour. The maker answers with confirm or undo."""
    buttons = buttons_factory(events.put)
    wrong = []
    try:
        for name, rgb in COLOURS:
            leds.show([rgb] * count)
            print(f"LEDs all {name}? press confirm if every one is, undo if not", file=out,
                  flush=True)  # fmt: skip
            ask(("leds", name))
            got = events.next(
                wait, lambda e: isinstance(e, ButtonEvent) and e.button in ("confirm", "undo")
            )
            if got is None or got.button != "confirm":
                wrong.append(name)
    finally:
        leds.show([(0, 0, 0)] * count)
        buttons.close()
    if wrong:
        result.faults.append(
            f"LEDs: not all {' / '.join(wrong)} (an LED of another colour: that LED or its "
            "solder joints; from one LED on, all wrong: the data link into it)"
        )
    return not wrong


def _check_oled(oled, buttons_factory, events, result, wait, out, ask) -> bool:
    lines = ["BRING-UP", "OLED OK?", "confirm: yes", "undo: no"]
    try:
        size, mode = getattr(oled, "size", (128, 64)), getattr(oled, "mode", "1")
        oled.display(oled_text_image(lines, size, mode))
    except Exception as e:
        result.faults.append(f"OLED: {' '.join(str(e).split())} (its wiring, address or power)")
        return False
    print("OLED: it shows 'BRING-UP / OLED OK?': press confirm if you can read it, undo if not",
          file=out)  # fmt: skip
    if buttons_factory is None:
        return True  # nothing to answer with: what it showed is the test
    buttons = buttons_factory(events.put)
    try:
        ask(("oled", "\n".join(lines)))
        got = events.next(
            wait, lambda e: isinstance(e, ButtonEvent) and e.button in ("confirm", "undo")
        )
    finally:
        buttons.close()
    if got is None or got.button != "confirm":
        result.faults.append(
            "OLED: not confirmed (check VCC, GND, SDA and SCL, the module's pin order and "
            "`[display] i2c_address`; `i2cdetect -y 1` lists it)"
        )
        return False
    return True


def _check_buttons(buttons_factory, events, result, wait, out, ask) -> None:
    buttons = buttons_factory(events.put)
    try:
        for name in ("confirm", "undo", "menu"):
            gpio = pinout.PI_BUTTONS[name]
            print(f"press {name} (GPIO{gpio}, header pin {pinout.PI_HEADER[gpio]}) ...",
                  file=out, flush=True)  # fmt: skip
            ask(("button", name))
            got = events.next(
                wait, lambda e, name=name: isinstance(e, ButtonEvent) and e.button == name
            )
            if got is None:
                result.faults.append(
                    f"button {name}: nothing in {wait:g}s (its switch, its 470 Ω at J2, or "
                    f"header pin {pinout.PI_HEADER[gpio]})"
                )
            else:
                result.buttons_ok.append(name)
    finally:
        buttons.close()
