"""The sensor board on a Pico over USB serial (pyserial); the protocol is docs/protocol.md.

One reader thread owns the port: it opens it (exclusive), does the handshake, turns board lines
into events for the daemon, pings a quiet board, notices a lost line by its sequence number and
gets it sent again (RESEND, then a snapshot), and on any read error or silence closes the port,
posts ``LinkStatus(False, "board disconnected")`` and keeps trying to reopen it with back-off.
Writes (LED frames, pings, requests) may come from any thread; a lock keeps lines whole.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable

import serial

from companion.core.events import BoardSnapshot, Event, LinkStatus, SquareReading
from companion.hardware import link_protocol as lp
from companion.hardware.interfaces import SensorBoard
from companion.hardware.pico_port import BoardNotFound, find_pico_port
from companion.hardware.serial_leds import SerialLeds

log = logging.getLogger(__name__)

DISCONNECTED = "board disconnected"


class SerialBoard(SensorBoard):
    """A Pico running firmware/ (or any board speaking protocol 1) on a serial port."""

    debounced = True

    def __init__(
        self,
        port: str = "auto",
        *,
        size: int = 8,
        baudrate: int = 115200,
        brightness: int | None = None,
        debounce_ms: int | None = None,
        ping_after: float = 0.5,
        lost_after: float = 1.5,
        handshake_timeout: float = 0.7,
        ack_timeout: float = 0.5,
        retry_min: float = 0.1,
        retry_max: float = 1.0,
        start_timeout: float = 2.5,
    ) -> None:
        self.port = port
        self.size = size
        self.expected_size = size
        self.kind = "switch"
        self.firmware: str | None = None
        self.baudrate = baudrate
        self.brightness = brightness
        self.debounce_ms = debounce_ms
        self.ping_after = ping_after
        self.lost_after = lost_after
        self.handshake_timeout = handshake_timeout
        self.ack_timeout = ack_timeout
        self.retry_min = retry_min
        self.retry_max = retry_max
        self.start_timeout = start_timeout
        self.stats: collections.Counter[str] = collections.Counter()
        self.last_error: str | None = None
        self._sink: Callable[[Event], None] | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._first_attempt = threading.Event()
        self._io_lock = threading.Lock()
        self._ser: serial.Serial | None = None
        self._state = "closed"  # closed -> handshake -> up; "safe": the board says it stopped
        self._announced: str | None = None  # the last LinkStatus detail posted
        self._splitter = lp.LineSplitter()
        self._expect: int | None = None
        self._known: list[str] | None = None
        self._first_snapshot = True
        self._last_rx = self._last_ping = self._hs_started = 0.0
        self._hs_tries = 0
        self._gap_at: float | None = None
        self._gap_tries = 0
        self._boot_id: str | None = None
        self._leds = SerialLeds(self)

    # -- SensorBoard ---------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._state == "up"

    def start(self, sink: Callable[[Event], None]) -> None:
        """Start the reader thread; returns once the first handshake succeeded or failed."""
        if self._thread is not None:
            raise RuntimeError("SerialBoard already started")
        self._sink = sink
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="serial-board", daemon=True)
        self._thread.start()
        self._first_attempt.wait(self.start_timeout)

    def stop(self) -> None:
        """Stop the reader thread and close the port, turning the LEDs off first."""
        if self.connected and self._leds.frame is not None:
            n2 = self.size * self.size
            self._write(lp.cmd_leds_full(self._leds.next_id(), [(0, 0, 0)] * n2))
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._close()

    def request_snapshot(self) -> None:
        if self.connected:
            self._write(lp.CMD_SNAPSHOT)

    def leds(self) -> SerialLeds:
        return self._leds

    def set_brightness(self, level: int) -> None:
        """LED brightness 0..255 on the board (kept across reconnects)."""
        self.brightness = max(0, min(255, int(level)))
        if self.connected:
            self._write(lp.cmd_brightness(self._leds.next_id(), self.brightness))

    # -- the reader thread ---------------------------------------------------------------
    def _run(self) -> None:
        delay = self.retry_min
        while not self._stopping.is_set():
            try:
                delay = self._run_once(delay)
            except Exception as e:  # a bug or an odd error must not end the reader for good
                self._crashed(e)
                self._first_attempt.set()
                self._stopping.wait(delay)
                delay = min(delay * 2, self.retry_max)
        self._close()

    def _run_once(self, delay: float) -> float:
        """One pass of the reader: (re)open the port, or read and handle what came in.
        Returns the back-off delay for the next failed open."""
        ser = self._ser
        if ser is None:
            if self._open():
                return self.retry_min
            self._first_attempt.set()
            self._stopping.wait(delay)
            return min(delay * 2, self.retry_max)
        try:
            data = ser.read(ser.in_waiting or 1)
        except (serial.SerialException, OSError, TypeError, ValueError) as e:
            self._lose(f"read failed: {e}")
            return delay
        now = time.monotonic()
        if data:
            for line in self._splitter.feed(data):
                try:
                    self._handle(line, now)
                except Exception:  # a bug here must not kill the link
                    log.exception("board line %r", line[:80])
                    self.stats["handler_errors"] += 1
            if self._splitter.overflows:
                self.stats["bad_lines"] += self._splitter.overflows
                self._splitter.overflows = 0
        self._tick(now)
        return delay

    def _crashed(self, e: Exception) -> None:
        """An unexpected error in the reader: log it (the first time in full), drop the port
        and let the loop reconnect."""
        self.stats["reader_errors"] += 1
        if self.stats["reader_errors"] == 1:
            log.exception("board reader: unexpected error, reconnecting")
        else:
            log.debug("board reader: unexpected error again: %r", e)
        try:
            self._lose(f"unexpected error: {type(e).__name__}: {e}", quiet=True)
        except Exception:  # never let the recovery itself end the thread
            log.debug("board reader: recovery failed", exc_info=True)
            self._ser = None
            self._state = "closed"

    def _resolve_port(self) -> str:
        return find_pico_port() if self.port == "auto" else self.port

    def _open(self) -> bool:
        ser = None
        try:
            path = self._resolve_port()
            ser = serial.Serial(
                path, self.baudrate, timeout=0.05, write_timeout=0.5, exclusive=True
            )
            # May raise termios.error (not an OSError) when the device vanished after open().
            ser.reset_input_buffer()
        except BoardNotFound as e:
            self._down(str(e))
            return False
        except Exception as e:
            if ser is not None:
                with contextlib.suppress(Exception):
                    ser.close()
            why = " ".join(str(e).split()) or type(e).__name__
            log.debug("open %s: %s", self.port, why)
            self._down(DISCONNECTED if self._announced is not None else f"{DISCONNECTED}: {why}")
            return False
        with self._io_lock:
            self._ser = ser
        self._splitter = lp.LineSplitter()
        self._state = "handshake"
        self._hs_started = time.monotonic()
        self._hs_tries = 1
        self._write(lp.CMD_HELLO)
        return True

    def _close(self) -> None:
        with self._io_lock:
            ser, self._ser = self._ser, None
        self._state = "closed"
        if ser is not None:
            with contextlib.suppress(Exception):  # termios.error is not an OSError
                ser.close()

    def _down(self, detail: str) -> None:
        """Post LinkStatus(False, detail) unless that is what was said last."""
        self.last_error = detail
        if self._announced != detail:
            self._announced = detail
            self._post(LinkStatus(False, detail))

    def _lose(self, why: str, quiet: bool = False) -> None:
        was_up = self._state in ("up", "safe")
        (log.debug if quiet else log.warning)("board link lost: %s", why)
        self._close()
        self.stats["disconnects"] += 1
        self._leds.on_disconnect()
        self._down(DISCONNECTED if was_up or self._announced is None else self._announced)

    def _write(self, data: bytes) -> bool:
        with self._io_lock:
            ser = self._ser
            if ser is None:
                return False
            try:
                ser.write(data)
                return True
            except Exception as e:  # the reader thread notices a dead port and reconnects
                log.debug("write failed: %s", e)
                return False

    def _post(self, event: Event) -> None:
        sink = self._sink
        if sink is None:
            return
        try:
            sink(event)
        except Exception:
            log.exception("event sink failed on %r", event)

    def _tick(self, now: float) -> None:
        if self._state == "handshake":
            if now - self._hs_started > self.handshake_timeout:
                if self._hs_tries >= 3:
                    log.warning("no handshake from %s", self.port)
                    self._close()
                    self._down(f"{DISCONNECTED}: no answer from the board on {self.port}")
                    self._first_attempt.set()
                else:
                    self._hs_tries += 1
                    self._hs_started = now
                    self._write(lp.CMD_HELLO)
            return
        if self._state not in ("up", "safe"):  # a board in safe mode answers pings too
            return
        quiet = now - self._last_rx
        if quiet > self.lost_after:
            self._lose(f"no line for {quiet:.1f} s")
            return
        if quiet > self.ping_after and now - self._last_ping > self.ping_after / 2:
            self._last_ping = now
            self._write(lp.CMD_PING)
        if self._gap_at is not None and now - self._gap_at > 0.3:
            if self._gap_tries >= 3:
                self._resync("no replay")
            else:
                self._ask_resend(now)
        self._leds.tick(now)

    # -- board lines: the reader thread hands each whole line to ``_handle`` --------------
    def _handle(self, line: bytes, now: float) -> None:
        msg = lp.parse_board_line(line)
        if msg is None:
            if line.strip(b"\r\n\x00 "):
                self.stats["bad_lines"] += 1
                log.debug("garbled line ignored: %r", line[:80])
            return
        self._last_rx = now
        self.stats["lines"] += 1
        if isinstance(msg, lp.Hello):
            self._on_hello(msg)
            return
        if isinstance(msg, lp.Safe):
            self._on_safe(msg)
            return
        if self._state != "up":
            self.stats["before_handshake"] += 1
            return
        if isinstance(msg, lp.BoardError) and msg.code == "resend":
            self._resync("replay impossible")  # out of sequence by nature: handled first
            return
        if self._expect is not None and msg.seq != self._expect:
            self.stats["out_of_order"] += 1
            if self._gap_at is None:
                self.stats["gaps"] += 1
                log.info("sequence gap: expected %02x, got %02x", self._expect, msg.seq)
                self._gap_tries = 0
                self._ask_resend(now)
            return
        self._expect = (msg.seq + 1) % lp.SEQ_MOD
        if self._gap_at is not None:  # the replay has started: confirm with a snapshot
            self._gap_at = None
            self.stats["recovered"] += 1
            self._write(lp.CMD_SNAPSHOT)
        self._dispatch(msg, now)

    def _ask_resend(self, now: float) -> None:
        self._gap_at = now
        self._gap_tries += 1
        self._write(lp.cmd_resend(self._expect or 0))

    def _resync(self, why: str) -> None:
        """Give up on replaying: accept the stream from here and rebuild from a snapshot."""
        log.info("resync from snapshot (%s)", why)
        self.stats["resyncs"] += 1
        self._gap_at = None
        self._expect = None
        self._write(lp.CMD_SNAPSHOT)

    def _on_safe(self, msg: lp.Safe) -> None:
        """The board stopped after repeated errors (or waits to restart): no play, one line
        saying why (the board repeats it about once a second; it is logged when it changes)."""
        self.stats["safe_lines"] += 1
        detail = f"board safe mode: {msg.reason}" if msg.reason else "board safe mode"
        if self._announced != detail:
            log.warning("%s", detail)
        if self._state != "safe":
            self._leds.on_disconnect()
        self._state = "safe"
        self._expect = None
        self._gap_at = None
        self._down(detail)
        self._first_attempt.set()

    def _on_hello(self, msg: lp.Hello) -> None:
        if msg.proto != lp.PROTO or msg.size != self.expected_size:
            why = (
                f"board speaks protocol {msg.proto}, this host {lp.PROTO}"
                if msg.proto != lp.PROTO
                else f"board is {msg.size}x{msg.size}, expected {self.expected_size}x"
                f"{self.expected_size}"
            )
            self._close()
            self._down(why)
            self._first_attempt.set()
            self._stopping.wait(self.retry_max)
            return
        boot = msg.fields.get("boot")
        same_boot = boot is not None and boot == self._boot_id
        if same_boot and self._state == "safe":
            # Sent before its SAFE (the firmware leaves safe mode only by a reset, which
            # brings a new boot id): it does not end safe mode.
            self.stats["stale_hellos"] += 1
            return
        if same_boot and self._state == "up":
            # The same boot answering our HELLO again: just follow its sequence numbers.
            self._expect = (msg.seq + 1) % lp.SEQ_MOD
            self._gap_at = None
            return
        self._boot_id = boot
        restarted = self._state == "up"
        if restarted:
            self.stats["board_restarts"] += 1
        self.kind, self.size, self.firmware = msg.kind, msg.size, msg.fw
        self._expect = (msg.seq + 1) % lp.SEQ_MOD
        self._gap_at = None
        self._known = None
        self._first_snapshot = True
        self._state = "up"
        self._last_rx = time.monotonic()
        detail = f"Pico fw {msg.fw}, {msg.size}x{msg.size} {msg.kind}"
        self._announced = detail + (" (restarted)" if restarted else "")
        log.info("board boot %s, reset: %s", boot, msg.fields.get("reset", "?"))
        self.last_error = None
        self._post(LinkStatus(True, self._announced))
        if self.brightness is not None:
            self._write(lp.cmd_brightness(self._leds.next_id(), self.brightness))
        if self.debounce_ms is not None:
            self._write(lp.cmd_debounce(self._leds.next_id(), self.debounce_ms))
        self._leds.on_connect()
        self._first_attempt.set()

    def _dispatch(self, msg: lp.BoardMessage, now: float) -> None:
        n2 = self.size * self.size
        valid = lp.VALUE_CHARS[self.kind]
        if isinstance(msg, lp.Change):
            if msg.square >= n2 or msg.value not in valid:
                self.stats["bad_values"] += 1
                return
            if self._known is not None:
                if self._known[msg.square] == msg.value:
                    self.stats["repeats"] += 1
                    return
                self._known[msg.square] = msg.value
            self._post(SquareReading(msg.square, msg.value, now, debounced=True))
        elif isinstance(msg, lp.Snapshot):
            if len(msg.values) != n2 or set(msg.values) - set(valid):
                self.stats["bad_values"] += 1
                return
            if self._known is not None and not self._first_snapshot:
                for sq, (old, new) in enumerate(zip(self._known, msg.values, strict=True)):
                    if old != new:  # a change the events did not tell us
                        self.stats["snapshot_fixes"] += 1
                        self._post(SquareReading(sq, new, now, debounced=True))
            self._known = list(msg.values)
            self._first_snapshot = False
            self.stats["snapshots"] += 1
            self._post(BoardSnapshot(tuple(msg.values), now))
        elif isinstance(msg, lp.Ack):
            self._leds.on_ack(msg.id, now)
        elif isinstance(msg, lp.BoardError):
            self.stats["board_errors"] += msg.count
            if msg.count > 1:  # a summary of repeats: the first one was reported already
                log.warning("board reports %s %d more times", msg.code, msg.count)
            else:
                self.last_error = f"board: {msg.code} {msg.detail}".strip()
                log.warning("board reports %s %s", msg.code, msg.detail)
            self._leds.on_board_error()
        elif isinstance(msg, lp.Unknown):
            self.stats["unknown"] += 1
